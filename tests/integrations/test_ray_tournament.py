"""Tournaments on Ray workers (``phase10 eval --ray``) give exactly the games of a local run
with the same seed, an exported RLlib policy among the players."""

from __future__ import annotations

import json

import pytest

from tests.integrations._require import require

pytestmark = pytest.mark.integrations
require("ray")

from agents.cli import main as phase10  # noqa: E402
from agents.evaluation.tournament import run_tournament  # noqa: E402
from agents.policies.rllib_policy import MaskedActorCritic, save_policy  # noqa: E402
from agents.pool import parallel_map  # noqa: E402
from phase10_env import raw_env  # noqa: E402

SHORT = {"phases_to_win": 2}


@pytest.fixture(scope="module")
def untrained_policy(tmp_path_factory) -> str:
    """An exported policy of random weights, sized from the env's spaces."""
    env = raw_env()
    obs_size = env.observation_space("player_0")["observation"].shape[0]
    actions = env.action_space("player_0").n
    path = tmp_path_factory.mktemp("rllib") / "policy.pt"
    save_policy(MaskedActorCritic(obs_size, actions, [16]), obs_size, actions, [16], path)
    return str(path)


def test_a_tournament_on_ray_plays_the_same_games_as_a_local_one(local_ray, untrained_policy) -> None:
    agents = [f"rllib:{untrained_policy}", "heuristic", "random"]
    local = run_tournament(agents, 3, games=9, seed=7, rules=SHORT, workers=2, progress=False)
    on_ray = run_tournament(agents, 3, games=9, seed=7, rules=SHORT, workers=3, progress=False, backend="ray")
    assert on_ray.outcomes == local.outcomes
    assert [o.index for o in on_ray.outcomes] == list(range(9))
    assert {w for o in on_ray.outcomes for w in o.winners} <= {0, 1, 2}


def test_eval_with_ray_reports_what_a_local_eval_reports(local_ray, untrained_policy, tmp_path) -> None:
    common = ["eval", "--agents", f"rllib:{untrained_policy}", "heuristic", "--games", "6", "--seed", "3",
              "--rule", "phases_to_win=1"]
    phase10(common + ["--workers", "2", "--json", str(tmp_path / "local.json")])
    phase10(common + ["--ray", "--json", str(tmp_path / "ray.json")])
    local, on_ray = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("local", "ray"))
    assert on_ray["agents"] == local["agents"] and local["agents"][1]["games"] == 6


def test_parallel_map_on_ray_keeps_job_order(local_ray) -> None:
    assert parallel_map(abs, list(range(-40, 0)), workers=3, backend="ray", progress=False) == list(range(40, 0, -1))


def test_an_unknown_backend_is_named() -> None:
    with pytest.raises(ValueError, match="threads"):
        parallel_map(abs, [1], backend="threads")
