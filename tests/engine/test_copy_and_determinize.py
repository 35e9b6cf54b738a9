"""Game.copy() and Game.determinize(): cheap independent copies, and games consistent with what
one seat knows, for search agents (issue 11)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from phase10_env import raw_env
from phase10_env.engine import Discard, Game, build_game, card, load_state
from tests.env.play import hidden_cards_shuffled


def random_game(players: int, seed: int, moves: int) -> Game:
    game = Game(players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if game.is_over:
            break
        legal = game.legal_moves()
        game.apply(legal[int(rng.integers(len(legal)))])
    return game


def play_random(game: Game, rng: np.random.Generator, moves: int) -> list:
    played = []
    for _ in range(moves):
        if game.is_over:
            break
        legal = game.legal_moves()
        move = legal[int(rng.integers(len(legal)))]
        game.apply(move)
        played.append(move)
    return played


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), before=st.integers(0, 400))
def test_moves_on_a_copy_leave_the_original_unchanged(players: int, seed: int, before: int) -> None:
    game = random_game(players, seed, before)
    state = game.to_json()
    copy = game.copy()
    play_random(copy, np.random.default_rng(seed + 1), 300)  # reshuffles and new deals included
    assert game.to_json() == state


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), before=st.integers(0, 400))
def test_a_copy_and_its_original_given_the_same_moves_stay_identical(players: int, seed: int, before: int) -> None:
    game = random_game(players, seed, before)
    copy = game.copy()
    moves = play_random(game, np.random.default_rng(seed + 2), 300)
    for move in moves:
        copy.apply(move)
    assert copy.to_json() == game.to_json()
    assert copy.record.to_json() == game.record.to_json()


def observations(game: Game, seat: int) -> np.ndarray:
    env = raw_env(num_players=game.num_players, rules=game.rules)
    env.reset(options={"state": game.to_json()})
    return env.observe(env.possible_agents[seat])["observation"]


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), before=st.integers(0, 300))
def test_a_sample_looks_the_same_to_the_seat_and_loads_as_a_valid_state(players: int, seed: int, before: int) -> None:
    game = random_game(players, seed, before)
    if game.is_over:
        return
    for seat in range(players):
        sample = game.determinize(seat, np.random.default_rng(seed))
        assert Game.from_json(sample.to_json()).to_json() == sample.to_json()
        assert sample.view(seat) == game.view(seat)
        np.testing.assert_array_equal(observations(sample, seat), observations(game, seat))
        for s in range(players):
            assert sample.hand_sizes[s] == game.hand_sizes[s]
        assert len(sample.draw_pile) == len(game.draw_pile)
        play_random(sample, np.random.default_rng(seed), 200)  # and it plays on


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), before=st.integers(0, 300))
def test_nothing_hidden_leaks_into_a_sample(players: int, seed: int, before: int) -> None:
    game = random_game(players, seed, before)
    if game.is_over:
        return
    seat = game.current
    other = hidden_cards_shuffled(game, seat, np.random.default_rng(seed + 3))
    a = game.determinize(seat, np.random.default_rng(7))
    b = other.determinize(seat, np.random.default_rng(7))
    assert a.to_json() == b.to_json()


def test_unknown_cards_land_uniformly_over_the_unseen_places() -> None:
    # Seat 0 sees its hand, the table and the discard pile; seat 1 is known to hold Y9 (taken
    # from the pile). Every other card is equally likely to be any of seat 1's 4 unknown cards,
    # any of seat 2's 6 cards or any card of the draw pile.
    game = build_game(["R1 R2 R3 R4 R5", "Y9 B8 B9 B10 B11", "G1 G2 G3 G4 G5 G6"], discard="Y12",
                      taken_from_discard={1: "Y9"}, current=0, stage="play")
    unseen = len(game.draw_pile) + 4 + 6
    rng = np.random.default_rng(0)
    kind = card(2, 1)  # B2: two copies, neither seen
    counts = np.zeros(3)
    samples = 4000
    for _ in range(samples):
        sample = game.determinize(0, rng)
        assert sample.hands[1][card(9, 3)] >= 1  # the Y9 it was seen to take stays
        counts += [sample.hands[1][kind], sample.hands[2][kind], sample.draw_pile.count(kind)]
    expected = 2 * samples * np.array([4, 6, len(game.draw_pile)]) / unseen
    assert chisquare(counts, expected).pvalue > 0.001


def test_a_bad_seat_or_a_finished_game_is_a_clear_error() -> None:
    game = Game(3, seed=1)
    with pytest.raises(ValueError, match="seat must be a seat from 0 to 2"):
        game.determinize(3, np.random.default_rng())
    finished = build_game(["R5", "B5 W"], discard="G12", rules={"phases_to_win": 1},
                          table={0: [("set", 7, "R7 B7 G7"), ("set", 3, "R3 B3 G3")]})
    finished.apply(Discard(card(5, 0)))  # player_0 goes out: the one-phase game is over
    assert finished.is_over
    with pytest.raises(ValueError, match="the game is over"):
        finished.determinize(0, np.random.default_rng())


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 300))
def test_from_state_plays_on_like_the_game_and_leaves_the_state_alone(players: int, seed: int, moves: int) -> None:
    game = random_game(players, seed, moves)
    if game.is_over:
        return
    state = load_state(game.to_json())
    saved = state.to_json()
    again = Game.from_state(state)
    assert again.record.start_state() == saved and again.record.moves == []
    state.scores[0] += 5  # the caller's state is its own: changing it changes neither game nor record
    assert again.record.start_state() == saved and again.scores[0] == game.scores[0]
    state.scores[0] -= 5
    rng_a, rng_b = np.random.default_rng(seed), np.random.default_rng(seed)
    assert play_random(game, rng_a, 200) == play_random(again, rng_b, 200)
    assert again.to_json() == game.to_json()
    assert state.to_json() == saved, "playing the game changed the state it started from"
    assert Game.from_record(again.record).to_json() == again.to_json()
