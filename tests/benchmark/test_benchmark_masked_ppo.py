"""The benchmark's masked PPO entrant: a few rollouts on the one-hand task and on the
self-play task in the native core, then the protocol's evaluation, which raises on any illegal
move; the curve hook sees every mark; the saved file plays alike and a quick row rescores."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.benchmark.algos import load_sb3_policy
from agents.benchmark.evaluate import evaluate
from agents.benchmark.protocol import CONFIG_DIR, load_protocol, load_yaml
from agents.benchmark.registry import TrainContext, get_algorithm
from agents.benchmark.rescore import rescore
from agents.benchmark.run import run_benchmark
from agents.benchmark.tasks import get_task

pytestmark = pytest.mark.compiled("native core")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("task_name", ["OneHand-2p-Heuristic-v0", "SelfPlay-4p-v0"])
def test_masked_ppo_trains_and_plays_legal_moves(task_name: str, tmp_path: Path) -> None:
    task = get_task(task_name)
    hp = {**load_yaml(ROOT / CONFIG_DIR / "masked-ppo.yaml"), "n_envs": 4, "n_steps": 32, "batch_size": 64,
          "net_arch": [32]}
    ctx = TrainContext(task=task, seed=0, budget=256, hyperparameters=hp, model_dir=tmp_path, marks=(128, 256),
                       curve_games=1, curve_seed=1, scale=load_protocol(ROOT / CONFIG_DIR).settings(task).scale)
    trained = get_algorithm("masked-ppo").train(ctx)
    assert [point["step"] for point in ctx.curve] == [128, 256] and trained.env_steps == 256
    assert trained.model is not None and Path(trained.model).is_file()
    result = evaluate(task, trained.agent, 2, seed=1)
    assert len(result.episodes) == 2 and result.learner_steps > 0
    assert evaluate(task, load_sb3_policy(trained.model, hp), 2, seed=1).episodes == result.episodes


def test_a_quick_masked_ppo_row_rescores(tmp_path: Path) -> None:
    [path] = run_benchmark("masked-ppo", "OneHand-2p-Heuristic-v0", seeds=[0], quick=True, config_dir=ROOT / CONFIG_DIR,
                           out_dir=tmp_path / "r", models_dir=tmp_path / "m")
    assert rescore(path, ROOT / CONFIG_DIR).endswith("every one ends as recorded")
