"""The benchmark report: it merges seeds run apart, refuses files that cannot be merged into one
table (naming the file and the field), and reports references alone cleanly."""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents.benchmark.report import write_report
from agents.benchmark.run import run_benchmark
from tests.benchmark._entrants import NAME

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "configs" / "benchmark"
TASK = "OneHand-2p-Heuristic-v0"


@pytest.fixture(scope="module")
def quick_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Quick runs on the one-hand task: two seeds of the heuristic's copy, the random and
    heuristic reference agents."""
    out = tmp_path_factory.mktemp("results")
    kw: dict[str, Any] = {"quick": True, "config_dir": CONFIGS, "out_dir": out, "models_dir": out / "models"}
    seed0, seed1 = run_benchmark(NAME, TASK, seeds=[0, 1], **kw)
    [random] = run_benchmark("ref", TASK, agent="random", **kw)
    [heuristic] = run_benchmark("ref", TASK, agent="heuristic", **kw)
    return {"seed0": seed0, "seed1": seed1, "random": random, "heuristic": heuristic}


def _report(paths: list[Path], out: Path) -> list[dict[str, Any]]:
    write_report(paths, out, include_quick=True, config_dir=CONFIGS)
    rows: list[dict[str, Any]] = json.loads((out / "summary.json").read_text())
    return rows


def test_seeds_merge_and_every_pair_of_rows_is_compared(quick_results: dict[str, Path], tmp_path: Path) -> None:
    rows = _report(list(quick_results.values()), tmp_path)
    by_algo = {r["algo"]: r for r in rows}
    assert by_algo[NAME]["runs"] == 2 and by_algo["heuristic"]["runs"] == 1
    # The copy plays every deal as the heuristic does: the same score, and no difference between them.
    assert by_algo[NAME]["score"] == pytest.approx(by_algo["heuristic"]["score"])
    comparisons = json.loads((tmp_path / "comparisons.json").read_text())
    assert len(comparisons) == 3  # three rows, three pairs
    pair = next(c for c in comparisons if {c["x"], c["y"]} == {NAME, "heuristic"})
    assert pair["difference"] == pytest.approx(0) and pair["difference_ci95"] == pytest.approx([0, 0])
    assert pair["probability_of_improvement"] == 0.5
    assert (tmp_path / "curves.png").is_file() and (tmp_path / "profiles.png").is_file()


def test_references_alone_make_a_table_that_says_so(quick_results: dict[str, Path], tmp_path: Path) -> None:
    rows = _report([quick_results["random"], quick_results["heuristic"]], tmp_path)
    assert {r["kind"] for r in rows} == {"reference"}
    assert "No trained rows yet" in (tmp_path / "table.md").read_text()
    assert (tmp_path / "scores.png").is_file()
    assert not (tmp_path / "curves.png").exists() and not (tmp_path / "profiles.png").exists()
    for name in ("random", "heuristic"):  # the file holds the interval the table prints
        summary = json.loads(quick_results[name].read_text())["summary"]
        row = next(r for r in rows if r["algo"] == name)
        assert (summary["score"], summary["ci95"]) == (row["score"], row["ci95"])


def test_a_report_over_an_older_one_leaves_none_of_its_plots(quick_results: dict[str, Path], tmp_path: Path) -> None:
    _report(list(quick_results.values()), tmp_path)  # trained rows: learning curves and profiles
    _report([quick_results["random"], quick_results["heuristic"]], tmp_path)  # references alone: neither
    assert (tmp_path / "scores.png").is_file()
    assert not (tmp_path / "curves.png").exists() and not (tmp_path / "profiles.png").exists()


def test_quick_results_are_left_out_unless_asked(quick_results: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no results to report"):
        write_report([quick_results["heuristic"]], tmp_path, config_dir=CONFIGS)


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _too_few_episodes(data: dict[str, Any]) -> None:
    data["protocol"]["eval_games"] = 1
    data["runs"][0]["episodes"] = data["runs"][0]["episodes"][:1]


def _episodes_swapped(data: dict[str, Any]) -> None:
    episodes = data["runs"][0]["episodes"]
    episodes[0], episodes[1] = episodes[1], episodes[0]


def _not_a_result(data: dict[str, Any]) -> None:
    del data["runs"][0]["episodes"]


REFUSALS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("another protocol version", _set(("protocol", "version"), 1), r"protocol\.version: 1, but this report is of protocol 2"),
    ("another budget", _set(("protocol", "budget"), 20_000), r"protocol\.budget: 20000, but protocol 2 has 512"),
    ("another score scale", _set(("protocol", "score", "heuristic"), 3.0), r"protocol\.score"),
    ("another task fingerprint", _set(("task_fingerprint",), "0123456789abcdef"), "task_fingerprint: '0123456789abcdef' "
     "differs from the released"),
    ("deals of another seed", _set(("protocol", "eval_seed"), 7), "protocol.eval_seed: 7 is not the seed of the 'dev' deals"),
    ("a trained row on too few episodes", _too_few_episodes, r"protocol\.eval_games: a trained row evaluated on 1 "
     "episodes; the protocol evaluates on 4"),
    ("a score its episodes do not give", _set(("runs", 0, "score"), 1.0), r"runs\[0\]\.score: 1\.0, but its episodes give"),
    ("a win rate its episodes do not give", _set(("runs", 0, "win_rate"), 0.75), r"runs\[0\]\.win_rate"),
    ("episodes out of the protocol's order", _episodes_swapped, r"runs\[0\]\.episodes\[0\]: not the protocol's deal 0"),
    ("an unknown task", _set(("task",), "phase10_env/Nope-v0"), "task: unknown task 'phase10_env/Nope-v0'"),
    ("a file that is no result", _not_a_result, r"is not a benchmark result: 'episodes' is a required property "
     r"\(field runs/0\)"),
]


@pytest.mark.parametrize(("change", "message"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_a_file_that_does_not_fit_is_refused_by_file_and_field(quick_results: dict[str, Path], tmp_path: Path,
                                                              change: Callable[[dict[str, Any]], None],
                                                              message: str) -> None:
    data = json.loads(quick_results["seed1"].read_text())
    change(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=message) as e:
        _report([quick_results["seed0"], bad], tmp_path / "report")
    assert str(e.value).startswith(str(bad))
    assert not (tmp_path / "report").exists(), "nothing written"


def test_the_same_file_twice_is_refused(quick_results: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="given twice"):
        _report([quick_results["seed0"], quick_results["seed0"]], tmp_path)


def test_the_same_seed_in_two_files_is_refused(quick_results: dict[str, Path], tmp_path: Path) -> None:
    twin = tmp_path / "renamed.json"
    shutil.copy(quick_results["seed0"], twin)
    with pytest.raises(ValueError, match=rf"{twin}: runs\[0\]\.seed: seed 0 of {NAME} on {TASK} is in .*seed0\.json already"):
        _report([quick_results["seed0"], twin], tmp_path / "report")


def test_files_of_one_row_must_agree(quick_results: dict[str, Path], tmp_path: Path) -> None:
    data = json.loads(quick_results["seed1"].read_text())
    other = copy.deepcopy(data)
    other["hyperparameters"] = {"learning_rate": 1.0}
    (tmp_path / "hp.json").write_text(json.dumps(other))
    with pytest.raises(ValueError, match="hp.json: hyperparameters: differ from those of"):
        _report([quick_results["seed0"], tmp_path / "hp.json"], tmp_path / "report")
    data["split"] = "test"
    data["protocol"]["eval_seed"] = 31415926
    (tmp_path / "test.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match="test.json: split: 'test', but .* is of the 'dev' deals"):
        _report([quick_results["seed0"], tmp_path / "test.json"], tmp_path / "report")


def test_a_trained_run_past_its_budget_is_refused(tmp_path: Path) -> None:
    import yaml

    protocol = yaml.safe_load((CONFIGS / "protocol.yaml").read_text())
    protocol["tasks"][TASK].update(budget=64, eval_games=3, curve_points=1, curve_games=1)  # a tiny protocol, not quick
    (tmp_path / "protocol.yaml").write_text(yaml.safe_dump(protocol))
    [path] = run_benchmark(NAME, TASK, seeds=[0], config_dir=tmp_path, out_dir=tmp_path / "r", models_dir=tmp_path / "m")
    write_report([path], tmp_path / "fine", config_dir=tmp_path)
    data = json.loads(path.read_text())
    data["runs"][0]["env_steps"] = 65 * 10
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"runs\[0\]\.env_steps: 650 exceeds the budget of 64"):
        write_report([path], tmp_path / "report", config_dir=tmp_path)
