"""The ``phase10 benchmark`` and ``phase10 benchmark-report`` commands (added to the
``phase10`` parser by :func:`add_commands`)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from .algos import ALGOS
from .run import CONFIG_DIR, MODELS_DIR, REFERENCE, RESULTS_DIR
from .tasks import TASKS

# Where the commands write unless told otherwise: beside the models, never over the shipped results.
RUN_RESULTS, RUN_REPORT = MODELS_DIR / "results", MODELS_DIR / "report"


def cmd_benchmark(args: argparse.Namespace) -> None:
    from .run import run_benchmark

    tasks = [t.short for t in TASKS.values()] if args.task == "all" else [args.task]
    start = time.perf_counter()
    try:
        for task in tasks:
            run_benchmark(args.algo, task, args.seeds, args.quick, args.agent, args.games, Path(args.config_dir),
                          Path(args.out), Path(args.models))
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    print(f"benchmark done in {time.perf_counter() - start:.0f} s")


def cmd_report(args: argparse.Namespace) -> None:
    from .report import write_report

    try:
        written = write_report([Path(p) for p in args.results], Path(args.out), include_quick=args.include_quick)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    print((Path(args.out) / "table.md").read_text(encoding="utf-8"))
    print("wrote " + ", ".join(str(p) for p in written))


def add_commands(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add both commands through the ``phase10`` parser's ``command(name, help, description)``."""
    tasks = [t.short for t in TASKS.values()]
    p = command("benchmark", "train and evaluate an algorithm on a benchmark task under the protocol",
                "Train --algo on --task for each seed with the protocol's budget (configs/benchmark/protocol.yaml), "
                "evaluate every seed on the protocol's fixed episodes, and write one results JSON "
                "(docs/BENCHMARK.md). --algo ref --agent SPEC evaluates a reference agent without training.")
    p.add_argument("--algo", required=True, choices=[*ALGOS, REFERENCE],
                   help="ppo (MaskablePPO), bc (behaviour cloning of the heuristic), dqn (Tianshou; integrations "
                        "extra), rllib-ppo (rllib extra), or ref (a reference agent, with --agent)")
    p.add_argument("--task", required=True, choices=[*tasks, "all"], help="a task id (without phase10_env/), or all")
    p.add_argument("--agent", help="the reference agent for --algo ref: random, heuristic, mcts, ppo:PATH, ...")
    p.add_argument("--seeds", type=int, default=None,
                   help="training seeds 0..N-1 (none given: the protocol's; 1 for a reference agent)")
    p.add_argument("--games", type=int, default=None,
                   help="evaluation episodes instead of the protocol's (recorded in the JSON; for slow agents)")
    p.add_argument("--quick", action="store_true", help="the protocol's toy budget (CI's smoke test); marked quick")
    p.add_argument("--out", default=str(RUN_RESULTS),
                   help=f"folder for the results JSON (the shipped results are in {RESULTS_DIR}: --out {RESULTS_DIR} "
                        "adds to them, replacing a file of the same task and algorithm)")
    p.add_argument("--models", default=str(MODELS_DIR), help="folder for the trained models")
    p.add_argument("--config-dir", default=str(CONFIG_DIR), help="folder of protocol.yaml and <algo>.yaml")
    p.set_defaults(func=cmd_benchmark)

    p = command("benchmark-report", "aggregate benchmark results JSONs into a table and plots",
                "Validate results JSONs (ours or anyone's, same format), and write table.md (IQM with stratified "
                "bootstrap 95% intervals per task and algorithm), summary.json, and the plots: scores, "
                "performance profiles and learning curves.")
    p.add_argument("results", nargs="+", help="results JSON files (ours are named <task>__<algo>.json)")
    p.add_argument("--out", default=str(RUN_REPORT),
                   help=f"folder for table.md, summary.json and the PNGs (the shipped report: --out {RESULTS_DIR})")
    p.add_argument("--include-quick", action="store_true", help="also report --quick results (left out otherwise)")
    p.set_defaults(func=cmd_report)
