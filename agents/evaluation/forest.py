"""Runs side by side: one entry's win rate in each of several results files, with its 95% interval.

What a series of evaluations tried, in the order given, one panel per seat count: each row is a
results file of ``phase10 eval --json``, its entry's win rate and interval as a bar, the even
share (one over the seat count) and, if given, the rate aimed at as lines::

    python -m agents.evaluation.forest results/a.json results/b.json --labels "first try" "second" \\
        --target 2=0.60 --target 4=0.35 --out results/tries.png

Reads the totals only (any results file, old ones included), so it draws what the runs recorded
and computes nothing anew.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

from phase10_env.engine import MAX_PLAYERS, MIN_PLAYERS

from ..plotting import pyplot


@dataclass(frozen=True)
class Run:
    """One row: what a results file recorded for one entry."""

    label: str
    players: int
    games: int
    win_rate: float
    ci95: tuple[float, float]
    ms_per_turn: float | None  # None if the file recorded no thinking time for the entry


def read_run(path: str | Path, entry: int = 0, label: str | None = None) -> Run:
    """Entry ``entry`` of a results file (labelled by the file's name unless ``label``); a
    ValueError naming the file and what is missing if it cannot be read so."""
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        agents = record["agents"]
        if not 0 <= entry < len(agents):
            raise ValueError(f"entry {entry} is not one of its {len(agents)} entries")
        row = agents[entry]
        lo, hi = row["ci95"]
        ms = record.get("timing", {}).get("ms_per_turn", {}).get(row["name"])
        return Run(label=label if label is not None else Path(path).stem,
                   players=int(record["setup"]["num_players"]), games=int(row["games"]),
                   win_rate=float(row["win_rate"]), ci95=(float(lo), float(hi)),
                   ms_per_turn=None if ms is None else float(ms))
    except (OSError, json.JSONDecodeError, KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"{path} cannot be read as results: {e!r}") from None
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


def parse_target(text: str) -> tuple[int, float]:
    """``"4=0.35"`` as (4, 0.35); a ValueError naming the text otherwise."""
    players, sep, rate = text.partition("=")
    try:
        target = (int(players), float(rate))
    except ValueError:
        target = (0, -1.0)
    if not sep or not MIN_PLAYERS <= target[0] <= MAX_PLAYERS or not 0 <= target[1] <= 1:
        raise ValueError(f"a target is PLAYERS=RATE with {MIN_PLAYERS}-{MAX_PLAYERS} players and a rate in [0, 1], "
                         f"not {text!r}")
    return target


def row_text(run: Run) -> str:
    """What a row says beside its bar: the rate, its interval, the games and the thinking time."""
    lo, hi = run.ci95
    ms = "" if run.ms_per_turn is None else f", {run.ms_per_turn:.0f} ms"
    return f"{run.win_rate:.3f} [{lo:.3f}, {hi:.3f}], {run.games} games{ms}"


def panels(runs: list[Run]) -> list[tuple[int, list[Run]]]:
    """The runs by seat count, fewest seats first, each panel's rows in the order given."""
    return [(n, [r for r in runs if r.players == n]) for n in sorted({r.players for r in runs})]


def plot(runs: list[Run], out: str | Path, targets: dict[int, float] | None = None, title: str = "") -> None:
    """Draw ``runs`` to the PNG ``out``, a panel per seat count (fewest seats first), rows top to
    bottom in the order given; an ImportError if matplotlib is missing."""
    if not runs:
        raise ValueError("no runs to draw")
    plt = pyplot("the figure")
    targets = targets or {}
    grouped = panels(runs)
    fig, axes = plt.subplots(len(grouped), 1, squeeze=False,
                             figsize=(9, 1.2 + 0.45 * len(runs) + 0.6 * len(grouped)),
                             gridspec_kw={"height_ratios": [len(rows) + 1 for _, rows in grouped]})
    for ax, (n, rows) in zip(axes[:, 0], grouped):
        ys = list(range(len(rows)))[::-1]
        rates = [r.win_rate for r in rows]
        errors = [[r.win_rate - r.ci95[0] for r in rows], [r.ci95[1] - r.win_rate for r in rows]]
        ax.errorbar(rates, ys, xerr=errors, fmt="o", color="tab:blue", capsize=3)
        ax.axvline(1 / n, color="grey", linestyle="--", linewidth=1)
        lines = f"dashed: the even share {1 / n:.2f}"
        if n in targets:
            ax.axvline(targets[n], color="tab:red", linestyle=":", linewidth=1.5)
            lines += f"; dotted: the aim {targets[n]:.2f}"
        for y, r in zip(ys, rows):
            ax.annotate(row_text(r), (r.ci95[1], y), xytext=(6, 0), textcoords="offset points", va="center", fontsize=8)
        ax.set_yticks(ys, [r.label for r in rows], fontsize=8)
        ax.set_ylim(-0.7, len(rows) - 0.3)
        low = min(1 / n, *(r.ci95[0] for r in rows))
        high = max(1 / n, targets.get(n, 0.0), *(r.ci95[1] for r in rows))
        ax.set_xlim(max(0.0, low - 0.03), high + 0.25)  # room for the rows' text
        ax.set_title(f"{n} players ({lines})", fontsize=9, loc="left")
        ax.grid(axis="x", alpha=0.3)
    axes[-1, 0].set_xlabel("win rate, 95% interval")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m agents.evaluation.forest", description=__doc__.split("\n\n")[0])
    p.add_argument("results", nargs="+", help="results JSONs of `phase10 eval --json`, in the order to show")
    p.add_argument("--labels", nargs="+", help="a label for each file, in order (default: the files' names)")
    p.add_argument("--entry", type=int, default=0, help="the entry shown (its place in --agents; default 0)")
    p.add_argument("--target", action="append", default=[], metavar="PLAYERS=RATE",
                   help="the rate aimed at for a seat count, drawn as a line (repeatable)")
    p.add_argument("--title", default="", help="the figure's title")
    p.add_argument("--out", required=True, help="the PNG to write")
    args = p.parse_args(argv)
    if args.labels is not None and len(args.labels) != len(args.results):
        p.error(f"{len(args.labels)} labels for {len(args.results)} results files: give one each")
    labels = args.labels or [None] * len(args.results)
    try:
        targets = dict(parse_target(t) for t in args.target)
        runs = [read_run(path, args.entry, label) for path, label in zip(args.results, labels)]
        plot(runs, args.out, targets, args.title)
    except (ValueError, ImportError) as e:
        p.error(str(e))
    for run in runs:
        print(f"{run.players} players  {run.label}: {row_text(run)}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
