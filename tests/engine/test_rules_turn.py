"""R5 draw, R6 the turn, R7 empty draw pile, R8 discarding the card just taken."""

from collections import Counter

import pytest

from phase10_env.engine import SKIP, Discard, Draw, Hit, Stage, build_game, card_name
from tests.engine.p10_rules_helpers import (
    SET,
    all_cards_accounted,
    assert_illegal,
    c,
    deck_as_kinds,
    draws_in,
    hand_counter,
    hand_ended,
    hand_points,
    lay,
    laydowns_in,
    names,
    parse_cards,
    play,
    rest_of_deck,
)

PHASE1_DOWN = [("set", 7, "R7 B7 G7"), ("set", 9, "R9 B9 G9")]


# ---------------------------------------------------------------- R5 draw


def test_r5_draw_from_draw_pile_takes_its_top_card():
    game = build_game(["R1 R2 R3", "B1 B2 B3"], stage="draw", discard="Y4", draw_top="G11")
    pile_before = len(game.draw_pile)
    play(game, Draw())
    assert hand_counter(game, 0) == names("R1 R2 R3 G11")
    assert len(game.draw_pile) == pile_before - 1
    assert [card_name(k) for k in game.discard_pile] == ["Y4"]
    assert game.stage == Stage.PLAY
    assert game.current == 0


def test_r5_draw_from_discard_pile_takes_its_top_card():
    game = build_game(["R1 R2 R3", "B1 B2 B3"], stage="draw", discard="Y4 B5", draw_top="G11")
    pile_before = len(game.draw_pile)
    play(game, Draw(from_discard=True))
    assert hand_counter(game, 0) == names("R1 R2 R3 B5")
    assert [card_name(k) for k in game.discard_pile] == ["Y4"]
    assert len(game.draw_pile) == pile_before
    assert game.stage == Stage.PLAY


def test_r5_exactly_one_card_is_drawn_per_turn():
    game = build_game(["R1 R2 R3", "B1 B2 B3"], stage="draw", discard="Y4 B5")
    play(game, Draw())
    assert_illegal(game, Draw())
    assert_illegal(game, Draw(from_discard=True))
    assert draws_in(game) == []


def test_r5_the_turn_starts_with_the_draw_nothing_else_is_allowed_first():
    game = build_game(
        ["R7 B7 G7 R9 B9 G9 R1 S", "B1 B2 B3"],
        stage="draw",
        discard="Y4",
        current=0,
    )
    assert all(isinstance(m, Draw) for m in game.legal_moves())
    assert set(game.legal_moves()) == {Draw(), Draw(from_discard=True)}
    assert_illegal(game, Discard(c("R1")))
    assert_illegal(game, Discard(SKIP, 1))
    assert_illegal(game, lay(SET(7, 3), SET(9, 3)))


def test_r5_skip_can_never_be_taken_from_the_discard_pile():
    game = build_game(["R1 R2 R3", "B1 B2 B3"], stage="draw", discard="Y4 S")
    assert_illegal(game, Draw(from_discard=True))
    assert draws_in(game) == [Draw()]
    play(game, Draw())
    assert game.discard_pile[-1] == SKIP


# ---------------------------------------------------------------- R6 the turn


def test_r6_discarding_one_card_ends_the_turn():
    game = build_game(["R1 R2 R3", "B1 B2 B3", "G1 G2 G3"], stage="play", discard="Y4")
    play(game, Discard(c("R2")))
    assert hand_counter(game, 0) == names("R1 R3")
    assert card_name(game.discard_pile[-1]) == "R2"
    assert game.current == 1
    assert game.stage == Stage.DRAW
    # the turn is over: the old player cannot discard again
    assert_illegal(game, Discard(c("R1")))


def test_r6_cannot_discard_a_card_not_in_hand():
    game = build_game(["R1 R2 R3", "B1 B2 B3"], stage="play", discard="Y4")
    assert_illegal(game, Discard(c("B1")))
    assert_illegal(game, Discard(c("Y4")))


def test_r6_laying_down_is_optional_player_may_just_discard():
    game = build_game(["R7 B7 G7 R9 B9 G9 R1", "B1 B2 B3"], stage="play", discard="Y4")
    assert laydowns_in(game)  # the phase could go down ...
    play(game, Discard(c("R1")))  # ... but the player simply discards
    assert not game.laid[0]
    assert len(game.table[0]) == 0
    assert game.current == 1


def test_r6_laying_down_and_hitting_do_not_end_the_turn_discard_does():
    game = build_game(["R7 B7 G7 R9 B9 G9 Y9 R1 R2", "B1 B2 B3"], stage="play", discard="Y4")
    play(game, lay(SET(7, 3), SET(9, 3)))
    assert game.current == 0 and game.stage == Stage.PLAY
    play(game, Hit(0, 1, c("Y9")))
    assert game.current == 0 and game.stage == Stage.PLAY
    assert hand_counter(game, 0) == names("R1 R2")
    play(game, Discard(c("R1")))
    assert game.current == 1 and game.stage == Stage.DRAW
    assert hand_counter(game, 0) == names("R2")


def test_r6_player_whose_hand_empties_goes_out_without_discarding():
    game = build_game(["R9", "B1 B2 B3"], table={0: PHASE1_DOWN}, stage="play", discard="Y4")
    events = play(game, Hit(0, 1, c("R9")))
    assert hand_ended(events).result.went_out == 0


# ---------------------------------------------------------------- R7 empty draw pile


def _seat1_to_draw_from_empty_draw_pile():
    """Reach, by ordinary moves, a position where seat 1 must draw and the draw pile is empty:
    the draw pile starts with one card (Y12), seat 0 draws it and discards R1."""
    hand0, hand1 = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10", "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10"
    rest = names(rest_of_deck(hand0, hand1, "Y12"))
    skips = rest.pop("S")
    discard = "S " * skips + " ".join(sorted(rest.elements()))  # a Skip at the bottom, too
    game = build_game([hand0, hand1], discard=discard, stage="draw", current=0)
    assert [card_name(k) for k in game.draw_pile] == ["Y12"]
    play(game, Draw())
    under_top = Counter(game.discard_pile)  # R1 goes on top of these
    play(game, Discard(c("R1")))
    assert game.current == 1 and game.stage == Stage.DRAW
    return game, hand1, under_top


def test_r7_empty_draw_pile_shuffles_discard_pile_except_top_into_new_draw_pile():
    game, hand1, under_top = _seat1_to_draw_from_empty_draw_pile()
    play(game, Draw())
    assert [card_name(k) for k in game.discard_pile] == ["R1"]
    drawn = hand_counter(game, 1) - names(hand1)
    assert sum(drawn.values()) == 1
    assert Counter(game.draw_pile) + Counter(parse_cards(" ".join(drawn.elements()))) == under_top
    assert all_cards_accounted(game) == deck_as_kinds()


def test_r7_reshuffle_keeps_the_order_of_play_going():
    game, hand1, _ = _seat1_to_draw_from_empty_draw_pile()
    play(game, Draw())
    play(game, Discard(c("B1")))
    assert game.current == 0
    size_before = len(game.draw_pile)
    play(game, Draw())  # the refilled draw pile serves the next player as well
    assert game.hand_sizes[0] == 11
    assert len(game.draw_pile) == size_before - 1


def test_r7_discard_top_may_still_be_taken_when_draw_pile_is_empty():
    game, hand1, under_top = _seat1_to_draw_from_empty_draw_pile()
    play(game, Draw(from_discard=True))
    assert hand_counter(game, 1) == names(hand1 + " R1")
    # the discard pile except its top was shuffled into a new draw pile first
    assert Counter(game.draw_pile) + Counter(game.discard_pile) == under_top
    assert all_cards_accounted(game) == deck_as_kinds()


def test_r7_skip_on_top_stays_while_the_cards_under_it_are_reshuffled():
    hands = ["R1 R2 R3 R4 R5 R6 R7 R8 R9 S", "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10", "G1 G2 G3"]
    rest = rest_of_deck(*hands, "Y12")
    game = build_game(hands, discard=rest, stage="draw", current=0)
    assert [card_name(k) for k in game.draw_pile] == ["Y12"]
    play(game, Draw())
    under = Counter(game.discard_pile)
    play(game, Discard(SKIP, 1))  # seat 1 loses its turn; seat 2 must draw from an empty pile
    assert game.current == 2
    assert_illegal(game, Draw(from_discard=True))  # the top is a Skip (R5)
    play(game, Draw())
    assert game.discard_pile == [SKIP]
    drawn = hand_counter(game, 2) - names("G1 G2 G3")
    assert Counter(game.draw_pile) + Counter(parse_cards(" ".join(drawn.elements()))) == under


def test_r7_when_nothing_can_be_reshuffled_the_discard_top_may_still_be_taken():
    hand1 = "B1 B2 B3"
    hand0 = rest_of_deck(hand1, "G6")  # every other card in seat 0's hand
    game = build_game([hand0, hand1], discard="G6", stage="draw", current=0)
    assert_illegal(game, Draw())
    assert draws_in(game) == [Draw(from_discard=True)]
    play(game, Draw(from_discard=True))
    assert game.hands[0][c("G6")] == names(hand0)["G6"] + 1
    assert game.discard_pile == [] and game.draw_pile == []


@pytest.mark.parametrize("num_players", [2, 3])
def test_r7_no_card_can_be_drawn_hand_ends_no_one_out_all_score_layers_advance(num_players):
    # every card is in a hand or on the table; seat 0 (phase down) discards a Skip onto an
    # empty discard pile, so the next player to draw can take nothing at all.
    table = {0: PHASE1_DOWN}
    hand0 = "S R1 R2 W"
    hands = [hand0, "B12 B11 S"] + (["G1 G2"] if num_players == 3 else [])
    hands[1] = hands[1] + " " + rest_of_deck(" ".join(hands), "R7 B7 G7 R9 B9 G9")
    game = build_game(
        hands,
        table=table,
        phases_completed=[0, 2] + ([4] if num_players == 3 else []),
        scores=[20, 30] + ([40] if num_players == 3 else []),
        stage="play",
        current=0,
    )
    assert game.draw_pile == [] and game.discard_pile == []
    events = play(game, Discard(SKIP, 1))
    result = hand_ended(events).result
    assert result.went_out is None
    expected_points = [hand_points("R1 R2 W"), hand_points(hands[1])] + (
        [hand_points("G1 G2")] if num_players == 3 else []
    )
    assert list(result.points) == expected_points
    assert list(result.made_phase) == [True, False] + ([False] if num_players == 3 else [])
    assert list(result.scores) == [20 + expected_points[0], 30 + expected_points[1]] + (
        [40 + expected_points[2]] if num_players == 3 else []
    )
    assert list(result.phases_completed) == [1, 2] + ([4] if num_players == 3 else [])
    assert list(game.phases_completed) == list(result.phases_completed)
    assert list(game.scores) == list(result.scores)
    assert game.hand_number == 2 and not game.is_over


def test_r7_skip_below_the_top_is_reshuffled_and_can_be_drawn():
    hand1 = "B1 B2 B3"
    hand0 = rest_of_deck(hand1, "S")  # includes three Skips and R1
    game = build_game([hand0, hand1], discard="S", stage="play", current=0)
    play(game, Discard(c("R1")))  # seat 1 now faces an empty draw pile and discard [S, R1]
    assert game.current == 1
    play(game, Draw())
    assert game.hands[1][SKIP] == 1
    assert [card_name(k) for k in game.discard_pile] == ["R1"]


# ---------------------------------------------------------------- R8


def test_r8_card_just_taken_from_discard_pile_may_be_discarded_again():
    game = build_game(["R1 R2 R3", "B1 B2 B3"], stage="draw", discard="Y4 G11")
    play(game, Draw(from_discard=True))
    play(game, Discard(c("G11")))
    assert card_name(game.discard_pile[-1]) == "G11"
    assert hand_counter(game, 0) == names("R1 R2 R3")
    assert game.current == 1
