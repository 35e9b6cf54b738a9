"""``phase10 benchmark``: train an algorithm on a task under the protocol for each seed, evaluate
it on a split's deals, and write one results JSON per seed (format :data:`FORMAT`, schema
``agents/benchmark/result_schema.json``). Reference agents (``--algo ref --agent SPEC``:
random, heuristic, mcts, a saved model, ...) are only evaluated.

Nothing is overwritten: the files go to ``runs/benchmark/results`` unless ``out_dir`` says
otherwise, and a file that exists already is an error (before any work) unless ``overwrite``."""

from __future__ import annotations

import datetime
import json
import platform
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..policies.registry import make_agent
from ..training.ship import commit
from .evaluate import evaluate
from .protocol import CONFIG_DIR, Protocol, TaskSettings, load_protocol, load_yaml, resolve_config_dir
from .registry import Algorithm, TrainContext, curve_marks, get_algorithm
from .results import run_matrices
from .scoring import Scale, mean, win_rates
from .stats import Array, Resampler
from .tasks import FINGERPRINTS, Task, fingerprint, get_task

FORMAT = "phase10-benchmark-result/2"
RESULTS_DIR = Path("runs/benchmark/results")
MODELS_DIR = Path("runs/benchmark/models")
REFERENCE = "ref"
WIN = " (win rate)"  # the name of a row's win shares beside its scores in a Resampler
INTERVAL = "IQM over seeds; 95% percentile bootstrap interval resampling seeds and evaluation deals"


@dataclass(frozen=True)
class Entrant:
    """What is run: a registered algorithm, or a reference agent (``algorithm`` None)."""

    name: str
    label: str
    algorithm: Algorithm | None
    agent: str | None
    hyperparameters: dict[str, Any]

    @property
    def kind(self) -> str:
        return "reference" if self.algorithm is None else "trained"


def entrant(algo: str, agent: str | None, config_dir: Path) -> Entrant:
    """Resolve ``--algo`` (and ``--agent`` for a reference); a bad name or a missing library
    fails here, before any work."""
    if algo == REFERENCE:
        if not agent:
            raise ValueError("--algo ref needs --agent SPEC (random, heuristic, mcts, ppo:PATH, ...)")
        make_agent(agent)
        return Entrant(agent, agent, None, agent, {})
    if agent:
        raise ValueError("--agent is for --algo ref only")
    algorithm = get_algorithm(algo)
    path = resolve_config_dir(config_dir) / f"{algorithm.name}.yaml"
    hp = {**algorithm.hyperparameters, **(load_yaml(path) if path.is_file() else {})}
    return Entrant(algorithm.name, algorithm.label, algorithm, None, hp)


def result_name(task: Task, name: str, seed: int) -> str:
    """A results file's name: ``<task>__<algo>__seed<N>.json`` (a reference's agent spec made
    safe for a file name)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
    return f"{task.short}__{safe}__seed{seed}.json"


def results_paths(who: Entrant, task: Task, protocol: Protocol, seeds: Sequence[int] | None, quick: bool,
                  out_dir: Path) -> dict[int, Path]:
    """The results file of each seed (default seeds: the protocol's, 0 to ``seeds - 1``; a
    reference's: 0)."""
    if seeds is None:
        seeds = [0] if who.algorithm is None else list(range(protocol.quick.get("seeds", protocol.seeds)
                                                              if quick else protocol.seeds))
    if not seeds or len(set(seeds)) != len(seeds) or min(seeds) < 0:
        raise ValueError(f"seeds must be distinct non-negative integers, not {list(seeds)}")
    return {seed: out_dir / result_name(task, who.name, seed) for seed in seeds}


def refuse_taken(paths: Iterable[Path]) -> None:
    """A ``ValueError`` naming the results files among ``paths`` that exist already."""
    taken = [str(p) for p in paths if p.exists()]
    if taken:
        raise ValueError(f"{', '.join(taken)} exist(s) already: choose another --out, or pass --overwrite")


def run_benchmark(algo: str, task_name: str, seeds: Sequence[int] | None = None, split: str = "dev",
                  quick: bool = False, agent: str | None = None, games: int | None = None,
                  config_dir: Path = CONFIG_DIR, out_dir: Path = RESULTS_DIR, models_dir: Path = MODELS_DIR,
                  overwrite: bool = False) -> list[Path]:
    """Run the protocol for one algorithm (or reference agent) on one task, one results file
    per seed (see :func:`results_paths`); returns the files' paths. ``games`` replaces the
    protocol's evaluation episodes (references only: the report refuses a trained row
    evaluated on fewer)."""
    task = get_task(task_name)
    protocol = load_protocol(config_dir)
    settings = protocol.settings(task, quick)
    who = entrant(algo, agent, config_dir)
    if games is not None and who.algorithm is not None:
        raise ValueError("--games is for reference agents (--algo ref): trained rows use the protocol's evaluation")
    paths = results_paths(who, task, protocol, seeds, quick, out_dir)
    if not overwrite:
        refuse_taken(paths.values())
    eval_games = games or settings.eval_games
    seed_of_split = protocol.split_seed(split)
    out_dir.mkdir(parents=True, exist_ok=True)
    for seed in paths:
        print(f"{task.short} / {who.label}: seed {seed} ({split} deals)", flush=True)
        run = _run_one(who, task, seed, protocol, settings, eval_games, seed_of_split,
                       models_dir / task.short / who.name / f"seed{seed}")
        result: dict[str, Any] = {
            "format": FORMAT, "task": task.id, "task_fingerprint": fingerprint(task),
            "task_fingerprint_released": FINGERPRINTS.get(task.id), "algo": who.name, "algo_spec": algo, "label": who.label,
            "kind": who.kind, "split": split,
            "protocol": {"version": protocol.version, "eval_seed": seed_of_split, "bootstrap_reps": protocol.bootstrap_reps,
                         "quick": quick, **settings.to_json(), "eval_games": eval_games,
                         "eval_games_protocol": settings.eval_games},
            "hyperparameters": who.hyperparameters, "runs": [run],
            "summary": summarize([run], settings.scale, protocol.bootstrap_reps, who.name),
            "command": command(algo, task, seed, split, quick, agent, games),
            "commit": commit(),
            "machine": {"python": platform.python_version(), "processor": platform.machine(), "node": platform.node()},
            "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        }
        paths[seed].write_text(results_text(result), encoding="utf-8")
        s = result["summary"]
        print(f"{task.short} / {who.label}: seed {seed}: score {s['score']:.3f} [{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}], "
              f"win rate {s['win_rate']:.3f}; wrote {paths[seed]}", flush=True)
    return list(paths.values())


def results_text(result: dict[str, Any]) -> str:
    """``result`` as indented JSON with one line per episode (the episodes are most of a file)."""
    marks = {f"@episodes of run {i}@": run["episodes"] for i, run in enumerate(result["runs"])}
    text = json.dumps({**result, "runs": [{**run, "episodes": mark} for run, mark in zip(result["runs"], marks)]},
                      indent=1)
    for mark, episodes in marks.items():
        lines = ",\n".join("   " + json.dumps(e) for e in episodes)
        text = text.replace(json.dumps(mark), "[\n" + lines + "\n  ]")
    return text


def command(algo: str, task: Task, seed: int, split: str, quick: bool, agent: str | None, games: int | None) -> str:
    """The command that makes this run again."""
    parts = ["phase10 benchmark", f"--algo {algo}", f"--task {task.short}", f"--seed {seed}", f"--split {split}"]
    parts += [f"--agent {agent}"] * bool(agent) + [f"--games {games}"] * bool(games) + ["--quick"] * quick
    return " ".join(parts)


def _run_one(who: Entrant, task: Task, seed: int, protocol: Protocol, settings: TaskSettings, eval_games: int,
             split_seed: int, model_dir: Path) -> dict[str, Any]:
    """Train (or build) one seed's agent and evaluate it: the run's entry in the results JSON."""
    start = time.perf_counter()
    ctx = TrainContext(task=task, seed=seed, budget=settings.budget, hyperparameters=who.hyperparameters,
                       model_dir=model_dir, marks=curve_marks(settings.budget, settings.curve_points),
                       curve_games=settings.curve_games, curve_seed=protocol.split_seed("dev"), scale=settings.scale)
    if who.algorithm is None:
        assert who.agent is not None
        agent, env_steps, model, notes = make_agent(who.agent, seed), 0, None, {}
    else:
        model_dir.mkdir(parents=True, exist_ok=True)
        trained = who.algorithm.train(ctx)
        agent, env_steps, model, notes = trained.agent, trained.env_steps, trained.model, trained.notes
    train_seconds = time.perf_counter() - start - ctx.checkpoint_seconds
    ev = evaluate(task, agent, eval_games, split_seed)
    scores = settings.scale.scores(ev.episodes)
    return {"seed": seed, "score": mean(scores), "win_rate": mean(win_rates(ev.episodes)), "env_steps": env_steps,
            "train_seconds": train_seconds, "eval_seconds": ev.seconds, "wall_seconds": time.perf_counter() - start,
            "model": model, "curve": ctx.curve, "notes": notes, "episodes": [e.to_json() for e in ev.episodes]}


def row_resampler(rows: Mapping[str, tuple[Array, Array]], reps: int) -> Resampler:
    """One resampler for the primary scores and the win shares (``seeds x deals`` each) of
    rows over the same deals; a row's win rate is named ``name + WIN``."""
    named: dict[str, Array] = {}
    for name, (score, wins) in rows.items():
        named[name], named[name + WIN] = score, wins
    return Resampler(named, reps)


def summarize(runs: list[dict[str, Any]], scale: Scale, reps: int, name: str) -> dict[str, Any]:
    """The IQM over the runs of the primary score and of the win rate, with their two-level
    (seeds and deals) bootstrap 95% intervals: for a reference's single run, the figures the
    report prints for its row (``name``: the row's algorithm, which seeds its resampling)."""
    resampler = row_resampler({name: run_matrices(runs, scale)}, reps)
    s, w = resampler.estimate(name), resampler.estimate(name + WIN)
    return {"score": s.point, "ci95": s.ci95, "win_rate": w.point, "win_rate_ci95": w.ci95, "runs": len(runs),
            "interval": INTERVAL}
