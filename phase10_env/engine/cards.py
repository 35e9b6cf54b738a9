"""Cards of the Phase 10 deck (R1) as small integers.

A card *kind* is an int in ``range(NUM_KINDS)``:

* ``colour * 12 + (number - 1)`` for the 48 coloured numbers (colours red, blue, green,
  yellow; numbers 1-12), two copies of each in the deck;
* ``WILD`` (48), eight copies; ``SKIP`` (49), four copies.

Cards of one kind are indistinguishable, so hands and piles are counted per kind.

Text form (one syntax everywhere: saved states, moves, :func:`parse_card`): an upper-case colour
letter ``R``, ``B``, ``G`` or ``Y`` followed by the number 1-12 written without leading zeros
(``"R7"``, ``"Y12"``), ``"W"`` for a Wild and ``"S"`` for a Skip; no spaces, no other case. As a
regular expression: ``^([RBGY]([1-9]|1[0-2])|W|S)$`` (the ``card`` pattern of the state schema).

>>> parse_cards("R7 Y12 W"), card_name(WILD), card(7, 0) == parse_card("R7")
([6, 47, 48], 'W', True)
>>> parse_card("r7")
Traceback (most recent call last):
...
ValueError: not a card: 'r7' (expected a name such as 'R7', 'Y12', 'W' or 'S')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
COLOUR_LETTERS = "RBGY"
NUM_COLOURS = 4
NUM_NUMBERS = 12
NUM_NATURALS = NUM_COLOURS * NUM_NUMBERS
WILD = NUM_NATURALS
SKIP = NUM_NATURALS + 1
NUM_KINDS = NUM_NATURALS + 2

#: How many copies of each kind the 108-card deck holds.
DECK_COUNTS: tuple[int, ...] = (2,) * NUM_NATURALS + (8, 4)
DECK_SIZE = sum(DECK_COUNTS)

#: ``bytes.translate`` table that turns per-kind counts into 0/1 presence flags.
PRESENT = bytes([0] + [1] * 255)


def card(number: int, colour: int) -> int:
    """The kind of a coloured number card (number 1-12, colour 0-3)."""
    if not (1 <= number <= NUM_NUMBERS and 0 <= colour < NUM_COLOURS):
        raise ValueError(f"no card with number {number} and colour {colour}")
    return colour * NUM_NUMBERS + number - 1


#: ``NUMBER_OF[kind]``: the number 1-12 of a natural card, 0 for Wild and Skip.
NUMBER_OF: tuple[int, ...] = tuple(k % NUM_NUMBERS + 1 for k in range(NUM_NATURALS)) + (0, 0)
#: ``COLOUR_OF[kind]``: the colour 0-3 of a natural card, -1 for Wild and Skip.
COLOUR_OF: tuple[int, ...] = tuple(k // NUM_NUMBERS for k in range(NUM_NATURALS)) + (-1, -1)
#: Points a card scores when left in hand at the end of a hand (R17).
POINTS: tuple[int, ...] = tuple(5 if NUMBER_OF[k] <= 9 else 10 for k in range(NUM_NATURALS)) + (25, 15)


def is_natural(kind: int) -> bool:
    return 0 <= kind < NUM_NATURALS


def card_name(kind: int) -> str:
    if kind == WILD:
        return "W"
    if kind == SKIP:
        return "S"
    if not 0 <= kind < NUM_NATURALS:
        raise ValueError(f"no card kind {kind}")
    return f"{COLOUR_LETTERS[COLOUR_OF[kind]]}{NUMBER_OF[kind]}"


#: Every card name and its kind: the names :func:`card_name` writes are exactly the valid ones.
_KIND_OF_NAME: dict[str, int] = {card_name(k): k for k in range(NUM_KINDS)}


def parse_card(text: str) -> int:
    """``"R7"`` -> kind, in exactly the syntax of the module docstring; anything else (another
    case, padding, a leading zero, a value that is not a string) raises ``ValueError`` naming it."""
    kind = _KIND_OF_NAME.get(text) if isinstance(text, str) else None
    if kind is None:
        raise ValueError(f"not a card: {text!r} (expected a name such as 'R7', 'Y12', 'W' or 'S')")
    return kind


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """``"R7 B7 W"`` (names separated by white space, or a list of names) -> list of kinds."""
    parts = text.split() if isinstance(text, str) else list(text)
    return [parse_card(p) for p in parts]


def cards_text(kinds: Iterable[int]) -> str:
    return " ".join(card_name(k) for k in kinds)


def counts_of(kinds: Iterable[int]) -> bytearray:
    """Per-kind counts of a list of kinds."""
    counts = bytearray(NUM_KINDS)
    for k in kinds:
        counts[k] += 1
    return counts


def kinds_of(counts: Sequence[int]) -> list[int]:
    """Sorted list of kinds from per-kind counts (inverse of ``counts_of``)."""
    if not any(counts):  # most often an empty record of cards taken from the pile
        return []
    return [k for k, c in enumerate(counts) if c for _ in range(c)]


def hand_points(counts: Iterable[int]) -> int:
    """What a hand scores (R17)."""
    return sum(c * p for c, p in zip(counts, POINTS))
