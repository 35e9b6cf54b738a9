"""``phase10 benchmark``: train an algorithm on a task under the protocol
(``configs/benchmark/protocol.yaml``) for each seed, evaluate it, and write one results JSON
(format :data:`FORMAT`, schema ``agents/benchmark/result_schema.json``). Reference agents
(``--algo ref --agent SPEC``: random, heuristic, mcts, a saved model, ...) are only evaluated."""

from __future__ import annotations

import datetime
import json
import platform
import time
from pathlib import Path
from typing import Any

import yaml

from phase10_env.engine.config import shipped_configs

from ..policies.registry import make_agent
from . import algos
from .evaluate import evaluate
from .stats import interval
from .tasks import FINGERPRINTS, Task, fingerprint, get_task

FORMAT = "phase10-benchmark-result/1"
CONFIG_DIR = Path("configs/benchmark")  # below the working directory, else the copy shipped with the package
RESULTS_DIR = Path("results/benchmark")
MODELS_DIR = Path("runs/benchmark")
REFERENCE = "ref"


def resolve_config_dir(path: Path = CONFIG_DIR) -> Path:
    """``path``, or for the default one missing here, the benchmark configs shipped with the package."""
    if path == CONFIG_DIR and not path.is_dir():
        return shipped_configs() / "benchmark"
    return path


def load_yaml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise ValueError(f"no config at {str(path)!r} (pass --config-dir)")
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


def settings(task: Task, config_dir: Path, quick: bool) -> dict[str, Any]:
    """The protocol's settings for ``task`` (``quick``: with the quick mode's on top)."""
    protocol = load_yaml(config_dir / "protocol.yaml")
    if task.short not in protocol.get("tasks", {}):
        raise ValueError(f"{config_dir / 'protocol.yaml'} has no settings for task {task.short}")
    out = {"version": protocol["version"], "seeds": protocol["seeds"], "eval_seed": protocol["eval_seed"],
           "bootstrap_reps": protocol["bootstrap_reps"], **protocol["tasks"][task.short], "quick": quick}
    if quick:
        out.update(protocol["quick"])
    return out


def result_name(task: Task, algo: str) -> str:
    """The results file's name: ``<task>__<algo>.json`` (the agent spec for a reference, made
    safe for a file name)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in algo)
    return f"{task.short}__{safe}.json"


def run_benchmark(algo: str, task_name: str, seeds: int | None = None, quick: bool = False, agent: str | None = None,
                  games: int | None = None, config_dir: Path = CONFIG_DIR, out_dir: Path = RESULTS_DIR,
                  models_dir: Path = MODELS_DIR) -> Path:
    """Run the protocol for one algorithm (or reference agent) on one task; returns the JSON's path.
    ``games`` overrides the protocol's evaluation games (recorded; for slow agents such as mcts)."""
    task = get_task(task_name)
    config_dir = resolve_config_dir(config_dir)
    proto = settings(task, config_dir, quick)
    if algo == REFERENCE:
        if not agent:
            raise ValueError("--algo ref needs --agent SPEC (random, heuristic, mcts, ppo:PATH, ...)")
        make_agent(agent)  # a bad spec fails before any work
        label, name, hp, n_seeds = agent, agent, {}, seeds or 1
    else:
        if agent:
            raise ValueError("--agent is for --algo ref only")
        algos.require(algo)
        label, name, hp = algos.ALGOS[algo][0], algo, load_yaml(config_dir / f"{algo}.yaml")
        n_seeds = seeds or proto["seeds"]
    eval_games = games or proto["eval_games"]
    runs = []
    for seed in range(n_seeds):
        print(f"{task.short} / {label}: seed {seed + 1} of {n_seeds}", flush=True)
        runs.append(_run_one(algo, agent, task, seed, proto, hp, eval_games, models_dir / task.short / name))
    result = {
        "format": FORMAT,
        "task": task.id,
        "task_fingerprint": fingerprint(task),
        "task_fingerprint_released": FINGERPRINTS.get(task.id),
        "algo": name,
        "label": label,
        "kind": "reference" if algo == REFERENCE else "trained",
        "protocol": {**proto, "eval_games": eval_games, "eval_games_protocol": proto["eval_games"]},
        "hyperparameters": hp,
        "runs": runs,
        "summary": summarize(runs, proto["bootstrap_reps"]),
        "machine": {"python": platform.python_version(), "processor": platform.machine(), "node": platform.node()},
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / result_name(task, name)
    path.write_text(json.dumps(result, indent=1), encoding="utf-8")
    s = result["summary"]
    print(f"{task.short} / {label}: IQM {s['iqm']:.3f} [{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}] over {len(runs)} "
          f"run(s); wrote {path}")
    return path


def _run_one(algo: str, agent: str | None, task: Task, seed: int, proto: dict[str, Any], hp: dict[str, Any],
             eval_games: int, model_dir: Path) -> dict[str, Any]:
    """Train (or build) one seed's agent, evaluate it; the run's entry in the results JSON."""
    start = time.perf_counter()
    curve: list[dict[str, Any]] = []
    if algo == REFERENCE:
        trained = algos.Trained(make_agent(agent, seed), 0, 0.0)
    else:
        model_dir = model_dir / f"seed{seed}"
        model_dir.mkdir(parents=True, exist_ok=True)
        marks = algos.curve_steps(proto["budget"], proto["curve_points"])

        def on_curve(policy: Any, step: int) -> None:
            if step >= marks[-1]:  # the final evaluation below is the curve's last point
                return
            ev = evaluate(task, policy, proto["curve_games"], proto["eval_seed"])
            curve.append({"step": step, "score": ev.score, "games": len(ev.scores)})
            print(f"  step {step:,}: score {ev.score:.3f} over {len(ev.scores)} episodes", flush=True)

        trained = algos.train(algo, task, seed, proto["budget"], hp, marks, on_curve, model_dir)
    ev = evaluate(task, trained.agent, eval_games, proto["eval_seed"])
    if algo != REFERENCE:
        curve.append({"step": trained.env_steps, "score": ev.score, "games": len(ev.scores)})
    lo, hi = ev.ci95()
    print(f"  seed {seed}: score {ev.score:.3f} [{lo:.3f}, {hi:.3f}] over {len(ev.scores)} episodes; "
          f"{trained.env_steps:,} env steps, train {trained.train_seconds:.0f} s, eval {ev.seconds:.0f} s", flush=True)
    return {"seed": seed, "score": ev.score, "ci95": [lo, hi], "episodes": len(ev.scores),
            "episode_scores": ev.scores, "env_steps": trained.env_steps, "train_seconds": trained.train_seconds,
            "eval_seconds": ev.seconds, "eval_learner_steps": ev.learner_steps,
            "wall_seconds": time.perf_counter() - start, "model": trained.model, "curve": curve, **trained.notes}


def summarize(runs: list[dict[str, Any]], reps: int) -> dict[str, Any]:
    """IQM of the runs' scores with its stratified bootstrap 95% interval, and the mean."""
    scores = [r["score"] for r in runs]
    point, lo, hi = interval(scores, reps=reps)
    return {"iqm": point, "ci95": [lo, hi], "mean": sum(scores) / len(scores), "runs": len(scores),
            "env_steps": max(r["env_steps"] for r in runs),
            "train_seconds_per_run": sum(r["train_seconds"] for r in runs) / len(runs),
            "wall_seconds": sum(r["wall_seconds"] for r in runs)}
