"""Which complete lay-downs of a phase a hand can make (R9-R13): :func:`laydowns`, the search
the move generator, the env's masks and the heuristic all call.

Melds take natural cards greedily (see :func:`~.melds.allocate`), so the search needs only a
hand's count of natural cards per number (:func:`number_supply`) and its Wilds. It runs compiled
(``_search.c``, built by setup.py) when it can; :func:`search_laydowns` is its Python reference,
which the compiled search follows step by step.

>>> from phase10_env.engine import PHASES, parse_cards
>>> from phase10_env.engine.cards import counts_of
>>> hand = counts_of(parse_cards("R7 B7 G7 Y3 B3 W R1"))
>>> [[str(m) for m in found] for found in laydowns(hand, PHASES[1], NaturalRule.PER_PHASE)]
[['set of 3 x 3', 'set of 3 x 7']]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .cards import NUM_COLOURS, NUM_NATURALS, NUM_NUMBERS, PRESENT, WILD
from .compiled import load
from .phases import MELDS, GroupKind, Meld, NaturalRule, Requirement, declarable_values, missing_naturals

_search = load("phase10_env.engine._search", "lay-down search")  # the compiled search, if built


def number_supply(hand: Sequence[int]) -> list[int]:
    """``supply[n]``: natural cards of number n (1-12) in a hand; index 0 unused."""
    supply = [0] * (NUM_NUMBERS + 1)
    for card in range(NUM_NATURALS):
        c = hand[card]
        if c:
            supply[card % NUM_NUMBERS + 1] += c
    return supply


def colour_supply(hand: Sequence[int]) -> list[int]:
    """``supply[c]``: natural cards of colour c (0-3: red, blue, green, yellow) in a hand."""
    return [sum(hand[c * NUM_NUMBERS:(c + 1) * NUM_NUMBERS]) for c in range(NUM_COLOURS)]


_POPCOUNT = bytes(bin(i).count("1") for i in range(1 << NUM_NUMBERS))
_NUMBERS = range(1, NUM_NUMBERS + 1)
#: Bit mask of the numbers present, keyed by a supply's 0/1 pattern (index 0 first).
_PRESENCE: dict[bytes, int] = {bytes([0] + [(m >> i) & 1 for i in range(NUM_NUMBERS)]): m for m in range(1 << NUM_NUMBERS)}


def presence(supply: list[int]) -> int:
    """Bit mask of the numbers a :func:`number_supply` holds (bit n-1 for number n)."""
    return _PRESENCE[bytes(supply).translate(PRESENT)]


def run_naturals(present: int, start: int, size: int) -> int:
    """Natural cards a run of ``size`` from ``start`` takes from a hand holding the numbers in
    bit mask ``present`` (bit n-1 for number n): one per number of its span the hand holds.

    >>> run_naturals(0b1011, 1, 4)  # numbers 1, 2 and 4 held: a run 1-4 takes three
    3
    """
    return _POPCOUNT[(present >> (start - 1)) & ((1 << size) - 1)]


@cache
def _run_options(present: int, size: int, least: int) -> tuple[tuple[int, int], ...]:
    """``(start, naturals)`` of the runs of ``size`` with at least ``least`` naturals, for a
    hand holding the numbers in bit mask ``present``."""
    return tuple((v, nat) for v in declarable_values(GroupKind.RUN, size)
                 if (nat := run_naturals(present, v, size)) >= least)


def group_options(req: Requirement, supply: list[int], present: int, wilds: int,
             min_value: int) -> Sequence[tuple[int, int]]:
    """``(value, naturals)`` for every meld of ``req`` the supply can fill with at most ``wilds``
    Wilds, taking naturals first; ``present`` is the bit mask of numbers with supply."""
    size = req.size
    least = size - wilds
    if req.kind == GroupKind.SET:
        return [(v, supply[v] if supply[v] < size else size) for v in _NUMBERS if v >= min_value and supply[v] >= least]
    options = _run_options(present, size, least if least > 0 else 0)
    return options if min_value == 1 else [o for o in options if o[0] >= min_value]


def span(kind: int, value: int, size: int) -> tuple[int, int]:
    """Lowest and highest number a set or run meld uses."""
    return (value, value) if kind == GroupKind.SET else (value, value + size - 1)


def take_numbers(kind: int, low: int, high: int, naturals: int, supply: list[int], present: int) -> tuple[list[int], int]:
    """Take a set or run meld's natural cards (greedily, as :func:`~.melds.allocate` does) out of
    ``supply``; returns the numbers taken (to put back) and the bit mask of numbers left."""
    taken = [low] * naturals if kind == GroupKind.SET else [n for n in range(low, high + 1) if supply[n]]
    for n in taken:
        supply[n] -= 1
        if not supply[n]:
            present &= ~(1 << (n - 1))
    return taken, present


def laydowns(hand: Sequence[int], requirements: Sequence[Requirement], natural_rule: NaturalRule) -> list[tuple[Meld, ...]]:
    """Every complete lay-down of a phase that ``hand`` (per-kind counts) can make, as tuples of
    melds in the order of ``requirements``. Two equal requirements (two sets of 3) are listed
    once per unordered pair of values."""
    if requirements and requirements[0].kind == GroupKind.COLOUR:
        return _colour_laydowns(hand, requirements, natural_rule)
    return laydowns_from_supply(number_supply(hand), hand[WILD], requirements, natural_rule)


def laydowns_from_supply(supply: list[int], wilds: int, requirements: Sequence[Requirement],
                         natural_rule: NaturalRule) -> list[tuple[Meld, ...]]:
    """:func:`laydowns` for set and run phases, from the hand's :func:`number_supply` and Wild
    count. Runs the compiled search when it is built (it follows :func:`search_laydowns` step
    by step, about twenty times faster), else that Python reference."""
    if _search is None or len(requirements) > 2:
        return search_laydowns(supply, wilds, requirements, natural_rule)
    # The compiled module is untyped (its results are Any): say what it returns.
    found: list[tuple[Meld, ...]]
    first = requirements[0]
    if len(requirements) == 1:
        found = _search.laydowns(supply, wilds, first.kind, first.size, -1, 0, False, MELDS[first.kind, first.size], None)
        return found
    second = requirements[1]
    found = _search.laydowns(supply, wilds, first.kind, first.size, second.kind, second.size,
                             natural_rule == NaturalRule.PER_GROUP, MELDS[first.kind, first.size],
                             MELDS[second.kind, second.size])
    return found


def search_laydowns(supply: list[int], wilds: int, requirements: Sequence[Requirement],
                    natural_rule: NaturalRule) -> list[tuple[Meld, ...]]:
    """The Python lay-down search, and the reference for the compiled one. Melds take naturals
    greedily (see :func:`~.melds.allocate`), so one pass per first meld finds every second meld that
    still fits."""
    present = presence(supply)
    for req in requirements:  # quick rejection: each group alone must be possible
        if most_naturals(req, supply, present) + wilds < req.size:
            return []
    first = requirements[0]
    if len(requirements) == 1:
        melds = MELDS[first.kind, first.size]
        return [(melds[v],) for v, nat in group_options(first, supply, present, wilds, 1)
                if not missing_naturals(natural_rule, (nat,))]
    if len(requirements) != 2:
        raise ValueError("phases have one or two groups")
    second = requirements[1]
    per_group = natural_rule == NaturalRule.PER_GROUP
    out: list[tuple[Meld, ...]] = []
    for v1, nat1 in group_options(first, supply, present, wilds, 1):
        lo1, hi1 = span(first.kind, v1, first.size)
        taken, left = take_numbers(first.kind, lo1, hi1, nat1, supply, present)
        wilds_left = wilds - first.size + nat1
        if most_naturals(second, supply, left) + wilds_left >= second.size:
            meld1 = MELDS[first.kind, first.size][v1]
            melds2 = MELDS[second.kind, second.size]
            for v2, nat2 in group_options(second, supply, left, wilds_left, v1 if second == first else 1):
                if missing_naturals(natural_rule, (nat1, nat2)):
                    # Greedy gave the first meld every natural the second could use; under
                    # per_group it can pass one on if it holds two or more and took a number
                    # the second uses.
                    if not per_group or nat2 or nat1 < 2:
                        continue
                    lo2, hi2 = span(second.kind, v2, second.size)
                    if not any(n in taken for n in range(max(lo1, lo2), min(hi1, hi2) + 1)):
                        continue
                out.append((meld1, melds2[v2]))
        for n in taken:
            supply[n] += 1
    return out


def _colour_laydowns(hand: Sequence[int], requirements: Sequence[Requirement],
                     natural_rule: NaturalRule) -> list[tuple[Meld, ...]]:
    if len(requirements) != 1:
        raise ValueError("a colour group can only be a phase on its own")
    size = requirements[0].size
    wilds = hand[WILD]
    melds = MELDS[GroupKind.COLOUR, size]
    return [(melds[c],) for c, n in enumerate(colour_supply(hand))
            if n + wilds >= size and not missing_naturals(natural_rule, (n,))]


@cache
def _best_run(present: int, size: int) -> int:
    """Most naturals any run of ``size`` can use from the numbers in bit mask ``present``."""
    return max(run_naturals(present, v, size) for v in declarable_values(GroupKind.RUN, size))


def most_naturals(req: Requirement, supply: list[int], present: int) -> int:
    if req.kind == GroupKind.SET:
        best = max(supply)
        return best if best < req.size else req.size
    return _best_run(present, req.size)
