"""A tiny training run end to end: train, checkpoint, resume, evaluate, play the model."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.evaluation.tournament import run_tournament
from agents.policies.registry import make_agent
from agents.training.config import load_config
from agents.training.sb3 import TrainingRun
from phase10_env import OBS_SIZE

TINY = ["backend=sb3", "vec_env.kind=dummy", "ppo.precision=fp32",
        "total_timesteps=1024", "checkpoint_every=512", "vec_env.num_envs=2", "ppo.n_steps=128",
        "ppo.batch_size=128", "ppo.n_epochs=1", "ppo.net_arch=[32]", "eval.every=512", "eval.games=2",
        "eval.final_games=4", "eval.workers=1", "env.rules={phases_to_win: 2}", "opponents.snapshot_every=512",
        "opponents.pool={random: 1.0, heuristic: 0.5}"]


def test_default_config_loads_and_bad_keys_are_named() -> None:
    cfg = load_config()
    assert cfg.name == "default" and cfg.env.num_players == 2
    with pytest.raises(ValueError, match="ppo.lr"):
        load_config(None, ["ppo.lr=1"])
    with pytest.raises(ValueError, match="vec_env.kind"):
        load_config(None, ["vec_env.kind=threads"])


def test_tiny_run_trains_resumes_and_evaluates(tmp_path, capsys) -> None:
    cfg = load_config(None, TINY + ["name=tiny"])
    run = TrainingRun(cfg, runs_dir=tmp_path)
    summary = run.train()
    out = tmp_path / "tiny"
    for name in ("config.yaml", "model.zip", "eval.json", "learning_curve.png", "state.json"):
        assert (out / name).exists(), name
    assert list((out / "tb").iterdir()), "TensorBoard logs are written"
    assert summary["learner_steps"] >= 1024
    assert {p["opponent"] for p in summary["learning_curve"]} == {"random", "heuristic"}
    for opponent in ("random", "heuristic"):  # from step 0; the final point not stacked on a periodic one
        assert [p["step"] for p in summary["learning_curve"] if p["opponent"] == opponent] == [0, 512, 1024]
    assert set(summary["seconds"]) == {"imitation", "ppo", "evaluation", "total"}
    assert json.loads((out / "eval.json").read_text())["evaluation"]["random"]["agents"][0]["games"] == 4
    assert len(json.loads((out / "state.json").read_text())["pool_snapshots"]) >= 1
    assert "win rate" in capsys.readouterr().out

    longer = load_config(None, TINY + ["name=tiny", "total_timesteps=2048"])
    resumed = TrainingRun(longer, runs_dir=tmp_path).train(resume=True)
    assert resumed["learner_steps"] >= 2048 and 0 < resumed["steps_this_session"] <= 1024 + 256

    agent = make_agent(f"ppo:{out / 'model.zip'}")
    result = run_tournament([f"ppo:{out / 'model.zip'}", "random"], 2, games=2, seed=0, workers=1, progress=False,
                            rules={"phases_to_win": 1})
    assert result.entry_stats()[0].games == 2 and agent.deterministic

    from agents.training.ship import ship

    weights, card, figures = ship(out, tmp_path / "models" / "tiny")  # weights only, float16, with its card
    assert weights.stat().st_size < (out / "model.zip").stat().st_size
    x = np.random.default_rng(0).random(agent.input_size)
    assert np.allclose(make_agent(f"ppo:{weights}").logits(x), agent.logits(x), atol=0.05)
    assert "95% interval" in card.read_text() and json.loads(figures.read_text())["learner_steps"] >= 1024

    before = sorted(p.name for p in (out / "checkpoints").iterdir())
    with pytest.raises(ValueError, match="already holds a run"):
        TrainingRun(load_config(None, TINY + ["name=tiny", "total_timesteps=512"]), runs_dir=tmp_path).train()
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == before, "a refused run deletes nothing"

    capsys.readouterr()
    finished = TrainingRun(longer, runs_dir=tmp_path).train(resume=True)
    assert finished == json.loads((out / "eval.json").read_text()), "a finished run is not trained or evaluated again"
    assert "nothing to train" in capsys.readouterr().out

    again = TrainingRun(load_config(None, TINY + ["name=tiny", "total_timesteps=512"]), runs_dir=tmp_path)
    again = again.train(overwrite=True)
    assert again["learner_steps"] < 1024, "an overwritten run starts from zero"
    assert max(p["step"] for p in again["learning_curve"]) < 1024, "and does not inherit the old curve"
    steps = sorted(int(p.stem.split("_")[1]) for p in (out / "checkpoints").glob("step_*.zip"))
    assert steps and steps[-1] < 1024, "so --resume can only continue the new run"
    assert "learning_curve.png" in capsys.readouterr().out, "the summary names the run's files"


def test_a_run_can_start_from_a_saved_policy(tmp_path) -> None:
    """``init_from`` copies a saved model's weights into the new learner (with a zero learning
    rate they come out of training unchanged)."""
    import torch

    from agents.policies.network import load_policy

    TrainingRun(load_config(None, TINY + ["name=source", "total_timesteps=256", "eval.every=0"]), runs_dir=tmp_path).train()
    source = tmp_path / "source" / "model.zip"
    TrainingRun(load_config(None, TINY + ["name=warm", "total_timesteps=256", "eval.every=0", "ppo.learning_rate=0",
                                          f"init_from={source}"]), runs_dir=tmp_path).train()
    before, after = (load_policy(p).state_dict() for p in (source, tmp_path / "warm" / "model.zip"))
    assert before.keys() == after.keys()
    assert all(torch.equal(before[k], after[k]) for k in before)


@pytest.mark.compiled("native core")
def test_sb3_trains_on_the_native_games_through_its_adapter(tmp_path) -> None:
    """``vec_env.kind: native``: MaskablePPO steps the core's batched games (with self-play
    copies), and its model plays as ``ppo:PATH``."""
    from agents.training.sb3_vec import NativeVecEnv

    cfg = load_config(None, TINY + ["name=native", "vec_env.kind=native", "vec_env.num_envs=4", "ppo.n_steps=64",
                                    "eval.every=0", "total_timesteps=512", 'imitation.teacher=""'])
    run = TrainingRun(cfg, runs_dir=tmp_path)
    venv, inner = run._vec_env()
    assert isinstance(inner, NativeVecEnv)
    obs = venv.reset()
    masks = np.stack(venv.env_method("action_masks"))
    assert obs.shape == (4, inner.observation_space.shape[0]) and masks.shape == (4, 350) and masks.any(axis=1).all()
    summary = run.train()
    assert summary["learner_steps"] == 512
    assert make_agent(f"ppo:{tmp_path / 'native' / 'model.zip'}").deterministic


def test_resume_without_a_checkpoint_is_a_clear_error(tmp_path) -> None:
    cfg = load_config(None, TINY + ["name=empty"])
    with pytest.raises(ValueError, match="nothing to resume"):
        TrainingRun(cfg, runs_dir=tmp_path).train(resume=True)
    assert not (tmp_path / "empty").exists()


def test_imitation_records_legal_teacher_choices_and_warm_starts_a_run(tmp_path) -> None:
    """The heuristic's recorded choices are legal in the positions they were made in; a run
    with a teacher fits them first (with a DAgger round) and reports how many it matched."""
    from agents.training.imitation import collect

    demos = collect("heuristic", 2, 2, {"phases_to_win": 1}, "outcome", seed=0, gamma=0.99, workers=1)
    assert len(demos) > 0 and demos.observations.shape == (len(demos), OBS_SIZE)
    assert demos.masks[np.arange(len(demos)), demos.actions].all(), "every label is an unmasked action"
    assert np.all(np.abs(demos.returns) <= 1.0)

    cfg = load_config(None, TINY + ["name=taught", "total_timesteps=256", "eval.every=0", "imitation.teacher=heuristic",
                                    "imitation.games=2", "imitation.epochs=1", "imitation.dagger_rounds=1",
                                    "imitation.dagger_games=1", "imitation.dagger_epochs=1"])
    TrainingRun(cfg, runs_dir=tmp_path).train()
    report = json.loads((tmp_path / "taught" / "imitation.json").read_text())
    assert report["dagger"][0]["samples"] > report["samples"] > 0, "the DAgger round adds the positions it reached"
    assert 0.0 <= report["dagger"][0]["accuracy"] <= 1.0


def test_the_kl_anchor_pulls_the_policy_back_toward_its_reference(tmp_path) -> None:
    """With ``ppo.kl_coef`` the run anchors to the policy it started from (saved for
    --resume); the anchor pass lowers the KL divergence to the reference on the rollout."""
    import torch

    cfg = load_config(None, TINY + ["name=anchored", "total_timesteps=256", "eval.every=0", "ppo.kl_coef=1.0",
                                    "ppo.learning_rate=0.01"])
    run = TrainingRun(cfg, runs_dir=tmp_path)
    run.train()
    assert (tmp_path / "anchored" / "checkpoints" / "reference.pt").is_file()

    venv, _ = run._vec_env()
    model = run._new_model(venv)
    model.set_reference(None, kl_coef=1.0)
    with torch.no_grad():  # move the policy away from the reference
        for p in model.policy.action_net.parameters():
            p.add_(torch.randn_like(p))
    model.kl_coef = 0.0  # the rollout and PPO's own update, without the pass
    run.push_pool(venv, model)
    model.learn(256)
    model.kl_coef = 1.0
    first = model._anchor_pass()
    for _ in range(5):
        last = model._anchor_pass()
    assert last < 0.8 * first


@pytest.mark.slow
def test_the_default_run_reaches_its_targets(tmp_path) -> None:
    """``python train.py`` as shipped (imitation, anchored masked PPO, 1,000 final games against
    each opponent): at least 30% of games won against the heuristic and 95% against random."""
    from agents.training.masked_ppo_run import MaskedPPORun

    summary = MaskedPPORun(load_config(), runs_dir=tmp_path).train()
    rates = {opp: r["agents"][0]["win_rate"] for opp, r in summary["evaluation"].items()}
    assert rates["heuristic"] >= 0.30 and rates["random"] >= 0.95, rates


def test_the_rllib_backend_without_the_train_extra_names_what_is_missing(monkeypatch, tmp_path) -> None:
    """torch (like sb3-contrib) comes with the train extra: without it the rllib backend says so,
    not that Ray RLlib is missing."""
    import re
    import sys
    from pathlib import Path

    import train

    config = Path(train.__file__).resolve().parent / "configs" / "rllib.yaml"
    monkeypatch.setitem(sys.modules, "torch", None)  # importing it now fails, as if not installed
    monkeypatch.delitem(sys.modules, "agents.training.rllib", raising=False)
    monkeypatch.chdir(tmp_path)
    words = 'needs the train extra, which brings torch (pip install -e ".[train,rllib]")'
    with pytest.raises(SystemExit, match=re.escape(words)):
        train.main([str(config)])
    assert not (tmp_path / "runs").exists()


def test_the_rllib_backends_import_errors_name_the_extra_of_the_missing_module() -> None:
    import train

    sb3 = train._missing_for_rllib(ModuleNotFoundError("No module named 'sb3_contrib'", name="sb3_contrib"))
    assert "the train extra, which brings sb3_contrib" in sb3 and "Ray" not in sb3
    ray = train._missing_for_rllib(ModuleNotFoundError("No module named 'ray'", name="ray"))
    assert ray.startswith('backend rllib needs Ray RLlib (pip install -e ".[rllib]")')
