"""The benchmark: its versioned tasks, the fixed evaluation and its episode records, the
scores, the protocol's settings, the registry of algorithms, runs that never overwrite, and the
shipped results (the statistics: test_benchmark_stats.py; the report's refusals:
test_benchmark_report.py)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import gymnasium
import jsonschema
import pytest
import yaml

from agents.benchmark.evaluate import Episode, deal_layout, evaluate
from agents.benchmark.protocol import load_protocol
from agents.benchmark.registry import ALGORITHMS, Algorithm, get_algorithm, register
from agents.benchmark.report import write_report
from agents.benchmark.results import SCHEMA_PATH, check_file
from agents.benchmark.run import RESULTS_DIR, run_benchmark
from agents.benchmark.scoring import Scale, phase_lead, point_margin
from agents.benchmark.tasks import FINGERPRINTS, TASKS, fingerprint, get_task, make_env
from agents.cli import build_parser, main
from agents.policies.registry import make_agent
from tests.benchmark._entrants import train_like_the_heuristic

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "configs" / "benchmark"
SHIPPED = ROOT / "results" / "benchmark"
SCHEMA = json.loads(SCHEMA_PATH.read_text())


# ---------------------------------------------------------------------- tasks

def test_every_task_is_registered_under_its_versioned_id() -> None:
    assert set(TASKS) == {"phase10_env/OneHand-2p-Heuristic-v0", "phase10_env/ShortGame-2p-Heuristic-v0",
                          "phase10_env/FullGame-2p-Random-v0", "phase10_env/FullGame-2p-Heuristic-v0",
                          "phase10_env/SelfPlay-4p-v0"}
    for task_id, task in TASKS.items():
        assert gymnasium.spec(task_id).entry_point == "agents.benchmark.tasks:make_env"
        env = gymnasium.make(task_id).unwrapped
        obs, info = env.reset(seed=0)
        assert env.num_players == task.num_players and obs.shape == env.observation_space.shape
        assert info["action_mask"].any()
    assert get_task("OneHand-2p-Heuristic-v0") is TASKS["phase10_env/OneHand-2p-Heuristic-v0"]
    with pytest.raises(ValueError, match="unknown task"):
        get_task("OneHand-v9")


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_a_task_version_does_not_change_silently(task_id: str) -> None:
    assert fingerprint(TASKS[task_id]) == FINGERPRINTS[task_id], (
        f"{task_id}: its rules, encoding, options, or the heuristic's play changed; results of the old version no "
        "longer compare. Register the task under a new version (-v1) and record its fingerprint in FINGERPRINTS")


def test_the_one_hand_task_ends_with_the_hand() -> None:
    task = get_task("OneHand-2p-Heuristic-v0")
    for e in evaluate(task, make_agent("heuristic"), 6, seed=3).episodes:
        assert e.hands == 1 and max(e.phases) <= 1, "one hand: at most phase 1 made"
        assert len(e.winners) == 1 and e.points[e.winners[0]] == 0, "the one who went out holds no points"


def test_the_short_game_ends_when_a_player_completes_three_phases() -> None:
    task = get_task("ShortGame-2p-Heuristic-v0")
    for e in evaluate(task, make_agent("heuristic"), 4, seed=3).episodes:
        assert max(e.phases) == 3 and all(e.phases[w] == 3 for w in e.winners)


def test_the_random_opponent_task_seats_random_play() -> None:
    env = make_env("FullGame-2p-Random-v0")
    assert all(type(p).__name__ == "RandomAgent" for p in env.opponents)


# ---------------------------------------------------------------------- evaluation and scores

def test_evaluation_is_fixed_by_its_seed_and_rotates_seats_and_dealers() -> None:
    task = get_task("SelfPlay-4p-v0")
    first = evaluate(task, make_agent("heuristic"), 5, seed=5).episodes
    assert first == evaluate(task, make_agent("heuristic"), 5, seed=5).episodes
    assert [(e.deal, e.seat, e.first_dealer) for e in first] == [(g, g % 4, (g // 4) % 4) for g in range(5)]
    assert [deal_layout(task, g) for g in range(5)] == [(e.seat, e.first_dealer) for e in first]
    with pytest.raises(ValueError, match="at least 1"):
        evaluate(task, make_agent("random"), 0, seed=5)


def test_episode_records_round_trip_and_give_every_measure() -> None:
    # Four players; the learner (seat 1) completed 5 phases and holds 50 points; the best
    # opponent on phases has 7 (seat 3), on points 5 (seat 2); seat 3 won.
    e = Episode(deal=1, seat=1, first_dealer=0, phases=(4, 5, 6, 7), points=(10, 50, 5, 70), winners=(3,), hands=12,
                learner_steps=180, truncated=False)
    assert Episode.from_json(json.loads(json.dumps(e.to_json()))) == e
    assert point_margin(e) == 5 - 50 and phase_lead(e) == 5 - 7 and e.win == 0.0
    tied = Episode(1, 1, 0, (10, 10), (40, 40), (0, 1), 11, 200, False)
    assert tied.win == 0.5, "tied winners share the win"


def test_the_scale_puts_random_at_zero_and_the_heuristic_at_one() -> None:
    scale = Scale("point_margin", random=-500.0, heuristic=0.0)
    at = [Episode(0, 0, 0, (1, 10), (500 + m, 500), (1,), 10, 200, False) for m in (500, 0, -250)]
    assert scale.scores(at) == [0.0, 1.0, 1.5]
    with pytest.raises(ValueError, match="unknown measure"):
        Scale("elo", 0.0, 1.0)
    with pytest.raises(ValueError, match="equal"):
        Scale("point_margin", 3.0, 3.0)


# ---------------------------------------------------------------------- the protocol's settings

def _protocol_copy(tmp_path: Path, change: dict[str, object] | None = None) -> Path:
    data = yaml.safe_load((CONFIGS / "protocol.yaml").read_text())
    data.update(change or {})
    (tmp_path / "protocol.yaml").write_text(yaml.safe_dump(data))
    return tmp_path


@pytest.mark.parametrize(("change", "message"), [
    ({"splits": {"dev": 1, "test": 1}}, "splits must give"),
    ({"splits": {"dev": 1}}, "splits must give"),
    ({"bootstrap_reps": 10}, "bootstrap_reps must be an integer of at least 100"),
    ({"tasks": {"SelfPlay-4p-v0": {"budget": 10, "eval_games": 2, "curve_points": 1, "curve_games": 1,
                                   "score": {"measure": "elo", "random": 0, "heuristic": 1}}}}, "unknown measure 'elo'"),
    ({"tasks": {"SelfPlay-4p-v0": {"budget": 0}}}, "tasks.SelfPlay-4p-v0: budget must be"),
    ({"quick": {"budget": 10, "speed": 2}}, "quick may set"),
])
def test_bad_protocol_settings_are_refused_by_name(tmp_path: Path, change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_protocol(_protocol_copy(tmp_path, change))


def test_the_protocol_has_every_task_and_a_held_out_split() -> None:
    protocol = load_protocol(CONFIGS)
    assert protocol.version == 2 and set(protocol.tasks) == {t.short for t in TASKS.values()}
    assert protocol.splits["dev"] != protocol.splits["test"] and protocol.bootstrap_reps >= 50_000


# ---------------------------------------------------------------------- algorithms

def test_an_unknown_algorithm_is_an_error_listing_the_registered_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown algorithm 'a2c'; registered: \[.*'ppo'.*\]") as e:
        get_algorithm("a2c")
    assert "ray" not in str(e.value), "no fall-through to RLlib"
    with pytest.raises(SystemExit, match="unknown algorithm 'a2c'"):
        main(["benchmark", "--algo", "a2c", "--task", "OneHand-2p-Heuristic-v0", "--quick"])


def test_algorithms_without_their_library_name_the_extra() -> None:
    for algo, extra in (("dqn", "integrations"), ("rllib-ppo", "rllib")):
        try:
            get_algorithm(algo)
        except ValueError as e:
            assert f'pip install -e ".[{extra}]"' in str(e)
    with pytest.raises(SystemExit, match="needs --agent"):
        main(["benchmark", "--algo", "ref", "--task", "OneHand-2p-Heuristic-v0", "--quick", "--config-dir", str(CONFIGS)])


def test_module_colon_name_imports_the_module_that_registers_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_entrant.py").write_text(
        "from agents.benchmark import Algorithm, register\n"
        "from tests.benchmark._entrants import train_like_the_heuristic\n"
        "register(Algorithm('my-entrant', 'my entrant', train_like_the_heuristic))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(ALGORITHMS, "my-entrant", raising=False)
    assert get_algorithm("my_entrant:my-entrant").label == "my entrant"
    with pytest.raises(ValueError, match="cannot import 'no_such_module'"):
        get_algorithm("no_such_module:x")
    with pytest.raises(ValueError, match="registered already"):
        register(Algorithm("ppo", "another PPO", train_like_the_heuristic))


# ---------------------------------------------------------------------- runs

def test_runs_never_overwrite_and_seeds_run_apart_merge(tmp_path: Path) -> None:
    out = tmp_path / "results"
    kw = {"quick": True, "config_dir": CONFIGS, "out_dir": out, "models_dir": tmp_path / "models"}
    [first] = run_benchmark("heuristic-copy", "OneHand-2p-Heuristic-v0", seeds=[0], **kw)
    before = first.read_text()
    with pytest.raises(ValueError, match="exist"):
        run_benchmark("heuristic-copy", "OneHand-2p-Heuristic-v0", seeds=[3, 0], **kw)
    assert first.read_text() == before and not (out / "OneHand-2p-Heuristic-v0__heuristic-copy__seed3.json").exists()
    main(["benchmark", "--algo", "heuristic-copy", "--task", "OneHand-2p-Heuristic-v0", "--quick", "--seed", "3",
          "--out", str(out), "--models", str(tmp_path / "models"), "--config-dir", str(CONFIGS)])
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files] == ["OneHand-2p-Heuristic-v0__heuristic-copy__seed0.json",
                                       "OneHand-2p-Heuristic-v0__heuristic-copy__seed3.json"]
    write_report(files, tmp_path / "report", include_quick=True, config_dir=CONFIGS)
    [row] = json.loads((tmp_path / "report" / "summary.json").read_text())
    assert row["runs"] == 2 and row["seeds"] == [0, 3]
    # --task all checks every task's files before it runs any: the last task's file is in the way.
    fresh = tmp_path / "all"
    fresh.mkdir()
    (fresh / "SelfPlay-4p-v0__heuristic-copy__seed0.json").write_text("{}")
    with pytest.raises(SystemExit, match="SelfPlay-4p-v0__heuristic-copy__seed0.json exist"):
        main(["benchmark", "--algo", "heuristic-copy", "--task", "all", "--quick", "--seed", "0", "--out", str(fresh),
              "--config-dir", str(CONFIGS)])
    assert [f.name for f in fresh.iterdir()] == ["SelfPlay-4p-v0__heuristic-copy__seed0.json"]
    data = json.loads(files[1].read_text())
    assert data["command"] == ("phase10 benchmark --algo heuristic-copy --task OneHand-2p-Heuristic-v0 --seed 3 "
                               "--split dev --quick")
    assert [p["step"] for p in data["runs"][0]["curve"]] == [512], "the quick curve: one checkpoint, at the budget"


def test_by_default_results_go_to_runs_not_to_the_shipped_results() -> None:
    assert RESULTS_DIR == Path("runs/benchmark/results")
    args = build_parser().parse_args(["benchmark", "--algo", "ppo", "--task", "OneHand-2p-Heuristic-v0"])
    assert (args.out, args.models, args.split, args.overwrite) == ("runs/benchmark/results", "runs/benchmark/models",
                                                                  "dev", False)
    report = build_parser().parse_args(["benchmark-report", "a.json"])
    assert report.out == "runs/benchmark/report"


def test_trained_rows_use_the_protocols_evaluation() -> None:
    with pytest.raises(ValueError, match="--games is for reference agents"):
        run_benchmark("heuristic-copy", "OneHand-2p-Heuristic-v0", quick=True, games=2, config_dir=CONFIGS)


def test_quick_ppo_writes_results_that_rescore_to_the_same_episodes(tmp_path: Path) -> None:
    from agents.benchmark.rescore import rescore

    paths = run_benchmark("ppo", "OneHand-2p-Heuristic-v0", quick=True, config_dir=CONFIGS, out_dir=tmp_path / "r",
                          models_dir=tmp_path / "m")
    assert len(paths) == 2
    for path in paths:
        data = check_file(path, load_protocol(CONFIGS))
        [run] = data["runs"]
        assert run["env_steps"] >= data["protocol"]["budget"] and Path(run["model"]).name == "policy.zip"
        assert len(run["episodes"]) == 4 and run["curve"][-1]["step"] == run["env_steps"]
        assert rescore(path, CONFIGS).endswith("every one ends as recorded")


# ---------------------------------------------------------------------- the shipped results

def _shipped() -> list[Path]:
    return sorted(SHIPPED.glob("*__*.json"))


def test_the_shipped_results_are_valid_and_rescorable() -> None:
    paths = _shipped()
    protocol = load_protocol(CONFIGS)
    tasks = {t.short for t in TASKS.values()}
    assert {(p.name.split("__")[0], p.name.split("__")[1]) for p in paths} >= {(t, a) for t in tasks
                                                                                for a in ("random", "heuristic")}
    for path in paths:
        jsonschema.validate(json.loads(path.read_text()), SCHEMA)
        data = check_file(path, protocol)
        assert data["split"] == "test" and not data["protocol"]["quick"]
        for run in data["runs"]:
            model = run.get("model")
            assert model is None or (not model.startswith("runs/") and (ROOT / model).is_file()), (
                f"{path.name}: its model must be shipped with it, not in the ignored runs/")


def test_the_anchors_are_the_reference_agents_means_on_the_test_deals() -> None:
    protocol = load_protocol(CONFIGS)
    for task in TASKS.values():
        scale = protocol.tasks[task.short].scale
        for agent in ("random", "heuristic"):
            data = json.loads((SHIPPED / f"{task.short}__{agent}__seed0.json").read_text())
            [run] = data["runs"]
            raw = [scale.raw(Episode.from_json(e)) for e in run["episodes"]]
            assert sum(raw) / len(raw) == pytest.approx(getattr(scale, agent), abs=1e-9), (task.short, agent)


def test_the_shipped_table_is_the_report_of_the_shipped_results(tmp_path: Path) -> None:
    write_report(_shipped(), tmp_path, config_dir=CONFIGS)
    shipped = json.loads((SHIPPED / "summary.json").read_text())
    assert shipped == json.loads((tmp_path / "summary.json").read_text())
    table = (SHIPPED / "table.md").read_text()
    assert table == (tmp_path / "table.md").read_text()
    text = (ROOT / "docs" / "BENCHMARK.md").read_text()
    assert all(line in text for line in table.splitlines() if line.startswith("| ")), "BENCHMARK.md quotes the table"
    for row in shipped:
        assert {"task", "algo", "kind", "score", "ci95", "protocol_version"} <= set(row) and row["protocol_version"] == 2
        if row["kind"] == "reference":  # the file holds the interval the table prints
            summary = json.loads((SHIPPED / f"{get_task(row['task']).short}__{row['algo']}__seed0.json").read_text())
            assert summary["summary"]["ci95"] == row["ci95"] and summary["summary"]["score"] == row["score"]


# ---------------------------------------------------------------------- the doc's worked example

def _worked_example() -> str:
    doc = (ROOT / "docs" / "BENCHMARK.md").read_text()
    start = doc.index("```python\n# file: my_reinforce.py\n") + len("```python\n")
    return doc[start:doc.index("```", start)]


def test_the_docs_worked_example_enters_the_benchmark(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = _worked_example()
    glue = [line for line in code.splitlines() if re.search(r"# glue(:|$)", line.rstrip())]
    assert 0 < len(glue) < 30, f"{len(glue)} lines of glue"
    assert f"the {len(glue)} lines marked `# glue`" in (ROOT / "docs" / "BENCHMARK.md").read_text(), "the doc counts them"
    (tmp_path / "my_reinforce.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "my_reinforce", raising=False)
    monkeypatch.delitem(ALGORITHMS, "reinforce", raising=False)
    out = tmp_path / "results"
    for task in ("OneHand-2p-Heuristic-v0", "SelfPlay-4p-v0"):
        main(["benchmark", "--algo", "my_reinforce:reinforce", "--task", task, "--quick", "--seed", "0", "--out", str(out),
              "--models", str(tmp_path / "models"), "--config-dir", str(CONFIGS)])
    write_report(sorted(out.glob("*.json")), tmp_path / "report", include_quick=True, config_dir=CONFIGS)
    table = (tmp_path / "report" / "table.md").read_text()
    assert table.count("masked REINFORCE (example)") == 2
