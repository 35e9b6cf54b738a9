"""R14 hitting: what each kind of group takes, whose groups, and when."""

import pytest

from phase10_env.engine import WILD, Discard, Draw, Hit, Stage, build_game, card_name
from tests.engine.p10_rules_helpers import (
    SET,
    assert_illegal,
    assert_legal,
    c,
    hand_counter,
    hits_in,
    lay,
    names,
    play,
)

# seat 0 on phase 2 with its phase down: set of 7s (group 0), run 4-7 (group 1);
# seat 1 on phase 8 with its phase down: blue colour group (group 0).
TABLE = {
    0: [("set", 7, "R7 B7 G7"), ("run", 4, "R4 B5 G6 Y7")],
    1: [("colour", 1, "B1 B2 B3 B9 B10 B11 B12")],
}


def _table_game(hand, current=0, stage="play", table=TABLE, phases_completed=(1, 7), **kw):
    other = "Y1 Y2"
    hands = [hand, other] if current == 0 else [other, hand]
    return build_game(hands, table=table, phases_completed=list(phases_completed), stage=stage, current=current, **kw)


@pytest.mark.parametrize("name, fits", [("Y7", True), ("W", True), ("R8", False), ("G6", False), ("B1", False)])
def test_r14_set_takes_its_number_or_a_wild(name, fits):
    game = _table_game(name + " Y12")
    move = Hit(0, 0, c(name))
    if fits:
        play(game, move)
        assert len(game.table[0][0].cards) == 4
        assert game.table[0][0].value == 7
    else:
        assert_illegal(game, move)


@pytest.mark.parametrize("number", range(1, 13))
def test_r14_run_takes_only_adjacent_numbers(number):
    # run 4-7 takes a 3 or an 8, nothing else
    name = f"R{number}" if number not in (4, 7) else f"G{number}"
    game = _table_game(name + " Y12")
    move = Hit(0, 1, c(name))
    if number in (3, 8):
        play(game, move)
        run = game.table[0][1]
        assert (run.low, run.high) == ((3, 7) if number == 3 else (4, 8))
        assert card_name(run.cards[0 if number == 3 else -1]) == name
    else:
        assert_illegal(game, move)


@pytest.mark.parametrize("low_end", [False, True])
def test_r14_run_takes_a_wild_at_either_open_end(low_end):
    game = _table_game("W Y12")
    play(game, Hit(0, 1, WILD, low_end=low_end))
    run = game.table[0][1]
    assert (run.low, run.high) == ((3, 7) if low_end else (4, 8))


def test_r14_run_grows_one_card_at_a_time_from_either_end():
    game = _table_game("R3 R2 R8 R9 R1 Y12")
    for name in ("R3", "R8", "R2", "R9", "R1"):
        play(game, Hit(0, 1, c(name)))
    run = game.table[0][1]
    assert (run.low, run.high) == (1, 9)
    assert [card_name(k) for k in run.cards] == ["R1", "R2", "R3", "R4", "B5", "G6", "Y7", "R8", "R9"]


@pytest.mark.parametrize(
    "run_cards, low, wild_low_ok, wild_high_ok",
    [
        ("R1 R2 R3 R4", 1, False, True),
        ("R9 R10 R11 R12", 9, True, False),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12", 1, False, False),
    ],
)
def test_r14_a_wild_never_goes_past_1_or_12(run_cards, low, wild_low_ok, wild_high_ok):
    if len(run_cards.split()) == 4:  # phase 2: a set and the run
        table, phase, g = {0: [("set", 6, "G6 Y6 B6"), ("run", low, run_cards)]}, 1, 1
    else:  # phase 6: the run alone
        table, phase, g = {0: [("run", low, run_cards)]}, 5, 0
    game = _table_game("W Y1 B12", table=table, phases_completed=(phase, 0))
    for low_end, ok in ((True, wild_low_ok), (False, wild_high_ok)):
        move = Hit(0, g, WILD, low_end=low_end)
        if ok:
            assert_legal(game, move)
        else:
            assert_illegal(game, move)
    # nothing wraps: a 1 does not follow 12, a 12 does not come before 1
    assert_illegal(game, Hit(0, g, c("Y1")))
    assert_illegal(game, Hit(0, g, c("B12")))


@pytest.mark.parametrize("name, fits", [("B4", True), ("B9", True), ("W", True), ("R4", False), ("G12", False)])
def test_r14_colour_group_takes_its_colour_or_a_wild(name, fits):
    game = _table_game(name + " Y12")
    move = Hit(1, 0, c(name))
    if fits:
        play(game, move)
        assert len(game.table[1][0].cards) == 8
    else:
        assert_illegal(game, move)


def test_r14_may_hit_own_groups_and_other_players_groups():
    game = _table_game("Y7 R3 B6 Y12")
    play(game, Hit(0, 0, c("Y7")))  # own set
    play(game, Hit(0, 1, c("R3")))  # own run
    play(game, Hit(1, 0, c("B6")))  # seat 1's colour group
    assert hand_counter(game, 0) == names("Y12")
    assert len(game.table[1][0].cards) == 8


def test_r14_hitting_before_own_phase_is_down_is_illegal():
    # seat 1 has not laid phase 1; seat 0 has its phase 2 down
    game = build_game(
        ["Y1 Y2", "Y7 R3 R8 W Y12"],
        table={0: [("set", 7, "R7 B7 G7"), ("run", 4, "R4 B5 G6 Y7")]},
        phases_completed=[1, 0],
        current=1,
        stage="play",
    )
    assert hits_in(game) == []
    for move in (Hit(0, 0, c("Y7")), Hit(0, 1, c("R3")), Hit(0, 1, c("R8")), Hit(0, 1, WILD)):
        assert_illegal(game, move)


def test_r14_laying_down_then_hitting_in_the_same_turn():
    game = build_game(
        ["R9 B9 G9 R11 B11 G11 Y9 R10 Y12", "Y2 Y3"],
        table={1: [("set", 1, "G1 Y1 B1"), ("run", 6, "R6 R7 R8 R9")]},
        phases_completed=[0, 1],
        stage="play",
    )
    # before the phase is down no hit is allowed, even one that fits
    assert_illegal(game, Hit(1, 1, c("R10")))
    play(game, lay(SET(9, 3), SET(11, 3)))
    play(game, Hit(1, 1, c("R10")))  # another player's run
    nines = next(i for i, g in enumerate(game.table[0]) if g.value == 9)
    play(game, Hit(0, nines, c("Y9")))  # own set
    assert hand_counter(game, 0) == names("Y12")


def test_r14_phase_laid_on_an_earlier_turn_still_allows_hits():
    game = _table_game("Y1 Y3 Y12", current=0, stage="draw", draw_top="Y8")
    assert_illegal(game, Hit(0, 1, c("Y3")))  # not before drawing (R6)
    play(game, Draw())
    play(game, Hit(0, 1, c("Y3")))
    play(game, Hit(0, 1, c("Y8")))
    assert (game.table[0][1].low, game.table[0][1].high) == (3, 8)


def test_r14_hitting_only_on_your_own_turn():
    game = _table_game("Y3 Y12", current=0)
    play(game, Discard(c("Y12")))
    # now seat 1 plays; seat 0 cannot hit its Y3
    assert game.current == 1
    assert_illegal(game, Hit(0, 1, c("Y3")))
    assert game.stage == Stage.DRAW
