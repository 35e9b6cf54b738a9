"""Ship a finished run as a small model file with its model card:

    python -m agents.training.ship runs/strong models/strong

writes ``models/strong.zip`` (the final policy's weights alone, float16: what ``ppo:PATH``
plays), ``models/strong.md`` (its card: config, learner steps, wall time by stage, machine,
commit, and the run's final evaluation with 95% intervals) and ``models/strong.json`` (the run's
``eval.json``, which the card's figures come from)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from ..policies.network import load_policy, save_policy
from .rundir import evaluation_lines

MAX_BYTES = 5 * 1024 * 1024  # shipped files stay small


def machine() -> str:
    """This machine's CPU model, core count and OS, for the card."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def commit() -> str:
    """The git commit the code was at (with ``+ local changes`` when the tree differs from it).

    ``results/`` is left out of the comparison: it holds what runs wrote (``results/reproduce.sh``
    empties its tracked log before each run), not anything an agent plays by."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ":(top)",
                                ":(top,exclude)results"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return head + (" + local changes" if dirty else "")


def model_card(name: str, summary: dict[str, Any], config: dict[str, Any], file: Path, built_at: str, built_on: str,
               note: str = "") -> str:
    """The card's Markdown: what was trained, how long it took where, and how well it plays."""
    seconds = summary.get("seconds") or {}
    stages = ", ".join(f"{k} {v / 60:.1f} min" for k, v in seconds.items()) or "not recorded"
    lines = [
        f"# `{file.as_posix()}`",
        "",
        f"Play it as `ppo:{file.as_posix()}`, e.g. `phase10 eval --agents ppo:{file.as_posix()} heuristic --games 1000`.",
        "The file holds the final policy's weights alone, in float16 "
        f"({file.stat().st_size / 1e6:.1f} MB; no optimizer state, so it does not resume training).",
        "",
        f"* run: `runs/{name}` (its config below), {summary['learner_steps']:,} PPO learner steps",
        f"* wall time: {stages}",
        f"* PPO speed: {summary['learner_steps_per_second']:,.0f} learner steps/s, "
        f"{100 * summary['env_time_share']:.0f}% of the time in the env",
        f"* machine: {built_on}",
        f"* commit: {built_at}",
        *([f"* note: {note}"] if note else []),
        "",
        "Final evaluation of the run (2-player games, the model's greedy moves; win rate with 95% interval):",
        "",
        "```",
        *evaluation_lines(summary["evaluation"]),
        "```",
        "",
        "Config:",
        "",
        "```yaml",
        yaml.safe_dump(config, sort_keys=False).rstrip(),
        "```",
        "",
    ]
    return "\n".join(lines)


def ship(run: Path, out: Path, note: str = "") -> tuple[Path, Path, Path]:
    """Write ``out``.zip, ``out``.md and ``out``.json from the finished run in ``run`` (``note``:
    a line for the card, e.g. where an ``init_from`` model came from)."""
    summary_path, config_path = run / "eval.json", run / "config.yaml"
    for path in (summary_path, config_path, run / "model.zip"):
        if not path.is_file():
            raise ValueError(f"{run} is not a finished run: {path.name} is missing")
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    file = save_policy(load_policy(run / "model.zip"), out.with_suffix(".zip"))
    size = file.stat().st_size
    if size > MAX_BYTES:
        file.unlink()
        raise ValueError(f"the policy takes {size / 1e6:.1f} MB, over the {MAX_BYTES / 2**20:.0f} MB "
                         f"limit for shipped models: train a smaller ppo.net_arch")
    card = out.with_suffix(".md")
    card.write_text(model_card(run.name, summary, config, file, commit(), machine(), note), encoding="utf-8")
    figures = out.with_suffix(".json")
    figures.write_text(json.dumps({**summary, "model": file.as_posix()}, indent=1), encoding="utf-8")
    return file, card, figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", type=Path, help="a finished run's directory (runs/NAME)")
    parser.add_argument("out", type=Path, help="where to write, without suffix (models/NAME)")
    parser.add_argument("--note", default="", help="a line for the card (e.g. how the starting model was made)")
    args = parser.parse_args(argv)
    try:
        for path in ship(args.run, args.out, args.note):
            print(f"wrote {path}")
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None


if __name__ == "__main__":
    main(sys.argv[1:])
