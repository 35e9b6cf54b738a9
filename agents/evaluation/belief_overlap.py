"""How much of the other seats' hidden cards the champion's deals hold, against the true hands.

The champion's search deals the cards it cannot see before each play-out; the better those deals
agree with the hands the other seats really hold, the more its play-outs are about the real
game. This takes positions of heuristic games (at a draw, some way into a hand), deals the other
seats' hidden cards many times each way, and gives the share of a seat's true hidden cards that
a dealt hand holds, on average over seats and positions:

* ``uniform``: every unseen card alike (``champion:belief=false``);
* ``belief model``: the champion's belief model (its default deals);
* ``... weighed by the hand's moves, slip s``: the same deals, each weighed by slip^m for the m
  moves of that seat this hand the heuristic would not have made from it (``champion:history``,
  :mod:`phase10_env.core`'s ``history.c``).

Shown every hand, the share would be 1. The effective number of deals behind a weighed mean
(``(sum w)^2 / sum w^2``, its median over seats and positions) says how many distinct hands the
weights leave::

    python -m agents.evaluation.belief_overlap --players 4 --positions 200
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from phase10_env.engine import MAX_PLAYERS, MIN_PLAYERS, Game, SeatView
from phase10_env.engine.state import DRAW_STAGE
from phase10_env.heuristic import HeuristicAgent

from ..policies.champion import ChampionAgent, ChampionConfig


def position(players: int, seed: int) -> tuple[Game, SeatView] | None:
    """The heuristic game of ``seed`` played to a draw 8-90 moves in (then on to the next draw),
    with the drawing seat's view; None if the game ended or the hand had no move yet."""
    rng = np.random.default_rng(seed)
    game, heuristic = Game(players, seed=seed), HeuristicAgent()
    for _ in range(int(rng.integers(8, 90))):
        if game.is_over:
            return None
        game.apply(heuristic.choose_move(game.view(game.current)))
    while not game.is_over and game.stage != DRAW_STAGE:
        game.apply(heuristic.choose_move(game.view(game.current)))
    if game.is_over or not game.hand_log:
        return None
    return game, game.view(game.current)


@dataclass(frozen=True)
class Overlap:
    """One way of dealing: the share of hidden cards found, per seat and position, and the
    effective number of deals behind each."""

    name: str
    shares: list[float]
    effective: list[float]

    def row(self) -> str:
        s = np.array(self.shares)
        half = 1.96 * s.std(ddof=1) / np.sqrt(len(s)) if len(s) > 1 else float("nan")
        return (f"{self.name:<52} {s.mean():.3f} [{s.mean() - half:.3f}, {s.mean() + half:.3f}]"
                f"   {np.median(self.effective):>6.0f}")


def overlaps(players: int, positions: int, seed: int, replays: int, slips: Sequence[float]) -> list[Overlap]:
    """Each way of dealing over ``positions`` positions of heuristic games seeded from ``seed``
    (positions where nothing can be weighed, a reshuffled pile, are passed over)."""
    dealers = {"uniform": ChampionAgent(ChampionConfig(belief=False, wins=False), seed=seed),
               "belief model": ChampionAgent(ChampionConfig(wins=False), seed=seed)}
    ways = [(f"{base}, weighed by the hand's moves, slip {s:g}" if s < 1 else base, base, s)
            for base in dealers for s in [1.0, *slips]]
    shares: dict[str, list[float]] = {name: [] for name, _, _ in ways}
    effective: dict[str, list[float]] = {name: [] for name, _, _ in ways}
    found, offset = 0, 0
    while found < positions:
        offset += 1
        if offset > 20 * positions:
            raise RuntimeError(f"found only {found} positions in {offset - 1} games")
        got = position(players, seed + offset)
        if got is None:
            continue
        game, view = got
        drawn = {base: agent.replays(view, replays) for base, agent in dealers.items()}
        if any(len(hands) == 0 for hands, _ in drawn.values()):
            continue
        found += 1
        for p in range(players):
            if p == view.seat or not game.active[p]:
                continue
            taken = np.frombuffer(bytes(game.taken_from_discard[p]), np.uint8).astype(np.int64)
            true = np.frombuffer(bytes(game.hands[p]), np.uint8).astype(np.int64) - taken
            for name, base, slip in ways:
                hands, unlike = drawn[base]
                share = np.minimum(hands[:, p].astype(np.int64) - taken, true).sum(axis=1) / max(1, int(true.sum()))
                w = slip ** unlike[:, p].astype(np.float64)
                shares[name].append(float((w * share).sum() / w.sum()))
                effective[name].append(float(w.sum() ** 2 / (w * w).sum()))
    return [Overlap(name, shares[name], effective[name]) for name, _, _ in ways]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m agents.evaluation.belief_overlap", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, help=f"seats at the table ({MIN_PLAYERS}-{MAX_PLAYERS})")
    parser.add_argument("--positions", type=int, default=200, help="positions of heuristic games")
    parser.add_argument("--seed", type=int, default=14_000_000, help="game i is seeded seed + i")
    parser.add_argument("--replays", type=int, default=1024, help="deals each way, per position (1-4096)")
    parser.add_argument("--slips", default="0.1,0.03,0.01", help="slips to weigh the deals by, comma-separated (0-1)")
    args = parser.parse_args(argv)
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, not {args.players}")
    if args.positions < 1 or not 1 <= args.replays <= 4096:
        parser.error("positions must be positive and replays 1-4096")
    try:
        slips = [float(s) for s in args.slips.split(",")]
    except ValueError:
        parser.error(f"slips must be numbers, not {args.slips!r}")
    if not all(0 < s < 1 for s in slips):
        parser.error("each slip must be above 0 and below 1")
    rows = overlaps(args.players, args.positions, args.seed, args.replays, slips)
    print(f"{args.players} players, {args.positions} positions of heuristic games (seed {args.seed}), "
          f"{args.replays} deals each way")
    print(f"{'dealing':<52} share of hidden cards held [95% CI]   deals in effect")
    for overlap in rows:
        print(overlap.row())


if __name__ == "__main__":
    main()
