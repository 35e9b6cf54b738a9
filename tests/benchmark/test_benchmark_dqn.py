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
from agents.benchmark.run import CONFIG_DIR, load_yaml  # noqa: E402
from agents.benchmark.tasks import get_task  # noqa: E402
from agents.benchmark.tianshou_dqn import train_dqn  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("task_name", ["OneHand-2p-Heuristic-v0", "SelfPlay-4p-v0"])
def test_masked_dqn_trains_and_plays_legal_moves(task_name: str, tmp_path: Path) -> None:
    task = get_task(task_name)
    hp = load_yaml(ROOT / CONFIG_DIR / "dqn.yaml")
    seen: list[int] = []
    trained = train_dqn(task, 0, 256, hp, [128, 256], lambda agent, step: seen.append(step), tmp_path)
    assert trained.env_steps >= 256 and seen[0] >= 128 and seen[-1] == trained.env_steps
    assert Path(trained.model).is_file()
    result = evaluate(task, trained.agent, 2, seed=1)
    assert len(result.scores) == 2 and result.learner_steps > 0
