"""The benchmark: its statistics against hand-computed cases, its versioned tasks, the fixed
evaluation, and the benchmark / report commands end to end on the quick budget."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium
import jsonschema
import numpy as np
import pytest

from agents.benchmark import stats
from agents.benchmark.algos import require
from agents.benchmark.evaluate import evaluate
from agents.benchmark.report import SCHEMA_PATH, load_results, write_report
from agents.benchmark.run import run_benchmark
from agents.benchmark.tasks import FINGERPRINTS, TASKS, fingerprint, get_task, make_env
from agents.cli import main
from agents.policies.registry import make_agent

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "configs" / "benchmark"
SCHEMA = json.loads(SCHEMA_PATH.read_text())


# ---------------------------------------------------------------------- statistics

def test_iqm_is_the_mean_of_the_middle_half() -> None:
    assert stats.iqm([1, 2, 3, 4, 100]) == 3.0  # floor(5/4) = 1 cut at each end: mean(2, 3, 4)
    assert stats.iqm([4, 1, 3, 2, 8, 7, 6, 5]) == 4.5  # 2 cut at each end: mean(3, 4, 5, 6)
    assert stats.iqm([0.25]) == 0.25
    with pytest.raises(ValueError, match="no scores"):
        stats.iqm([])


def test_bootstrap_of_two_runs_matches_the_hand_computed_distribution() -> None:
    # Resampling {0, 1} twice gives means 0, 0.5, 1 with probabilities 1/4, 1/2, 1/4.
    boot = stats.stratified_bootstrap(np.array([0.0, 1.0]), stats.mean, reps=20_000, seed=1)
    assert set(np.unique(boot)) == {0.0, 0.5, 1.0}
    assert abs((boot == 0.5).mean() - 0.5) < 0.02 and abs((boot == 0.0).mean() - 0.25) < 0.02
    point, lo, hi = stats.interval([0.0, 1.0], stats.mean, reps=20_000)
    assert (point, lo, hi) == (0.5, 0.0, 1.0)


def test_bootstrap_is_stratified_by_task() -> None:
    # Each column (task) holds one value: resampling runs within a task cannot change it, so
    # every replicate equals the point estimate; resampling whole rows across tasks would not.
    scores = np.array([[0.1, 0.9], [0.1, 0.9], [0.1, 0.9]])
    boot = stats.stratified_bootstrap(scores, lambda x: float(x[:, 0].mean() + 10 * x[:, 1].mean()), reps=200)
    assert np.allclose(boot, 0.1 + 9.0)
    point, lo, hi = stats.interval(np.array([[0.2, 0.4], [0.3, 0.5], [0.4, 0.6]]))
    assert point == pytest.approx(0.4) and lo < point < hi


def test_performance_profile_counts_runs_above_each_threshold() -> None:
    profile = stats.performance_profile(np.array([[0.2, 0.6], [0.4, 0.8]]), [0.0, 0.3, 0.7, 1.0])
    assert profile.tolist() == [1.0, 0.75, 0.25, 0.0]


# ---------------------------------------------------------------------- tasks

def test_every_task_is_registered_under_its_versioned_id() -> None:
    assert set(TASKS) == {"phase10_env/OneHand-2p-Heuristic-v0", "phase10_env/FullGame-2p-Heuristic-v0",
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


def test_the_one_hand_task_ends_with_the_hand_and_scores_going_out() -> None:
    task = get_task("OneHand-2p-Heuristic-v0")
    env = make_env(task.id, score=True, learner_seat=0)
    agent = make_agent("heuristic")
    env.reset(seed=3)
    total, done, terminated = 0.0, False, False
    while not done:
        _, reward, terminated, truncated, _ = env.step(agent.act(env.aec.player_observation(env.learner)))
        total, done = total + reward, terminated or truncated
    assert terminated and max(env.game.phases_completed) <= 1, "one hand: at most phase 1 made"
    assert total in (0.0, 1.0)


# ---------------------------------------------------------------------- evaluation

def test_evaluation_is_fixed_by_its_seed_and_ranks_agents() -> None:
    task = get_task("OneHand-2p-Heuristic-v0")
    heuristic = evaluate(task, make_agent("heuristic"), 24, seed=5)
    assert heuristic.scores == evaluate(task, make_agent("heuristic"), 24, seed=5).scores
    assert set(heuristic.scores) <= {0.0, 1.0} and len(heuristic.scores) == 24
    random = evaluate(task, make_agent("random"), 24, seed=5)
    assert random.score < heuristic.score
    with pytest.raises(ValueError, match="at least 1"):
        evaluate(task, make_agent("random"), 0, seed=5)


# ---------------------------------------------------------------------- commands

def test_quick_benchmark_writes_valid_results_and_the_report(tmp_path: Path) -> None:
    out, models = tmp_path / "results", tmp_path / "models"
    ref = run_benchmark("ref", "OneHand-2p-Heuristic-v0", quick=True, agent="heuristic", config_dir=CONFIGS,
                        out_dir=out, models_dir=models)
    ppo = run_benchmark("ppo", "OneHand-2p-Heuristic-v0", quick=True, config_dir=CONFIGS, out_dir=out, models_dir=models)
    data = json.loads(ppo.read_text())
    jsonschema.validate(data, SCHEMA)
    jsonschema.validate(json.loads(ref.read_text()), SCHEMA)
    assert data["protocol"]["quick"] and len(data["runs"]) == 2
    for run in data["runs"]:
        assert run["env_steps"] >= data["protocol"]["budget"] and Path(run["model"]).is_file()
        assert run["score"] == pytest.approx(np.mean(run["episode_scores"]))
        assert run["curve"][-1] == {"step": run["env_steps"], "score": run["score"], "games": run["episodes"]}
    with pytest.raises(ValueError, match="no results"):
        load_results([ppo, ref])  # quick results are left out by default
    written = write_report([ppo, ref], tmp_path / "report", include_quick=True)
    table = (tmp_path / "report" / "table.md").read_text()
    assert "MaskablePPO (SB3)" in table and "heuristic (reference)" in table
    assert all(p.is_file() and p.stat().st_size > 0 for p in written)


def test_report_rejects_a_file_that_is_not_a_result(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "phase10-benchmark-result/1", "task": "phase10_env/X-v0"}))
    with pytest.raises(ValueError, match="is not a benchmark result"):
        load_results([bad])


def test_algorithms_without_their_library_name_the_extra(capsys: pytest.CaptureFixture[str]) -> None:
    for algo, extra in (("dqn", "integrations"), ("rllib-ppo", "rllib")):
        try:
            require(algo)
        except ValueError as e:
            assert f'pip install -e ".[{extra}]"' in str(e)
            with pytest.raises(SystemExit, match=extra):
                main(["benchmark", "--algo", algo, "--task", "OneHand-2p-Heuristic-v0", "--quick"])
    with pytest.raises(SystemExit, match="needs --agent"):
        main(["benchmark", "--algo", "ref", "--task", "OneHand-2p-Heuristic-v0", "--quick",
              "--config-dir", str(CONFIGS)])


def test_committed_results_follow_the_schema() -> None:
    paths = sorted((ROOT / "results" / "benchmark").glob("*.json"))
    results = [p for p in paths if p.name != "summary.json"]
    for path in results:
        jsonschema.validate(json.loads(path.read_text()), SCHEMA)
