"""The AEC environment in game terms: turns, illegal actions, rewards, episode ends, rendering."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import phase10_env
from phase10_env import NUM_ACTIONS, raw_env
from phase10_env.actions import DISCARD_FIRST, DRAW_DECK, DRAW_DISCARD, MELD_IDS, skip_id
from phase10_env.engine import SKIP, Game, build_game, card
from phase10_env.engine.phases import GroupKind, Meld


def env_at(game, **options) -> raw_env:
    env = raw_env(num_players=game.num_players, rules=game.rules, **options)
    env.reset(options={"state": game.to_json()})
    return env


def discard_id(text_card: int) -> int:
    return DISCARD_FIRST + text_card


def test_env_factory_gives_raw_env_with_seat_agents() -> None:
    env = phase10_env.env(num_players=4)
    env.reset(seed=3)
    assert isinstance(env, raw_env)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert env.agent_selection == "player_0"  # the last seat deals first, so seat 0 starts


@pytest.mark.parametrize("bad", [1, 7, "2", None])
def test_bad_player_count_is_a_clear_error(bad) -> None:
    with pytest.raises(ValueError, match="num_players"):
        raw_env(num_players=bad)


def test_unknown_rule_option_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="skip_rules"):
        raw_env(num_players=2, skip_rules="pending_only")


def test_illegal_action_raises_naming_it_and_changes_nothing() -> None:
    env = raw_env(num_players=2)
    env.reset(seed=5)
    before = env.game.to_json(), env.observe("player_0")["observation"]
    with pytest.raises(ValueError, match=r"illegal action 246 \(discard R1\).*draw first"):
        env.step(discard_id(card(1, 0)))
    with pytest.raises(ValueError, match="out of range"):
        env.step(NUM_ACTIONS)
    with pytest.raises(ValueError, match="integer"):
        env.step(1.5)
    assert env.game.to_json() == before[0]
    np.testing.assert_array_equal(env.observe("player_0")["observation"], before[1])
    assert env.agent_selection == "player_0"


def test_step_before_reset_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        raw_env(num_players=2).step(0)


def test_a_turn_is_draw_then_discard_by_the_same_agent() -> None:
    env = raw_env(num_players=3)
    env.reset(seed=11)
    env.step(DRAW_DECK)
    assert env.agent_selection == "player_0"
    hand = env.game.hands[0]
    card_kind = next(k for k in range(SKIP) if hand[k])
    env.step(discard_id(card_kind))
    assert env.agent_selection == "player_1"
    assert env.action_mask("player_0").sum() == 0 and env.infos["player_0"]["action_mask"].sum() == 0
    assert env.infos["player_1"]["action_mask"][DRAW_DECK] == 1


def test_masks_handed_out_are_read_only_and_keep_their_state() -> None:
    env = raw_env(num_players=2)
    env.reset(seed=3)
    draw_mask = env.observe("player_0")["action_mask"]
    with pytest.raises(ValueError, match="read-only"):
        draw_mask[DRAW_DECK] = 0  # states share masks: changing one would corrupt others
    env.step(DRAW_DECK)
    play_mask = env.last()[0]["action_mask"]
    assert draw_mask[DRAW_DECK] == 1 and play_mask[DRAW_DECK] == 0  # the first mask still tells its state
    mine = play_mask.copy()
    mine[:] = 0  # a copy is the user's to change
    assert env.action_mask("player_0").sum() > 0


def test_a_skipped_turn_passes_without_an_action() -> None:
    game = build_game(["S R1 R2", "R3 R4"], discard="G12")
    env = env_at(game)
    env.step(skip_id(1))
    assert env.agent_selection == "player_0" and env.game.stage == 0  # player_1 lost its turn


def test_laying_down_by_templates_then_going_out_by_discard_wins_the_short_game() -> None:
    # phases_to_win=1: completing phase 1 ends the game after this hand.
    game = build_game(["R7 B7 G7 R3 B3 W Y9", "R1 R2 R4 B5 B6 Y11 Y12"], discard="G12",
                      rules={"phases_to_win": 1})
    env = env_at(game)
    env.step(MELD_IDS[Meld(GroupKind.SET, 7, 3)])
    env.step(MELD_IDS[Meld(GroupKind.SET, 3, 3)])
    env.step(discard_id(card(9, 3)))
    assert all(env.terminations.values()) and env.game.winners == (0,)
    final = {}
    for agent in env.agent_iter():
        final[agent] = env.last()[1]
        env.step(None)
    assert final == {"player_0": 1.0, "player_1": -1.0}


def test_tied_winners_share_the_win_in_advance_all() -> None:
    game = build_game(["R5", "B5 W"], discard="G12", rules={"advance_all": True, "phases": [1]},
                      table={0: [("set", 7, "R7 B7 G7"), ("set", 3, "R3 B3 G3")]}, scores=[30, 0])
    env = env_at(game)
    env.step(discard_id(card(5, 0)))  # player_1 keeps B5 W: 30 points, so both end on 30
    assert env.game.winners == (0, 1)
    assert {a: env.cumulative_reward(a) for a in env.agents} == {"player_0": 0.5, "player_1": 0.5}


def test_per_hand_shaping_rewards() -> None:
    game = build_game(["R5", "B5 W"], discard="G12", table={0: [("set", 7, "R7 B7 G7"), ("set", 3, "R3 B3 G3")]})
    env = env_at(game, rewards={"phase_made": 0.5, "went_out": 0.25, "points": -0.01, "win": 1, "loss": -1})
    env.step(discard_id(card(5, 0)))
    assert not any(env.terminations.values())
    assert env.cumulative_reward("player_0") == pytest.approx(0.75)
    assert env.cumulative_reward("player_1") == pytest.approx(-0.30)


def test_hand_episodes_end_at_the_end_of_the_hand() -> None:
    game = build_game(["R5", "B5 W"], discard="G12", table={0: [("set", 7, "R7 B7 G7"), ("set", 3, "R3 B3 G3")]})
    env = env_at(game, episode="hand", rewards="shaped")
    env.step(discard_id(card(5, 0)))
    assert all(env.terminations.values())


def test_truncation_at_the_step_limit() -> None:
    env = raw_env(num_players=2, max_steps=3)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(3):
        legal = np.flatnonzero(env.action_mask())
        env.step(int(rng.choice(legal)))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    for _ in env.agent_iter():
        env.step(None)
    assert env.agents == []


def test_same_seed_same_game() -> None:
    def trajectory(seed: int) -> list:
        env = raw_env(num_players=3)
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = []
        for _ in range(300):
            obs = env.observe(env.agent_selection)
            out.append(obs["observation"].copy())
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return out

    a, b, c = trajectory(9), trajectory(9), trajectory(10)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_env_pickles_and_plays_on() -> None:
    env = raw_env(num_players=3, skip_rule="pending_only", rewards="shaped")
    clone = pickle.loads(pickle.dumps(env))
    clone.reset(seed=1)
    assert clone.rules.skip_rule == "pending_only" and clone.reward_config.phase_made > 0
    clone.step(DRAW_DECK)


def test_reset_from_a_saved_state_and_first_dealer_option() -> None:
    env = raw_env(num_players=3)
    env.reset(seed=4, options={"first_dealer": 0})
    assert env.agent_selection == "player_1"
    state = env.game.to_json()
    other = raw_env(num_players=3)
    other.reset(options={"state": state})
    np.testing.assert_array_equal(other.observe("player_1")["observation"], env.observe("player_1")["observation"])


def test_ansi_render_shows_the_acting_hand_and_the_table() -> None:
    game = build_game(["R5 Y9", "B5 W"], discard="G12", table={0: [("set", 7, "R7 B7 G7"), ("run", 1, "R1 R2 W R4")]},
                      rules={"phases": [2]})
    env = raw_env(num_players=2, render_mode="ansi", phases=[2])
    env.reset(options={"state": game.to_json()})
    text = env.render()
    assert "hand: R5 Y9" in text and "B5" not in text
    assert "set of 7s: R7 B7 G7" in text and "run 1-4: R1 R2 W R4" in text


def test_take_discard_action_is_masked_when_the_top_is_a_skip() -> None:
    game = build_game(["R5 Y9", "B5 W"], discard="G12 S", stage="draw")
    env = env_at(game)
    mask = env.action_mask()
    assert mask[DRAW_DECK] == 1 and mask[DRAW_DISCARD] == 0


def test_random_start_phases_spread_hand_episodes_over_the_phases() -> None:
    env = raw_env(num_players=2, episode="hand", start_phases="random")
    seen = set()
    for seed in range(30):
        env.reset(seed=seed)
        seen.update(env.game.phase_of(s) for s in range(2))
        assert Game.from_record(env.game.record).to_json() == env.game.to_json()
    assert len(seen) >= 8
    with pytest.raises(ValueError, match="start_phases"):
        raw_env(num_players=2, start_phases="late")
