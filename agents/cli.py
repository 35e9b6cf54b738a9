"""The ``phase10`` command: evaluate agents, play at the terminal, benchmark.

    phase10 eval --agents heuristic random --players 2 --games 1000 --json results.json
    phase10 play --agents human heuristic
    phase10 bench --seconds 10
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml


def _rule_options(pairs: list[str]) -> dict[str, Any]:
    """``key=value`` pairs, values read as YAML (``phases=[2,4]``, ``advance_all=true``)."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--rule takes key=value, not {pair!r}")
        options[key] = yaml.safe_load(value)
    return options


def _rules(args: argparse.Namespace):
    from phase10_env.engine.config import load_rules

    try:
        return load_rules(args.rules, **_rule_options(args.rule))
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None


def _add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", help="rules YAML file or a name in configs/rules (default: the standard game)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a rule option, e.g. skip_rule=pending_only")


def cmd_eval(args: argparse.Namespace) -> None:
    from .evaluation.tournament import run_tournament

    try:
        result = run_tournament(args.agents, args.players, args.games, args.seed, _rules(args), args.workers,
                                max_steps=args.max_steps)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    print(result.table())
    if args.json:
        result.save_json(args.json)
        print(f"wrote {args.json}")
    if args.plot:
        result.plot(args.plot)
        print(f"wrote {args.plot}")


def cmd_play(args: argparse.Namespace) -> None:
    from phase10_env import raw_env
    from phase10_env.render import action_text

    from .evaluation.tournament import seat_entries
    from .play import play, policy_chooser
    from .policies.registry import make_agent

    rules = _rules(args)
    try:
        specs = seat_entries(args.agents, args.players)
        policies = [make_agent(spec, seed=args.seed + i) for i, spec in enumerate(specs)]
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    watching = "human" not in specs
    env = raw_env(num_players=args.players, rules=rules, render_mode="ansi")
    env.reset(seed=args.seed)
    last_hand = 0

    def watch(agent, seen, action) -> None:
        nonlocal last_hand
        game = env.game
        if game.hand_number != last_hand:
            if last_hand:
                result = game.history[-1]
                out = "no one" if result.went_out is None else f"player_{result.went_out}"
                print(f"\n== Hand {result.hand_number} over: {out} went out; points {list(result.points)}, "
                      f"totals {list(result.scores)}")
            last_hand = game.hand_number
            if watching:
                print("\n" + env.render())
        if watching and args.verbose:
            print(f"  {agent} ({specs[seen.seat]}): {action_text(env.seat_view(agent), action)}")

    play(env, policy_chooser(env, dict(zip(env.possible_agents, policies)), watch))
    game = env.game
    print("\n" + env.render())
    print(f"Final scores: {game.scores}; winner(s): {[f'player_{w} ({specs[w]})' for w in game.winners]}")


def cmd_bench(args: argparse.Namespace) -> None:
    from phase10_env import compiled_parts

    from .evaluation.bench import engine_benchmark, run_benchmark, summary_table

    compiled = compiled_parts()
    print("compiled parts: " + ", ".join(f"{name} {'yes' if built else 'NO (pure Python)'}" for name, built in compiled.items()))
    results = run_benchmark(args.seconds, tuple(args.players), seed=args.seed)
    print(summary_table(results))
    engine = engine_benchmark(args.seconds, tuple(args.players), seed=args.seed)
    for row in engine:
        print(f"engine, uniformly random legal moves, {row['players']} players: {row['moves_per_second']:,.0f} moves/s, "
              f"{row['games_per_second']:.2f} full games/s ({row['games']} games)")
    if args.json:
        Path(args.json).write_text(json.dumps({"env": [r.__dict__ | {"steps_per_second": r.steps_per_second} for r in results],
                                               "engine": engine, "compiled": compiled}, indent=2))
        print(f"wrote {args.json}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="phase10", description="Phase 10 for reinforcement learning")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("eval", help="play many games between agents and report win rates")
    p.add_argument("--agents", nargs="+", required=True, help="e.g. heuristic random ppo:runs/x/model.zip")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument("--max-steps", type=int, default=200_000, help="a game stops unfinished after this many actions")
    p.add_argument("--json", help="write the results as JSON here")
    p.add_argument("--plot", help="write a PNG chart of the results here")
    _add_rules_args(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("play", help="play at the terminal (agents: human, heuristic, random, ppo:PATH)")
    p.add_argument("--agents", nargs="+", default=["human", "heuristic"])
    p.add_argument("--players", type=int, default=None, help="default: one seat per agent named")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--verbose", action="store_true", help="when only bots play, print every action")
    _add_rules_args(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("bench", help="steps per second of random play, beside connect_four_v3")
    p.add_argument("--seconds", type=float, default=10.0, help="time per environment")
    p.add_argument("--players", type=int, nargs="+", default=[2, 6])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", help="write the figures as JSON here")
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    if getattr(args, "players", 0) is None:
        args.players = len(args.agents)
    args.func(args)


if __name__ == "__main__":
    main(sys.argv[1:])
