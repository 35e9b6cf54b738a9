"""The ``phase10 benchmark``, ``phase10 benchmark-report`` and ``phase10 benchmark-rescore``
commands (added to the ``phase10`` parser by :func:`add_commands`)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from .protocol import CONFIG_DIR, SPLITS
from .run import MODELS_DIR, RESULTS_DIR
from .tasks import TASKS, get_task


def _import_from_working_directory() -> None:
    """Let ``--algo MODULE:NAME`` find a module in the working directory, as ``python -m``
    would: the ``phase10`` console script's path lacks it."""
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def cmd_benchmark(args: argparse.Namespace) -> None:
    from .protocol import load_protocol
    from .run import entrant, refuse_taken, results_paths, run_benchmark

    tasks = [t.short for t in TASKS.values()] if args.task == "all" else [args.task]
    seeds = args.seed if args.seed else (list(range(args.seeds)) if args.seeds else None)
    _import_from_working_directory()
    start = time.perf_counter()
    try:
        if not args.overwrite:  # every task's files, before any work
            who, protocol = entrant(args.algo, args.agent, Path(args.config_dir)), load_protocol(Path(args.config_dir))
            refuse_taken(p for task in tasks for p in results_paths(who, get_task(task), protocol, seeds, args.quick,
                                                                      Path(args.out)).values())
        for task in tasks:
            run_benchmark(args.algo, task, seeds, args.split, args.quick, args.agent, args.games, Path(args.config_dir),
                          Path(args.out), Path(args.models), args.overwrite)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    print(f"benchmark done in {time.perf_counter() - start:.0f} s")


def cmd_report(args: argparse.Namespace) -> None:
    from .report import write_report

    try:
        written = write_report([Path(p) for p in args.results], Path(args.out), args.include_quick, Path(args.config_dir))
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    print((Path(args.out) / "table.md").read_text(encoding="utf-8"))
    print("wrote " + ", ".join(str(p) for p in written))


def cmd_rescore(args: argparse.Namespace) -> None:
    from .rescore import rescore

    _import_from_working_directory()
    try:
        for path in args.results:
            print(rescore(Path(path), Path(args.config_dir)))
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None


def add_commands(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the commands through the ``phase10`` parser's ``command(name, help, description)``."""
    tasks = [t.short for t in TASKS.values()]
    p = command("benchmark", "train and evaluate an algorithm on a benchmark task under the protocol",
                "Train --algo on --task for each seed with the protocol's budget (configs/benchmark/protocol.yaml), "
                "evaluate it on the split's deals, and write one results JSON per seed (docs/BENCHMARK.md). "
                "--algo ref --agent SPEC evaluates a reference agent without training. Existing files are never "
                "overwritten unless --overwrite.")
    p.add_argument("--algo", required=True,
                   help="a registered algorithm (ppo, bc, dqn, rllib-ppo), MODULE:NAME for one your module registers, "
                        "or ref (a reference agent, with --agent)")
    p.add_argument("--task", required=True, choices=[*tasks, "all"], help="a task id (without phase10_env/), or all")
    p.add_argument("--agent", help="the reference agent for --algo ref: random, heuristic, mcts, ppo:PATH, ...")
    seeds = p.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=int, action="append",
                       help="run this training seed (repeat for several); results of seeds run apart merge in the report")
    seeds.add_argument("--seeds", type=int, default=None,
                       help="run seeds 0..N-1 (neither given: the protocol's; 0 for a reference agent)")
    p.add_argument("--split", choices=SPLITS, default="dev",
                   help="the evaluation deals: dev (default; for developing) or test (held out: the table's)")
    p.add_argument("--games", type=int, default=None,
                   help="evaluation episodes instead of the protocol's, for slow reference agents (recorded; the "
                        "report marks the row)")
    p.add_argument("--quick", action="store_true", help="the protocol's toy budget (CI's smoke test); marked quick")
    p.add_argument("--out", default=str(RESULTS_DIR), help="folder for the results JSONs (default: %(default)s)")
    p.add_argument("--models", default=str(MODELS_DIR), help="folder for the trained models (default: %(default)s)")
    p.add_argument("--overwrite", action="store_true", help="replace results files that exist already")
    p.add_argument("--config-dir", default=str(CONFIG_DIR), help="folder of protocol.yaml and <algo>.yaml")
    p.set_defaults(func=cmd_benchmark)

    p = command("benchmark-report", "aggregate benchmark results JSONs into a table, comparisons and plots",
                "Check results JSONs (ours or anyone's, same format) against the protocol and each other, and write "
                "table.md (scores with 95% intervals resampling seeds and deals), comparisons.md (paired differences "
                "and probabilities of improvement), summary.json and the plots. Files that cannot be merged into one "
                "table are refused, the error naming the file and the field.")
    p.add_argument("results", nargs="+", help="results JSON files (ours are named <task>__<algo>__seed<N>.json)")
    p.add_argument("--out", default="runs/benchmark/report", help="folder for the report (default: %(default)s)")
    p.add_argument("--include-quick", action="store_true", help="also report --quick results (left out otherwise)")
    p.add_argument("--config-dir", default=str(CONFIG_DIR), help="folder of protocol.yaml")
    p.set_defaults(func=cmd_report)

    p = command("benchmark-rescore", "re-evaluate the saved agents of results JSONs and check every episode",
                "Load each run's saved model (or build its reference agent), play the file's evaluation again and "
                "check that every episode ends as recorded.")
    p.add_argument("results", nargs="+", help="results JSON files")
    p.add_argument("--config-dir", default=str(CONFIG_DIR), help="folder of protocol.yaml")
    p.set_defaults(func=cmd_rescore)
