"""What a perfect belief would give the champion: the same search, once dealt what it cannot
see and once shown every hand.

The champion deals the cards it cannot see (the other seats' hands and the draw pile) from a
belief model before each play-out. How much better it would play with a perfect belief is the
most any better belief model could add to this search, and so tells whether the belief is what
limits it. Each deal here is played twice by the same heuristics with the champion in the same
seat (the seat turns from deal to deal): once as ``champion`` plays (dealing from its view), and
once searching from the true game, dealing only the draw pile anew and keeping every hand as it
is (``ChampionAgent.race_from(..., peek=True)``). The second is not an agent (no agent sees
other seats' hands); it exists only here, as a measurement. The two are compared deal by deal::

    python -m agents.evaluation.peek --players 4 --games 400 --options samples=256,min_samples=16

``--variant`` plays each deal a third way, as the champion plays with those options added (a
better belief, say), and sets it between the two: how much of what the hands are worth it wins.
``--recorded`` takes the first two ways from an earlier run of the same deals (its players,
seed and options checked) and plays only the variant::

    python -m agents.evaluation.peek --players 4 --games 400 --options samples=256,min_samples=16 \\
        --variant history=1024 --recorded results/champion_peek_4p.json
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from phase10_env.codec import move_of, next_action
from phase10_env.engine import MAX_PLAYERS, MIN_PLAYERS, Game
from phase10_env.heuristic import HeuristicAgent

from ..policies.champion import ChampionAgent, ChampionConfig, parse_champion_options
from ..pool import parallel_map
from .paired import paired_wins
from .tournament import game_seed

MAX_TURNS = 5_000  # a game's moves at most: heuristic games end far sooner


@dataclass(frozen=True)
class Deal:
    players: int
    index: int
    seed: int
    config: ChampionConfig


def champion_wins(deal: Deal, peek: bool) -> bool:
    """Whether the champion, in seat ``index % players`` of deal ``index`` against heuristics in
    every other seat, wins the game (``peek``: searching from the true game, every hand shown)."""
    game = Game(deal.players, seed=game_seed(deal.seed, deal.index))
    seat = deal.index % deal.players
    champion = ChampionAgent(deal.config, seed=game_seed(deal.seed, deal.index, seat))
    heuristic = HeuristicAgent()
    for _ in range(MAX_TURNS):
        if game.is_over:
            return seat in game.winners
        view = game.view(game.current)
        move = heuristic.choose_move(view)
        if game.current == seat:
            action = champion.race_from(game, view, peek=True)[0] if peek else champion.race(view)[0]
            if action != next_action(view, move, None):  # a draw, a discard or a Skip: a whole move
                chosen = move_of(game, action)
                if chosen is None:
                    raise RuntimeError(f"the search chose action {action}, which is not a whole move: a bug")
                move = chosen
        game.apply(move)
    raise RuntimeError(f"deal {deal.index} did not end in {MAX_TURNS} moves")


def both_ways(deal: Deal) -> tuple[bool, bool]:
    """The deal's outcome for the champion shown every hand, then for the champion as it plays."""
    return champion_wins(deal, peek=True), champion_wins(deal, peek=False)


def as_it_plays(deal: Deal) -> bool:
    return champion_wins(deal, peek=False)


def recorded_ways(path: str, players: int, games: int, seed: int, options: str) -> list[tuple[bool, bool]]:
    """The two ways' outcomes of the first ``games`` deals of an earlier run's JSON; ValueError
    naming what differs if it is not a run of the same deals with the same options."""
    record = json.loads(Path(path).read_text(encoding="utf-8"))
    asked = {"players": players, "seed": seed, "options": options}
    for key, value in asked.items():
        if record.get(key) != value:
            raise ValueError(f"{path} is a run with {key} {record.get(key)!r}, not {value!r}")
    outcomes = record.get("outcomes", [])
    if len(outcomes) < games:
        raise ValueError(f"{path} holds {len(outcomes)} deals, fewer than the {games} asked")
    return [(bool(shown), bool(plays)) for shown, plays in outcomes[:games]]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m agents.evaluation.peek", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, help=f"seats at the table ({MIN_PLAYERS}-{MAX_PLAYERS})")
    parser.add_argument("--games", type=int, default=200, help="deals, each played both ways")
    parser.add_argument("--seed", type=int, default=12_000_000)
    parser.add_argument("--options", default="", help="the champion's options, as in its spec (samples=256)")
    parser.add_argument("--variant", help="also play each deal as the champion plays with these options added")
    parser.add_argument("--recorded", help="with --variant: the first two ways from this earlier run's JSON")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--json", help="write the outcomes and the comparison as JSON here")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("games must be positive")
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, not {args.players}")
    if args.recorded and not args.variant:
        parser.error("--recorded goes with --variant: it takes the first two ways from an earlier run")
    try:
        config = parse_champion_options(args.options)
        variant = parse_champion_options(",".join(o for o in (args.options, args.variant) if o)) if args.variant else None
        recorded = recorded_ways(args.recorded, args.players, args.games, args.seed, args.options) if args.recorded else None
    except (ValueError, OSError) as e:
        parser.error(str(e))
    deals = [Deal(args.players, i, args.seed, config) for i in range(args.games)]
    won = recorded or parallel_map(both_ways, deals, args.workers, desc="deals", unit="deal")
    result = paired_wins(won)
    source = f"; two ways as recorded in {args.recorded}" if recorded else ""
    print(f"{args.players} players, the champion ({args.options or 'its defaults'}) against heuristics, "
          f"seed {args.seed} (even share {1 / args.players:.3f}){source}")
    print(result.summary("shown every hand", "as it plays"))
    record = {"players": args.players, "games": args.games, "seed": args.seed, "options": args.options,
              "outcomes": [list(w) for w in won], "comparison": asdict(result)}
    if variant is not None:
        varied = parallel_map(as_it_plays, [Deal(args.players, i, args.seed, variant) for i in range(args.games)],
                              args.workers, desc="variant deals", unit="deal")
        name = f"with {args.variant}"
        over_plays = paired_wins([(v, plays) for v, (_, plays) in zip(varied, won)])
        below_shown = paired_wins([(shown, v) for v, (shown, _) in zip(varied, won)])
        print(over_plays.summary(name, "as it plays"))
        print(below_shown.summary("shown every hand", name))
        record |= {"variant": args.variant, "variant_outcomes": varied,
                   "variant_over_plays": asdict(over_plays), "shown_over_variant": asdict(below_shown)}
    if args.json:
        Path(args.json).write_text(json.dumps(record, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
