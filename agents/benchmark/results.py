"""Reading results JSONs for the report, and refusing what cannot be merged into one table.

Every file is checked against ``result_schema.json`` and then against the protocol and the
other files: a file given twice or a seed present twice, another protocol version, budget,
split, evaluation or score scale, a task fingerprint other than the released one, a trained
run evaluated on fewer episodes than the protocol's, episodes that are not the protocol's
deals, and a run whose ``score`` or ``win_rate`` is not what its episodes give. Each refusal
is a ``ValueError`` naming the file and the field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .evaluate import Episode, deal_layout
from .protocol import Protocol
from .scoring import Scale, mean, win_rates
from .stats import Array
from .tasks import FINGERPRINTS, get_task

SCHEMA_PATH = Path(__file__).with_name("result_schema.json")
TOLERANCE = 1e-9  # a recorded score may differ from its recomputation by rounding alone
BUDGET_SLACK = 1.01  # on-policy learners stop at the first rollout boundary past the budget


@dataclass
class Row:
    """The results of one algorithm (or reference agent) on one task, from one or more files."""

    task: str
    algo: str
    label: str
    kind: str
    split: str
    quick: bool
    scale: Scale
    budget: int
    eval_games: int
    eval_games_protocol: int
    hyperparameters: dict[str, Any]
    runs: list[dict[str, Any]] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    def matrices(self) -> tuple[Array, Array]:
        """``seeds x deals`` arrays of the primary score and of the win share."""
        return run_matrices(self.runs, self.scale)


def run_matrices(runs: Sequence[dict[str, Any]], scale: Scale) -> tuple[Array, Array]:
    """The per-episode primary scores and win shares of ``runs`` (each a results JSON run),
    ``seeds x deals``."""
    episodes = [[Episode.from_json(e) for e in run["episodes"]] for run in runs]
    return (np.array([scale.scores(eps) for eps in episodes], dtype=float),
            np.array([win_rates(eps) for eps in episodes], dtype=float))


def _schema_check(path: Path) -> dict[str, Any]:
    import jsonschema

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        jsonschema.validate(data, schema)
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: {e}") from None
    except jsonschema.ValidationError as e:
        where = "/".join(map(str, e.absolute_path)) or "the top level"
        raise ValueError(f"{path} is not a benchmark result: {e.message} (field {where})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not a benchmark result")
    return data


def _refuse(path: Path, field_: str, problem: str) -> ValueError:
    return ValueError(f"{path}: {field_}: {problem}")


def _check_protocol(path: Path, data: dict[str, Any], protocol: Protocol) -> Scale:
    """The file ran under ``protocol`` (its version, the task's settings, the split's deals)."""
    try:
        task = get_task(data["task"])
    except ValueError as e:
        raise _refuse(path, "task", str(e)) from None
    p = data["protocol"]
    if p["version"] != protocol.version:
        raise _refuse(path, "protocol.version", f"{p['version']}, but this report is of protocol {protocol.version}")
    released = FINGERPRINTS.get(task.id)
    if data.get("task_fingerprint") != released:
        raise _refuse(path, "task_fingerprint", f"{data.get('task_fingerprint')!r} differs from the released {released!r} "
                      f"of {task.short}: the task changed since")
    settings = protocol.settings(task, p["quick"]).to_json()
    for key in ("budget", "curve_points", "curve_games", "score"):
        if p.get(key) != settings[key]:
            raise _refuse(path, f"protocol.{key}", f"{p.get(key)!r}, but protocol {protocol.version} has {settings[key]!r}")
    if p["eval_games_protocol"] != settings["eval_games"]:
        raise _refuse(path, "protocol.eval_games_protocol", f"{p['eval_games_protocol']!r}, but protocol "
                      f"{protocol.version} has {settings['eval_games']}")
    if p["eval_games"] > settings["eval_games"]:
        raise _refuse(path, "protocol.eval_games", f"{p['eval_games']} episodes, more than the protocol's "
                      f"{settings['eval_games']}")
    if p["eval_seed"] != protocol.split_seed(data["split"]):
        raise _refuse(path, "protocol.eval_seed", f"{p['eval_seed']} is not the seed of the {data['split']!r} deals "
                      f"({protocol.split_seed(data['split'])})")
    if data["kind"] == "trained" and p["eval_games"] < settings["eval_games"]:
        raise _refuse(path, "protocol.eval_games", f"a trained row evaluated on {p['eval_games']} episodes; the protocol "
                      f"evaluates on {settings['eval_games']}")
    return Scale.from_json(p["score"], f"{path}: protocol.score")


def _check_runs(path: Path, data: dict[str, Any], scale: Scale) -> None:
    """Every run holds the protocol's deals, and its scores are what its episodes give."""
    task = get_task(data["task"])
    p = data["protocol"]
    for i, run in enumerate(data["runs"]):
        where = f"runs[{i}]"
        if len(run["episodes"]) != p["eval_games"]:
            raise _refuse(path, f"{where}.episodes", f"{len(run['episodes'])} episodes, but protocol.eval_games is "
                          f"{p['eval_games']}")
        episodes = [Episode.from_json(e) for e in run["episodes"]]
        for g, e in enumerate(episodes):
            if e.deal != g or (e.seat, e.first_dealer) != deal_layout(task, g) or len(e.phases) != task.num_players \
                    or len(e.points) != task.num_players or not set(e.winners) <= set(range(task.num_players)):
                raise _refuse(path, f"{where}.episodes[{g}]", "not the protocol's deal "
                              f"{g} (seat {deal_layout(task, g)[0]}, first dealer {deal_layout(task, g)[1]}, "
                              f"{task.num_players} seats)")
        for name, value in (("score", mean(scale.scores(episodes))), ("win_rate", mean(win_rates(episodes)))):
            if not math.isclose(run[name], value, rel_tol=0, abs_tol=TOLERANCE):
                raise _refuse(path, f"{where}.{name}", f"{run[name]!r}, but its episodes give {value!r}")
        if data["kind"] == "trained" and not p["quick"] and run["env_steps"] > p["budget"] * BUDGET_SLACK:
            raise _refuse(path, f"{where}.env_steps", f"{run['env_steps']:,} exceeds the budget of {p['budget']:,}")


def check_file(path: Path, protocol: Protocol) -> dict[str, Any]:
    """The results file at ``path``, checked against the schema, ``protocol`` and its own
    episodes."""
    data = _schema_check(path)
    _check_runs(path, data, _check_protocol(path, data, protocol))
    return data


def load_rows(paths: Sequence[Path], protocol: Protocol, include_quick: bool = False) -> list[Row]:
    """The rows of the files in ``paths`` (``--quick`` ones left out unless ``include_quick``),
    every file checked (see the module docstring)."""
    seen_paths: dict[Path, Path] = {}
    rows: dict[tuple[str, str], Row] = {}
    seeds: dict[tuple[str, str, int], Path] = {}
    split: tuple[str, Path] | None = None
    for path in paths:
        resolved = path.resolve()
        if resolved in seen_paths:
            raise ValueError(f"{path}: given twice (as {seen_paths[resolved]} too)")
        seen_paths[resolved] = path
        data = check_file(path, protocol)
        if data["protocol"]["quick"] and not include_quick:
            continue
        if split is None:
            split = (data["split"], path)
        elif data["split"] != split[0]:
            raise _refuse(path, "split", f"{data['split']!r}, but {split[1]} is of the {split[0]!r} deals: "
                          "one table, one split")
        key = (data["task"], data["algo"])
        p = data["protocol"]
        row = rows.setdefault(key, Row(task=data["task"], algo=data["algo"], label=data["label"], kind=data["kind"],
                                       split=data["split"], quick=p["quick"], scale=Scale.from_json(p["score"], str(path)),
                                       budget=p["budget"],
                                       eval_games=p["eval_games"], eval_games_protocol=p["eval_games_protocol"],
                                       hyperparameters=data["hyperparameters"]))
        for name, mine, theirs in (("kind", data["kind"], row.kind), ("protocol.quick", p["quick"], row.quick),
                                   ("protocol.eval_games", p["eval_games"], row.eval_games)):
            if mine != theirs:
                raise _refuse(path, name, f"{mine!r}, but {row.files[0]} (same task and algorithm) has {theirs!r}")
        if data["hyperparameters"] != row.hyperparameters:
            raise _refuse(path, "hyperparameters", f"differ from those of {row.files[0]} (same task and algorithm)")
        for i, run in enumerate(data["runs"]):
            other = seeds.setdefault((data["task"], data["algo"], run["seed"]), path)
            if other is not path:
                raise _refuse(path, f"runs[{i}].seed", f"seed {run['seed']} of {data['algo']} on "
                              f"{get_task(data['task']).short} is in {other} already")
            row.runs.append(run)
        row.files.append(path)
    if not rows:
        raise ValueError("no results to report (--quick results are left out unless --include-quick)")
    return sorted(rows.values(), key=lambda r: (r.task, r.kind != "trained", r.algo))
