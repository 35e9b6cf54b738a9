"""How the champion's races end, deal budget by deal budget: what more deals would change.

Heuristic players play games (2 players, or ``--players``; the first hands of each); at every
decision of seat 0 where the champion has more than one candidate, the champion is asked under
each budget (``samples``; its other options from ``--options``, else its defaults), each with
deals of its own, and answers are compared: how often a race runs to the cap with a candidate
undecided, how often the choice is not the heuristic's (for the first budget also by what the
heuristic would do: draw, discard, lay down, hit or throw a Skip), and how often two budgets
choose differently. Two runs at the same budget give the disagreement the deals alone cause; a larger
budget matters only as far as it disagrees more than that.

    python -m agents.evaluation.champion_race --games 30 --budgets 256 1024 1024 4096
    python -m agents.evaluation.champion_race --games 30 --budgets 1024 1024 --players 4
    python -m agents.evaluation.champion_race --games 60 --budgets 1024 --players 4 --options plays=true
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace

import numpy as np

from phase10_env.codec import next_action
from phase10_env.engine import MAX_PLAYERS, MIN_PLAYERS, Discard, Draw, Game, Hit, LayDown, Move
from phase10_env.engine.cards import SKIP
from phase10_env.heuristic import HeuristicAgent

from ..policies.champion import ChampionAgent, ChampionConfig, parse_champion_options
from .tournament import game_seed


@dataclass(frozen=True)
class Races:
    budgets: tuple[int, ...]
    deals: np.ndarray  # (decisions, budgets): deals drawn
    actions: np.ndarray  # (decisions, budgets): the action chosen
    heuristic: np.ndarray  # (decisions,): the heuristic's action
    kinds: tuple[str, ...]  # (decisions,): what the heuristic's move is (move_kind)

    def table(self) -> str:
        rows = [f"{len(self.heuristic)} decisions searched; per budget: share run to the cap, mean deals, "
                "share not the heuristic's choice"]
        for j, cap in enumerate(self.budgets):
            rows.append(f"  #{j} {cap:5d} deals: {np.mean(self.deals[:, j] == cap):.3f} {self.deals[:, j].mean():7.0f} "
                        f"{np.mean(self.actions[:, j] != self.heuristic):.3f}")
        rows.append("share not the heuristic's choice by what the heuristic would do (#0):")
        kinds = np.array(self.kinds)
        for kind in sorted(set(self.kinds)):
            at = kinds == kind
            rows.append(f"  {kind:9s} {np.mean(self.actions[at, 0] != self.heuristic[at]):.3f} of {at.sum()}")
        if len(self.budgets) > 1:
            rows.append("share of decisions where two budgets choose differently:")
        for i in range(len(self.budgets)):
            for j in range(i + 1, len(self.budgets)):
                rows.append(f"  #{i} and #{j}: {np.mean(self.actions[:, i] != self.actions[:, j]):.3f}")
        return "\n".join(rows)


def move_kind(move: Move) -> str:
    """What a move is, in a word: draw, discard, skip, lay-down or hit."""
    if type(move) is Discard:
        return "skip" if move.card == SKIP else "discard"
    return {Draw: "draw", LayDown: "lay-down", Hit: "hit"}[type(move)]


def champion_races(games: int, configs: list[ChampionConfig], hands: int = 3, seed: int = 777_500,
                    players: int = 2) -> Races:
    """The champion's races, one per config, at seat 0's decisions in ``games`` heuristic games
    of ``players`` (their first ``hands``)."""
    champions = [ChampionAgent(config) for config in configs]
    heuristic = HeuristicAgent()
    deals: list[list[int]] = []
    actions: list[list[int]] = []
    chosen: list[int] = []
    kinds: list[str] = []
    for g in range(games):
        game = Game(players, seed=game_seed(seed, g))
        while not game.is_over and game.hand_number <= hands:
            view = game.view(game.current)
            move = heuristic.choose_move(view)
            if game.current == 0:
                for j, champion in enumerate(champions):
                    champion.seed(game_seed(seed, len(chosen), j))
                races = [champion.race(view) for champion in champions]
                if races[0][1]:
                    actions.append([a for a, _ in races])
                    deals.append([d for _, d in races])
                    chosen.append(next_action(view, move, None))
                    kinds.append(move_kind(move))
            game.apply(move)
    return Races(tuple(c.samples for c in configs), np.array(deals).reshape(-1, len(configs)),
                 np.array(actions).reshape(-1, len(configs)), np.array(chosen), tuple(kinds))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="heuristic games to take decisions from")
    parser.add_argument("--budgets", type=int, nargs="+", default=[256, 1024, 1024, 4096],
                        help="the champion's deals a decision, one race each (repeat one to see the deals' own noise)")
    parser.add_argument("--hands", type=int, default=3, help="the first hands of each game")
    parser.add_argument("--options", default="", help="the champion's other options, as in its spec (wins=false)")
    parser.add_argument("--players", type=int, default=2, help=f"seats at the table ({MIN_PLAYERS}-{MAX_PLAYERS})")
    parser.add_argument("--seed", type=int, default=777_500)
    args = parser.parse_args(argv)
    if args.games < 1 or args.hands < 1:
        parser.error("games and hands must be positive")
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, not {args.players}")
    try:  # a budget outside the champion's range of samples is refused by its config
        base = parse_champion_options(args.options)
        configs = [replace(base, samples=budget) for budget in args.budgets]
    except ValueError as e:
        parser.error(str(e))
    print(champion_races(args.games, configs, args.hands, args.seed, args.players).table())


if __name__ == "__main__":
    main()
