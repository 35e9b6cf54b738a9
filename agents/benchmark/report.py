"""``phase10 benchmark-report``: results JSONs (ours and anyone's, checked by :mod:`.results`)
into one table, the comparisons between its rows, and plots.

* ``table.md``: per task and algorithm (or reference agent), the primary score (IQM over
  seeds) and the win rate, each with its 95% interval resampling seeds and deals; the raw
  measure, runs, env steps, wall time and evaluation episodes;
* ``comparisons.md`` / ``comparisons.json``: every pair of rows of a task: the difference of
  their scores, paired by the shared deals, and rliable's probability of improvement, each
  with its interval;
* ``summary.json``: the table's rows, a list (task, algo, kind, score, ci95, protocol_version,
  ...);
* ``scores.png`` always; once there are trained rows, ``curves.png`` (learning curves, the
  tasks with trained rows) and ``profiles.png`` (performance profiles over the tasks every
  trained algorithm ran, if any).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from ..plotting import pyplot
from . import stats
from .protocol import CONFIG_DIR, Protocol, load_protocol
from .results import Row, load_rows
from .run import INTERVAL, WIN, row_resampler
from .scoring import DESCRIPTIONS
from .stats import Resampler
from .tasks import TASKS, get_task

SEARCH_AGENTS = ("mcts", "champion")
NO_TRAINED = "No trained rows yet: the reference agents alone ({agents}), on the scale the trained rows will be placed on."


def _number(x: float) -> str:
    return f"{round(x, 3) + 0.0:.3f}"  # + 0.0: no "-0.000" for a rounding error below zero


def _cell(point: float, ci: list[float]) -> str:
    return f"{_number(point)} [{_number(ci[0])}, {_number(ci[1])}]"


def summarize(rows: list[Row], protocol: Protocol) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The table's rows and the comparisons between the rows of each task. Rows evaluated on
    fewer deals (a slow reference agent) are compared with the others on the deals they share,
    the first ones."""
    table: list[dict[str, Any]] = []
    comparisons: list[dict[str, Any]] = []
    by_task: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_task[row.task].append(row)
    for task, task_rows in by_task.items():
        matrices = {r.algo: r.matrices() for r in task_rows}
        resamplers = {deals: row_resampler({r.algo: (matrices[r.algo][0][:, :deals], matrices[r.algo][1][:, :deals])
                                            for r in task_rows if r.eval_games >= deals}, protocol.bootstrap_reps)
                      for deals in {r.eval_games for r in task_rows}}
        for r in task_rows:
            resampler = resamplers[r.eval_games]
            table.append(_table_row(r, resampler.scores(r.algo), resampler.estimate(r.algo),
                                    resampler.estimate(r.algo + WIN), protocol))
        for i, a in enumerate(task_rows):
            for b in task_rows[i + 1:]:
                deals = min(a.eval_games, b.eval_games)
                resampler = resamplers[deals]
                x, y = (a, b) if resampler.difference(a.algo, b.algo).point >= 0 else (b, a)  # X: the better on these deals
                diff, poi = resampler.difference(x.algo, y.algo), resampler.improvement(x.algo, y.algo)
                one_run_each = len(x.runs) == len(y.runs) == 1  # P(X > Y) of one run against one is 0 or 1: no news
                comparisons.append({"task": task, "x": x.algo, "y": y.algo, "x_label": x.label, "y_label": y.label,
                                    "deals": deals, "difference": diff.point, "difference_ci95": diff.ci95,
                                    "probability_of_improvement": None if one_run_each else poi.point,
                                    "probability_of_improvement_ci95": None if one_run_each else poi.ci95})
    comparisons.sort(key=lambda c: (list(TASKS).index(c["task"]), -c["difference"]))
    table.sort(key=lambda r: (list(TASKS).index(r["task"]), r["kind"] != "trained", -r["score"]))
    return table, comparisons


def _table_row(r: Row, run_scores: stats.Array, score: stats.Estimate, wins: stats.Estimate,
               protocol: Protocol) -> dict[str, Any]:
    raw = [r.scale.random + s * (r.scale.heuristic - r.scale.random) for s in run_scores]
    return {
        "task": r.task, "algo": r.algo, "label": r.label, "kind": r.kind, "protocol_version": protocol.version,
        "split": r.split, "quick": r.quick, "score": score.point, "ci95": score.ci95, "win_rate": wins.point,
        "win_rate_ci95": wins.ci95, "measure": r.scale.measure, "measure_mean": float(np.mean(raw)),
        "runs": len(r.runs), "seeds": sorted(run["seed"] for run in r.runs),
        "env_steps": max(run["env_steps"] for run in r.runs), "budget": r.budget,
        "train_minutes_per_run": float(np.mean([run["train_seconds"] for run in r.runs])) / 60,
        "wall_minutes_per_run": float(np.mean([run.get("wall_seconds", run["train_seconds"] + run["eval_seconds"])
                                               for run in r.runs])) / 60,
        "eval_games": r.eval_games, "eval_games_protocol": r.eval_games_protocol,
        "run_scores": [float(s) for s in run_scores], "interval": INTERVAL,
    }


def _searches(row: dict[str, Any]) -> bool:
    """Whether a reference agent searches at evaluation time (the rules keep it apart from policies)."""
    return row["kind"] == "reference" and row["algo"].partition(":")[0] in SEARCH_AGENTS


def markdown_table(table: list[dict[str, Any]], protocol: Protocol) -> str:
    split = table[0]["split"]
    measures = sorted({r["measure"] for r in table})
    lines = [f"Protocol v{protocol.version}, {split} deals. Score: the {' / '.join(DESCRIPTIONS[m] for m in measures)}, "
             "normalized: 0 = random legal play, 1 = the heuristic (docs/BENCHMARK.md).", "",
             f"| task | algorithm | score (95% CI) | win rate (95% CI) | {' / '.join(measures)} | runs | env steps | "
             "train min / run | wall min / run | eval episodes |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in table:
        kind = "" if r["kind"] == "trained" else " (reference, search at evaluation)" if _searches(r) else " (reference)"
        quick = " (quick)" if r["quick"] else ""
        short = r["eval_games"] < r["eval_games_protocol"]
        lines.append(f"| {get_task(r['task']).short}{quick} | {r['label']}{kind} | {_cell(r['score'], r['ci95'])} | "
                     f"{_cell(r['win_rate'], r['win_rate_ci95'])} | {r['measure_mean']:+.1f} | {r['runs']} | "
                     f"{r['env_steps']:,} | {r['train_minutes_per_run']:.1f} | {r['wall_minutes_per_run']:.1f} | "
                     f"{r['eval_games']}{' of ' + str(r['eval_games_protocol']) if short else ''} |")
    lines += ["", "Score and win rate: IQM over training seeds (a reference agent has one run), 95% percentile bootstrap "
              "intervals resampling the seeds and the evaluation deals. Then the raw measure's mean. "
              "Wall time per run: training, curve and final evaluations."]
    if not any(r["kind"] == "trained" for r in table):
        lines += ["", NO_TRAINED.format(agents=", ".join(sorted({r["label"] for r in table})))]
    return "\n".join(lines) + "\n"


def markdown_comparisons(comparisons: list[dict[str, Any]]) -> str:
    lines = ["| task | X | Y | deals | score of X - score of Y (95% CI) | P(X > Y) (95% CI) |", "|---|---|---|---|---|---|"]
    for c in comparisons:
        poi = c["probability_of_improvement"]
        lines.append(f"| {get_task(c['task']).short} | {c['x_label']} | {c['y_label']} | {c['deals']} | "
                     f"{_cell(c['difference'], c['difference_ci95'])} | "
                     f"{'one run each' if poi is None else _cell(poi, c['probability_of_improvement_ci95'])} |")
    lines += ["", "Differences: IQM of X minus IQM of Y, both on the same deals (the first `deals` of the evaluation), "
              "the deals resampled jointly and each side's seeds on their own. P(X > Y): rliable's probability of "
              "improvement, the share of (run of X, run of Y) pairs in which X scores higher, ties counting one half (left out "
              "between two single runs, where it can only be 0 or 1)."]
    return "\n".join(lines) + "\n"


SCORES, PROFILES, CURVES = PLOTS = ("scores.png", "profiles.png", "curves.png")


def write_report(paths: list[Path], out: Path, include_quick: bool = False, config_dir: Path = CONFIG_DIR) -> list[Path]:
    """Write the report's files (see the module docstring) to ``out``; returns them."""
    protocol = load_protocol(config_dir)
    rows = load_rows(paths, protocol, include_quick)
    table, comparisons = summarize(rows, protocol)
    out.mkdir(parents=True, exist_ok=True)
    for name in PLOTS:  # an older report's plots that this one may not draw would pass for its own
        (out / name).unlink(missing_ok=True)
    files = {"table.md": markdown_table(table, protocol), "summary.json": json.dumps(table, indent=1),
             "comparisons.md": markdown_comparisons(comparisons), "comparisons.json": json.dumps(comparisons, indent=1)}
    written = []
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
        written.append(out / name)
    return written + _plots(rows, table, out)


def _plots(rows: list[Row], table: list[dict[str, Any]], out: Path) -> list[Path]:
    plt = pyplot("the benchmark report's plots")
    tasks = [t for t in TASKS if any(r["task"] == t for r in table)]  # in the ladder's order
    trained_algos = sorted({r["algo"] for r in table if r["kind"] == "trained"})
    colour = {a: f"C{i % 10}" for i, a in enumerate(trained_algos)}  # one colour per algorithm in every plot
    written = [out / SCORES]
    fig, axes = plt.subplots(1, len(tasks), figsize=(4.2 * len(tasks), 3.4), squeeze=False, layout="constrained")
    for ax, task in zip(axes[0], tasks):
        trained = [r for r in table if r["task"] == task and r["kind"] == "trained"]
        for i, r in enumerate(trained):
            ax.errorbar(r["score"], i, xerr=[[r["score"] - r["ci95"][0]], [r["ci95"][1] - r["score"]]], fmt="o",
                        capsize=4, color=colour[r["algo"]])
        ax.set_yticks(range(len(trained)), [r["label"] for r in trained])
        for r in (r for r in table if r["task"] == task and r["kind"] == "reference"):
            ax.axvline(r["score"], linestyle="--", linewidth=1, color="grey")
            ax.text(r["score"], 0.98, f" {r['label']}", transform=ax.get_xaxis_transform(), rotation=90, fontsize=7,
                    va="top", color="grey")
        if not trained:
            ax.text(0.5, 0.5, "no trained rows yet", transform=ax.transAxes, ha="center", fontsize=8, color="grey")
        ax.set_xlim(-0.2, 1.5)
        ax.set_ylim(-0.5, max(1, len(trained)) - 0.5)
        ax.set_title(get_task(task).short, fontsize=9)
        ax.set_xlabel("score (0 random, 1 heuristic)")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)
    if not trained_algos:
        return written

    per_algo: dict[str, dict[str, list[float]]] = defaultdict(dict)
    labels = {r["algo"]: r["label"] for r in table}
    for r in table:
        if r["kind"] == "trained":
            per_algo[r["algo"]][r["task"]] = r["run_scores"]
    shared = [t for t in tasks if all(t in per_task for per_task in per_algo.values())]  # every algorithm ran them
    if shared:
        fig, ax = plt.subplots(figsize=(5.5, 3.6), layout="constrained")
        taus = np.linspace(-0.25, 1.5, 101)
        for algo, per_task in per_algo.items():
            runs = min(len(per_task[t]) for t in shared)
            matrix = np.array([per_task[t][:runs] for t in shared]).T  # runs x tasks
            ax.plot(taus, stats.performance_profile(matrix, taus), label=labels[algo], color=colour[algo])
            lo, hi = stats.profile_band(matrix, taus)
            ax.fill_between(taus, lo, hi, alpha=0.2, color=colour[algo])
        ax.axvline(1.0, color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel("score (1 = the heuristic's level)")
        ax.set_ylabel("fraction of runs above")
        ax.set_title("performance profiles over the tasks every trained algorithm ran:\n"
                     + ", ".join(get_task(t).short for t in shared), fontsize=8)
        ax.legend(fontsize=8)
        written.append(out / PROFILES)
        fig.savefig(written[-1], dpi=110)
        plt.close(fig)

    trained_tasks = [t for t in tasks if any(t in per_task for per_task in per_algo.values())]
    fig, axes = plt.subplots(1, len(trained_tasks), figsize=(4.2 * len(trained_tasks), 3.4), squeeze=False,
                             layout="constrained")
    for ax, task in zip(axes[0], trained_tasks):
        for row in (r for r in rows if r.task == task and r.kind == "trained"):
            curves = [run["curve"] for run in row.runs]
            points = min(len(c) for c in curves)
            if points < 2:
                continue
            steps = [int(np.mean([c[k]["step"] for c in curves])) for k in range(points)]
            at = [Resampler({row.algo: [[c[k]["score"]] for c in curves]}, 2_000).estimate(row.algo) for k in range(points)]
            ax.plot(steps, [e.point for e in at], marker="o", label=row.label, color=colour[row.algo])
            ax.fill_between(steps, [e.lo for e in at], [e.hi for e in at], alpha=0.2, color=colour[row.algo])
        ax.axhline(1.0, color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel("env steps")
        ax.set_ylabel("score on the dev deals (IQM, 95% CI)")
        ax.set_title(get_task(task).short, fontsize=9)
        if ax.lines[:-1]:
            ax.legend(fontsize=7)
    written.append(out / CURVES)
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)
    return written
