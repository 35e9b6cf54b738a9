"""PPO on Ray RLlib end to end on a local Ray: train with 2 env runners, checkpoint, resume from
the checkpoint, play the exported policy in a tournament; both registered envs; the masking
module never picks an illegal move."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.integrations._require import require

pytestmark = pytest.mark.integrations
ray = require("ray")
require("ray.rllib")

import torch  # noqa: E402

from agents.evaluation.tournament import run_tournament  # noqa: E402
from agents.policies.rllib_policy import load_network  # noqa: E402
from agents.training.config import load_config  # noqa: E402
from agents.training.rllib import MaskedPPOModule, RLlibRun, make_aec_env, make_single_env  # noqa: E402

# Two PPO iterations of 400 env steps each; games end at the first phase made, so episodes finish.
TINY = ["backend=rllib", "total_timesteps=800", "checkpoint_every=400", "rllib.num_env_runners=2",
        "rllib.train_batch_size=400", "rllib.minibatch_size=100", "rllib.num_epochs=1", "rllib.hiddens=[32]",
        "eval.every=400", "eval.games=2", "eval.final_games=4", "eval.workers=1", "env.rules={phases_to_win: 1}"]


def _weights(path: Path) -> dict[str, torch.Tensor]:
    return load_network(path)[0].state_dict()


@pytest.mark.slow
def test_single_agent_run_trains_resumes_and_its_policy_plays(local_ray, tmp_path, capsys) -> None:
    cfg = load_config("rllib", TINY + ["name=tiny"])
    summary = RLlibRun(cfg, runs_dir=tmp_path).train()
    out = tmp_path / "tiny"
    for name in ("config.yaml", "policy.pt", "eval.json", "learning_curve.png", "state.json"):
        assert (out / name).exists(), name
    assert list((out / "tb").iterdir()), "TensorBoard logs are written"
    assert sorted(p.name for p in (out / "checkpoints").iterdir())[0].startswith("step_")
    assert summary["env_steps"] >= 800
    assert {p["opponent"] for p in summary["learning_curve"]} == {"random", "heuristic"}
    assert json.loads((out / "eval.json").read_text())["evaluation"]["random"]["agents"][0]["games"] == 4
    assert "rllib:" in capsys.readouterr().out

    # The last checkpoint holds the exported weights: a resumed run starts from them.
    resumed_run = RLlibRun(load_config("rllib", TINY + ["name=tiny", "total_timesteps=1200"]), runs_dir=tmp_path)
    algo = resumed_run.build_algo(resumed_run.latest_checkpoint())
    restored = resumed_run.export_policy(algo, tmp_path / "restored.pt")
    algo.stop()
    final = _weights(out / "policy.pt")
    assert all(torch.equal(final[k], v) for k, v in _weights(restored).items())

    resumed = resumed_run.train(resume=True)
    assert resumed["env_steps"] >= 1200 and 0 < resumed["steps_this_session"] <= 800
    assert any(not torch.equal(final[k], v) for k, v in _weights(out / "policy.pt").items()), "training went on"

    result = run_tournament([f"rllib:{out / 'policy.pt'}", "heuristic"], 2, games=4, seed=0, workers=1,
                            progress=False, rules={"phases_to_win": 1})
    me = result.entry_stats()[0]
    assert me.games == 4 and me.name == f"rllib:{out / 'policy.pt'}"


def test_resume_without_a_checkpoint_is_refused(local_ray, tmp_path) -> None:
    with pytest.raises(ValueError, match="nothing to resume"):
        RLlibRun(load_config("rllib", TINY + ["name=none"]), runs_dir=tmp_path).train(resume=True)
    assert not (tmp_path / "none").exists(), "nothing is half-made"


@pytest.mark.slow
def test_self_play_trains_one_shared_policy_on_the_aec_game(local_ray, tmp_path) -> None:
    cfg = load_config("rllib", TINY + ["name=sp", "rllib.mode=selfplay", "total_timesteps=400", "eval.every=0"])
    summary = RLlibRun(cfg, runs_dir=tmp_path).train()
    assert summary["env_steps"] >= 400
    assert load_network(tmp_path / "sp" / "policy.pt")[1]["num_actions"] == make_aec_env().action_space["player_0"].n


def test_registered_envs_give_observation_and_mask_as_they_are() -> None:
    aec = make_aec_env({"num_players": 3})
    obs, _ = aec.reset(seed=1)
    (agent, first), = obs.items()
    assert set(first) == {"observation", "action_mask"} and first["action_mask"].any()
    single = make_single_env({"opponents": {"heuristic": 1.0}})
    obs, info = single.reset(seed=1)
    assert single.observation_space.contains(obs)
    np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])


def test_an_unmasked_action_ends_the_aec_game_with_the_offender_losing() -> None:
    """RLlib's env check steps a random action; the registered AEC env takes it as a forfeit."""
    aec = make_aec_env()
    obs, _ = aec.reset(seed=0)
    (agent, first), = obs.items()
    illegal = int(np.flatnonzero(first["action_mask"] == 0)[0])
    _, rewards, terminated, _, _ = aec.step({agent: illegal})
    assert terminated["__all__"] and rewards[agent] == -1.0


def test_the_masking_module_only_plays_legal_moves() -> None:
    env = make_single_env()
    module = MaskedPPOModule(observation_space=env.observation_space, action_space=env.action_space,
                             model_config={"hiddens": [16]})
    rng = np.random.default_rng(0)
    obs, masks = [], []
    for seed in range(20):
        o, _ = env.reset(seed=seed)
        for _ in range(int(rng.integers(0, 30))):
            o, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
            if done:
                o, _ = env.reset()
        obs.append(o["observation"])
        masks.append(o["action_mask"])
    batch = {"obs": {"observation": torch.as_tensor(np.stack(obs)), "action_mask": torch.as_tensor(np.stack(masks))}}
    logits = module.forward_exploration(batch)["action_dist_inputs"]
    for _ in range(50):
        picks = torch.distributions.Categorical(logits=logits).sample().numpy()
        assert all(masks[i][a] for i, a in enumerate(picks))
    greedy = logits.argmax(-1).numpy()
    assert all(masks[i][a] for i, a in enumerate(greedy))
