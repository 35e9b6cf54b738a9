"""The benchmark's masked DQN (Tianshou; the integrations extra, CI's second stage): a few
hundred steps on the one-hand task, then the protocol's evaluation, which raises on any illegal
move; the curve hook sees every mark."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integrations._require import require

pytestmark = pytest.mark.integrations
require("tianshou")

from agents.benchmark.evaluate import evaluate  # noqa: E402
from agents.benchmark.protocol import CONFIG_DIR, load_protocol, load_yaml  # noqa: E402
from agents.benchmark.registry import TrainContext  # noqa: E402
from agents.benchmark.rescore import rescore  # noqa: E402
from agents.benchmark.run import run_benchmark  # noqa: E402
from agents.benchmark.tasks import get_task  # noqa: E402
from agents.benchmark.tianshou_dqn import load_qnet, train_dqn  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("task_name", ["OneHand-2p-Heuristic-v0", "SelfPlay-4p-v0"])
def test_masked_dqn_trains_and_plays_legal_moves(task_name: str, tmp_path: Path) -> None:
    task = get_task(task_name)
    hp = load_yaml(ROOT / CONFIG_DIR / "dqn.yaml")
    ctx = TrainContext(task=task, seed=0, budget=256, hyperparameters=hp, model_dir=tmp_path, marks=(128, 256),
                       curve_games=1, curve_seed=1, scale=load_protocol(ROOT / CONFIG_DIR).settings(task).scale)
    trained = train_dqn(ctx)
    steps = [point["step"] for point in ctx.curve]
    assert trained.env_steps >= 256 and steps[0] >= 128 and steps[-1] == trained.env_steps
    assert trained.model is not None and Path(trained.model).is_file()
    result = evaluate(task, trained.agent, 2, seed=1)
    assert len(result.episodes) == 2 and result.learner_steps > 0
    assert evaluate(task, load_qnet(trained.model, hp), 2, seed=1).episodes == result.episodes, "the saved net plays alike"


def test_a_quick_dqn_row_rescores(tmp_path: Path) -> None:
    [path] = run_benchmark("dqn", "OneHand-2p-Heuristic-v0", seeds=[0], quick=True, config_dir=ROOT / CONFIG_DIR,
                           out_dir=tmp_path / "r", models_dir=tmp_path / "m")
    assert rescore(path, ROOT / CONFIG_DIR).endswith("every one ends as recorded")
