"""The narration of a game in words (phase10_env/narrate.py): what each move says, and that no
line tells a viewer what it may not know."""

from __future__ import annotations

import re

import numpy as np
import pytest

from phase10_env.engine import SKIP, Discard, Draw, Game, GroupKind, Hit, LayDown, Meld, build_game, parse_card
from phase10_env.engine.cards import card_name, kinds_of
from phase10_env.engine.moves import HandEnded
from phase10_env.narrate import Narrator, narrate_record

NAMES3 = ["ann", "bob", "cy"]
CARD = re.compile(r"\b(?:[RBGY](?:1[0-2]|[1-9])|W|S)\b")


def random_game(num_players: int, seed: int) -> Game:
    game = Game(num_players, seed=seed)
    rng = np.random.default_rng(seed)
    while not game.is_over:
        legal = game.legal_moves()
        game.apply(legal[int(rng.integers(len(legal)))])
    return game


def said(game: Game, viewer: int | None, move, names=NAMES3) -> list[str]:
    """Apply ``move`` and return what the viewer is told."""
    narrator = Narrator(game.record, viewer, names)
    narrator.catch_up(game.record)
    game.apply(move)
    return narrator.catch_up(game.record)


def test_a_deck_draw_names_the_card_only_to_the_drawer():
    game = build_game(["R1 R2", "B1 B2", "G1 G2"], draw_top="Y9", stage="draw")
    assert said(game.copy(), 0, Draw()) == ["You drew Y9 from the draw pile"]
    assert said(game.copy(), 1, Draw()) == ["ann drew from the draw pile"]
    assert said(game.copy(), None, Draw()) == ["ann drew from the draw pile"]


def test_taking_the_discard_names_the_card_to_everyone():
    game = build_game(["R1 R2", "B1 B2", "G1 G2"], discard="B5 R7", current=1, stage="draw")
    assert said(game.copy(), 2, Draw(from_discard=True)) == ["bob took R7 from the discard pile"]
    assert said(game.copy(), 1, Draw(from_discard=True)) == ["You took R7 from the discard pile"]


def test_a_skip_names_its_target_and_the_turn_it_costs():
    game = build_game(["R1 R2 S", "B1 B2", "G1 G2"], discard="B5")
    assert said(game.copy(), 2, Discard(SKIP, 1)) == ["ann discarded a Skip on bob", "bob lost a turn to a Skip"]
    assert said(game.copy(), 1, Discard(SKIP, 1)) == ["ann discarded a Skip on you", "You lost a turn to a Skip"]


def test_a_lay_down_shows_the_groups_laid():
    game = build_game(["R9 B9 W R4 B5 G6 Y7 R1", "B1 B2 B8", "G1 G2"], phases_completed=[1, 0, 0], current=0)
    lines = said(game, 1, LayDown((Meld(GroupKind.SET, 9, 3), Meld(GroupKind.RUN, 4, 4))))
    assert lines == ["ann laid down a set of three 9s (R9 B9 W) and a run 4-7 (R4 B5 G6 Y7)"]


def test_hits_say_card_owner_group_and_what_a_wild_stands_for():
    game = build_game(["G8 W B3 R1", "B1 B2", "G1 G2"], phases_completed=[1, 1, 0], current=0,
                      table={0: [("set", 3, "R3 G3 Y3"), ("run", 8, "R8 B9 G10 Y11")],
                             1: [("set", 5, "R5 B5 G5"), ("run", 4, "R4 B5 G6 Y7")]})
    assert said(game, 1, Hit(1, 1, parse_card("G8"))) == ["ann hit G8 on your run 4-7"]
    assert said(game, 2, Hit(1, 1, parse_card("W"), low_end=True)) == ["ann hit W (as 3) on bob's run 4-8"]
    assert said(game, 0, Hit(0, 0, parse_card("B3"))) == ["You hit B3 on your own set of 3s"]


def test_going_out_by_laying_down_tells_the_groups_the_hand_end_and_the_next_deal():
    game = build_game(["R9 B9 W R8 Y8 W", "B1 B2 B12", "G1 G2"], current=0, dealer=2, scores=[10, 20, 30])
    lines = said(game, 1, LayDown((Meld(GroupKind.SET, 9, 3), Meld(GroupKind.SET, 8, 3))))
    assert lines[0] == "ann laid down a set of three 9s (R9 B9 W) and a set of three 8s (R8 Y8 W)"
    assert lines[1] == ("Hand 1 over: ann went out; made their phase: ann; points ann 0, you 20, cy 10; "
                        "totals ann 10, you 40, cy 40")
    assert lines[2].startswith("Hand 2: ann dealt; the discard pile starts with ")
    assert game.hand_number == 2


def test_the_end_of_the_game_names_the_winner():
    game = random_game(2, seed=3)
    winner = game.winners[0]
    lines = [line for move in narrate_record(game.record, winner, ["ann", "bob"]) for line in move]
    assert lines[-1] == "Game over: you win"
    assert narrate_record(game.record, None, ["ann", "bob"])[-1][-1] == f"Game over: {['ann', 'bob'][winner]} wins"


def test_catch_up_says_each_move_once_and_replays_match_live_narration():
    game = Game(3, seed=11)
    live = Narrator(game.record, 2, NAMES3)
    rng = np.random.default_rng(0)
    told = [live.catch_up(game.record)]
    while not game.is_over and len(game.record.moves) < 400:
        legal = game.legal_moves()
        game.apply(legal[int(rng.integers(len(legal)))])
        told.append(live.catch_up(game.record))
    assert live.catch_up(game.record) == []
    per_move = narrate_record(game.record, 2, NAMES3)
    assert len(per_move) == len(game.record.moves)
    assert [line for lines in told for line in lines] == [line for lines in per_move for line in lines]


def test_a_game_loaded_mid_hand_tells_no_deal():
    game = build_game(["R1 R2", "B1 B2"], discard="B5 R7", stage="draw")
    assert Narrator(game.record, 0, ["ann", "bob"]).catch_up(game.record) == []


def test_an_opening_skip_is_told_before_the_first_move():
    seed = next(s for s in range(500) if Game(2, seed=s).discard_top() == SKIP)
    game = Game(2, seed=seed)
    lines = Narrator(game.record, None, ["ann", "bob"]).catch_up(game.record)
    assert lines[0] == "Hand 1: bob dealt; the discard pile starts with S"
    assert lines[1] == "ann lost the first turn to the opening Skip"


def public_cards(game: Game, viewer: int | None) -> set[int]:
    """Card kinds the viewer may see now: the table, the discard pile and its own hand."""
    seen = set(game.discard_pile)
    seen.update(card for groups in game.table for group in groups for card in group.cards)
    if viewer is not None:
        seen.update(kinds_of(game.hands[viewer]))
    return seen


@pytest.mark.parametrize("viewer", [None, 0, 1, 2])
def test_no_line_tells_hidden_information(viewer):
    """No card another player drew from the deck, and no card that was only in hidden places
    (another hand, the draw pile) before and after the move, appears in the move's lines."""
    record = random_game(3, seed=21 + (viewer or 0)).record
    per_move = narrate_record(record, viewer, NAMES3)
    game = Game.from_record(record, 0)
    checked_draws = 0
    for move, lines in zip(record.moves, per_move):
        seat, before = game.current, public_cards(game, viewer)
        hand_before = kinds_of(game.hands[seat])
        events = game.apply(move)
        allowed = before | public_cards(game, viewer)
        if any(isinstance(e, HandEnded) and e.result.went_out == seat for e in events):
            allowed.update(hand_before)  # the cards it laid or hit on its way out were shown
        named = {parse_card(token) for line in lines for token in CARD.findall(line)}
        assert named <= allowed, f"{move} told {viewer} about {[card_name(c) for c in named - allowed]}: {lines}"
        if isinstance(move, Draw) and not move.from_discard and seat != viewer:
            assert [line for line in lines if "drew" in line] == [f"{NAMES3[seat]} drew from the draw pile"]
            checked_draws += 1
    assert checked_draws > 50


def test_a_tie_on_the_last_phase_announces_the_replay_hand():
    game = build_game(["Y11", "R1 R2 R3 R4"], rules={"phases_to_win": 1}, scores=[20, 0], current=0, dealer=1,
                      table={0: [("set", 7, "R7 B7 G7"), ("set", 8, "R8 B8 G8")],
                             1: [("set", 9, "R9 B9 G9"), ("set", 10, "R10 B10 G10")]})
    lines = said(game, None, Discard(parse_card("Y11")), names=["ann", "bob"])
    assert lines[:3] == ["ann discarded Y11",
                         "Hand 1 over: ann went out; made their phase: ann and bob; points ann 0, bob 20; totals ann 20, bob 20",
                         "Tie: ann and bob made the last phase with the same score; they play replay hands, and the "
                         "first to go out wins"]
    assert lines[3].startswith("Hand 2 (tie replay): ann dealt; ")
