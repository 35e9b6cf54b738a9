"""How noisy a search candidate's gain is, played out from one shared draw pile or by deck streams.

Heuristic players play the first hands of games; at each decision of seat 0 where a search has
more than one candidate (both draws, or every discard, before and after the phase is down), the
same deals are played out for every candidate twice, once drawing from the shared pile and once
by deck streams (:mod:`agents.policies.streams`), and each candidate's gain over the heuristic's
choice is measured deal by deal. Reported: the variance of a gain across deals (mean over
candidates), which sets how many deals a search needs to tell a gain from nothing, and the mean
gain both ways, which should agree: streams change the noise, not the odds.

    python -m agents.evaluation.gain_noise --games 12 --deals 256
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np

from phase10_env.engine import Game
from phase10_env.heuristic import HeuristicAgent

from ..policies.mcts import NativeWorlds, SearchAgent, SearchConfig
from .tournament import game_seed


@dataclass(frozen=True)
class GainNoise:
    players: int
    deals: int
    variance: dict[bool, np.ndarray]  # streams? -> (candidates,): each candidate's gain variance
    mean: dict[bool, np.ndarray]  # streams? -> (candidates,): each candidate's mean gain

    def difference(self) -> float:
        """A candidate's mean gain by streams less by the shared pile, averaged (near 0: the same odds)."""
        return float((self.mean[True] - self.mean[False]).mean())

    def difference_error(self) -> float:
        d = self.mean[True] - self.mean[False]
        return float(d.std(ddof=1) / np.sqrt(len(d)))

    def table(self) -> str:
        shared, streams = (float(self.variance[s].mean()) for s in (False, True))
        rows = [f"{len(self.variance[False])} candidates at seat 0's decisions, {self.players} players, "
                f"{self.deals} deals each, the same deals both ways",
                f"  variance of a candidate's gain: shared pile {shared:.4f}, deck streams {streams:.4f} "
                f"({streams / shared:.2f} of it)",
                f"  mean gain over all candidates: shared pile {self.mean[False].mean():+.4f}, "
                f"deck streams {self.mean[True].mean():+.4f}; a candidate's mean gain by streams less "
                f"by the shared pile: {self.difference():+.4f} +- {self.difference_error():.4f} (one standard error)"]
        return "\n".join(rows)


def gain_noise(games: int, deals: int, players: int = 2, hands: int = 3, seed: int = 777_500) -> GainNoise:
    """The gains of every searched candidate at seat 0's decisions in ``games`` heuristic games
    (their first ``hands``), ``deals`` deals each, played out both ways."""
    search = SearchAgent(SearchConfig(width=11, after_down=True, backend="native"))
    heuristic = HeuristicAgent()
    variance: dict[bool, list[float]] = {False: [], True: []}
    mean: dict[bool, list[float]] = {False: [], True: []}
    decision = 0
    for g in range(games):
        game = Game(players, seed=game_seed(seed, g))
        while not game.is_over and game.hand_number <= hands:
            view = game.view(game.current)
            move = heuristic.choose_move(view)
            if game.current == 0 and len(candidates := search.candidates(view)) > 1:
                decision += 1
                for streams in (False, True):
                    worlds = NativeWorlds(view, np.random.default_rng(game_seed(seed, decision)))  # the same deals
                    values = np.array(worlds.play_outs(candidates, deals, search.config.points_weight, streams))
                    gains = values[:, 1:] - values[:, :1]
                    variance[streams].extend(gains.var(axis=0, ddof=1))
                    mean[streams].extend(gains.mean(axis=0))
            game.apply(move)
    return GainNoise(players, deals, {s: np.array(v) for s, v in variance.items()}, {s: np.array(m) for s, m in mean.items()})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12, help="heuristic games to take decisions from")
    parser.add_argument("--deals", type=int, default=256, help="deals played out per decision, both ways")
    parser.add_argument("--players", type=int, default=2, choices=range(2, 7))
    parser.add_argument("--hands", type=int, default=3, help="the first hands of each game")
    parser.add_argument("--seed", type=int, default=777_500)
    args = parser.parse_args(argv)
    if args.games < 1 or args.hands < 1 or args.deals < 2:
        parser.error("games and hands must be positive, and deals at least 2")
    print(gain_noise(args.games, args.deals, args.players, args.hands, args.seed).table())


if __name__ == "__main__":
    main()
