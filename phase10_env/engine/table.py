"""The groups laid on the table (:class:`TableGroup`) and what each accepts (R14).

>>> from .cards import parse_cards
>>> run = TableGroup(GroupKind.RUN, 4, parse_cards("R4 B5 W R7"))
>>> run.accepted_numbers(), run.accepts(WILD, low_end=True)
((3, 8), True)
"""

from __future__ import annotations

from .cards import COLOUR_OF, COLOURS, NUM_COLOURS, NUM_KINDS, NUM_NATURALS, NUM_NUMBERS, NUMBER_OF, WILD, cards_text
from .phases import KIND_NAMES, GroupKind


def takes_wild(kind: int, low: int, high: int, low_end: bool) -> bool:
    """R14: whether a group of ``kind`` spanning the numbers ``low``-``high`` (a run's; ignored
    for sets and colour groups) takes a Wild at its low end (``low_end``) or its high end. A run
    takes one at either open end, so never past 1 or 12; sets and colour groups take Wilds
    without ends (always at the "high" one)."""
    if kind == GroupKind.RUN:
        return low > 1 if low_end else high < NUM_NUMBERS
    return not low_end


_ALL_NUMBERS = tuple(range(1, NUM_NUMBERS + 1))


class TableGroup:
    """A group laid on the table. ``cards`` holds the card kinds; a run's cards are in
    ascending order from ``low`` to ``high``, so each Wild's number is its position (R12). A
    set's Wilds stand for its ``number``, a colour group's for its ``colour`` (0-3: red, blue,
    green, yellow). Each of these is 0 (``colour``: -1) for groups of the other kinds. ``value``
    is what the group declares, whatever its kind (as :class:`~.phases.Meld` has it)."""

    __slots__ = ("kind", "value", "cards", "low", "high", "number", "colour")

    def __init__(self, kind: int, value: int, cards: list[int]) -> None:
        self.kind = kind
        self.value = value
        self.cards = cards
        self.low = value if kind == GroupKind.RUN else 0
        self.high = value + len(cards) - 1 if kind == GroupKind.RUN else 0
        self.number = value if kind == GroupKind.SET else 0
        self.colour = value if kind == GroupKind.COLOUR else -1

    def accepts(self, card: int, low_end: bool = False) -> bool:
        """R14: whether card ``card`` (natural or Wild) may be added. ``low_end`` picks the end
        of a run a Wild goes to; it must be False otherwise."""
        if card == WILD:
            return takes_wild(self.kind, self.low, self.high, low_end)
        if low_end or not 0 <= card < NUM_NATURALS:
            return False
        if self.kind == GroupKind.SET:
            return NUMBER_OF[card] == self.number
        if self.kind == GroupKind.RUN:
            n = NUMBER_OF[card]
            return n == self.low - 1 or n == self.high + 1
        return COLOUR_OF[card] == self.colour

    def accepted_numbers(self) -> tuple[int, ...]:
        """The numbers a natural card may have to be added (for colour groups: in its colour)."""
        if self.kind == GroupKind.SET:
            return (self.number,)
        if self.kind == GroupKind.RUN:
            return tuple(n for n in (self.low - 1, self.high + 1) if 1 <= n <= NUM_NUMBERS)
        return _ALL_NUMBERS

    def add(self, card: int, low_end: bool = False) -> None:
        """Add a card already checked with :meth:`accepts`."""
        if self.kind == GroupKind.RUN and (low_end or (card != WILD and NUMBER_OF[card] == self.low - 1)):
            self.cards.insert(0, card)
            self.low -= 1
            self.value = self.low
        else:
            self.cards.append(card)
            if self.kind == GroupKind.RUN:
                self.high += 1

    def naturals(self) -> int:
        return sum(1 for k in self.cards if k != WILD)

    def copy(self) -> TableGroup:
        return TableGroup(self.kind, self.value, list(self.cards))

    def problem(self) -> str | None:
        """Why this group is not a valid group of its kind, or None (for loading states)."""
        if not self.cards:
            return "a group has no cards"
        if any(not (0 <= k < NUM_KINDS) or k > WILD for k in self.cards):
            return "a group holds a Skip or an unknown card"
        if self.kind == GroupKind.SET:
            if not 1 <= self.number <= NUM_NUMBERS:
                return f"a set of number {self.number}"
            if any(k != WILD and NUMBER_OF[k] != self.number for k in self.cards):
                return f"a set of {self.number}s holds another number"
        elif self.kind == GroupKind.RUN:
            if self.low < 1 or self.high > NUM_NUMBERS:
                return f"a run from {self.low} to {self.high} leaves 1-12"
            if any(k != WILD and NUMBER_OF[k] != self.low + i for i, k in enumerate(self.cards)):
                return f"a run from {self.low} holds a card out of sequence"
        elif self.kind == GroupKind.COLOUR:
            if not 0 <= self.colour < NUM_COLOURS:
                return f"a colour group of colour {self.colour}"
            if any(k != WILD and COLOUR_OF[k] != self.colour for k in self.cards):
                return f"a {COLOURS[self.colour]} group holds another colour"
        else:
            return f"unknown group kind {self.kind}"
        return None

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, TableGroup) and self.kind == other.kind and self.value == other.value
                and self.cards == other.cards)

    def __repr__(self) -> str:
        return f"TableGroup({KIND_NAMES[self.kind]} {self.value}: {cards_text(self.cards)})"
