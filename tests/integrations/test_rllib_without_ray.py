"""What needs no Ray: an exported RLlib policy plays with torch alone, and a config asking for
the rllib backend without Ray installed fails with a message that says what to install.
(These run in the main suite, where Ray is not installed.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def exported_policy(tmp_path) -> Path:
    from agents.policies.rllib_policy import MaskedActorCritic, save_policy
    from phase10_env import raw_env

    env = raw_env()
    obs_size = env.observation_space("player_0")["observation"].shape[0]
    actions = env.action_space("player_0").n
    return save_policy(MaskedActorCritic(obs_size, actions, [16]), obs_size, actions, [16], tmp_path / "policy.pt")


def test_an_exported_policy_plays_full_games_without_ray(exported_policy) -> None:
    code = f"""
import sys
sys.modules["ray"] = None  # any import of ray now fails
from agents.evaluation.tournament import run_tournament
result = run_tournament(["rllib:{exported_policy}", "random"], 2, games=2, seed=0, workers=1, progress=False,
                        rules={{"phases_to_win": 1}}, max_steps=2000)
print(result.entry_stats()[0].games, sum(o.steps for o in result.outcomes))
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    games, steps = map(int, done.stdout.split())
    assert games == 2 and steps > 0


def test_the_policy_picks_only_legal_moves(exported_policy) -> None:
    from agents.policies.registry import make_agent
    from phase10_env import raw_env
    from phase10_env.play import play, policy_chooser

    agent = make_agent(f"rllib:{exported_policy}", seed=0)
    # illegal_action="raise" (the default): one illegal pick would raise. An untrained network
    # may never finish a game, hence the cap.
    env = raw_env(num_players=3, max_steps=600)
    env.reset(seed=4)
    assert play(env, policy_chooser(env, dict.fromkeys(env.possible_agents, agent))) == 600


def test_bad_rllib_specs_say_what_is_wrong(tmp_path) -> None:
    from agents.policies.registry import make_agent

    with pytest.raises(ValueError, match="rllib needs an exported policy"):
        make_agent("rllib")
    with pytest.raises(ValueError, match="no exported RLlib policy"):
        make_agent(f"rllib:{tmp_path / 'missing.pt'}")
    (tmp_path / "junk.pt").write_text("not a policy")
    with pytest.raises(ValueError, match="not an exported RLlib policy"):
        make_agent(f"rllib:{tmp_path / 'junk.pt'}")


def test_the_rllib_backend_without_ray_names_the_extra(monkeypatch, tmp_path) -> None:
    import train

    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.delitem(sys.modules, "agents.training.rllib", raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit, match=r"needs Ray RLlib \(pip install -e \"\.\[rllib\]\"\)"):
        train.main([str(ROOT / "configs" / "rllib.yaml")])
    assert not (tmp_path / "runs").exists()


def test_rllib_settings_are_checked(monkeypatch) -> None:
    from agents.training.config import load_config

    cfg = load_config(ROOT / "configs" / "rllib.yaml")
    assert cfg.backend == "rllib" and cfg.rllib.num_env_runners >= 1
    assert load_config(None).backend == "masked_ppo", "the default trains in this process, without Ray"
    with pytest.raises(ValueError, match="backend must be one of"):
        load_config(None, ["backend=tensorflow"])
    with pytest.raises(ValueError, match="rllib.minibatch_size"):
        load_config(ROOT / "configs" / "rllib.yaml", ["rllib.minibatch_size=9000"])
    with pytest.raises(ValueError, match="rllib.num_env_runner"):
        load_config(ROOT / "configs" / "rllib.yaml", ["rllib.num_env_runner=4"])
    with pytest.raises(ValueError, match="imitation.teacher"):
        load_config(ROOT / "configs" / "rllib.yaml", ["imitation.teacher=heuristic"])


def test_address_is_only_for_the_rllib_backend(monkeypatch, tmp_path) -> None:
    import train

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit, match="--address joins a Ray cluster"):
        train.main(["--address", "127.0.0.1:6379"])
    assert not (tmp_path / "runs").exists()
