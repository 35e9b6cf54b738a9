"""The observation holds what its player may know, kept exactly up to date between moves."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10_env import OBS_SIZE, OBS_SLICES, observation, raw_env
from phase10_env.engine import Game, build_game, card
from phase10_env.observation import LAYOUT, OBS_HIGH, SEAT_BLOCK, SEAT_FIELDS, ObservationEncoder
from tests.env.play import VARIANTS, hidden_cards_shuffled, random_steps


def fresh_observation(env: raw_env, seat: int, game: Game | None = None) -> np.ndarray:
    encoder = ObservationEncoder(game or env.game, planning=env.features == "planning")
    encoder.set_pending(env.pending)
    return encoder.observe(seat)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), variant=st.sampled_from(VARIANTS))
def test_incremental_observation_equals_one_built_from_scratch(seed: int, players: int, variant: str) -> None:
    env = raw_env(num_players=players, rules=variant)
    env.reset(seed=seed)

    def check(env: raw_env) -> None:
        for seat, agent in enumerate(env.possible_agents):
            obs = env.observe(agent)["observation"]
            np.testing.assert_array_equal(obs, fresh_observation(env, seat))
            assert env.observation_space(agent)["observation"].contains(obs)

    for _ in random_steps(env, np.random.default_rng(seed), 1200, eager=True, on_state=check):
        pass


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), features=st.sampled_from(["standard", "planning"]))
def test_observation_ignores_hidden_cards(seed: int, players: int, features: str) -> None:
    env = raw_env(num_players=players, features=features)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for step, _ in enumerate(random_steps(env, rng, 400, eager=True)):
        if step % 37:
            continue
        for viewer in range(players):
            other = hidden_cards_shuffled(env.game, viewer, rng)
            np.testing.assert_array_equal(fresh_observation(env, viewer, other), fresh_observation(env, viewer))


def test_layout_is_consistent() -> None:
    assert sum(size for _, size in LAYOUT) == OBS_SIZE == OBS_HIGH.shape[0]
    assert OBS_SLICES["seats"].stop - OBS_SLICES["seats"].start == 6 * SEAT_BLOCK


def test_observation_shows_own_hand_top_discard_and_seats_from_own_side() -> None:
    game = build_game(["R7 B7 W", "G1 G2 G3 G4", "Y5 Y6"], discard="B12", current=1, stage="draw",
                      scores=[10, 20, 30], phases_completed=[0, 1, 2])
    env = raw_env(num_players=3)
    env.reset(options={"state": game.to_json()})
    obs = env.observe("player_1")["observation"]
    hand = obs[OBS_SLICES["hand"]]
    assert hand[card(1, 2)] == hand[card(4, 2)] == 1 and hand.sum() == 4
    assert np.flatnonzero(obs[OBS_SLICES["discard_top"]]).tolist() == [card(12, 1)]
    seats = obs[OBS_SLICES["seats"]].reshape(6, SEAT_BLOCK)
    phase = slice(SEAT_FIELDS["phase"], SEAT_FIELDS["phase"] + 10)
    # offset 0 is player_1 itself (phase 2), offset 1 is player_2 (phase 3), offset 2 player_0
    assert [int(np.argmax(seats[k, phase])) + 1 for k in range(3)] == [2, 3, 1]
    assert seats[:3, SEAT_FIELDS["hand_size"]].tolist() == [4, 2, 3]
    np.testing.assert_allclose(seats[:3, SEAT_FIELDS["score"]], [0.2, 0.3, 0.1])
    assert seats[0, SEAT_FIELDS["to_act"]] == 1 and seats[3:].sum() == 0
    assert obs[OBS_SLICES["stage"]].tolist() == [1, 0, 0, 0]


@pytest.mark.compiled("observation composer")
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_compiled_composer_builds_what_the_python_reference_builds(seed: int, players: int) -> None:
    env = raw_env(num_players=players)
    env.reset(seed=seed)

    def check(env: raw_env) -> None:
        for agent in env.possible_agents:
            compiled = env.observation_vector(agent)
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(observation, "compose", observation.compose_python)
                np.testing.assert_array_equal(compiled, env.observation_vector(agent))

    for _ in random_steps(env, np.random.default_rng(seed), 600, eager=True, on_state=check):
        pass


@pytest.mark.compiled("observation composer")
def test_compiled_composer_refuses_buffers_that_do_not_fit() -> None:
    seats, tail = np.zeros(136, np.float32), np.zeros(29, np.float32)
    hand = bytearray(50)
    with pytest.raises(TypeError, match="float32"):
        observation.compose(np.empty(OBS_SIZE, np.float64), hand, -1, hand, hand, seats, 0, 68, tail)
    with pytest.raises(ValueError, match="top is not a card kind"):
        observation.compose(np.empty(OBS_SIZE, np.float32), hand, 50, hand, hand, seats, 0, 68, tail)
    with pytest.raises(ValueError, match="do not fit"):
        observation.compose(np.empty(OBS_SIZE, np.float32), hand, -1, hand, hand, seats, 100, 68, tail)
