"""Options for third-party clients: terminating on an illegal action, PettingZoo's max_cycles
and its registry."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest

from phase10_env import env as make_env
from phase10_env.actions import DRAW_DISCARD, NUM_ACTIONS


def test_an_illegal_action_raises_by_default_and_changes_nothing() -> None:
    game = make_env()
    game.reset(seed=0)
    before = game.game.to_json()
    with pytest.raises(ValueError, match="illegal action 5"):
        game.step(5)  # laying a set before drawing
    assert game.game.to_json() == before


@pytest.mark.parametrize("action", [5, NUM_ACTIONS + 3, -1])
def test_terminate_mode_ends_the_game_with_the_offender_losing(action: int) -> None:
    game = make_env(num_players=3, illegal_action="terminate", illegal_reward=-2)
    game.reset(seed=0)
    offender = game.agent_selection
    game.step(action)
    assert all(game.terminations.values())
    assert game.infos[offender]["illegal_action"] is True
    final = {}
    for agent in game.agent_iter():
        final[agent] = game.last()[1]
        assert not game.last()[0]["action_mask"].any()
        game.step(None)
    assert final == {"player_0": -2.0, "player_1": 0.0, "player_2": 0.0}


def test_terminate_mode_still_refuses_what_is_not_an_action_at_all() -> None:
    game = make_env(illegal_action="terminate")
    game.reset(seed=0)
    with pytest.raises(ValueError, match="must be an integer"):
        game.step("draw")


def test_terminate_mode_plays_legal_actions_as_usual() -> None:
    game = make_env(illegal_action="terminate")
    game.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(300):
        mask = game.action_mask()
        game.step(int(rng.choice(np.flatnonzero(mask))))
    assert not any(game.terminations.values()) or game.game.is_over


def test_max_cycles_means_one_action_per_player_per_cycle() -> None:
    game = make_env(num_players=3, max_cycles=4)
    game.reset(seed=1)
    steps = 0
    for _ in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        game.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 12


def test_max_cycles_and_max_steps_together_are_refused() -> None:
    with pytest.raises(ValueError, match="not both"):
        make_env(max_cycles=3, max_steps=10)
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        make_env(illegal_action="ignore")


@pytest.mark.skipif(not hasattr(pettingzoo, "register"), reason="this PettingZoo has no registry")
def test_registered_with_pettingzoos_registry() -> None:
    game = pettingzoo.make("aec", "phase10/phase10_v0", num_players=4, max_cycles=10)
    game.reset(seed=0)
    assert game.possible_agents == [f"player_{s}" for s in range(4)]
    assert game.max_steps == 40
    assert game.action_mask()[DRAW_DISCARD] in (0, 1)
