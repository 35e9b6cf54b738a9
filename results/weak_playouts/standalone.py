"""How strong the weakened play-out policy of models/champion.md's "Weaker play-outs for its own
seat" is as a player: one seat plays the heuristic but throws a random card instead of its
discard with chance EPS, against three heuristics, the seat turning from game to game. An
experiment's measurement, not part of the package::

    python results/weak_playouts/standalone.py EPS GAMES SEED
"""

from __future__ import annotations

import sys

import numpy as np

from agents.evaluation.tournament import game_seed, wilson_interval
from phase10_env.actions import DISCARD_FIRST, DISCARD_WILD  # the actions that throw a card other than a Skip
from phase10_env.env import raw_env
from phase10_env.heuristic import HeuristicAgent
from phase10_env.play import play, policy_chooser
from phase10_env.policy import PlayerObservation, Policy

PLAYERS = 4


class WeakenedHeuristic(HeuristicAgent):
    def __init__(self, eps: float, rng: np.random.Generator) -> None:
        super().__init__()
        self.eps, self.rng = eps, rng

    def act(self, obs: PlayerObservation) -> int:
        action = super().act(obs)
        if DISCARD_FIRST <= action <= DISCARD_WILD and self.rng.random() < self.eps:
            legal = np.flatnonzero(obs.action_mask[DISCARD_FIRST:DISCARD_WILD + 1]) + DISCARD_FIRST
            action = int(self.rng.choice(legal))
        return action


def main(eps: float, games: int, seed: int) -> None:
    wins = 0
    for i in range(games):
        env = raw_env(num_players=PLAYERS)
        env.reset(seed=game_seed(seed, i), options={"first_dealer": (i // PLAYERS) % PLAYERS})
        weak = i % PLAYERS
        rng = np.random.default_rng(game_seed(seed, i, 0))
        policies: dict[str, Policy] = {agent: WeakenedHeuristic(eps, rng) if s == weak else HeuristicAgent()
                                      for s, agent in enumerate(env.possible_agents)}
        play(env, policy_chooser(env, policies))
        wins += weak in env.game.winners
    lo, hi = wilson_interval(wins, games)
    print(f"eps {eps}: the weakened seat won {wins}/{games} = {wins / games:.3f} [{lo:.3f}, {hi:.3f}] "
          f"against three heuristics (seed {seed})")


if __name__ == "__main__":
    main(float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
