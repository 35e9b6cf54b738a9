"""The masked PPO backend: its learner never plays an illegal action, its advantages are GAE's,
a tiny run trains, resumes and evaluates, and its model plays wherever ``ppo:PATH`` does;
imitation in the core records the heuristic's legal choices; tournaments play a model in the
core exactly as in Python."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from agents.evaluation.tournament import run_tournament
from agents.policies.batched import BatchedPolicy
from agents.policies.network import load_policy
from agents.training.config import EnvSettings, PPOSettings, load_config
from agents.training.masked_ppo import MaskedPPO, Rollout, advantages, new_policy
from agents.training.masked_ppo_run import MaskedPPORun
from agents.training.vector_imitation import collect
from agents.training.vector_opponents import LearnerEnvs, shares
from phase10_env import OBS_SIZE
from phase10_env.actions import NUM_ACTIONS

pytestmark = pytest.mark.compiled("native core")

TINY = ["backend=masked_ppo", "vec_env.kind=native", "total_timesteps=1024", "checkpoint_every=512",
        "vec_env.num_envs=8", "ppo.n_steps=32", "ppo.batch_size=128", "ppo.n_epochs=1", "ppo.net_arch=[32]",
        "eval.every=512", "eval.games=4", "eval.final_games=6", "env.rules={phases_to_win: 2}",
        "opponents.snapshot_every=512", "opponents.pool={random: 1.0, heuristic: 0.5}", 'imitation.teacher=""',
        "ppo.kl_coef=0", "env.features=standard"]


def test_the_learner_never_samples_a_masked_action() -> None:
    """The actor is pushed hard toward the actions the masks forbid; every sample is still legal."""
    policy = new_policy(OBS_SIZE, [16], 1e-3)
    rng = np.random.default_rng(0)
    masks = rng.random((512, NUM_ACTIONS)) < 0.02
    masks[np.arange(512), rng.integers(NUM_ACTIONS, size=512)] = True
    with torch.no_grad():
        policy.action_net.bias.copy_(torch.where(torch.from_numpy(masks[0]), -30.0, 30.0))
    for precision in ("fp32", "bf16"):
        ppo = MaskedPPO(policy, PPOSettings(), precision)
        actions, log_probs, _ = ppo.act(rng.standard_normal((512, OBS_SIZE)).astype(np.float32), masks)
        assert masks[np.arange(512), actions].all()
        assert torch.isfinite(log_probs).all()


def test_advantages_are_gae_and_stop_at_a_game_end() -> None:
    """One game of three steps: ends after the second; the third starts the next game."""
    values = torch.tensor([[0.5], [0.25], [1.0]])
    rollout = Rollout(torch.zeros(3, 1, 1), torch.ones(3, 1, 1, dtype=torch.bool), torch.zeros(3, 1, dtype=torch.int64),
                      torch.zeros(3, 1), values, np.array([[0.0], [1.0], [0.5]]), np.array([[0.0], [1.0], [0.0]]),
                      np.array([2.0]))
    adv, ret = advantages(rollout, gamma=0.9, gae_lambda=0.8)
    d2 = 0.5 + 0.9 * 2.0 - 1.0
    d1 = 1.0 - 0.25  # the game ended: no bootstrap
    d0 = 0.0 + 0.9 * 0.25 - 0.5
    assert adv[:, 0] == pytest.approx([d0 + 0.9 * 0.8 * d1, d1, d2])
    assert ret[:, 0] == pytest.approx(adv[:, 0] + values[:, 0].numpy())


def test_a_rollout_and_its_update_report_their_statistics() -> None:
    env = EnvSettings(episode="hand", rewards="outcome")
    envs = LearnerEnvs(env, 32, {"random": 1.0}, 1.0, False, seed=0)
    ppo = MaskedPPO(new_policy(OBS_SIZE, [64], 1e-3), PPOSettings(n_steps=64, batch_size=512, learning_rate=1e-3))
    first = ppo.update(ppo.collect(envs, 64))
    assert {"policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction"} <= set(first)
    assert ppo.num_timesteps == 64 * 32 and ppo.episode_returns


def test_shares_follow_the_weights_and_give_everyone_a_game() -> None:
    assert shares({"random": 1.0, "heuristic": 3.0}, 8) == {"random": 2, "heuristic": 6}
    assert shares({"random": 1.0, "heuristic": 100.0}, 4) == {"random": 1, "heuristic": 3}
    assert sum(shares({"a": 1.0, "b": 1.0, "c": 1.0}, 10).values()) == 10
    with pytest.raises(ValueError, match="fewer than the opponents"):
        shares({"random": 1.0, "heuristic": 1.0}, 1)


def test_tiny_run_trains_resumes_evaluates_and_plays_as_ppo(tmp_path, capsys) -> None:
    cfg = load_config(None, TINY + ["name=tiny"])
    summary = MaskedPPORun(cfg, runs_dir=tmp_path).train()
    out = tmp_path / "tiny"
    for name in ("config.yaml", "model.zip", "eval.json", "learning_curve.png", "state.json", "best_model.zip"):
        assert (out / name).exists(), name
    assert list((out / "tb").rglob("events.*")), "TensorBoard logs are written"
    assert summary["learner_steps"] == 1024
    assert set(summary["seconds"]) == {"imitation", "ppo", "evaluation", "total"}
    for opponent in ("random", "heuristic"):
        assert [p["step"] for p in summary["learning_curve"] if p["opponent"] == opponent] == [0, 512, 1024]
    assert json.loads((out / "eval.json").read_text())["evaluation"]["heuristic"]["agents"][0]["games"] == 6
    assert len(json.loads((out / "state.json").read_text())["pool_snapshots"]) == 2
    assert "win rate" in capsys.readouterr().out

    resumed = MaskedPPORun(load_config(None, TINY + ["name=tiny", "total_timesteps=1536"]), runs_dir=tmp_path)
    again = resumed.train(resume=True)
    assert again["learner_steps"] == 1536 and again["steps_this_session"] == 512

    spec = f"ppo:{out / 'model.zip'}"
    native = run_tournament([spec, "heuristic"], 2, games=6, seed=3, progress=False, rules={"phases_to_win": 2})
    python = run_tournament([spec, "heuristic"], 2, games=6, seed=3, progress=False, rules={"phases_to_win": 2},
                            native=False, workers=1)
    assert [o.winners for o in native.outcomes] == [o.winners for o in python.outcomes]
    assert [o.scores for o in native.outcomes] == [o.scores for o in python.outcomes]
    assert [o.steps for o in native.outcomes] == [o.steps for o in python.outcomes]


def test_a_run_whose_only_curve_point_is_its_start_keeps_that_policy_as_its_best(tmp_path) -> None:
    """No evaluation falls between the start and the end: the step-0 point is the best so far."""
    MaskedPPORun(load_config(None, TINY + ["name=short", "total_timesteps=256", "eval.every=4096"]),
                 runs_dir=tmp_path).train()
    assert (tmp_path / "short" / "best_model.zip").is_file()


def test_a_run_imitates_the_heuristic_in_the_core(tmp_path) -> None:
    cfg = load_config(None, TINY + ["name=taught", "total_timesteps=256", "eval.every=0", "imitation.teacher=heuristic",
                                    "imitation.games=3", "imitation.epochs=1", "imitation.dagger_rounds=1",
                                    "imitation.dagger_games=2", "imitation.dagger_epochs=1", "ppo.kl_coef=1.0"])
    MaskedPPORun(cfg, runs_dir=tmp_path).train()
    report = json.loads((tmp_path / "taught" / "imitation.json").read_text())
    assert report["dagger"][0]["samples"] > report["samples"] > 0, "the DAgger round adds the positions it reached"
    assert (tmp_path / "taught" / "checkpoints" / "reference.pt").is_file()


def test_imitation_records_legal_heuristic_choices_with_returns() -> None:
    env = EnvSettings(rules={"phases_to_win": 1}, rewards="outcome")
    demos = collect(env, 5, seed=0, gamma=0.99)
    assert len(demos) > 0 and demos.observations.shape == (len(demos), OBS_SIZE)
    assert demos.masks[np.arange(len(demos)), demos.actions].all(), "every label is an unmasked action"
    assert np.all(np.abs(demos.returns) <= 1.0) and (demos.returns > 0).any() and (demos.returns < 0).any()

    policy = new_policy(OBS_SIZE, [16], 1e-3)
    player = BatchedPolicy(policy, deterministic=False, seed=0)
    mixed = collect(env, 5, seed=0, gamma=0.99, player=player)
    assert mixed.masks[np.arange(len(mixed)), mixed.actions].all()
    assert not np.array_equal(mixed.observations[:len(demos)], demos.observations[:len(mixed)]), \
        "the player's seat changes the games"


def test_the_model_loads_as_an_sb3_policy(tmp_path) -> None:
    policy = new_policy(OBS_SIZE, [32, 16], 1e-3)
    MaskedPPO(policy, PPOSettings()).save(tmp_path / "m.zip")
    loaded = load_policy(tmp_path / "m.zip", unpickle=False)
    assert all(torch.equal(loaded.state_dict()[k], v) for k, v in policy.state_dict().items())


def test_config_errors_are_clear() -> None:
    with pytest.raises(ValueError, match="vec_env.kind: native"):
        load_config(None, ["backend=masked_ppo", "vec_env.kind=dummy"])
    with pytest.raises(ValueError, match="ppo.precision"):
        load_config(None, ["backend=sb3", "vec_env.kind=dummy", "ppo.precision=bf16"])
    with pytest.raises(ValueError, match="ppo.precision must be one of"):
        load_config(None, TINY + ["ppo.precision=fp16"])
    with pytest.raises(ValueError, match="mcts"):
        load_config(None, TINY + ["opponents.pool={mcts: 1.0}"])
    with pytest.raises(ValueError, match="exceeds a rollout"):
        load_config(None, TINY + ["ppo.batch_size=100000"])


def test_a_policy_fresh_from_a_training_step_becomes_a_frozen_opponent_that_plays_as_it() -> None:
    """An SB3 policy keeps its last forward pass's distribution, tensors that cannot be deep-
    copied: self-play snapshots and curve agents of a policy that has just trained rebuild it."""
    policy = new_policy(OBS_SIZE, [32], 3e-4)
    rng = np.random.default_rng(0)
    obs = torch.as_tensor(rng.random((4, OBS_SIZE), dtype=np.float32))
    masks = np.zeros((4, NUM_ACTIONS), dtype=bool)
    masks[:, :3] = True
    policy.evaluate_actions(obs, torch.zeros(4), action_masks=masks)[1].sum().backward()
    opponent = BatchedPolicy(policy)
    expected = policy.action_net(policy.mlp_extractor(obs)[0]).detach().numpy()[:, :3].argmax(axis=1)
    assert (opponent(obs.numpy(), masks) == expected).all()
    assert not any(p.requires_grad for p in opponent.policy.parameters())
