"""PettingZoo's own API and seed tests, for every player count and rules variant, and over
many seeds (those tests stop at the first game end, so they are looped)."""

from __future__ import annotations

import warnings

import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.test.api_test import play_test

import phase10_env
from tests.env.play import VARIANTS

PLAYERS = [2, 3, 4, 5, 6]
# Short variants keep each looped game to a few hundred steps.
QUICK_RULES = {"phases_to_win": 1}


@pytest.fixture(autouse=True)
def _quiet_known_warnings():
    with warnings.catch_warnings():
        # api_test passes an unknown reset option on purpose; observations are dicts by design.
        warnings.filterwarnings("ignore", message=".*reset option.*")
        warnings.filterwarnings("ignore", message=".*Observation is not a NumPy array.*")
        warnings.filterwarnings("ignore", message=".*Observation space for each agent probably.*")
        yield


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", PLAYERS)
def test_api_and_seed_tests_pass(players: int, variant: str) -> None:
    api_test(phase10_env.env(num_players=players, rules=variant), num_cycles=400)
    seed_test(lambda: phase10_env.env(num_players=players, rules=variant), num_cycles=200)


class CountingEnv(phase10_env.raw_env):
    """Counts the games that reach their end."""

    games_ended = 0

    def _finish(self, truncated: bool = False) -> None:
        CountingEnv.games_ended += not truncated
        super()._finish(truncated)


@pytest.mark.parametrize("players", PLAYERS)
def test_api_play_test_over_many_seeds(players: int) -> None:
    """40 seeds per player count (200 in all), each game played to its end."""
    env = CountingEnv(num_players=players, rules=QUICK_RULES)
    env.reset(seed=0)
    observation_0 = env.last()[0]["observation"]
    ended = CountingEnv.games_ended
    for seed in range(40):
        env.reset(seed=seed)
        play_test(env, observation_0, num_cycles=100_000)
    assert CountingEnv.games_ended - ended == 40


@pytest.mark.parametrize("players", [2, 6])
def test_seed_test_over_many_seeds(players: int) -> None:
    for seed in range(20):
        class Seeded(phase10_env.raw_env):
            def reset(self, seed=None, options=None, _offset=seed):
                super().reset(seed=None if seed is None else seed + _offset, options=options)

        seed_test(lambda: Seeded(num_players=players, rules=QUICK_RULES), num_cycles=300)
