"""R11 Wilds (both natural_rule settings) and R12 a Wild's meaning is fixed when played."""

import pytest

from phase10_env.engine import (
    SKIP,
    WILD,
    Discard,
    Draw,
    GroupKind,
    Hit,
    build_game,
    card_name,
)
from tests.engine.p10_rules_helpers import (
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
    hits_in,
    lay,
    laydowns_in,
    names,
    play,
)


def _on_phase(phase, hand, natural_rule="per_phase", other="Y2 Y3 Y4"):
    return build_game(
        [hand, other],
        rules={"natural_rule": natural_rule},
        phases_completed=[phase - 1, 0],
        stage="play",
        discard="Y12",
    )


# ---------------------------------------------------------------- R11


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
@pytest.mark.parametrize(
    "phase, hand, melds",
    [
        (1, "R7 W W R9 B9 W R1", (SET(7, 3), SET(9, 3))),
        (2, "R7 W W R3 W W R6 B12", (SET(7, 3), RUN(3, 4))),
        (4, "R5 W W W W W W B12", (RUN(5, 7),)),
        (4, "W W W R8 W W W B12", (RUN(5, 7),)),  # the natural card in the middle of the run
        (8, "G1 W W W W W W R12", (COLOUR(GREEN, 7),)),
        (10, "R7 W W W W R9 B9 W Y12", (SET(7, 5), SET(9, 3))),
    ],
)
def test_r11_wilds_fill_any_places_when_each_group_has_a_natural(natural_rule, phase, hand, melds):
    game = _on_phase(phase, hand, natural_rule)
    play(game, lay(*melds))
    assert game.laid[0]
    # each group holds its size; the left-over card is the one non-phase card
    assert sorted(len(g.cards) for g in game.table[0]) == sorted(m.size for m in melds)
    assert sum(game.hands[0]) == 1


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
@pytest.mark.parametrize(
    "phase, hand, melds",
    [
        (1, "W W W W W W S", (SET(7, 3), SET(9, 3))),
        (4, "W W W W W W W S", (RUN(3, 7),)),
        (8, "W W W W W W W S", (COLOUR(RED, 7),)),
        (9, "W W W W W W W S", (SET(3, 5), SET(4, 2))),
    ],
)
def test_r11_a_phase_of_wilds_only_is_never_allowed(natural_rule, phase, hand, melds):
    game = _on_phase(phase, hand, natural_rule)
    assert_illegal(game, lay(*melds))
    assert laydowns_in(game) == []


@pytest.mark.parametrize("natural_rule, allowed", [("per_phase", True), ("per_group", False)])
@pytest.mark.parametrize(
    "phase, hand, melds",
    [
        (1, "R7 B7 G7 W W W Y12", (SET(7, 3), SET(5, 3))),
        (2, "R7 B7 G7 W W W W Y12", (SET(7, 3), RUN(3, 4))),
        (2, "W W W R2 R3 R4 R5 Y12", (SET(9, 3), RUN(2, 4))),
        (3, "W W W W R2 R3 R4 R5 Y12", (SET(11, 4), RUN(2, 4))),
        (9, "R7 B7 G7 Y7 R7 W W Y12", (SET(7, 5), SET(3, 2))),
        (10, "W W W W W R9 B9 G9 Y12", (SET(4, 5), SET(9, 3))),
    ],
)
def test_r11_group_of_wilds_only_depends_on_natural_rule(natural_rule, allowed, phase, hand, melds):
    game = _on_phase(phase, hand, natural_rule)
    if allowed:
        play(game, lay(*melds))
        assert game.laid[0]
        all_wild = [g for g in game.table[0] if all(k == WILD for k in g.cards)]
        assert len(all_wild) == 1
    else:
        assert_illegal(game, lay(*melds))


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
@pytest.mark.parametrize(
    "phase, hand, melds",
    [
        (2, "R7 B7 W W W W W Y12", (SET(7, 3), RUN(4, 4))),  # one 7 for the set, one ends the run
        (9, "R7 B7 W W W W W Y12", (SET(7, 5), SET(7, 2))),
        (10, "R7 B7 W W W W W W Y12", (SET(7, 5), SET(7, 3))),
        (7, "R7 B7 W W W W W W Y12", (SET(7, 4), SET(7, 4))),
    ],
)
def test_r11_two_naturals_serve_two_groups(natural_rule, phase, hand, melds):
    game = _on_phase(phase, hand, natural_rule)
    play(game, lay(*melds))
    assert hand_counter(game, 0) == names("Y12")
    if natural_rule == "per_group":
        assert all(any(k != WILD for k in g.cards) for g in game.table[0])


@pytest.mark.parametrize("natural_rule, allowed", [("per_phase", True), ("per_group", False)])
@pytest.mark.parametrize(
    "phase, hand, melds",
    [
        (2, "R7 W W W W W W Y12", (SET(7, 3), RUN(4, 4))),  # one natural cannot serve both groups
        (9, "R7 W W W W W W Y12", (SET(7, 5), SET(7, 2))),
    ],
)
def test_r11_one_natural_for_two_groups_depends_on_natural_rule(natural_rule, allowed, phase, hand, melds):
    game = _on_phase(phase, hand, natural_rule)
    if allowed:
        play(game, lay(*melds))
    else:
        assert_illegal(game, lay(*melds))


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
def test_r11_a_natural_card_counts_in_only_one_group(natural_rule):
    # three 7s and one Wild cannot fill a set of four 7s and the 7 of a run 5-8
    game = _on_phase(3, "R7 B7 G7 W R5 R6 R8 Y12", natural_rule)
    assert_illegal(game, lay(SET(7, 4), RUN(5, 4)))
    assert laydowns_in(game) == []


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
def test_r11_naturals_can_be_shared_so_each_set_gets_one(natural_rule):
    # three 7s and three Wilds make two sets of 7s, each with a natural 7, under both rules
    game = _on_phase(1, "R7 B7 G7 W W W Y12", natural_rule)
    play(game, lay(SET(7, 3), SET(7, 3)))
    assert [g.value for g in game.table[0]] == [7, 7]
    assert hand_counter(game, 0) == names("Y12")
    if natural_rule == "per_group":
        assert all(any(k != WILD for k in g.cards) for g in game.table[0])


def test_r11_per_group_accepts_each_set_with_its_own_natural_and_wilds():
    # per_group: 7s + 5 with Wilds is fine when the 5-set gets the natural 5
    game = _on_phase(1, "R7 B7 G7 R5 W W Y12", "per_group")
    play(game, lay(SET(7, 3), SET(5, 3)))
    five = next(g for g in game.table[0] if g.value == 5)
    assert sorted(card_name(k) for k in five.cards) == ["R5", "W", "W"]


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
def test_r11_skip_is_never_part_of_a_group(natural_rule):
    game = _on_phase(1, "R7 B7 S R9 B9 G9 R1", natural_rule)
    assert laydowns_in(game) == []
    assert_illegal(game, lay(SET(7, 3), SET(9, 3)))


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
def test_r11_skip_cannot_be_hit_on_any_group(natural_rule):
    game = build_game(
        ["S R1", "Y2 Y3"],
        rules={"natural_rule": natural_rule},
        table={0: [("set", 7, "R7 B7 G7"), ("run", 3, "R3 R4 R5 R6")], 1: [("colour", 1, "B1 B2 B3 B4 B5 B6 B7")]},
        phases_completed=[1, 7],
        stage="play",
    )
    for seat, group in ((0, 0), (0, 1), (1, 0)):
        assert_illegal(game, Hit(seat, group, SKIP))
        if group == 1:
            assert_illegal(game, Hit(seat, group, SKIP, low_end=True))
    assert not any(h.card == SKIP for h in hits_in(game))


def test_r11_per_phase_all_wild_set_takes_hits_of_its_declared_number():
    game = build_game(
        ["R7 B7 G7 W W W R6 W Y12", "R1 G6"],
        table={1: [("set", 10, "R10 B10 G10"), ("set", 11, "R11 B11 G11")]},
        phases_completed=[0, 0],
        stage="play",
        draw_top="R5",
    )
    play(game, lay(SET(7, 3), SET(5, 3)))
    five = next(i for i, g in enumerate(game.table[0]) if g.value == 5)
    assert all(k == WILD for k in game.table[0][five].cards)
    assert_illegal(game, Hit(0, five, c("R6")))
    play(game, Hit(0, five, WILD))
    play(game, Discard(c("Y12")))
    play(game, Draw())  # seat 1 draws R5
    assert_illegal(game, Hit(0, five, c("G6")))
    play(game, Hit(0, five, c("R5")))
    assert game.table[0][five].value == 5


def test_r11_per_phase_all_wild_run_takes_hits_next_to_its_declared_numbers():
    game = _on_phase(2, "R7 B7 G7 W W W W R2 Y7 R8 R9 Y12")
    play(game, lay(SET(7, 3), RUN(3, 4)))
    run = next(i for i, g in enumerate(game.table[0]) if g.kind == GroupKind.RUN)
    assert (game.table[0][run].low, game.table[0][run].high) == (3, 6)
    assert_illegal(game, Hit(0, run, c("R8")))
    play(game, Hit(0, run, c("Y7")))
    play(game, Hit(0, run, c("R2")))
    play(game, Hit(0, run, c("R8")))
    assert (game.table[0][run].low, game.table[0][run].high) == (2, 8)


def test_r11_all_wild_group_laid_earlier_keeps_its_declared_value_for_other_players():
    game = build_game(
        ["R5 R6 Y12", "B2 B3"],
        table={0: [("set", 9, "R9 B9 G9"), ("set", 5, "W W W")], 1: [("set", 1, "R1 B1 G1"), ("set", 2, "R2 G2 Y2")]},
        phases_completed=[0, 0],
        current=1,
        stage="play",
    )
    # seat 1 hits seat 0's all-Wild set of 5s
    play(game, Discard(c("B3")))
    play(game, Draw())
    play(game, Hit(0, 1, c("R5")))
    assert_illegal(game, Hit(0, 1, c("R6")))


# ---------------------------------------------------------------- R12


def test_r12_wild_declared_in_a_laid_down_run_keeps_that_number():
    game = build_game(
        ["R7 B7 G7 R4 W R6 Y7 Y3 Y12", "R1 G5"],
        table={1: [("set", 10, "R10 B10 G10"), ("set", 11, "R11 B11 G11")]},
        phases_completed=[1, 0],
        stage="play",
        draw_top="B5",
    )
    play(game, lay(SET(7, 3), RUN(4, 4)))
    run_i = next(i for i, g in enumerate(game.table[0]) if g.kind == GroupKind.RUN)
    run = game.table[0][run_i]
    assert group_names(run) == ["R4", "W", "R6", "Y7"]
    play(game, Discard(c("Y12")))
    play(game, Draw())  # seat 1 (phase down) draws B5
    # the Wild stands for 5: a natural 5 cannot replace it nor be added
    assert_illegal(game, Hit(0, run_i, c("B5")))
    assert_illegal(game, Hit(0, run_i, c("G5")))
    assert group_names(game.table[0][run_i]) == ["R4", "W", "R6", "Y7"]


def test_r12_wild_hit_on_high_end_of_run_stands_for_the_next_number():
    game = build_game(
        ["W R8 B9 R3 Y12", "Y2 Y3"],
        table={0: [("set", 7, "R7 B7 G7"), ("run", 4, "R4 R5 R6 Y7")]},
        phases_completed=[1, 0],
        stage="play",
    )
    play(game, Hit(0, 1, WILD))
    assert (game.table[0][1].low, game.table[0][1].high) == (4, 8)
    assert group_names(game.table[0][1])[-1] == "W"
    assert_illegal(game, Hit(0, 1, c("R8")))  # the Wild is the 8
    play(game, Hit(0, 1, c("B9")))
    play(game, Hit(0, 1, c("R3")))


def test_r12_wild_hit_on_low_end_of_run_stands_for_the_number_below():
    game = build_game(
        ["W R3 B2 R8 Y12", "Y2 Y3"],
        table={0: [("set", 7, "R7 B7 G7"), ("run", 4, "R4 R5 R6 Y7")]},
        phases_completed=[1, 0],
        stage="play",
    )
    play(game, Hit(0, 1, WILD, low_end=True))
    assert (game.table[0][1].low, game.table[0][1].high) == (3, 7)
    assert group_names(game.table[0][1])[0] == "W"
    assert_illegal(game, Hit(0, 1, c("R3")))  # the Wild is the 3
    play(game, Hit(0, 1, c("B2")))
    play(game, Hit(0, 1, c("R8")))


def test_r12_wild_in_colour_group_is_that_colour():
    game = build_game(
        ["W R3 B3 Y12", "Y2 Y3"],
        table={0: [("colour", 0, "R1 R5 W R9 R10 R11 R12")]},
        phases_completed=[7, 0],
        stage="play",
    )
    play(game, Hit(0, 0, WILD))
    assert_illegal(game, Hit(0, 0, c("B3")))
    play(game, Hit(0, 0, c("R3")))
    assert game.table[0][0].value == RED


def test_r12_wild_meaning_stays_for_the_rest_of_the_hand_across_turns():
    game = build_game(
        ["W R1 Y12", "B5 B8 G3 R11"],
        table={0: [("set", 11, "B11 G11 Y11"), ("run", 4, "R4 W R6 Y7")], 1: [("set", 1, "B1 G1 Y1"), ("set", 2, "R2 G2 Y2")]},
        phases_completed=[1, 0],
        stage="play",
        current=0,
    )
    play(game, Hit(0, 1, WILD))  # the new Wild is 8
    play(game, Discard(c("R1")))
    # seat 1's turn: the Wilds still stand for 5 and 8
    play(game, Draw())
    assert group_names(game.table[0][1]) == ["R4", "W", "R6", "Y7", "W"]
    assert_illegal(game, Hit(0, 1, c("B5")))
    assert_illegal(game, Hit(0, 1, c("B8")))
    play(game, Hit(0, 1, c("G3")))
    play(game, Hit(0, 0, c("R11")))
    assert group_names(game.table[0][1]) == ["G3", "R4", "W", "R6", "Y7", "W"]


def test_r12_wild_at_laydown_fills_the_declared_start_of_a_run():
    # run 3-6 declared from R4 R5 R6 and a Wild: the Wild is the 3
    game = build_game(
        ["R1 R1 B1 R4 R5 R6 W Y12 Y11", "Y2 G2"],
        table={1: [("set", 10, "R10 B10 G10"), ("set", 11, "R11 B11 G11")]},
        phases_completed=[1, 0],
        stage="play",
        draw_top="B3",
    )
    play(game, lay(SET(1, 3), RUN(3, 4)))
    run_i = next(i for i, g in enumerate(game.table[0]) if g.kind == GroupKind.RUN)
    assert group_names(game.table[0][run_i]) == ["W", "R4", "R5", "R6"]
    play(game, Discard(c("Y12")))
    play(game, Draw())  # seat 1 (phase down) draws B3
    assert_illegal(game, Hit(0, run_i, c("B3")))  # the Wild is the 3
    play(game, Hit(0, run_i, c("G2")))
    assert (game.table[0][run_i].low, game.table[0][run_i].high) == (2, 6)


def test_r12_natural_card_hit_on_a_set_does_not_replace_its_wilds():
    game = build_game(
        ["B7 G7 Y12", "Y2 Y3"],
        table={0: [("set", 7, "R7 W W"), ("set", 9, "R9 B9 G9")]},
        stage="play",
    )
    play(game, Hit(0, 0, c("B7")))
    play(game, Hit(0, 0, c("G7")))
    assert sorted(group_names(game.table[0][0])) == ["B7", "G7", "R7", "W", "W"]
    assert game.hands[0][WILD] == 0
