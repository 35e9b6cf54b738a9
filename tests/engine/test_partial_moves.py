"""Moves in progress (engine/partial.py): a lay-down built group by group and card by card, a
hit whose card is still to choose. Every legal lay-down and hit can be built step by step, each
step legal and leading toward it; an illegal step is refused with the rule's reason and changes
nothing (R10-R14)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10_env.engine import GroupKind, Hit, IllegalMoveError, LayDown, Meld, build_game, card, parse_card
from phase10_env.engine.game import Game
from phase10_env.engine.partial import (
    ChooseCard,
    HitNumber,
    LayMeld,
    PartialHit,
    PartialLayDown,
    PartialMove,
    advance,
    card_choices,
    leads_to,
    next_step,
    step_problem,
)
from tests.env.play import VARIANTS

PARTIALS = (PartialLayDown, PartialHit)


def same(move: object) -> object:
    """A lay-down up to the order of its groups and of the cards named in each."""
    if isinstance(move, LayDown) and move.cards is not None:
        return sorted((m, tuple(sorted(c))) for m, c in zip(move.melds, move.cards))
    return move


def first_step(move: LayDown | Hit) -> LayMeld | HitNumber:
    if isinstance(move, LayDown):
        return LayMeld(move.melds[0])
    return HitNumber(move.target, move.group, int(move.card % 12) + 1)


def build(game: Game, move: LayDown | Hit) -> list[PartialMove]:
    """Build ``move`` step by step, checking each step; the moves in progress on the way."""
    seat = game.current
    hand, reqs, rule = game.hands[seat], game.requirements(seat), game.rules.natural
    step = first_step(move)
    assert step_problem(game, None, step) is None
    result = advance(game, None, step)
    seen = []
    while isinstance(result, PARTIALS):
        seen.append(result)
        assert leads_to(result, move), f"{result} lost its way to {move}"
        step = next_step(hand, reqs, rule, result, move)
        assert step_problem(game, result, step) is None, f"{step} from {result}"
        result = advance(game, result, step)
    assert same(result) == same(move)
    return seen


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), variant=st.sampled_from(VARIANTS))
def test_every_legal_lay_down_and_natural_hit_can_be_built_step_by_step(seed: int, players: int, variant: str) -> None:
    game = Game(players, variant, seed=seed)
    rng = np.random.default_rng(seed)
    built = 0
    while not game.is_over and game.hand_number < 4:
        moves = game.legal_moves()
        for move in moves:
            if isinstance(move, LayDown) or (isinstance(move, Hit) and move.card < 48):
                before = game.to_json()
                build(game, move)
                assert game.to_json() == before, "a move in progress changes nothing in the game"
                built += 1
        game.apply(moves[int(rng.integers(len(moves)))])
    assert built, "three hands of random play offered no lay-down or hit to build"


def test_a_set_of_sevens_from_four_sevens_waits_for_the_choice_of_the_one_kept() -> None:
    game = build_game(["R7 B7 G7 Y7 R3 B3 G3 R1 R2 R4 R5", "R6 B6"], discard="G12")
    sevens = Meld(GroupKind.SET, 7, 3)
    partial = advance(game, None, LayMeld(sevens))
    assert partial == PartialLayDown(meld=sevens)
    hand, reqs, rule = game.hands[0], game.requirements(0), game.rules.natural
    assert len(card_choices(hand, reqs, rule, partial)) == 4  # keep any one of the four 7s
    partial = advance(game, partial, ChooseCard(card(7, 3)))
    partial = advance(game, partial, ChooseCard(card(7, 2)))
    assert partial == PartialLayDown(meld=sevens, settled=(card(7, 2), card(7, 3)))
    partial = advance(game, partial, ChooseCard(card(7, 0)))  # R7 goes down, B7 stays in hand
    assert partial == PartialLayDown(groups=((sevens, (card(7, 0), card(7, 2), card(7, 3))),))
    move = advance(game, partial, LayMeld(Meld(GroupKind.SET, 3, 3)))
    assert isinstance(move, LayDown) and move.cards == ((card(7, 0), card(7, 2), card(7, 3)), tuple(
        card(3, c) for c in range(3)))
    game.apply(move)
    assert game.hands[0][card(7, 1)] == 1


def test_a_hit_waits_for_its_card_only_where_the_hand_holds_several_colours() -> None:
    game = build_game(["R8 B8 Y9 W", "G1"], discard="G12", phases_completed=[1, 0],
                      table={0: [("set", 2, "R2 B2 G2"), ("run", 4, "R4 R5 R6 R7")],
                             1: [("set", 9, "R9 B9 G9"), ("set", 11, "R11 B11 G11")]})
    partial = advance(game, None, HitNumber(0, 1, 8))
    assert partial == PartialHit(0, 1, 8)
    assert advance(game, partial, ChooseCard(card(8, 1))) == Hit(0, 1, card(8, 1))
    assert advance(game, None, HitNumber(1, 0, 9)) == Hit(1, 0, card(9, 3))  # one 9: nothing to choose


@pytest.mark.parametrize("partial, step, reason", [
    (None, LayMeld(Meld(GroupKind.RUN, 1, 7)), "phase 1 needs exactly set of 3 + set of 3 (R13)"),
    (None, LayMeld(Meld(GroupKind.SET, 11, 3)), "set of 3 x 11 is not part of any lay-down this hand can complete"),
    (None, ChooseCard(parse_card("R7")), "no group or hit is waiting for a card"),
    (None, HitNumber(1, 0, 9), "hitting is allowed only once the player's own phase is down (R14)"),
    (PartialLayDown(meld=Meld(GroupKind.SET, 7, 3)), ChooseCard(parse_card("R3")),
     "R3 is not a card any choice still open for a lay-down of set of 3 x 7 takes"),
    (PartialLayDown(meld=Meld(GroupKind.SET, 7, 3)), LayMeld(Meld(GroupKind.SET, 3, 3)),
     "the cards of set of 3 x 7 are being chosen: choose them first"),
])
def test_an_illegal_step_is_refused_with_its_reason_and_changes_nothing(partial: PartialMove | None, step: object,
                                                                       reason: str) -> None:
    game = build_game(["R7 B7 G7 Y7 R3 B3 G3 R1 R2 R4 R5", "Y9"], discard="G12",
                      table={1: [("set", 9, "R9 B9 G9"), ("set", 11, "R11 B11 G11")]})
    before = game.to_json()
    assert step_problem(game, partial, step) == reason  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="illegal move"):
        advance(game, partial, step)  # type: ignore[arg-type]
    assert game.to_json() == before


def test_steps_wait_for_the_draw() -> None:
    game = build_game(["R7 B7 G7 R3 B3 G3", "R9"], discard="G12", stage="draw")
    assert step_problem(game, None, LayMeld(Meld(GroupKind.SET, 7, 3))) == "the player must draw first (R5)"


def test_moves_in_progress_are_values() -> None:
    a = PartialLayDown(meld=Meld(GroupKind.SET, 7, 3), settled=(card(7, 0),))
    assert a == PartialLayDown(meld=Meld(GroupKind.SET, 7, 3), settled=(card(7, 0),)) and len({a, a}) == 1
    with pytest.raises(AttributeError):
        a.settled = ()  # type: ignore[misc]
