"""The benchmark's RLlib PPO (the rllib extra, CI's second stage) on the self-play task: every
env of every env runner plays against copies of the learner, and a short run trains, reaches
each curve mark and plays legal moves in the protocol's evaluation."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integrations._require import require

pytestmark = pytest.mark.integrations
require("ray.rllib")

from agents.benchmark.evaluate import evaluate  # noqa: E402
from agents.benchmark.protocol import CONFIG_DIR, load_protocol, load_yaml  # noqa: E402
from agents.benchmark.registry import TrainContext  # noqa: E402
from agents.benchmark.rllib_ppo import _send_self_play_opponents, build_ppo, opponent_names, train_rllib_ppo  # noqa: E402
from agents.benchmark.tasks import get_task  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SELF_PLAY = get_task("SelfPlay-4p-v0")


def _small_settings() -> dict:
    hp = load_yaml(ROOT / CONFIG_DIR / "rllib-ppo.yaml")
    return {**hp, "num_envs_per_env_runner": 2, "train_batch_size": 128, "minibatch_size": 64, "num_epochs": 1,
            "hiddens": [32]}


def test_every_env_of_every_runner_gets_copies_of_the_learner() -> None:
    algo = build_ppo(SELF_PLAY, 0, _small_settings())
    try:
        before = opponent_names(algo)
        assert before == [["random"] * 3] * 2  # 2 envs on the one runner: random legal moves until the first copy
        assert _send_self_play_opponents(algo, 0) == 2
        assert opponent_names(algo) == [["self"] * 3] * 2
    finally:
        algo.stop()


def test_a_short_self_play_run_trains_and_plays_legal_moves(tmp_path: Path) -> None:
    ctx = TrainContext(task=SELF_PLAY, seed=0, budget=256, hyperparameters=_small_settings(), model_dir=tmp_path,
                       marks=(128, 256), curve_games=1, curve_seed=1,
                       scale=load_protocol(ROOT / CONFIG_DIR).settings(SELF_PLAY).scale)
    trained = train_rllib_ppo(ctx)
    steps = [point["step"] for point in ctx.curve]
    assert len(steps) == 2 and steps[0] >= 128 and steps[-1] == trained.env_steps >= 256
    assert trained.model is not None and Path(trained.model).is_file()
    result = evaluate(SELF_PLAY, trained.agent, 2, seed=1)
    assert len(result.episodes) == 2 and result.learner_steps > 0
