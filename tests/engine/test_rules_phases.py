"""R9 the ten phases, R10 groups (sets, runs, colour groups), R13 laying down."""

import pytest

from phase10_env.engine import (
    Discard,
    Draw,
    GroupKind,
    Hit,
    IllegalMoveError,
    LayDown,
    Stage,
    build_game,
    card_name,
)
from tests.engine.p10_rules_helpers import (
    BLUE,
    COLOUR,
    GREEN,
    NATURAL_RULES,
    RUN,
    SET,
    SKIP,
    assert_illegal,
    c,
    group_names,
    hand_counter,
    hits_in,
    lay,
    laydowns_in,
    names,
    play,
)

# phase -> (a hand that makes it with natural cards and one spare card, the lay-down, spare)
PHASE_EXAMPLES = {
    1: ("R7 B7 G7 R9 B9 G9 Y1", (SET(7, 3), SET(9, 3)), "Y1"),
    2: ("R7 B7 G7 R2 B3 G4 Y5 Y1", (SET(7, 3), RUN(2, 4)), "Y1"),
    3: ("R7 B7 G7 Y7 R2 B3 G4 Y5 Y1", (SET(7, 4), RUN(2, 4)), "Y1"),
    4: ("R3 B4 G5 Y6 R7 B8 G9 Y1", (RUN(3, 7),), "Y1"),
    5: ("R3 B4 G5 Y6 R7 B8 G9 Y10 Y1", (RUN(3, 8),), "Y1"),
    6: ("R3 B4 G5 Y6 R7 B8 G9 Y10 R11 Y1", (RUN(3, 9),), "Y1"),
    7: ("R7 B7 G7 Y7 R9 B9 G9 Y9 Y1", (SET(7, 4), SET(9, 4)), "Y1"),
    8: ("G1 G3 G5 G7 G9 G11 G12 R1", (COLOUR(GREEN, 7),), "R1"),
    9: ("R7 B7 G7 Y7 R7 R9 B9 Y1", (SET(7, 5), SET(9, 2)), "Y1"),
    10: ("R7 B7 G7 Y7 R7 R9 B9 G9 Y1", (SET(7, 5), SET(9, 3)), "Y1"),
}

EXPECTED_SHAPE = {  # R9, from the rule text: (kind, size) of each group
    1: [("set", 3), ("set", 3)],
    2: [("set", 3), ("run", 4)],
    3: [("set", 4), ("run", 4)],
    4: [("run", 7)],
    5: [("run", 8)],
    6: [("run", 9)],
    7: [("set", 4), ("set", 4)],
    8: [("colour", 7)],
    9: [("set", 5), ("set", 2)],
    10: [("set", 5), ("set", 3)],
}
KIND_NAME = {GroupKind.SET: "set", GroupKind.RUN: "run", GroupKind.COLOUR: "colour"}


def _on_phase(phase, hand, other="Y2 Y3 Y4", **kw):
    return build_game([hand, other], phases_completed=[phase - 1, 0], stage="play", discard="Y12", **kw)


# ---------------------------------------------------------------- R9


@pytest.mark.parametrize("phase", range(1, 11))
def test_r9_each_phase_lays_down_with_its_groups(phase):
    hand, melds, spare = PHASE_EXAMPLES[phase]
    game = _on_phase(phase, hand)
    assert game.phase_of(0) == phase
    play(game, LayDown(melds))
    assert game.laid[0]
    assert hand_counter(game, 0) == names(spare)
    shape = sorted((KIND_NAME[g.kind], len(g.cards)) for g in game.table[0])
    assert shape == sorted(EXPECTED_SHAPE[phase])
    assert sorted((KIND_NAME[g.kind], g.value) for g in game.table[0]) == sorted(
        (KIND_NAME[m.kind], m.value) for m in melds
    )
    assert game.current == 0 and game.stage == Stage.PLAY  # still must discard


@pytest.mark.parametrize("phase", range(1, 11))
def test_r9_phase_requirements_match_the_rule_text(phase):
    game = _on_phase(phase, PHASE_EXAMPLES[phase][0])
    reqs = sorted((KIND_NAME[r.kind], r.size) for r in game.requirements(0))
    assert reqs == sorted(EXPECTED_SHAPE[phase])


@pytest.mark.parametrize("phase", range(1, 11))
def test_r9_only_the_players_own_current_phase_may_be_laid(phase):
    """A hand that makes phase p lays down nothing for a player on any other phase
    (unless it happens to make that phase too)."""
    hand, melds, _ = PHASE_EXAMPLES[phase]
    for other_phase in range(1, 11):
        if other_phase == phase:
            continue
        game = _on_phase(other_phase, hand)
        assert_illegal(game, LayDown(melds))


@pytest.mark.parametrize(
    "phase, hand",
    [
        (1, "R7 B7 G7 R9 B9 Y1 Y2"),  # a set of 3 and a pair
        (2, "R7 B7 G7 R2 B3 G4 Y6 Y11"),  # run broken (2 3 4 6)
        (3, "R7 B7 G7 R2 B3 G4 Y5 Y1"),  # set of only 3
        (4, "R3 B4 G5 Y6 R7 B8 Y10 Y1"),  # 3-8 is only six long
        (5, "R3 B4 G5 Y6 R7 B8 G9 Y1 Y12"),  # 3-9 is only seven long
        (6, "R3 B4 G5 Y6 R7 B8 G9 Y10 Y12 Y1"),  # 3-10 is only eight long
        (7, "R7 B7 G7 Y7 R9 B9 G9 Y1 Y2"),  # 4 + 3
        (8, "G1 G3 G5 G7 G9 G11 R1 R2"),  # six green
        (9, "R7 B7 G7 Y7 R9 B9 Y1 Y2"),  # 4 + 2
        (10, "R7 B7 G7 Y7 R9 B9 G9 Y1"),  # 4 + 3, not 5 + 3
    ],
)
def test_r9_near_misses_cannot_be_laid_down(phase, hand):
    game = _on_phase(phase, hand)
    assert laydowns_in(game) == []


def test_r9_phase_2_is_not_two_sets():
    game = _on_phase(2, "R7 B7 G7 R9 B9 G9 Y9 Y1")
    assert_illegal(game, lay(SET(7, 3), SET(9, 4)))
    assert laydowns_in(game) == []


def test_unsafe_apply_of_a_lay_down_the_hand_cannot_make_says_so():
    """unsafe_apply trusts the caller; a lay-down naming no cards that the hand cannot fill still
    stops with IllegalMoveError rather than deep inside the allocation."""
    game = _on_phase(1, "R7 B7 G7 R9 B9 Y1 Y2 Y3")
    with pytest.raises(IllegalMoveError, match="cannot make these groups"):
        game.unsafe_apply(lay(SET(7, 3), SET(9, 3)))


# ---------------------------------------------------------------- R10 groups


@pytest.mark.parametrize(
    "phase, hand, melds",
    [
        (1, "R10 B10 G10 Y10 R10 B10 R1", (SET(10, 3), SET(10, 3))),
        (7, "R8 B8 G8 Y8 R8 B8 G8 Y8 R1", (SET(8, 4), SET(8, 4))),
        (9, "R4 B4 G4 Y4 R4 B4 G4 R1", (SET(4, 5), SET(4, 2))),
        (10, "R8 B8 G8 Y8 R8 B8 G8 Y8 R1", (SET(8, 5), SET(8, 3))),
    ],
)
def test_r10_the_two_sets_of_a_phase_may_have_the_same_number(phase, hand, melds):
    game = _on_phase(phase, hand)
    play(game, LayDown(melds))
    assert [g.value for g in game.table[0]] == [melds[0].value, melds[1].value]
    assert hand_counter(game, 0) == names("R1")


def test_r10_set_may_mix_colours_and_run_may_mix_colours():
    game = _on_phase(2, "R7 B7 Y7 G2 R3 Y4 B5 R1")
    play(game, lay(SET(7, 3), RUN(2, 4)))
    run = next(g for g in game.table[0] if g.kind == GroupKind.RUN)
    assert group_names(run) == ["G2", "R3", "Y4", "B5"]
    assert (run.low, run.high) == (2, 5)


def test_r10_set_is_one_number_only():
    game = _on_phase(1, "R7 B7 G8 R9 B9 G9 R1")
    assert laydowns_in(game) == []
    assert_illegal(game, lay(SET(7, 3), SET(9, 3)))


def test_r10_run_must_be_consecutive():
    game = _on_phase(4, "R3 B4 G6 Y7 R8 B9 G10 Y11")
    assert laydowns_in(game) == []
    assert_illegal(game, lay(RUN(3, 7)))
    assert_illegal(game, lay(RUN(6, 7)))


def test_r10_run_does_not_wrap_from_12_to_1():
    game = _on_phase(4, "R10 B11 G12 Y1 R2 B3 G4 Y8")
    assert laydowns_in(game) == []
    for low in range(1, 13):
        assert_illegal(game, lay(RUN(low, 7)))


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
def test_r10_run_never_goes_past_12(natural_rule):
    # 5..12 plus a Wild: the run of 9 can only be 4-12 (the Wild is 4), never 5-13
    game = _on_phase(6, "R5 B6 G7 Y8 R9 B10 G11 Y12 W S", rules={"natural_rule": natural_rule})
    assert_illegal(game, lay(RUN(5, 9)))
    assert {m.melds for m in laydowns_in(game)} == {(RUN(4, 9),)}
    play(game, lay(RUN(4, 9)))
    run = game.table[0][0]
    assert (run.low, run.high) == (4, 12)
    assert group_names(run)[0] == "W"


def test_r10_run_of_four_cannot_start_above_9():
    game = _on_phase(2, "R10 R11 R12 W G1 B1 Y1 S")
    assert_illegal(game, lay(SET(1, 3), RUN(10, 4)))
    assert_illegal(game, lay(SET(1, 3), RUN(11, 4)))
    play(game, lay(SET(1, 3), RUN(9, 4)))
    run = next(g for g in game.table[0] if g.kind == GroupKind.RUN)
    assert (run.low, run.high) == (9, 12)


def test_r10_run_of_twelve_is_the_longest():
    game = build_game(
        ["W R1", "B1 B2"],
        table={0: [("run", 1, "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12")]},
        phases_completed=[5, 0],
        stage="play",
    )
    assert hits_in(game) == []


@pytest.mark.parametrize(
    "hand",
    [
        "B1 B1 B5 B12 B7 B3 B9 R1",  # any numbers, repeats allowed
        "B12 B11 B10 B2 B4 B6 B8 R1",
    ],
)
def test_r10_colour_group_is_one_colour_any_numbers(hand):
    game = _on_phase(8, hand)
    play(game, lay(COLOUR(BLUE, 7)))
    assert all(card_name(k)[0] == "B" for k in game.table[0][0].cards)
    assert hand_counter(game, 0) == names("R1")


def test_r10_colour_group_may_not_mix_colours():
    game = _on_phase(8, "B1 B2 B3 B4 R5 R6 R7 G8")
    assert laydowns_in(game) == []
    for colour in range(4):
        assert_illegal(game, lay(COLOUR(colour, 7)))


# ---------------------------------------------------------------- R13 laying down


def test_r13_must_hold_the_whole_phase():
    game = _on_phase(2, "R7 B7 G7 R2 B3 G4 Y9 Y12")  # run 2-4 misses 5
    assert laydowns_in(game) == []
    assert_illegal(game, lay(SET(7, 3), RUN(2, 4)))


def test_r13_whole_phase_at_once_not_one_group_now_and_one_later():
    game = _on_phase(1, "R7 B7 G7 R9 B9 G9 Y1")
    assert_illegal(game, lay(SET(7, 3)))
    assert_illegal(game, lay(SET(9, 3)))
    assert all(len(m.melds) == 2 for m in laydowns_in(game))


def test_r13_lay_down_only_after_drawing():
    game = build_game(["R7 B7 G7 R9 B9 G9 Y1", "B1 B2"], stage="draw", discard="Y12")
    assert_illegal(game, lay(SET(7, 3), SET(9, 3)))
    play(game, Draw())
    play(game, lay(SET(7, 3), SET(9, 3)))


def test_r13_lay_down_only_on_own_turn():
    game = build_game(["B1 B2 B3", "R7 B7 G7 R9 B9 G9 Y1"], stage="play", discard="Y12", current=0)
    # it is seat 0's turn: seat 1 cannot lay its phase now
    assert_illegal(game, lay(SET(7, 3), SET(9, 3)))
    play(game, Discard(c("B1")))
    assert game.current == 1
    assert_illegal(game, lay(SET(7, 3), SET(9, 3)))  # still must draw first
    play(game, Draw())
    play(game, lay(SET(7, 3), SET(9, 3)))
    assert game.laid[1] and not game.laid[0]


def test_r13_more_than_the_minimum_only_by_extending_the_phases_own_groups_same_turn():
    game = _on_phase(1, "R5 B5 G5 R7 B7 G7 Y5 R5 Y7 R1")
    play(game, lay(SET(5, 3), SET(7, 3)))
    five = next(i for i, g in enumerate(game.table[0]) if g.value == 5)
    seven = 1 - five
    for name, n in (hand_counter(game, 0) - names("R1")).items():  # two 5s and a 7 remain
        for _ in range(n):
            play(game, Hit(0, five if name.endswith("5") else seven, c(name)))
    assert len(game.table[0][five].cards) == 5
    assert len(game.table[0][seven].cards) == 4
    assert hand_counter(game, 0) == names("R1")


def test_r13_an_extra_group_is_not_allowed():
    # three sets of three: phase 1 is two of them; the third set cannot go down
    game = _on_phase(1, "R3 B3 G3 R7 B7 G7 R9 B9 G9 Y12")
    assert_illegal(game, lay(SET(3, 3), SET(7, 3), SET(9, 3)))
    play(game, lay(SET(7, 3), SET(9, 3)))
    assert len(game.table[0]) == 2
    for name in ("R3", "B3", "G3"):
        assert not any(h.card == c(name) for h in hits_in(game))
        assert_illegal(game, Hit(0, 0, c(name)))
        assert_illegal(game, Hit(0, 1, c(name)))
    assert laydowns_in(game) == []


def test_r13_only_one_phase_per_hand():
    game = _on_phase(1, "R7 B7 G7 R9 B9 G9 R3 B3 G3 R4 B4 G4 Y1")
    play(game, lay(SET(7, 3), SET(9, 3)))
    assert laydowns_in(game) == []
    assert_illegal(game, lay(SET(3, 3), SET(4, 3)))
    play(game, Discard(c("Y1")))
    play(game, Draw())  # seat 1 draws ...
    discard = next(m for m in game.legal_moves() if isinstance(m, Discard) and m.card != SKIP)
    play(game, discard)  # ... and discards
    play(game, Draw())  # seat 0's next turn, same hand
    assert laydowns_in(game) == []
    assert_illegal(game, lay(SET(3, 3), SET(4, 3)))
