"""The env keeps its promises at the edges: saving and restoring mid-move, failed resets,
stepping after the end, calls before reset, long phase lists (issue 10, items 7-11)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import phase10_env
from phase10_env import raw_env
from phase10_env.actions import CHOOSE_FIRST, MELD_IDS, NUM_ACTIONS
from phase10_env.engine import Meld, build_game, card
from phase10_env.engine.partial import PartialLayDown
from phase10_env.render import action_text
from tests.env.play import random_steps


def env_at(game, **options) -> raw_env:
    env = raw_env(num_players=game.num_players, **options)
    env.reset(options={"state": game.to_json()})
    return env


def play_on(env: raw_env, seed: int, steps: int) -> list[tuple]:
    """What the next ``steps`` uniformly random actions see: masks, observations, rewards."""
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        obs, reward, *_ = env.last()
        seen.append((agent, obs["action_mask"].tobytes(), obs["observation"].tobytes(), reward))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


def test_restore_in_the_middle_of_a_lay_down_goes_on_identically() -> None:
    game = build_game(["R7 B7 G7 Y7 R3 B3 G3 R1 R2 R4 R5", "R6 B6 G6 Y6 R11 B11 G11 W W S"], discard="G12")
    env = env_at(game, rewards="shaped")
    env.step(MELD_IDS[Meld(0, 7, 3)])
    env.step(CHOOSE_FIRST + card(7, 3))  # a set of 7s started, one card of three chosen
    assert env.pending == PartialLayDown(meld=Meld(0, 7, 3), settled=(card(7, 3),))
    saved = json.loads(json.dumps(env.save_state()))
    twin = raw_env(num_players=2, rewards="shaped")
    twin.restore_state(saved)
    assert twin.pending == env.pending
    assert play_on(twin, 5, 300) == play_on(env, 5, 300)


def test_restore_keeps_rewards_not_yet_delivered() -> None:
    # player_0 goes out by discarding: the hand's shaped rewards reach player_1 only when it
    # next acts; a save in between must keep them.
    game = build_game(["R5", "B5 W"], discard="G12", table={0: [("set", 7, "R7 B7 G7"), ("set", 3, "R3 B3 G3")]})
    env = env_at(game, rewards="shaped")
    env.step(246 + card(5, 0))
    owed = env.cumulative_reward("player_1")
    assert owed != 0.0
    twin = raw_env(num_players=2, rewards="shaped")
    twin.restore_state(env.save_state())
    assert twin.cumulative_reward("player_1") == owed
    assert twin.last()[1] == env.last()[1]


def test_a_bad_saved_env_state_is_refused_and_changes_nothing() -> None:
    env = raw_env(num_players=2)
    env.reset(seed=3)
    before = env.save_state()
    bad = dict(before, move_actions=[MELD_IDS[Meld(0, 1, 3)]])  # not a move in progress at the draw
    with pytest.raises(ValueError, match="move_actions"):
        env.restore_state(bad)
    with pytest.raises(ValueError, match="rewards"):
        env.restore_state(dict(before, rewards={"player_0": "lots", "player_1": 0.0}))
    with pytest.raises(ValueError, match="format"):
        env.restore_state({"game": before["game"]})
    assert env.save_state() == before


@pytest.mark.parametrize("options", [{"first_dealer": 7}, {"state": {"format": "phase10-state"}}])
def test_a_failed_reset_changes_nothing_not_even_the_seed_stream(options: dict) -> None:
    env, twin = raw_env(num_players=2), raw_env(num_players=2)
    env.reset(seed=11)
    twin.reset(seed=11)
    play_on(env, 1, 40)
    play_on(twin, 1, 40)
    before = env.save_state()
    with pytest.raises(ValueError):
        env.reset(seed=99, options=options)
    assert env.save_state() == before
    env.reset()
    twin.reset()
    assert env.game.to_json() == twin.game.to_json()  # the same next game as an env never failed


def test_step_and_last_after_every_agent_is_removed_warn_instead_of_failing(caplog: pytest.LogCaptureFixture) -> None:
    game = build_game(["R5", "B5 W"], discard="G12", rules={"phases_to_win": 1},
                      table={0: [("set", 7, "R7 B7 G7"), ("set", 3, "R3 B3 G3")]})
    env = env_at(game)
    env.step(246 + card(5, 0))  # player_0 goes out and wins the one-phase game
    for _ in env.agent_iter():
        env.step(None)
    assert env.agents == []
    before = env.game.to_json()
    env.step(3)
    obs, reward, terminated, truncated, info = env.last()
    assert terminated and not truncated and reward == 0.0 and not obs["action_mask"].any()
    assert env.game.to_json() == before
    assert sum("after all agents are terminated or truncated" in r.message for r in caplog.records) == 2


@pytest.mark.parametrize("call", ["step", "render", "seat_view", "last", "observe", "save_state"])
def test_calls_before_reset_are_a_clear_error(call: str) -> None:
    env = raw_env(num_players=2, render_mode="ansi")
    args = {"step": (0,), "render": (), "seat_view": ("player_0",), "last": (), "observe": ("player_0",),
            "save_state": ()}[call]
    with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
        getattr(env, call)(*args)


@pytest.mark.parametrize("rules", [5, ["x"], 2.5])
def test_rules_of_the_wrong_type_are_a_clear_error(rules: object) -> None:
    with pytest.raises(ValueError, match="rules must be"):
        raw_env(num_players=2, rules=rules)


def test_a_phase_list_longer_than_ten_keeps_every_observation_in_bounds() -> None:
    env = raw_env(num_players=3, phases=[1] * 12)
    env.reset(seed=2)
    space = env.observation_space("player_0")["observation"]
    outside = []

    def check(e: raw_env) -> None:
        for agent in e.agents:
            obs = e.observe(agent)["observation"]
            if not space.contains(obs):
                outside.append(np.flatnonzero((obs < space.low) | (obs > space.high)).tolist())

    steps = sum(1 for _ in random_steps(env, np.random.default_rng(2), 3000, eager=True, on_state=check))
    assert steps > 500 and max(env.game.phases_completed) > 0
    assert not outside, outside[:3]


@pytest.mark.parametrize("action", [NUM_ACTIONS, -1, 10**6, 2.0, "3", True], ids=repr)
def test_describe_refuses_what_step_refuses_with_the_same_error(action: object) -> None:
    """``describe`` of an id outside the table is the ``ValueError`` step gives for it, not an
    IndexError (350) or the description of another action (-1 is the last one)."""
    game = raw_env(num_players=2)
    game.reset(seed=0)
    with pytest.raises(ValueError) as by_step:
        game.step(action)
    with pytest.raises(ValueError) as by_describe:
        phase10_env.describe(action)
    assert type(by_describe.value) is type(by_step.value)
    assert str(by_describe.value) == str(by_step.value)
    view = game.seat_view(game.agent_selection)
    with pytest.raises(ValueError, match=re.escape(str(by_step.value))):
        action_text(view, action)
