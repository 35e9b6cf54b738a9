"""Shared helpers for the rules tests (test_rules_*.py).

Everything here is written from docs/rules.md: card values for scoring (R17), the deck (R1),
and small wrappers that let the tests speak in game terms (a hand, a table, a move).
"""

from __future__ import annotations

from collections import Counter

import pytest

from phase10_env.engine import (
    DECK_COUNTS,
    NUM_KINDS,
    SKIP,
    Discard,
    Draw,
    GroupKind,
    HandEnded,
    Hit,
    IllegalMoveError,
    LayDown,
    Meld,
    card_name,
    parse_cards,
)

SKIP_RULES = ("not_twice_in_a_row", "pending_only", "once_per_hand")
NATURAL_RULES = ("per_phase", "per_group")
RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def c(name: str) -> int:
    """One card kind from its name ("R7", "W", "S")."""
    (k,) = parse_cards(name)
    return k


def SET(number: int, size: int) -> Meld:
    return Meld(GroupKind.SET, number, size)


def RUN(low: int, size: int) -> Meld:
    return Meld(GroupKind.RUN, low, size)


def COLOUR(colour: int, size: int) -> Meld:
    return Meld(GroupKind.COLOUR, colour, size)


def lay(*melds: Meld) -> LayDown:
    return LayDown(tuple(melds))


def hand_counter(game, seat: int) -> Counter:
    """The seat's hand as a multiset of card names."""
    return Counter({card_name(k): n for k, n in enumerate(game.hands[seat]) if n})


def names(text: str) -> Counter:
    return Counter(card_name(k) for k in parse_cards(text)) if text.strip() else Counter()


def group_names(group) -> list[str]:
    return [card_name(k) for k in group.cards]


def full_deck() -> Counter:
    """R1: the 108-card deck written out from the rule text (not from the engine)."""
    deck = Counter()
    for colour in "RBGY":
        for number in range(1, 13):
            deck[f"{colour}{number}"] = 2
    deck["W"] = 8
    deck["S"] = 4
    return deck


def rest_of_deck(*used: str) -> str:
    """Every card of the deck not named in ``used`` (card strings), as one card string."""
    deck = full_deck()
    for text in used:
        deck.subtract(names(text))
    assert all(n >= 0 for n in deck.values()), "test layout uses a card more often than the deck has it"
    out = []
    for name, n in sorted(deck.items()):
        out += [name] * n
    return " ".join(out)


def card_points(name: str) -> int:
    """R17: 1-9 = 5, 10-12 = 10, Skip = 15, Wild = 25."""
    if name == "S":
        return 15
    if name == "W":
        return 25
    number = int(name[1:])
    return 5 if number <= 9 else 10


def hand_points(text: str) -> int:
    return sum(card_points(card_name(k)) for k in parse_cards(text)) if text.strip() else 0


def all_cards_accounted(game) -> Counter:
    """Per-kind count of every card in hands, piles and on the table."""
    total = Counter()
    for s in range(game.num_players):
        for k in range(NUM_KINDS):
            total[k] += game.hands[s][k]
        for group in game.table[s]:
            total.update(group.cards)
    total.update(game.draw_pile)
    total.update(game.discard_pile)
    return total


def deck_as_kinds() -> Counter:
    return Counter({k: n for k, n in enumerate(DECK_COUNTS) if n})


def _same_move(a, b) -> bool:
    """Moves are the same; a lay-down's melds may come in any order."""
    if isinstance(a, LayDown) and isinstance(b, LayDown):
        return Counter(a.melds) == Counter(b.melds)
    return a == b


def in_legal_moves(game, move) -> bool:
    return any(_same_move(move, m) for m in game.legal_moves())


def assert_illegal(game, move) -> None:
    """The move is refused and the refusal changes nothing."""
    assert not game.is_legal(move), f"{move} should be illegal"
    assert game.illegal_reason(move) is not None
    assert not in_legal_moves(game, move)
    before = game.to_json()
    with pytest.raises(IllegalMoveError):
        game.apply(move)
    assert game.to_json() == before, "an illegal move changed the game"


def assert_legal(game, move) -> None:
    assert game.is_legal(move), f"{move} should be legal, engine says: {game.illegal_reason(move)}"
    assert game.illegal_reason(move) is None
    assert in_legal_moves(game, move), f"{move} is legal but missing from legal_moves()"


def play(game, move):
    """Apply a move that the rules say is legal; return its events."""
    assert_legal(game, move)
    return game.apply(move)


def laydowns_in(game) -> list[LayDown]:
    return [m for m in game.legal_moves() if isinstance(m, LayDown)]


def hits_in(game) -> list[Hit]:
    return [m for m in game.legal_moves() if isinstance(m, Hit)]


def draws_in(game) -> list[Draw]:
    return [m for m in game.legal_moves() if isinstance(m, Draw)]


def skip_targets_allowed(game) -> set:
    """Seats a Skip from the current hand may name (None = 'no one may be chosen')."""
    return {m.target for m in game.legal_moves() if isinstance(m, Discard) and m.card == SKIP}


def events_of(events, cls) -> list:
    return [e for e in events if isinstance(e, cls)]


def hand_ended(events) -> HandEnded:
    found = events_of(events, HandEnded)
    assert len(found) == 1, f"expected the hand to end, events: {events}"
    return found[0]


def expected_first_player(dealer: int, num_players: int, opening_top: int, active=None) -> int:
    """R3/R4: the player left of the dealer starts; an opening Skip costs them that first turn."""
    active = list(active) if active is not None else [True] * num_players

    def left_of(seat):
        s = (seat + 1) % num_players
        while not active[s]:
            s = (s + 1) % num_players
        return s

    first = left_of(dealer)
    if opening_top == SKIP:
        first = left_of(first)
    return first
