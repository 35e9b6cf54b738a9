"""The ``phase10`` command: evaluate agents, play at the terminal, replay a saved game, benchmark.

    phase10 eval --agents heuristic random --games 1000 --json results.json
    phase10 ladder --agents random heuristic mcts --games 200 --table-players 3 --table-games 36
    phase10 play --agents human heuristic --save game.json
    phase10 replay game.json
    phase10 bench --seconds 80
    phase10 benchmark --algo ppo --task OneHand-2p-Heuristic-v0 --seeds 5
    phase10 benchmark-report runs/benchmark/results/*.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from phase10_env.engine.config import RulesConfig


def _rule_options(pairs: list[str]) -> dict[str, Any]:
    """``key=value`` pairs, values read as YAML (``phases=[2,4]``, ``advance_all=true``); a
    comma list is a list (``phases=2,4``)."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--rule takes key=value, not {pair!r}")
        if "," in value and not value.lstrip().startswith(("[", "{")):
            options[key] = [yaml.safe_load(item) for item in value.split(",")]
        else:
            options[key] = yaml.safe_load(value)
    return options


def _rules(args: argparse.Namespace) -> RulesConfig:
    from phase10_env.engine.config import load_rules

    try:
        return load_rules(args.rules, **_rule_options(args.rule))
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None


def _agent_games(value: str) -> tuple[str, int]:
    """``AGENT=N`` as (agent, N); split at the last ``=``, since an agent's options hold some."""
    agent, _, games = value.rpartition("=")
    if agent and games.strip().isdigit():
        return agent, int(games)
    raise argparse.ArgumentTypeError(f"expected AGENT=N (an agent and its pairs' games), not {value!r}")


def _games_with(given: list[tuple[str, int]]) -> dict[str, int]:
    named_twice = sorted({agent for agent, _ in given if [a for a, _ in given].count(agent) > 1})
    if named_twice:
        raise SystemExit(f"error: --games-with names an agent more than once: {named_twice}")
    return dict(given)


def _add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", help="rules YAML file or a name in configs/rules (none: the standard game)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule option, repeatable: skip_rule=pending_only, phases=1,2,3 (or phases=[1,2,3]), "
                        "phases_to_win=3")


def cmd_eval(args: argparse.Namespace) -> None:
    from .evaluation.tournament import run_tournament
    on_ray = args.ray or args.address is not None
    try:
        result = run_tournament(args.agents, args.players, args.games, args.seed, _rules(args), args.workers,
                                max_steps=args.max_steps, backend="ray" if on_ray else "processes",
                                address=args.address)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    print(result.table())
    if args.json:
        result.save_json(args.json)
        print(f"wrote {args.json}")
    if args.plot:
        result.plot(args.plot)
        print(f"wrote {args.plot}")


def cmd_ladder(args: argparse.Namespace) -> None:
    from .evaluation.ladder import MAX_STEPS, run_ladder
    from .plotting import can_plot

    plot = None if args.no_plot else args.plot
    if plot and not can_plot():
        raise SystemExit("error: the ladder's PNG needs matplotlib (in the train extra: pip install -e \".[train]\"); "
                         "--no-plot skips it")
    try:
        result = run_ladder(args.agents, args.games, args.table_players, args.table_games, args.seed, _rules(args),
                            args.workers, max_steps=MAX_STEPS if args.max_steps is None else args.max_steps,
                            matches=args.matches, games_with=_games_with(args.games_with or []))
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    table = result.markdown()
    print(table)
    if args.json:
        result.save_json(args.json)
        print(f"wrote {args.json}")
    if plot:
        result.plot(plot)
        print(f"wrote {plot}")
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(args.markdown).write_text(table + "\n", encoding="utf-8")
        print(f"wrote {args.markdown}")


HANDOVER_LINES = 40  # blank lines that push the last player's hand off the screen


def play_at_terminal(env: Any, policies: dict[str, Any], delay: float, verbose: bool = False,
                     write: Callable[[str], None] = print, read: Callable[[str], str] = input,
                     sleep: Callable[[float], None] = time.sleep) -> None:
    """Play one game of a reset ``env`` with ``policies`` (agent name -> policy), telling it in
    words. With a human at the table: the card codes first, then every move as that human may
    know it (several humans: as a spectator), printed before the human's next prompt; between
    two humans (hot seat) a pause to hand the keyboard over, which scrolls the last hand away.
    With bots only: each hand's table and end (every move with ``verbose``). ``delay`` seconds
    pass before each bot action. A human's ``quit`` raises ``QuitGame``."""
    from phase10_env.narrate import Narrator
    from phase10_env.play import play, policy_chooser

    from .policies.human import HELP, HumanAgent

    humans = [agent for agent, policy in policies.items() if isinstance(policy, HumanAgent)]
    if humans:
        write(HELP)
    names = [f"player_{s}" for s in range(len(env.possible_agents))]
    viewer = env.possible_agents.index(humans[0]) if len(humans) == 1 else None
    narrator = Narrator(env.game.record, viewer, names)
    hand = 0
    last_human: str | None = humans[0] if len(humans) == 1 else None

    def tell() -> None:
        nonlocal hand
        game = env.game
        lines = narrator.catch_up(game.record)
        new_hand = game.hand_number != hand or game.is_over
        if humans or verbose or new_hand:
            for line in lines:
                write("  " + line)
        if new_hand and not humans and not game.is_over:
            write(env.render())
        hand = game.hand_number

    choose_policy = policy_chooser(env, policies)

    def choose(agent: str) -> int:
        nonlocal last_human
        tell()
        if agent in humans and agent != last_human:
            who = names[env.possible_agents.index(agent)]
            read(f"\n{who}'s turn: hand over to {who}, who presses Enter (the last hand scrolls away) ")
            write("\n" * HANDOVER_LINES)
            last_human = agent
        if agent not in humans and delay > 0:
            sleep(delay)
        return choose_policy(agent)

    play(env, choose)
    tell()


def final_scores(game: Any, names: list[str]) -> str:
    """The end of a game in one line: each seat's name and score, the winners marked."""
    return "Final scores: " + ", ".join(f"{names[s]} {score}{' (won)' if s in game.winners else ''}"
                                        for s, score in enumerate(game.scores))


def seat_names(specs: Sequence[str]) -> list[str]:
    """How the terminal names each seat: "you" for a lone human, else player_N (agent)."""
    lone = specs.count("human") == 1
    return ["you" if lone and spec == "human" else f"player_{s} ({spec})" for s, spec in enumerate(specs)]


def cmd_play(args: argparse.Namespace) -> None:
    import secrets

    from phase10_env import raw_env

    from .evaluation.tournament import seat_entries
    from .policies.human import QuitGame
    from .policies.registry import make_agent

    rules = _rules(args)
    seed = secrets.randbelow(2**32) if args.seed is None else args.seed
    try:
        specs = seat_entries(args.agents, args.players)
        policies = [make_agent(spec, seed=seed + i) for i, spec in enumerate(specs)]
        env = raw_env(num_players=args.players, rules=rules, render_mode="ansi")
        env.reset(seed=seed)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    print(f"Seed {seed} (phase10 play --seed {seed} deals this game again)")
    delay = args.delay if args.delay is not None else (0.3 if "human" in specs else 0.0)
    try:
        play_at_terminal(env, dict(zip(env.possible_agents, policies)), delay, args.verbose)
    except (QuitGame, EOFError, KeyboardInterrupt) as e:
        print("\nYou left the game." if isinstance(e, QuitGame) else "\nEnd of input: game left." if isinstance(e, EOFError)
              else "\nInterrupted.")
        _save_record(env, args.save)
        if isinstance(e, KeyboardInterrupt):
            raise SystemExit(130) from None
        return
    from phase10_env.render import render_text

    names = seat_names(specs)
    print("\n" + render_text(env.game, None, names))
    print(final_scores(env.game, names))
    _save_record(env, args.save)


def _save_record(env: Any, path: str | None) -> None:
    if path:
        env.game.record.save(path)
        print(f"wrote the game record to {path} (phase10 replay {path})")


def browse_record(record: Any, seat: int | None, read: Callable[[str], str] = input,
                  write: Callable[[str], None] = print, start: int = 0) -> None:
    """Step through a game record: the table after each move (``seat``'s hand, or all hands)
    and the move in words. Enter or n: next; b: back; a number: that move; q: quit."""
    from phase10_env.engine import Game
    from phase10_env.narrate import narrate_record
    from phase10_env.render import render_text

    from .policies.human import LEGEND

    help_text = f"Replay: Enter or n shows the next move, b the one before, a number that move (0: the start), q quits. {LEGEND}"
    names = [f"player_{s}" for s in range(record.num_players)]
    told = narrate_record(record, seat, names)
    last = len(record.moves)
    position = min(max(start, 0), last)
    write(help_text)
    while True:
        write(f"\n== after move {position} of {last}" if position else f"\n== start of the game ({last} moves)")
        for line in told[position - 1] if position else []:
            write("  " + line)
        write(render_text(Game.from_record(record, position), seat, names))
        try:
            answer = read("[Enter/n next, b back, NUMBER go to move, q quit, ? help]: ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            write("")
            return
        if answer in ("", "n", "next"):
            position = min(position + 1, last)
        elif answer in ("b", "back"):
            position = max(position - 1, 0)
        elif answer.isdigit():
            position = min(int(answer), last)
        elif answer in ("q", "quit"):
            return
        else:
            write(help_text)


def cmd_replay(args: argparse.Namespace) -> None:
    from phase10_env.engine import Game, GameRecord

    try:
        record = GameRecord.load(args.file)
        Game.from_record(record)  # every move legal
    except (OSError, ValueError) as e:
        raise SystemExit(f"error: cannot read the game record {args.file}: {e}") from None
    if args.seat is not None and not 0 <= args.seat < record.num_players:
        raise SystemExit(f"error: --seat must be a seat from 0 to {record.num_players - 1}")
    try:
        browse_record(record, args.seat, start=args.move)
    except KeyboardInterrupt:
        print("\nInterrupted.")
        raise SystemExit(130) from None


def cmd_bench(args: argparse.Namespace) -> None:
    from phase10_env import compiled_parts

    from .evaluation.bench import full_benchmark, search_costs, summary_table

    if args.core:
        from .evaluation.core_bench import core_benchmark, core_table

        result = core_benchmark(args.seconds, seed=args.seed)
        print(core_table(result))
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=2))
            print(f"wrote {args.json}")
        return

    compiled = compiled_parts()
    print("compiled parts: " + ", ".join(f"{name} {'yes' if built else 'NO (pure Python)'}" for name, built in compiled.items()))
    results, engine = full_benchmark(args.seconds, tuple(args.players), seed=args.seed)
    print(summary_table(results))
    for row in engine:
        print(f"engine, uniformly random legal moves, {row['players']} players: {row['moves_per_second']:,.0f} moves/s, "
              f"{row['games_per_second']:.2f} full games/s ({row['games']} games)")
    search = search_costs(tuple(args.players), seed=args.seed)
    for row in search:
        print(f"search, {row['players']} players, {row['actions_in']} actions in: copy {row['copy_us']:.1f} us, "
              f"determinize {row['determinize_us']:.0f} us, env step {row['env_step_us']:.1f} us "
              f"(a copy costs {row['copy_in_steps']:.2f} steps)")
    if args.json:
        Path(args.json).write_text(json.dumps({"env": [r.__dict__ | {"steps_per_second": r.steps_per_second} for r in results],
                                               "engine": engine, "search": search, "compiled": compiled}, indent=2))
        print(f"wrote {args.json}")


def cmd_serve(args: argparse.Namespace) -> None:
    try:
        from .web.app import serve
        from .web.menu import parse_model_option
    except ImportError as e:
        raise SystemExit(f"error: phase10 serve needs the web extra ({e}); pip install -e \".[web]\"") from None
    models: dict[str, Any] = {}
    for option in args.model:
        try:
            name, path = parse_model_option(option)
        except ValueError as e:
            raise SystemExit(f"error: {e}") from None
        if name in models:
            raise SystemExit(f"error: --model names {name!r} twice")
        models[name] = path
    serve(args.host, args.port, args.agents, args.seed, models, args.token)


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default, except where there is none or it is empty (the help text
    says what happens then)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False or action.default == []:
            return action.help
        return super()._get_help_string(action)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="phase10", description="Phase 10 for reinforcement learning",
                                     formatter_class=_HelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, help: str, description: str = "") -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help, description=description or help, formatter_class=_HelpFormatter)

    agents_help = ("agents: random, heuristic[:OPTIONS], mcts[:OPTIONS] (the search agent, e.g. mcts:sims=16), "
                   "champion[:OPTIONS] (search over learned beliefs, e.g. champion:samples=512), human, "
                   "ppo:PATH, ppo-sample:PATH (a saved model), rllib:PATH (an exported RLlib policy)")
    p = command("eval", "play many games between agents and report win rates")
    p.add_argument("--agents", nargs="+", required=True,
                   help=f"one per seat, in seat order, e.g. heuristic random ppo:runs/x/model.zip; {agents_help}")
    p.add_argument("--players", type=int, default=None,
                   help="seats (2-6); fewer agents than seats repeat in order (one agent: a mirror match). "
                        "Without it: one seat per agent named")
    p.add_argument("--games", type=int, default=1000, help="games to play (seats and first dealer rotate)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (the same seed gives the same results)")
    p.add_argument("--workers", type=int, default=None,
                   help="processes to play on (none given: all cores); with --ray, Ray tasks at once (none given: "
                        "the cluster's CPUs)")
    p.add_argument("--ray", action="store_true",
                   help="play the games as Ray tasks (the rllib extra): on the cluster at RAY_ADDRESS, else on a Ray "
                        "started here; the same seed gives the same results")
    p.add_argument("--address", default=None, metavar="HOST:PORT",
                   help="the Ray cluster to play on (implies --ray; needs its token, see docs/training.md, 'Scaling out')")
    p.add_argument("--max-steps", type=int, default=200_000, help="a game stops unfinished after this many actions")
    p.add_argument("--json", help="write the results as JSON here")
    p.add_argument("--plot", help="write a PNG chart of the results here")
    _add_rules_args(p)
    p.set_defaults(func=cmd_eval)

    p = command("play", "play a game at the terminal, or watch bots play one",
                "Play at the terminal: type the number of a move; ? for help, q to quit. Other players' "
                "moves are told in words as they happen.")
    p.add_argument("--agents", nargs="+", default=["human", "heuristic"], help=f"one per seat, in seat order; {agents_help}")
    p.add_argument("--players", type=int, default=None,
                   help="seats (2-6); fewer agents than seats repeat in order. Without it: one seat per agent named")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of the deal (the same seed deals the same cards); none given: a new deal, its seed printed")
    p.add_argument("--delay", type=float, default=None, metavar="SECONDS",
                   help="pause before each bot action, to follow the game (none given: 0.3 with a human playing, "
                        "0 when only bots play)")
    p.add_argument("--verbose", action="store_true",
                   help="when only bots play, tell every move (otherwise each hand's table and end)")
    p.add_argument("--save", metavar="FILE", help="write the game record here at the end, or on leaving (see replay)")
    _add_rules_args(p)
    p.set_defaults(func=cmd_play)

    p = command("replay", "step through a saved game record (from play --save)",
                "Step through a saved game: Enter or n for the next move, b back, a number to go to that move, "
                "q to quit.")
    p.add_argument("file", help="a game record (GameRecord.save, phase10 play --save)")
    p.add_argument("--seat", type=int, default=None,
                   help="show this seat's hand and tell the game as it saw it (none given: all hands, public moves)")
    p.add_argument("--move", type=int, default=0, help="start after this many moves")
    p.set_defaults(func=cmd_replay)

    p = command("bench", "steps per second of random play, beside connect_four_v3")
    p.add_argument("--seconds", type=float, default=80.0,
                   help="the whole run's time budget, shared equally by each environment (raw_env and env() per "
                        "player count, connect_four_v3 raw and env()) and the bare engine per player count: "
                        "80 gives each of the 8 parts of the default players 10 s")
    p.add_argument("--players", type=int, nargs="+", default=[2, 6], help="player counts to measure")
    p.add_argument("--seed", type=int, default=0, help="seed of the random play")
    p.add_argument("--json", help="write the figures as JSON here")
    p.add_argument("--core", action="store_true",
                   help="measure the native core instead, side by side with the Python code it follows: the vector env "
                        "against SyncVectorEnv of Phase10Env (2 and 4 players, 64 and 256 games, --seconds shared by "
                        "the 8 runs), heuristic decisions, search play-outs, memory per game")
    p.set_defaults(func=cmd_bench)

    p = command("serve", "play, watch or replay games in a web browser",
                "Serve a web page to play against any agents, watch bots play at a chosen pace, or step "
                "through a saved game record. Open the address it prints.")
    p.add_argument("--host", default="127.0.0.1",
                   help="interface to listen on; the default takes connections from this machine only (any other "
                        "serves the network: give --token)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--agents", nargs="+", default=None,
                   help="start the page with a game of these seats, in seat order (at most one human; none: watch "
                        "the bots); none given: the page asks. The page's agents: human, random, heuristic[:options], "
                        "mcts[:options], and models by name (--model)")
    p.add_argument("--seed", type=int, default=None, help="seed of that game's deal (none given: a random deal)")
    p.add_argument("--model", action="append", default=[], metavar="NAME=PATH",
                   help="a trained model the page may seat as ppo:NAME and ppo-sample:NAME (an SB3 zip) or rllib:NAME "
                        "(an exported policy.pt), repeatable; the shipped models/*.zip are offered by their names. A "
                        "model file is code: serve only models from a source you trust")
    p.add_argument("--token", default=None,
                   help="the API answers only requests carrying this token (the address printed ends in #token=...); "
                        "or set PHASE10_TOKEN. Give one whenever --host serves beyond this machine")
    p.set_defaults(func=cmd_serve)

    p = command("ladder", "play every pair of agents (and multi-player tables) and rate them",
                "Play every pair of agents head to head, seats and first deal rotated, and every table of "
                "--table-players of them; report pairwise win rates with 95% intervals and an OpenSkill "
                "rating per agent from every game's finishing order.")
    p.add_argument("--agents", nargs="+", default=["random", "ppo:models/default.zip", "heuristic",
                                                   "ppo:models/strong.zip", "mcts", "champion"],
                   help=f"the agents to rank, at least two, each named once; {agents_help}")
    p.add_argument("--games", type=int, default=200, help="games per pair (a multiple of 4)")
    p.add_argument("--games-with", type=_agent_games, action="append", metavar="AGENT=N",
                   help="games for each pair AGENT plays in (a multiple of 4), e.g. champion=200 beside --games 2000: "
                        "a slow agent plays fewer games, the fast ones enough to separate; a pair of two such agents "
                        "plays the fewer; may be given again for another agent")
    p.add_argument("--table-players", type=int, default=4,
                   help="also play every table of this many agents (3-6; 0: pairs only); needs that many agents")
    p.add_argument("--table-games", type=int, default=96,
                   help="games per multi-player table, split over every order of its agents around the table (a "
                        "multiple of the players squared times (players - 1)!: 18 at 3 players, 96 at 4)")
    p.add_argument("--seed", type=int, default=0, help="the ladder's seed (the same seed gives the same results)")
    p.add_argument("--workers", type=int, default=None, help="processes to play on (none given: all cores)")
    p.add_argument("--max-steps", type=int, default=None,
                   help="a game stops unfinished after this many actions, with no winner (default 10,000: two greedy "
                        "policies can pass a card back and forth for ever)")
    p.add_argument("--json", default="runs/ladder/ladder.json",
                   help="write the results as JSON here (the shipped ladder is results/ladder.json)")
    p.add_argument("--plot", default="runs/ladder/ladder.png", help="write the heatmap and ratings PNG here")
    p.add_argument("--no-plot", action="store_true", help="write no PNG (needs no matplotlib)")
    p.add_argument("--markdown", help="also write the Markdown table here")
    p.add_argument("--matches", help="keep each match in this directory as it ends, and read back the matches "
                                     "already there instead of playing them again (a stopped ladder goes on); "
                                     "delete it when an agent changed")
    _add_rules_args(p)
    p.set_defaults(func=cmd_ladder)

    from .benchmark.cli import add_commands

    add_commands(command)
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    if getattr(args, "players", 0) is None:
        if len(args.agents) == 1:
            raise SystemExit(f"error: one agent named; give --players N for N seats of {args.agents[0]} "
                             "(or name one agent per seat)")
        args.players = len(args.agents)
    args.func(args)


if __name__ == "__main__":
    main(sys.argv[1:])
