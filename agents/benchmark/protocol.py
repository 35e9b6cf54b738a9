"""The protocol's settings (``configs/benchmark/protocol.yaml``), read into typed objects once
and checked: the evaluation splits, the bootstrap, and per task the budget, the evaluation and
the primary score's scale. A results JSON records the settings it ran under; the report
compares them with these."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

from phase10_env.engine.config import shipped_configs

from .scoring import Scale
from .tasks import Task

CONFIG_DIR = Path("configs/benchmark")  # below the working directory, else the copy shipped with the package
SPLITS = ("dev", "test")


@dataclass(frozen=True)
class TaskSettings:
    """One task under the protocol. ``budget``: env steps (learner actions) of training per
    seed; ``eval_games``: episodes of the final evaluation; ``curve_points`` evaluations of
    ``curve_games`` episodes on the dev deals during training (the last at the budget);
    ``scale``: how the primary score is normalized."""

    budget: int
    eval_games: int
    curve_points: int
    curve_games: int
    scale: Scale

    def to_json(self) -> dict[str, Any]:
        return {**{k: v for k, v in asdict(self).items() if k != "scale"}, "score": self.scale.to_json()}


@dataclass(frozen=True)
class Protocol:
    version: int
    seeds: int
    splits: Mapping[str, int]
    bootstrap_reps: int
    tasks: Mapping[str, TaskSettings]
    quick: Mapping[str, int]

    def settings(self, task: Task, quick: bool = False) -> TaskSettings:
        """``task``'s settings (``quick``: with the quick mode's on top)."""
        if task.short not in self.tasks:
            raise ValueError(f"the protocol has no settings for task {task.short}")
        base = self.tasks[task.short]
        if not quick:
            return base
        q = self.quick
        return TaskSettings(budget=q.get("budget", base.budget), eval_games=q.get("eval_games", base.eval_games),
                            curve_points=q.get("curve_points", base.curve_points),
                            curve_games=q.get("curve_games", base.curve_games), scale=base.scale)

    def split_seed(self, split: str) -> int:
        if split not in self.splits:
            raise ValueError(f"unknown split {split!r}; splits are {list(self.splits)}")
        return self.splits[split]


def resolve_config_dir(path: Path = CONFIG_DIR) -> Path:
    """``path``, or for the default one missing here, the benchmark configs shipped with the package."""
    if path == CONFIG_DIR and not path.is_dir():
        return shipped_configs() / "benchmark"
    return path


def load_yaml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise ValueError(f"no config at {str(path)!r} (pass --config-dir)")
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of settings, not {type(data).__name__}")
    return data


def _int(data: Mapping[str, Any], key: str, where: str, low: int = 1) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{where}: {key} must be an integer of at least {low}, not {value!r}")
    return value


def load_protocol(config_dir: Path = CONFIG_DIR) -> Protocol:
    """The protocol in ``config_dir/protocol.yaml``, every setting checked."""
    path = resolve_config_dir(config_dir) / "protocol.yaml"
    data = load_yaml(path)
    splits = data.get("splits")
    if not isinstance(splits, dict) or set(splits) != set(SPLITS) or len(set(splits.values())) != len(SPLITS):
        raise ValueError(f"{path}: splits must give {list(SPLITS)} each its own seed, not {splits!r}")
    tasks = {}
    for name, t in (data.get("tasks") or {}).items():
        where = f"{path}: tasks.{name}"
        if not isinstance(t, dict):
            raise ValueError(f"{where} must be a mapping")
        tasks[name] = TaskSettings(budget=_int(t, "budget", where), eval_games=_int(t, "eval_games", where),
                                   curve_points=_int(t, "curve_points", where), curve_games=_int(t, "curve_games", where),
                                   scale=Scale.from_json(t.get("score"), where))
    quick = data.get("quick") or {}
    known = {"seeds", "budget", "eval_games", "curve_points", "curve_games"}
    if not isinstance(quick, dict) or set(quick) - known:
        raise ValueError(f"{path}: quick may set {sorted(known)}, not {quick!r}")
    return Protocol(version=_int(data, "version", str(path)), seeds=_int(data, "seeds", str(path)),
                    splits={k: int(v) for k, v in splits.items()},
                    bootstrap_reps=_int(data, "bootstrap_reps", str(path), 100), tasks=tasks,
                    quick={k: _int(quick, k, f"{path}: quick") for k in quick})
