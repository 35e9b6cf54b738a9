"""The uniformly random agent: every legal action equally likely, from a seeded generator."""

from phase10_env.policy import RandomPolicy


class RandomAgent(RandomPolicy):
    name = "random"
