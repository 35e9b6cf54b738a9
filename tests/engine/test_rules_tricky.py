"""docs/rules.md "Cases worth checking", one test (or more) each, and the other tricky cases of the rules."""

import pytest

from phase10_env.engine import WILD, Discard, Hit, build_game
from tests.engine.p10_rules_helpers import (
    BLUE,
    COLOUR,
    GREEN,
    NATURAL_RULES,
    RED,
    RUN,
    SET,
    assert_illegal,
    c,
    group_names,
    hand_counter,
    hand_ended,
    hits_in,
    lay,
    laydowns_in,
    names,
    play,
)


def _on_phase(phase, hand, natural_rule="per_phase", other="Y2 Y3 Y4", **kw):
    return build_game(
        [hand, other],
        rules={"natural_rule": natural_rule},
        phases_completed=[phase - 1, 0],
        stage="play",
        discard="G12",
        **kw,
    )


# -- Two sets of the same number (six 10s) make phase 1; three sets of 3 do not lay down as phase 1


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
def test_tricky_six_tens_make_phase_1(natural_rule):
    game = _on_phase(1, "R10 B10 G10 Y10 R10 B10 S", natural_rule)
    assert laydowns_in(game)
    play(game, lay(SET(10, 3), SET(10, 3)))
    assert [g.value for g in game.table[0]] == [10, 10]
    assert [len(g.cards) for g in game.table[0]] == [3, 3]
    assert hand_counter(game, 0) == names("S")


def test_tricky_three_sets_of_three_do_not_lay_down_as_phase_1():
    game = _on_phase(1, "R3 B3 G3 R7 B7 G7 R9 B9 G9 S")
    assert_illegal(game, lay(SET(3, 3), SET(7, 3), SET(9, 3)))
    assert all(len(m.melds) == 2 for m in laydowns_in(game))
    play(game, lay(SET(3, 3), SET(7, 3)))
    # the third set is no group of the phase: its cards cannot go down
    assert not any(h.card in (c("R9"), c("B9"), c("G9")) for h in hits_in(game))
    assert hand_counter(game, 0) == names("R9 B9 G9 S")


# -- Phase 4 from {10, 11, 12, 1, 2, 3, 4} is not a run; {W, W, W, W, 10, 11, 12} is a run only as 6-12


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
def test_tricky_10_11_12_1_2_3_4_is_not_a_run(natural_rule):
    game = _on_phase(4, "R10 B11 G12 Y1 R2 B3 G4 S", natural_rule)
    assert laydowns_in(game) == []
    for low in range(1, 13):
        assert_illegal(game, lay(RUN(low, 7)))


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
def test_tricky_four_wilds_and_10_11_12_is_a_run_only_as_6_to_12(natural_rule):
    game = _on_phase(4, "W W W W R10 B11 G12 S", natural_rule)
    assert [m.melds for m in laydowns_in(game)] == [(RUN(6, 7),)]
    for low in range(1, 13):
        if low != 6:
            assert_illegal(game, lay(RUN(low, 7)))
    play(game, lay(RUN(6, 7)))
    run = game.table[0][0]
    assert (run.low, run.high) == (6, 12)
    assert group_names(run) == ["W", "W", "W", "W", "R10", "B11", "G12"]


# -- Phase 8: {1r, 2r, 3r, 4r, 5b, 6b, 7b} is not; {1g + six Wilds} is


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
def test_tricky_four_red_three_blue_is_not_phase_8(natural_rule):
    game = _on_phase(8, "R1 R2 R3 R4 B5 B6 B7 S", natural_rule)
    assert laydowns_in(game) == []
    assert_illegal(game, lay(COLOUR(RED, 7)))
    assert_illegal(game, lay(COLOUR(BLUE, 7)))


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
def test_tricky_green_1_and_six_wilds_is_phase_8(natural_rule):
    game = _on_phase(8, "G1 W W W W W W S", natural_rule)
    play(game, lay(COLOUR(GREEN, 7)))
    assert game.table[0][0].value == GREEN
    assert sorted(group_names(game.table[0][0])) == ["G1"] + ["W"] * 6


# -- A run 1-12 takes no more cards, Wild or not. A run [4, 5, 6, 7] takes 3 or 8, nothing else;
#    if a Wild in it was declared as 5, a natural 5 still does not fit.


def test_tricky_run_1_to_12_takes_no_more_cards():
    full = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12"
    game = build_game(
        ["W B1 B12 B6 G1", "Y2 Y3"],
        table={0: [("run", 1, full)]},
        phases_completed=[5, 0],
        stage="play",
    )
    assert hits_in(game) == []
    for name in ("B1", "B12", "B6", "G1"):
        assert_illegal(game, Hit(0, 0, c(name)))
    assert_illegal(game, Hit(0, 0, WILD))
    assert_illegal(game, Hit(0, 0, WILD, low_end=True))


def test_tricky_run_1_to_12_made_with_wilds_takes_no_more_cards():
    game = build_game(
        ["W Y1", "Y2 Y3"],
        table={0: [("run", 1, "W R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 W")]},
        phases_completed=[5, 0],
        stage="play",
    )
    assert hits_in(game) == []


@pytest.mark.parametrize("card", [f"B{n}" for n in range(1, 13)] + ["W"])
def test_tricky_run_4_to_7_takes_3_or_8_nothing_else(card):
    game = build_game(
        [card + " Y12", "Y2 Y3"],
        table={0: [("set", 10, "R10 B10 G10"), ("run", 4, "R4 R5 R6 R7")]},
        phases_completed=[1, 0],
        stage="play",
    )
    move = Hit(0, 1, c(card))
    if card in ("B3", "B8", "W"):
        play(game, move)
    else:
        assert_illegal(game, move)


@pytest.mark.parametrize("card", [f"B{n}" for n in range(1, 13)])
def test_tricky_wild_declared_as_5_natural_5_still_does_not_fit(card):
    game = build_game(
        [card + " Y12", "Y2 Y3"],
        table={0: [("set", 10, "R10 B10 G10"), ("run", 4, "R4 W R6 R7")]},
        phases_completed=[1, 0],
        stage="play",
    )
    move = Hit(0, 1, c(card))
    if card in ("B3", "B8"):
        play(game, move)
    else:
        assert_illegal(game, move)
    assert group_names(game.table[0][1])[1 if card != "B3" else 2] == "W"


# -- Hitting before your own phase is down is illegal; laying down and then hitting the same turn
#    is legal; laying down every card goes out with no discard.


def test_tricky_hitting_before_own_phase_is_down_is_illegal():
    game = build_game(
        ["R8 Y10 W S", "Y2 Y3"],
        table={1: [("set", 10, "R10 B10 G10"), ("run", 4, "R4 R5 R6 R7")]},
        phases_completed=[0, 1],
        stage="play",
    )
    assert hits_in(game) == []
    for move in (Hit(1, 0, c("Y10")), Hit(1, 1, c("R8")), Hit(1, 0, WILD), Hit(1, 1, WILD, low_end=True)):
        assert_illegal(game, move)


def test_tricky_laying_down_then_hitting_the_same_turn_is_legal():
    game = build_game(
        ["R1 B1 G1 R2 B2 G2 R8 Y10 S", "Y2 Y3"],
        table={1: [("set", 10, "R10 B10 G10"), ("run", 4, "R4 R5 R6 R7")]},
        phases_completed=[0, 1],
        stage="play",
    )
    play(game, lay(SET(1, 3), SET(2, 3)))
    play(game, Hit(1, 1, c("R8")))
    play(game, Hit(1, 0, c("Y10")))
    assert hand_counter(game, 0) == names("S")


def test_tricky_laying_down_every_card_goes_out_with_no_discard():
    game = build_game(["G4 R5 B6 Y7 W R9 B10 G11 Y12", "Y2 Y3"], phases_completed=[5, 0], stage="play")
    events = play(game, lay(RUN(4, 9)))
    result = hand_ended(events).result
    assert result.went_out == 0
    assert list(result.points) == [0, 10]
    assert list(result.made_phase) == [True, False]


def test_tricky_going_out_by_hitting_after_laying_down():
    game = build_game(["R1 B1 G1 R2 B2 G2 Y1", "Y2 Y3"], stage="play")
    play(game, lay(SET(1, 3), SET(2, 3)))
    one = next(i for i, g in enumerate(game.table[0]) if g.value == 1)
    events = play(game, Hit(0, one, c("Y1")))
    assert hand_ended(events).result.went_out == 0


# -- A loser holding {9, 10, Skip, Wild} scores 55.


def test_tricky_loser_holding_9_10_skip_wild_scores_55():
    game = build_game(
        ["Y1", "R9 B10 S W"],
        table={0: [("set", 3, "R3 B3 G3"), ("set", 4, "R4 B4 G4")]},
        scores=[0, 100],
        stage="play",
    )
    result = hand_ended(play(game, Discard(c("Y1")))).result
    assert result.points[1] == 55
    assert result.scores[1] == 155


# -- Phase 10 is a set of 5 and a set of 3 (not 4 and 3).


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
def test_tricky_phase_10_is_set_of_5_and_set_of_3(natural_rule):
    game = _on_phase(10, "R7 B7 G7 Y7 R9 B9 G9 S", natural_rule)
    assert laydowns_in(game) == []  # 4 + 3 is not phase 10
    game = _on_phase(10, "R7 B7 G7 Y7 R7 R9 B9 G9 S", natural_rule)
    play(game, lay(SET(7, 5), SET(9, 3)))
    assert sorted(len(g.cards) for g in game.table[0]) == [3, 5]


# -- "3 fives and 2 sevens make Phase 1" is wrong: phase 1 is two sets of three. Extra cards that fit
#    a group just laid may go down in the same turn.


def test_tricky_three_fives_and_two_sevens_do_not_make_phase_1():
    game = _on_phase(1, "R5 B5 G5 R7 B7 Y5 R5 S")
    assert laydowns_in(game) == []
    assert_illegal(game, lay(SET(5, 3), SET(7, 3)))


def test_tricky_extra_cards_fitting_a_group_just_laid_go_down_the_same_turn():
    game = _on_phase(1, "R5 B5 G5 R7 B7 G7 Y5 R5 S")
    play(game, lay(SET(5, 3), SET(7, 3)))
    fives = next(i for i, g in enumerate(game.table[0]) if g.value == 5)
    for name in list((hand_counter(game, 0) - names("S")).elements()):
        play(game, Hit(0, fives, c(name)))
    assert len(game.table[0][fives].cards) == 5
    assert hand_counter(game, 0) == names("S")
