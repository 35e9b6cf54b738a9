"""R16 going out, R17 scoring, R18 advancing."""

import pytest

from phase10_env.engine import SKIP, Discard, HandEnded, Hit, Stage, build_game
from tests.engine.p10_rules_helpers import (
    SET,
    SKIP_RULES,
    c,
    events_of,
    hand_ended,
    hand_points,
    lay,
    play,
)

PHASE1_DOWN = [("set", 7, "B7 G7 Y7"), ("set", 9, "R9 B9 G9")]
PHASE1_DOWN_B = [("set", 3, "R3 B3 G3"), ("set", 4, "R4 B4 G4")]


# ---------------------------------------------------------------- R16 going out


def test_r16_going_out_by_hitting_the_last_card_ends_the_hand_at_once():
    game = build_game(["R7", "B1 B2 B3", "G1 G2"], table={0: PHASE1_DOWN}, stage="play")
    events = play(game, Hit(0, 0, c("R7")))
    result = hand_ended(events).result
    assert result.went_out == 0
    assert result.hand_number == 1
    # the hand is over: nobody else played; a new hand is dealt
    assert game.hand_number == 2
    assert list(game.hand_sizes) == [10, 10, 10]
    assert game.history[-1] == result


def test_r16_going_out_by_discarding_the_last_card():
    game = build_game(["R1", "B1 B2 B3"], table={0: PHASE1_DOWN}, stage="play")
    events = play(game, Discard(c("R1")))
    result = hand_ended(events).result
    assert result.went_out == 0
    assert list(result.points) == [0, hand_points("B1 B2 B3")]


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r16_a_skip_may_be_the_last_card(skip_rule):
    game = build_game(["S", "B1 B2 B3", "G4"], rules={"skip_rule": skip_rule}, table={0: PHASE1_DOWN}, stage="play")
    events = play(game, Discard(SKIP, 1))
    result = hand_ended(events).result
    assert result.went_out == 0
    assert list(result.points) == [0, hand_points("B1 B2 B3"), hand_points("G4")]


def test_r16_laying_down_every_card_goes_out_with_no_discard():
    game = build_game(["R7 B7 G7 R9 B9 G9", "B1 B2 B3"], stage="play")
    events = play(game, lay(SET(7, 3), SET(9, 3)))
    result = hand_ended(events).result
    assert result.went_out == 0
    assert list(result.made_phase) == [True, False]


def test_r16_going_out_by_hitting_the_last_card_on_another_players_group():
    game = build_game(
        ["G1", "B5 B6", "Y4"],
        table={0: PHASE1_DOWN, 2: [("set", 1, "R1 B1 Y1"), ("set", 2, "R2 B2 G2")]},
        stage="play",
    )
    events = play(game, Hit(2, 0, c("G1")))
    assert hand_ended(events).result.went_out == 0


def test_r16_going_out_in_the_middle_of_several_hits():
    game = build_game(
        ["R8 R9", "B1"],
        table={0: [("run", 1, "R1 R2 R3 R4 R5 R6 W")]},
        phases_completed=[3, 0],
        stage="play",
    )
    play(game, Hit(0, 0, c("R8")))
    assert game.stage == Stage.PLAY and game.hand_number == 1
    events = play(game, Hit(0, 0, c("R9")))
    assert hand_ended(events).result.went_out == 0


def test_r16_hand_goes_on_while_the_player_still_holds_cards():
    # a discard that leaves a card in hand does not end the hand
    game = build_game(["R1 R2", "B1 B2 B3"], stage="play")
    events = play(game, Discard(c("R1")))
    assert not events_of(events, HandEnded)
    assert game.hand_sizes[0] == 1


# ---------------------------------------------------------------- R17 scoring


@pytest.mark.parametrize(
    "loser_hand, points",
    [
        ("R1", 5),
        ("B5", 5),
        ("G9", 5),
        ("Y10", 10),
        ("R11", 10),
        ("B12", 10),
        ("S", 15),
        ("W", 25),
        ("R9 B10 S W", 55),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9", 45),
        ("R10 R11 R12 B10 B11 B12", 60),
        ("W W S S", 80),
    ],
)
def test_r17_cards_left_in_hand_score(loser_hand, points):
    assert hand_points(loser_hand) == points  # the helper follows R17
    game = build_game(["R7", loser_hand], table={0: [("set", 7, "B7 G7 Y7"), ("set", 2, "B2 G2 Y2")]}, stage="play")
    events = play(game, Hit(0, 0, c("R7")))
    result = hand_ended(events).result
    assert list(result.points) == [0, points]
    assert list(result.scores) == [0, points]
    assert list(game.scores) == [0, points]


def test_r17_laid_cards_score_nothing():
    # seat 1 has its phase down (six cards on the table) and two cards in hand
    game = build_game(
        ["R7", "W R12", "G1 G2 G3"],
        table={0: PHASE1_DOWN, 1: PHASE1_DOWN_B},
        stage="play",
    )
    result = hand_ended(play(game, Hit(0, 0, c("R7")))).result
    assert list(result.points) == [0, 35, 15]


def test_r17_scores_add_up_over_hands():
    game = build_game(
        ["R1", "W R12", "G1 G2 G3"],
        table={0: PHASE1_DOWN},
        scores=[40, 100, 5],
        stage="play",
    )
    result = hand_ended(play(game, Discard(c("R1")))).result
    assert list(result.points) == [0, 35, 15]
    assert list(result.scores) == [40, 135, 20]
    assert list(game.scores) == [40, 135, 20]
    assert game.history[-1].scores == result.scores


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_r17_every_other_player_scores_their_own_hand(num_players):
    losers = ["W W", "R10", "S B3", "G12 G11 G10", "Y1"]
    hands = ["R7"] + losers[: num_players - 1]
    game = build_game(hands, table={0: PHASE1_DOWN}, stage="play")
    result = hand_ended(play(game, Hit(0, 0, c("R7")))).result
    assert list(result.points) == [0] + [hand_points(h) for h in losers[: num_players - 1]]


# ---------------------------------------------------------------- R18 advancing


# a table layout for a seat that made phase (index + 1); two disjoint card sets so two seats
# can have their phases down at once
LAYOUT_A = {
    0: [("set", 12, "G12 Y12 B12"), ("set", 5, "R5 G5 Y5")],
    1: [("set", 12, "G12 Y12 B12"), ("run", 2, "R2 G3 R4 R5")],
    2: [("set", 12, "G12 Y12 B12 R12"), ("run", 2, "R2 G3 R4 R5")],
    5: [("run", 2, "R2 G3 R4 R5 Y6 Y7 Y8 Y9 Y10")],
    8: [("set", 12, "G12 Y12 B12 R12 B12"), ("set", 5, "R5 G5")],
}
LAYOUT_B = {
    0: [("set", 1, "R1 B1 G1"), ("set", 11, "R11 B11 G11")],
    1: [("set", 1, "R1 B1 G1"), ("run", 8, "B8 B9 B10 B11")],
    5: [("run", 1, "B1 G2 G3 G4 G5 G6 G7 G8 G9")],
    6: [("set", 1, "R1 B1 G1 Y1"), ("set", 11, "R11 B11 G11 Y11")],
    7: [("colour", 1, "B1 B2 B3 B4 B5 B6 B7")],
}


@pytest.mark.parametrize("start", [(0, 0, 0), (1, 5, 7), (8, 1, 3), (5, 7, 0), (2, 6, 9)])
def test_r18_players_who_laid_their_phase_advance_the_others_repeat(start):
    # seat 0 has its phase down and goes out, seat 1 has its phase down, seat 2 has not
    p0, p1, p2 = start
    game = build_game(
        ["B7", "R6", "G6 W"],
        table={0: LAYOUT_A[p0], 1: LAYOUT_B[p1]},
        phases_completed=list(start),
        scores=[10, 20, 30],
        stage="play",
    )
    assert [game.phase_of(s) for s in range(3)] == [p0 + 1, p1 + 1, p2 + 1]
    result = hand_ended(play(game, Discard(c("B7")))).result
    assert list(result.made_phase) == [True, True, False]
    assert list(result.phases_completed) == [p0 + 1, p1 + 1, p2]
    assert list(game.phases_completed) == [p0 + 1, p1 + 1, p2]
    assert [game.phase_of(s) for s in range(3)] == [p0 + 2, p1 + 2, p2 + 1]
    assert not any(game.laid)  # a new hand: nobody's phase is down yet


def test_r18_player_repeating_a_phase_faces_the_same_requirements_next_hand():
    game = build_game(["B7", "R6 R7 R8"], table={0: LAYOUT_A[1]}, phases_completed=[1, 1], stage="play")
    before = game.requirements(1)
    hand_ended(play(game, Discard(c("B7"))))
    assert game.phase_of(1) == 2
    assert game.requirements(1) == before
    assert game.phase_of(0) == 3
