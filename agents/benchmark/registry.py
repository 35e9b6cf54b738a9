"""The benchmark's algorithms: one registry, one contract (docs/BENCHMARK.md, "Adding an
algorithm").

An algorithm is a :class:`Algorithm`: a name, a label for the table, and a ``train`` function
from a :class:`TrainContext` (the task, the seed, the budget, the hyperparameters, a folder for
the model, the curve's checkpoints) to a :class:`Trained` (the agent to evaluate and the env
steps it used). :func:`register` adds one; ``phase10 benchmark --algo NAME`` runs it, and
``--algo MODULE:NAME`` imports ``MODULE`` first (which registers it), the way
``gymnasium.make("module:id")`` does. An unknown name is an error listing the registered ones.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phase10_env import Phase10Env
from phase10_env.policy import Policy

from .evaluate import evaluate
from .scoring import Scale, mean, win_rates
from .tasks import SELF_PLAY, Task, make_env


@dataclass
class Trained:
    """What training left: the agent to evaluate (any :class:`~phase10_env.policy.Policy`),
    the env steps (learner actions) training took, where its model was saved, and anything
    else worth recording in the results JSON (``notes``)."""

    agent: Policy
    env_steps: int
    model: str | None = None
    notes: dict[str, Any] = field(default_factory=dict)


@dataclass
class TrainContext:
    """What a ``train`` function is given. Train on envs from :meth:`make_env` for ``budget``
    env steps and call :meth:`checkpoint` when the steps reach each of ``marks`` (the last is
    the budget): it evaluates the agent for the learning curve (that time is not counted as
    training) and, on a self-play task, makes the learner's copy the opponents of every env
    :meth:`make_env` built (the task's fixed schedule)."""

    task: Task
    seed: int
    budget: int
    hyperparameters: dict[str, Any]
    model_dir: Path
    marks: tuple[int, ...]
    curve_games: int
    curve_seed: int
    scale: Scale
    curve: list[dict[str, Any]] = field(default_factory=list)
    checkpoint_seconds: float = 0.0
    _envs: list[Phase10Env] = field(default_factory=list)

    @property
    def self_play(self) -> bool:
        """Whether the other seats hold copies of the learner (set at each checkpoint)."""
        return self.task.train_opponents == SELF_PLAY

    def make_env(self, **overrides: Any) -> Phase10Env:
        """The task's training env: its training opponents and training reward (``overrides``:
        other ``Phase10Env`` options, e.g. ``illegal_action="penalize"``)."""
        env = make_env(self.task.id, **overrides)
        self._envs.append(env)
        return env

    def checkpoint(self, agent: Policy, env_steps: int, opponent: Policy | None = None) -> None:
        """A point of the learning curve: ``agent`` as it is after ``env_steps`` steps, scored on
        the dev deals. Self-play tasks: ``opponent`` (default: ``agent``; give a sampling copy
        if the agent is greedy) takes every other seat of the envs from :meth:`make_env`."""
        start = time.perf_counter()
        ev = evaluate(self.task, agent, self.curve_games, self.curve_seed)
        self.curve.append({"step": int(env_steps), "score": mean(self.scale.scores(ev.episodes)),
                           "win_rate": mean(win_rates(ev.episodes)), "games": len(ev.episodes)})
        print(f"  step {env_steps:,}: score {self.curve[-1]['score']:.3f} over {len(ev.episodes)} dev episodes",
              flush=True)
        if self.self_play:
            for env in self._envs:
                env.set_opponents(opponent or agent)
        self.checkpoint_seconds += time.perf_counter() - start


TrainFn = Callable[[TrainContext], Trained]
LoadFn = Callable[[str, Mapping[str, Any]], Policy]  # (a Trained.model path, the hyperparameters) -> the agent


@dataclass(frozen=True)
class Algorithm:
    """A trainable entrant. ``requires``: modules it imports (checked before any work, the
    error naming ``extra``, the pip extra that installs them); ``hyperparameters``: defaults,
    which ``<config-dir>/<name>.yaml`` overrides key by key when it exists; ``load``: how to
    rebuild the evaluated agent from the file ``Trained.model`` names, for
    ``phase10 benchmark-rescore`` (optional)."""

    name: str
    label: str
    train: TrainFn
    requires: tuple[str, ...] = ()
    extra: str | None = None
    hyperparameters: Mapping[str, Any] = field(default_factory=dict)
    load: LoadFn | None = None


ALGORITHMS: dict[str, Algorithm] = {}
RESERVED = ("ref",)  # --algo ref: a reference agent, evaluated without training


def register(algorithm: Algorithm) -> Algorithm:
    """Add ``algorithm`` to the registry (a name already taken by another is an error)."""
    name = algorithm.name
    if not name or name in RESERVED or ":" in name or "/" in name:
        raise ValueError(f"{name!r} cannot name an algorithm (empty, reserved, or with ':' or '/')")
    if name in ALGORITHMS and _origin(ALGORITHMS[name]) != _origin(algorithm):
        raise ValueError(f"an algorithm named {name!r} is registered already ({ALGORITHMS[name].label})")
    ALGORITHMS[name] = algorithm
    return algorithm


def _origin(algorithm: Algorithm) -> tuple[str, str]:
    """Where an algorithm's train function is defined (the same module imported twice registers again)."""
    return algorithm.train.__module__, algorithm.train.__qualname__


def get_algorithm(spec: str) -> Algorithm:
    """The algorithm ``spec`` names: a registered name, or ``MODULE:NAME`` (``MODULE`` is
    imported first); its libraries are checked."""
    from . import algos  # noqa: F401  (registers the built-in algorithms)

    module, _, name = spec.rpartition(":")
    if module:
        try:
            importlib.import_module(module)
        except ImportError as e:
            raise ValueError(f"--algo {spec}: cannot import {module!r}: {e}") from None
    if name not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; registered: {sorted(ALGORITHMS)} (or --algo ref --agent SPEC, "
                         "or --algo MODULE:NAME for one your module registers)")
    algorithm = ALGORITHMS[name]
    missing = [m for m in algorithm.requires if not _importable(m)]
    if missing:
        how = f': pip install -e ".[{algorithm.extra}]"' if algorithm.extra else ""
        where = (" in a virtual environment of its own (ray[rllib] pins gymnasium 1.2.2; see docs/training.md, \"Scaling out\")"
                 if algorithm.extra == "rllib" else "")
        raise ValueError(f"--algo {name} ({algorithm.label}) needs {', '.join(missing)}{how}{where}")
    return algorithm


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def curve_marks(budget: int, points: int) -> tuple[int, ...]:
    """The env steps of the curve's checkpoints: ``points`` evenly spaced, the last at the budget."""
    return tuple(round(budget * (k + 1) / points) for k in range(points))
