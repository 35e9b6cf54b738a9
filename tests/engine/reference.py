"""A slow, deliberately simple reference for phase lay-downs, written from docs/rules.md alone.

Nothing here comes from the engine's ``melds`` or ``search`` modules (whose ``allocate`` / ``laydowns`` this
module is used to check); it does not even import the engine. Cards are the engine's integer
kinds (``colour * 12 + number - 1`` for naturals, 48 = Wild, 49 = Skip) only because that is the
form the tests share with the engine; everything else is re-derived from the rules:

* R9  the ten phases as lists of ``(kind, size)`` requirements;
* R10 a set is ``size`` cards of one number, a run ``size`` consecutive numbers within 1-12, a
      colour group ``size`` cards of one colour;
* R11 Wilds stand for anything; Skips are never part of a group; ``per_phase``: at least one
      natural card in the whole lay-down, ``per_group``: at least one in every group;
* R12 a group is *declared*: ``(kind, value, size)`` where value is the set's number, the run's
      lowest number or the colour (0-3), and each Wild stands for one of the places left open.

How a group is checked (``forms``): a declared group is a list of *places*, each with a label
(a set of 7s of size 3: places 7, 7, 7; a run from 4 of size 4: places 4, 5, 6, 7; a red group
of size 7: seven places "red"). A natural card can only fill a place carrying its own label
(its number for sets and runs, its colour for colour groups); a Wild can fill any place. So the
cards fill the places exactly when there are as many cards as places, no Skip, and for every
label no more naturals carry it than places do; the Wilds then fill what is left, which is
also what they are declared to stand for.

How a hand is checked: brute force. ``can_make_declared`` tries every sub-multiset of the hand
for the first group, every sub-multiset of what is left for the second, and so on, and checks
each group with ``forms`` and the whole with the natural rule. ``can_make`` tries every
declaration (every value of every group) of the phase. Keep hands to about a dozen cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import product

NUMBERS = range(1, 13)
COLOURS = range(4)
WILD = 48
SKIP = 49

SET, RUN, COLOUR = 0, 1, 2

#: R9, written out again from docs/rules.md: phase number -> list of (kind, size).
REFERENCE_PHASES: dict[int, list[tuple[int, int]]] = {
    1: [(SET, 3), (SET, 3)],
    2: [(SET, 3), (RUN, 4)],
    3: [(SET, 4), (RUN, 4)],
    4: [(RUN, 7)],
    5: [(RUN, 8)],
    6: [(RUN, 9)],
    7: [(SET, 4), (SET, 4)],
    8: [(COLOUR, 7)],
    9: [(SET, 5), (SET, 2)],
    10: [(SET, 5), (SET, 3)],
}


def is_natural(card: int) -> bool:
    return 0 <= card < 48


def number_of(card: int) -> int:
    assert is_natural(card)
    return card % 12 + 1


def colour_of(card: int) -> int:
    assert is_natural(card)
    return card // 12


def make_card(number: int, colour: int) -> int:
    assert number in NUMBERS and colour in COLOURS
    return colour * 12 + number - 1


def _rule_name(natural_rule) -> str:
    """Accept "per_phase" / "per_group" or anything whose ``name`` or ``str`` says so."""
    text = str(getattr(natural_rule, "name", natural_rule)).lower()
    if text in ("per_phase", "per_group"):
        return text
    raise ValueError(f"unknown natural rule {natural_rule!r}")


# --------------------------------------------------------------------------- one group


def places(kind: int, value: int, size: int) -> Counter | None:
    """The labelled places of a declared group (R10), or None if no such group exists."""
    if size < 1:
        return None
    if kind == SET:
        return Counter({value: size}) if value in NUMBERS else None
    if kind == RUN:
        numbers = range(value, value + size)
        if value < 1 or value + size - 1 > 12:  # no wrap, never past 1 or 12
            return None
        return Counter(numbers)
    if kind == COLOUR:
        return Counter({value: size}) if value in COLOURS else None
    return None


def label(kind: int, card: int) -> int:
    """What a natural card offers to a group of this kind: its number, or its colour."""
    return colour_of(card) if kind == COLOUR else number_of(card)


def forms(cards: Sequence[int], kind: int, value: int, size: int) -> bool:
    """Whether these cards, with Wilds standing for whatever is missing, are the declared group."""
    pl = places(kind, value, size)
    if pl is None or len(cards) != size:
        return False
    if any(not (is_natural(c) or c == WILD) for c in cards):  # Skips are never part of a group
        return False
    wanted = Counter(label(kind, c) for c in cards if c != WILD)
    return all(n <= pl[lab] for lab, n in wanted.items())


def natural_rule_holds(groups: Sequence[Sequence[int]], natural_rule) -> bool:
    naturals = [sum(1 for c in g if is_natural(c)) for g in groups]
    if _rule_name(natural_rule) == "per_group":
        return all(n >= 1 for n in naturals)
    return sum(naturals) >= 1


# --------------------------------------------------------------------------- a hand


def sub_multisets(counts: Counter, k: int) -> Iterator[tuple[int, ...]]:
    """Every sub-multiset of ``counts`` with ``k`` elements, each once, as a sorted tuple."""
    items = sorted((card, n) for card, n in counts.items() if n > 0)

    def rec(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(items):
            return
        card, n = items[i]
        for take in range(min(n, left), -1, -1):
            for rest in rec(i + 1, left - take):
                yield (card,) * take + rest

    yield from rec(0, k)


def hand_list(hand: Iterable[int] | Sequence[int], *, counts: bool | None = None) -> list[int]:
    """A hand as a list of card kinds. Accepts a list of kinds or per-kind counts (50 entries,
    as a bytearray or list); pass ``counts=`` to say which when it is ambiguous."""
    if counts is None:
        counts = isinstance(hand, (bytes, bytearray))
    if counts:
        return [k for k, n in enumerate(hand) for _ in range(n)]
    return list(hand)


def find_declared(hand: Iterable[int], melds: Sequence[tuple[int, int, int]], natural_rule) -> list[tuple[int, ...]] | None:
    """Cards of ``hand`` (a list of kinds) forming exactly the declared groups ``melds``
    (``(kind, value, size)`` each), under the natural rule; None if there are none."""
    melds = [tuple(int(x) for x in m) for m in melds]
    hand_counts = Counter(hand)

    def rec(i: int, remaining: Counter, groups: list[tuple[int, ...]]) -> list[tuple[int, ...]] | None:
        if i == len(melds):
            return list(groups) if natural_rule_holds(groups, natural_rule) else None
        kind, value, size = melds[i]
        pl = places(kind, value, size)
        if pl is None:
            return None
        # Only cards that could be in this group at all (pruning; ``forms`` decides).
        usable = Counter({c: n for c, n in remaining.items()
                          if n > 0 and (c == WILD or (is_natural(c) and pl[label(kind, c)] > 0))})
        if sum(usable.values()) < size:
            return None
        for cards in sub_multisets(usable, size):
            if forms(cards, kind, value, size):
                found = rec(i + 1, remaining - Counter(cards), groups + [cards])
                if found is not None:
                    return found
        return None

    return rec(0, hand_counts, [])


def declared_card_choices(hand: Iterable[int], melds: Sequence[tuple[int, int, int]],
                          natural_rule) -> set[tuple[tuple[int, ...], ...]]:
    """Every way the cards of ``hand`` can form exactly the declared groups ``melds``: one
    sorted tuple of cards per group. Brute force over sub-multisets, like ``find_declared``."""
    melds = [tuple(int(x) for x in m) for m in melds]
    found: set[tuple[tuple[int, ...], ...]] = set()

    def rec(i: int, remaining: Counter, groups: list[tuple[int, ...]]) -> None:
        if i == len(melds):
            if natural_rule_holds(groups, natural_rule):
                found.add(tuple(groups))
            return
        kind, value, size = melds[i]
        for cards in sub_multisets(remaining, size):
            if forms(cards, kind, value, size):
                rec(i + 1, remaining - Counter(cards), groups + [cards])

    rec(0, Counter(hand), [])
    return found


def can_make_declared(hand: Iterable[int], melds: Sequence[tuple[int, int, int]], natural_rule) -> bool:
    return find_declared(hand, melds, natural_rule) is not None


def values_for(kind: int, size: int) -> list[int]:
    """Every value a group of this kind and size may declare."""
    if kind == SET:
        return list(NUMBERS)
    if kind == RUN:
        return [v for v in NUMBERS if v + size - 1 <= 12]
    return list(COLOURS)


def all_declarations(requirements: Sequence[tuple[int, int]]) -> list[tuple[tuple[int, int, int], ...]]:
    """Every ordered tuple of declared groups for these requirements."""
    reqs = [(int(k), int(s)) for k, s in requirements]
    choices = [[(k, v, s) for v in values_for(k, s)] for k, s in reqs]
    return list(product(*choices))


def canonical(melds: Sequence[tuple[int, int, int]], requirements: Sequence[tuple[int, int]]) -> tuple:
    """A declaration with the groups of equal requirements put in sorted order, so that two
    declarations naming the same unordered pair compare equal."""
    melds = [tuple(int(x) for x in m) for m in melds]
    reqs = [(int(k), int(s)) for k, s in requirements]
    out = list(melds)
    for req in set(reqs):
        slots = [i for i, r in enumerate(reqs) if r == req]
        for i, m in zip(slots, sorted(melds[i] for i in slots)):
            out[i] = m
    return tuple(out)


def accepted_declarations(hand: Iterable[int], requirements: Sequence[tuple[int, int]], natural_rule) -> set[tuple]:
    """Every declaration the hand can lay down, in canonical form."""
    hand = list(hand)
    return {canonical(d, requirements) for d in all_declarations(requirements)
            if can_make_declared(hand, d, natural_rule)}


def can_make(hand: Iterable[int], requirements: Sequence[tuple[int, int]], natural_rule) -> bool:
    """Whether the hand (a list of kinds) holds the whole phase (R9-R12)."""
    hand = list(hand)
    return any(can_make_declared(hand, d, natural_rule) for d in all_declarations(requirements))
