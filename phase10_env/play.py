"""The one AEC play loop (:func:`play`) and the chooser that asks each agent's policy
(:func:`policy_chooser`). The single-agent view plays its opponents through them, and so does
everything in ``agents`` that plays games: tournaments, imitation, the terminal game, the web
app, the benchmarks.

>>> from phase10_env import raw_env
>>> env = raw_env(num_players=2, max_steps=50)
>>> env.reset(seed=0)
>>> play(env, lambda agent: int(env.action_mask(agent).nonzero()[0][0]))  # the first legal action
50
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .policy import PlayerObservation, Policy, needs_view


def play(env: Any, choose: Callable[[str], int], limit: int | None = None,
         on_done: Callable[[str], None] | None = None, until: Callable[[str], bool] | None = None) -> int:
    """Step a reset PettingZoo AEC ``env`` until its episode ends, asking ``choose(agent)`` for
    the action of each agent to act. A finished agent is stepped with ``None``, as PettingZoo
    asks, after ``on_done(agent)`` if given. With ``limit``, stop after that many actions
    (``env.agents`` is then not yet empty; call again to go on); with ``until``, stop before
    the first agent for which ``until(agent)`` is true would act or be stepped. Returns the
    actions taken."""
    steps = 0
    for agent in env.agent_iter():
        if until is not None and until(agent):
            break
        if env.terminations[agent] or env.truncations[agent]:
            if on_done is not None:
                on_done(agent)
            env.step(None)
            continue
        if limit is not None and steps >= limit:
            break
        env.step(choose(agent))
        steps += 1
    return steps


def policy_chooser(env: Any, policies: dict[str, Policy],
                   watch: Callable[[str, PlayerObservation, int], None] | None = None,
                   clock: dict[str, float] | None = None) -> Callable[[str], int]:
    """``choose`` for :func:`play`: each agent's policy acts on what its seat may know
    (``env.player_observation``); ``watch(agent, observation, action)`` sees every choice;
    ``clock[agent]`` adds up the CPU seconds its policy spends choosing (CPU time, not wall
    time: it does not grow with the machine's load)."""

    def choose(agent: str) -> int:
        policy = policies[agent]
        seen = env.player_observation(agent, with_view=needs_view(policy))
        if clock is None:
            action = policy.act(seen)
        else:
            start = time.process_time()
            action = policy.act(seen)
            clock[agent] += time.process_time() - start
        if watch is not None:
            watch(agent, seen, action)
        return action

    return choose
