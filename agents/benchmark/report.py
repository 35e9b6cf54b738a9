"""``phase10 benchmark-report``: any set of results JSONs (ours and anyone's, validated against
``result_schema.json``) into one table and three plots.

* ``table.md``: per task and algorithm, the IQM of the runs' scores with its stratified
  bootstrap 95% interval, runs, env steps and wall time (reference agents: their score with
  the Wilson interval of its episodes, as they have no training seeds);
* ``scores.png``: the same, one panel per task, reference agents as lines;
* ``profiles.png``: performance profiles over all tasks' runs of each algorithm that has all
  tasks, on the score relative to the task's even share (1 = as good as the heuristic);
* ``curves.png``: learning curves, IQM over seeds with 95% intervals, per task;
* ``summary.json``: the figures of the table.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from . import stats
from .tasks import get_task

SCHEMA_PATH = Path(__file__).with_name("result_schema.json")


def load_results(paths: list[Path], include_quick: bool = False) -> list[dict[str, Any]]:
    """The results in ``paths``, each checked against the schema (a bad file is an error naming
    it and the problem); ``--quick`` results are left out unless ``include_quick``."""
    import jsonschema

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    out = []
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            jsonschema.validate(data, schema)
        except (OSError, json.JSONDecodeError) as e:
            raise ValueError(f"{path}: {e}") from None
        except jsonschema.ValidationError as e:
            raise ValueError(f"{path} is not a benchmark result: {e.message} (at {'/'.join(map(str, e.path))})") from None
        if include_quick or not data["protocol"]["quick"]:
            out.append(data)
    if not out:
        raise ValueError("no results to report (--quick results are left out unless --include-quick)")
    return out


def _cell(point: float, lo: float, hi: float) -> str:
    return f"{point:.3f} [{lo:.3f}, {hi:.3f}]"


def summarize(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per task and algorithm (results of the same pair pooled run by run)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        groups[(r["task"], r["algo"])].append(r)
    rows = []
    for (task, algo), rs in groups.items():
        runs = [run for r in rs for run in r["runs"]]
        scores = np.array([run["score"] for run in runs])
        first = rs[0]
        reps = first["protocol"]["bootstrap_reps"]
        row = {"task": task, "algo": algo, "label": first["label"], "kind": first["kind"], "runs": len(runs),
               "env_steps": max(run["env_steps"] for run in runs),
               "train_minutes_per_run": float(np.mean([run["train_seconds"] for run in runs])) / 60,
               "wall_minutes_per_run": float(np.mean([run.get("wall_seconds", run["train_seconds"] + run["eval_seconds"])
                                                      for run in runs])) / 60,
               "eval_games": first["protocol"]["eval_games"], "quick": first["protocol"]["quick"],
               "protocol_version": first["protocol"]["version"], "scores": scores.tolist()}
        if first["kind"] == "reference":
            episodes = [s for run in runs for s in run["episode_scores"]]
            from ..evaluation.tournament import wilson_interval

            lo, hi = wilson_interval(sum(episodes), len(episodes))
            row.update(score=float(np.mean(episodes)), ci95=[lo, hi], interval="Wilson, over episodes")
        else:
            point, lo, hi = stats.interval(scores, reps=reps)
            row.update(score=point, ci95=[lo, hi], interval="IQM, stratified bootstrap over seeds")
        rows.append(row)
    rows.sort(key=lambda r: (r["task"], r["kind"] != "trained", -r["score"]))
    return rows


def markdown_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| task | algorithm | score (95% CI) | runs | env steps | train min / run | wall min / run | eval episodes |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        kind = " (reference)" if r["kind"] == "reference" else ""
        quick = " (quick)" if r["quick"] else ""
        lines.append(f"| {get_task(r['task']).short}{quick} | {r['label']}{kind} | {_cell(r['score'], *r['ci95'])} | "
                     f"{r['runs']} | {r['env_steps']:,} | {r['train_minutes_per_run']:.1f} | {r['wall_minutes_per_run']:.1f} | "
                     f"{r['eval_games']} |")
    lines.append("")
    lines.append("Trained algorithms: IQM over seeds, stratified bootstrap 95% interval. References: the score over "
                 "all their evaluation episodes, Wilson 95% interval. Scores: share of hands won (OneHand) or "
                 "games won (the others), in the protocol's evaluation. Wall time per run: training, curve and final "
                 "evaluations.")
    return "\n".join(lines) + "\n"


def write_report(paths: list[Path], out: Path, include_quick: bool = False) -> list[Path]:
    """Write table.md, summary.json and the plots to ``out``; returns the files written."""
    results = load_results(paths, include_quick)
    rows = summarize(results)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "table.md", out / "summary.json"]
    written[0].write_text(markdown_table(rows), encoding="utf-8")
    written[1].write_text(json.dumps(rows, indent=1), encoding="utf-8")
    written += _plots(results, rows, out)
    return written


def _plots(results: list[dict[str, Any]], rows: list[dict[str, Any]], out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tasks = sorted({r["task"] for r in rows})
    written = []

    algos = sorted({r["algo"] for r in rows if r["kind"] == "trained"})
    colour = {a: f"C{i % 10}" for i, a in enumerate(algos)}  # one colour per algorithm in every plot
    fig, axes = plt.subplots(1, len(tasks), figsize=(4.2 * len(tasks), 3.4), squeeze=False)
    for ax, task in zip(axes[0], tasks):
        trained = [r for r in rows if r["task"] == task and r["kind"] == "trained"]
        for i, r in enumerate(trained):
            ax.errorbar(r["score"], i, xerr=[[r["score"] - r["ci95"][0]], [r["ci95"][1] - r["score"]]], fmt="o", capsize=4,
                        color=colour[r["algo"]])
        ax.set_yticks(range(len(trained)), [r["label"] for r in trained])
        for r in (r for r in rows if r["task"] == task and r["kind"] == "reference"):
            ax.axvline(r["score"], linestyle="--", linewidth=1, color="grey")
            ax.text(r["score"], 0.98, f" {r['label']}", transform=ax.get_xaxis_transform(), rotation=90, fontsize=7,
                    va="top", color="grey")
        ax.set_xlim(0, 1)
        ax.set_ylim(-0.5, max(1, len(trained)) - 0.5)
        ax.set_title(get_task(task).short, fontsize=9)
        ax.set_xlabel("score (IQM, 95% CI)")
    fig.tight_layout()
    written.append(out / "scores.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)

    by_algo: dict[str, dict[str, list[float]]] = defaultdict(dict)
    labels = {}
    for r in rows:
        if r["kind"] == "trained":
            share = get_task(r["task"]).even_share
            by_algo[r["algo"]][r["task"]] = [s / share for s in r["scores"]]
            labels[r["algo"]] = r["label"]
    complete = {a: t for a, t in by_algo.items() if set(t) == set(tasks)}
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    taus = np.linspace(0, 2.5, 101)
    for algo, per_task in complete.items():
        runs = min(len(v) for v in per_task.values())
        matrix = np.array([per_task[t][:runs] for t in tasks]).T  # runs x tasks
        ax.plot(taus, stats.performance_profile(matrix, taus), label=labels[algo], color=colour[algo])
        lo, hi = stats.profile_band(matrix, taus)
        ax.fill_between(taus, lo, hi, alpha=0.2, color=colour[algo])
    ax.axvline(1.0, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("score / even share (1 = the heuristic's level)")
    ax.set_ylabel("fraction of runs above")
    ax.set_title(f"performance profiles over {len(tasks)} task(s)", fontsize=9)
    if complete:
        ax.legend(fontsize=8)
    fig.tight_layout()
    written.append(out / "profiles.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)

    fig, axes = plt.subplots(1, len(tasks), figsize=(4.2 * len(tasks), 3.4), squeeze=False)
    for ax, task in zip(axes[0], tasks):
        for r in (r for r in results if r["task"] == task and r["kind"] == "trained"):
            curves = [run["curve"] for run in r["runs"]]
            points = min(len(c) for c in curves)
            if points < 2:
                continue
            steps = [int(np.mean([c[k]["step"] for c in curves])) for k in range(points)]
            ests = [stats.interval([c[k]["score"] for c in curves], reps=500) for k in range(points)]
            ax.plot(steps, [e[0] for e in ests], marker="o", label=r["label"], color=colour[r["algo"]])
            ax.fill_between(steps, [e[1] for e in ests], [e[2] for e in ests], alpha=0.2, color=colour[r["algo"]])
        ax.axhline(get_task(task).even_share, color="grey", linestyle="--", linewidth=1)
        ax.set_ylim(0, 1)
        ax.set_xlabel("env steps")
        ax.set_ylabel("score (IQM over seeds, 95% CI)")
        ax.set_title(get_task(task).short, fontsize=9)
        if ax.lines[:-1]:
            ax.legend(fontsize=7)
    fig.tight_layout()
    written.append(out / "curves.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)
    return written
