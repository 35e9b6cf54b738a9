"""The ten phases as data, and everything about groups: which cards form a group (R10-R12),
which complete phases a hand can lay down (R13), and what a laid group accepts (R14).

This is the one module that knows whether a hand "can still make its phase"; the move
generator, the environment's action masks and the heuristic agent all call it.

A lay-down is described by *melds*: ``Meld(kind, value, size)`` where ``value`` is the set's
number, the run's lowest number, or the colour group's colour. A meld declares what every Wild
in it stands for (R12). The cards a meld takes from a hand follow one fixed rule
(:func:`allocate`): natural cards first, colours in the order red, blue, green, yellow (colour
groups take their highest numbers first), Wilds only for what no natural card can fill. So a lay-
down never spends a Wild where the hand holds the natural card it would stand for; a player who
wants that Wild on the table hits it afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from typing import NamedTuple

from .cards import (
    COLOUR_OF,
    COLOURS,
    NUM_COLOURS,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_NUMBERS,
    NUMBER_OF,
    PRESENT,
    WILD,
    cards_text,
)
from .compiled import load

_search = load("phase10_env.engine._search", "lay-down search")  # the compiled search, if built


class GroupKind(IntEnum):
    SET = 0
    RUN = 1
    COLOUR = 2


KIND_NAMES = ("set", "run", "colour")


class NaturalRule(IntEnum):
    """R11: where the one natural card a lay-down needs must be."""

    PER_PHASE = 0
    PER_GROUP = 1


@dataclass(frozen=True, slots=True)
class Requirement:
    """One group a phase asks for: a kind and its minimum size."""

    kind: GroupKind
    size: int

    def __str__(self) -> str:
        noun = {GroupKind.SET: "set", GroupKind.RUN: "run", GroupKind.COLOUR: "cards of one colour"}
        return f"{self.size} {noun[self.kind]}" if self.kind == GroupKind.COLOUR else f"{noun[self.kind]} of {self.size}"


def _req(kind: GroupKind, size: int) -> Requirement:
    return Requirement(kind, size)


S, R, C = GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR
#: R9: the ten phases, numbered 1-10.
PHASES: dict[int, tuple[Requirement, ...]] = {
    1: (_req(S, 3), _req(S, 3)),
    2: (_req(S, 3), _req(R, 4)),
    3: (_req(S, 4), _req(R, 4)),
    4: (_req(R, 7),),
    5: (_req(R, 8),),
    6: (_req(R, 9),),
    7: (_req(S, 4), _req(S, 4)),
    8: (_req(C, 7),),
    9: (_req(S, 5), _req(S, 2)),
    10: (_req(S, 5), _req(S, 3)),
}
del S, R, C


def phase_text(phase: int) -> str:
    return " + ".join(str(r) for r in PHASES[phase])


class Meld(NamedTuple):
    """A group to lay down: kind, value (set number / run start / colour) and size."""

    kind: GroupKind
    value: int
    size: int

    def is_valid(self) -> bool:
        if self.kind == GroupKind.SET:
            return 1 <= self.value <= NUM_NUMBERS and self.size >= 1
        if self.kind == GroupKind.RUN:
            return self.size >= 1 and 1 <= self.value and self.value + self.size - 1 <= NUM_NUMBERS
        if self.kind == GroupKind.COLOUR:
            return 0 <= self.value < NUM_COLOURS and self.size >= 1
        return False

    def __str__(self) -> str:
        if self.kind == GroupKind.SET:
            return f"set of {self.size} x {self.value}"
        if self.kind == GroupKind.RUN:
            return f"run {self.value}-{self.value + self.size - 1}"
        return f"{self.size} {COLOURS[self.value]}"


def meld_values(kind: int, size: int) -> range:
    """All values a meld of this kind and size may declare."""
    if kind == GroupKind.SET:
        return range(1, NUM_NUMBERS + 1)
    if kind == GroupKind.RUN:
        return range(1, NUM_NUMBERS - size + 2)
    return range(NUM_COLOURS)


#: ``MELDS[kind, size][value]``: shared Meld objects, so enumerating lay-downs builds none.
MELDS: dict[tuple[int, int], dict[int, Meld]] = {
    (kind, size): {v: Meld(kind, v, size) for v in meld_values(kind, size)}
    for kind in GroupKind for size in range(1, NUM_NUMBERS + 1)
}


# --------------------------------------------------------------------------- allocation


def _take_naturals(avail: bytearray, meld: Meld) -> list[int]:
    """Greedy choice of natural cards for a meld; removes them from ``avail``.

    Returns the meld's cards with ``WILD`` marking the places no natural fills (runs in
    ascending order, sets and colour groups naturals first).
    """
    kind, value, size = meld
    cards: list[int] = []
    if kind == GroupKind.SET:
        for card in range(value - 1, NUM_NATURALS, NUM_NUMBERS):
            while avail[card] and len(cards) < size:
                avail[card] -= 1
                cards.append(card)
    elif kind == GroupKind.RUN:
        for number in range(value, value + size):
            for card in range(number - 1, NUM_NATURALS, NUM_NUMBERS):
                if avail[card]:
                    avail[card] -= 1
                    cards.append(card)
                    break
            else:
                cards.append(WILD)
        return cards
    else:
        base = value * NUM_NUMBERS
        for card in range(base + NUM_NUMBERS - 1, base - 1, -1):
            while avail[card] and len(cards) < size:
                avail[card] -= 1
                cards.append(card)
    cards.extend([WILD] * (size - len(cards)))
    return cards


def _fits(meld: Meld, card: int) -> bool:
    """Whether natural card ``card`` could stand in meld ``meld``."""
    kind, value, size = meld
    if kind == GroupKind.SET:
        return NUMBER_OF[card] == value
    if kind == GroupKind.RUN:
        return value <= NUMBER_OF[card] < value + size
    return COLOUR_OF[card] == value


def _give_natural(groups: list[list[int]], melds: Sequence[Meld], needy: int) -> bool:
    """Move one natural card into group ``needy`` (which has none) from a group holding two or
    more, taking a Wild back in exchange. Wild count and total naturals stay the same."""
    for donor, cards in enumerate(groups):
        if donor == needy or sum(1 for k in cards if k != WILD) < 2:
            continue
        for i, card in enumerate(cards):
            if card == WILD or not _fits(melds[needy], card):
                continue
            target = groups[needy]
            if melds[needy].kind == GroupKind.RUN:
                slot = NUMBER_OF[card] - melds[needy].value
                if target[slot] != WILD:
                    continue
            else:
                slot = target.index(WILD)
            target[slot] = card
            if melds[donor].kind == GroupKind.RUN:
                cards[i] = WILD
            else:
                del cards[i]
                cards.append(WILD)
            return True
    return False


def allocate(hand: Sequence[int], melds: Sequence[Meld], natural_rule: NaturalRule) -> list[list[int]] | None:
    """The cards each meld takes from ``hand`` (per-kind counts), or ``None`` if the hand cannot
    lay these melds down together under ``natural_rule``.

    Natural cards are taken greedily, meld by meld; that uses as many naturals (and so as few
    Wilds) as any assignment can, because every meld asks for cards by number (or by colour).
    Under ``per_group`` a meld left without a natural borrows one from a meld with two or more,
    which is always possible when any valid assignment exists for phases of two groups.
    """
    avail = bytearray(hand)
    groups = [_take_naturals(avail, m) for m in melds]
    wilds_needed = sum(g.count(WILD) for g in groups)
    if wilds_needed > hand[WILD]:
        return None
    naturals = [len(g) - g.count(WILD) for g in groups]
    if natural_rule == NaturalRule.PER_GROUP:
        for i, n in enumerate(naturals):
            if n == 0 and not _give_natural(groups, melds, i):
                return None
    elif sum(naturals) == 0:
        return None
    return groups


# --------------------------------------------------------------------------- card choices
#
# A lay-down may also name its cards (R10-R13 let the player choose them): which copies of a
# number, a natural card or a Wild. These list and check every such choice.


def meld_accepts(meld: Meld, card: int) -> bool:
    """Whether card ``card`` may stand in ``meld`` (a Wild always may, a Skip never)."""
    return card == WILD or (0 <= card < NUM_NATURALS and _fits(meld, card))


def arrange(meld: Meld, cards: Sequence[int]) -> list[int]:
    """The cards of a meld in table order: a run from its lowest number up, each Wild in the
    place of the number it stands for; a set or colour group naturals ascending, then Wilds."""
    if meld.kind != GroupKind.RUN:
        return sorted(cards)
    naturals = {NUMBER_OF[k]: k for k in cards if k != WILD}
    return [naturals.get(n, WILD) for n in range(meld.value, meld.value + meld.size)]


def meld_card_problem(meld: Meld, cards: Sequence[int]) -> str | None:
    """Why ``cards`` (any order) cannot form ``meld``, or None. A run needs one card per number
    of its span, the Wilds standing for the numbers no natural card takes."""
    if len(cards) != meld.size:
        return f"{meld} takes {meld.size} cards, not {len(cards)}"
    bad = [k for k in cards if not meld_accepts(meld, k)]
    if bad:
        return f"{cards_text(bad)} cannot stand in {meld}"
    if meld.kind == GroupKind.RUN:
        numbers = [NUMBER_OF[k] for k in cards if k != WILD]
        if len(set(numbers)) != len(numbers):
            return f"{meld} holds one card per number"
    return None


def _group_kinds(kind: int, value: int) -> range:
    """The natural cards a set (of number ``value``) or a colour group (of colour ``value``) takes."""
    if kind == GroupKind.SET:
        return range(value - 1, NUM_NATURALS, NUM_NUMBERS)
    return range(value * NUM_NUMBERS, (value + 1) * NUM_NUMBERS)


def meld_choices(avail: Sequence[int], meld: Meld, need_natural: bool = False) -> list[tuple[int, ...]]:
    """Every distinct choice of cards (a sorted tuple of kinds) that ``meld`` can take from the
    per-kind counts ``avail``; with ``need_natural``, only choices holding a natural card."""
    kind, value, size = meld
    if kind == GroupKind.RUN:
        slots = [[k for k in range(n - 1, NUM_NATURALS, NUM_NUMBERS) if avail[k]] for n in range(value, value + size)]
    else:
        slots = [[k for k in _group_kinds(kind, value) if avail[k]]]
    wilds = avail[WILD]
    found: set[tuple[int, ...]] = set()

    def runs(i: int, chosen: list[int], wild: int) -> None:
        if i == len(slots):
            found.add(tuple(sorted(chosen)) + (WILD,) * wild)
            return
        for k in slots[i]:
            chosen.append(k)
            runs(i + 1, chosen, wild)
            chosen.pop()
        if wild < wilds:
            runs(i + 1, chosen, wild + 1)

    def multisets(i: int, chosen: list[int]) -> None:
        kids_ = slots[0]
        if i == len(kids_):
            wild = size - len(chosen)
            if 0 <= wild <= wilds:
                found.add(tuple(chosen) + (WILD,) * wild)
            return
        k = kids_[i]
        for count in range(min(avail[k], size - len(chosen)) + 1):
            chosen.extend([k] * count)
            multisets(i + 1, chosen)
            del chosen[len(chosen) - count:]

    if kind == GroupKind.RUN:
        runs(0, [], 0)
    else:
        multisets(0, [])
    return sorted(c for c in found if not need_natural or c[0] != WILD)


def can_fill(avail: Sequence[int], meld: Meld, need_natural: bool) -> bool:
    """Whether ``meld`` can take its cards from ``avail`` (with a natural card, if needed)."""
    kind, value, size = meld
    if kind == GroupKind.RUN:
        naturals = sum(1 for n in range(value, value + size) if any(avail[k] for k in range(n - 1, NUM_NATURALS, NUM_NUMBERS)))
    else:
        naturals = min(sum(avail[k] for k in _group_kinds(kind, value)), size)
    return naturals + avail[WILD] >= size and (naturals > 0 or not need_natural)


def partner_requirement(requirements: Sequence[Requirement], meld: Meld) -> Requirement | None:
    """The group a two-group phase still asks for once ``meld`` is laid (None for a one-group
    phase); ``meld`` must match one of the requirements."""
    if len(requirements) == 1:
        return None
    first, second = requirements
    return second if (first.kind, first.size) == (meld.kind, meld.size) else first


def _without(avail: Sequence[int], cards: Sequence[int]) -> bytearray:
    left = bytearray(avail)
    for k in cards:
        left[k] -= 1
    return left


def first_group_choices(hand: Sequence[int], requirements: Sequence[Requirement], meld: Meld,
                        natural_rule: NaturalRule) -> list[tuple[int, ...]]:
    """The card choices for ``meld``, the first group laid of a phase, that leave the rest of
    the hand able to complete the phase (with a one-group phase: that hold a natural card)."""
    partner = partner_requirement(requirements, meld)
    if partner is None:
        return meld_choices(hand, meld, need_natural=True)
    per_group = natural_rule == NaturalRule.PER_GROUP
    out = []
    for cards in meld_choices(hand, meld, need_natural=per_group):
        left = _without(hand, cards)
        need = per_group or cards[0] == WILD
        if any(can_fill(left, m, need) for m in MELDS[partner.kind, partner.size].values()):
            out.append(cards)
    return out


def second_group_choices(hand: Sequence[int], first: tuple[int, ...], meld: Meld,
                         natural_rule: NaturalRule) -> list[tuple[int, ...]]:
    """The card choices for ``meld``, the second group of a lay-down whose first group takes
    the cards ``first``, from what the hand holds besides them."""
    need = natural_rule == NaturalRule.PER_GROUP or first[0] == WILD
    return meld_choices(_without(hand, first), meld, need_natural=need)


def laydown_card_choices(hand: Sequence[int], melds: Sequence[Meld], requirements: Sequence[Requirement],
                         natural_rule: NaturalRule) -> list[tuple[tuple[int, ...], ...]]:
    """Every choice of cards for the lay-down ``melds`` (one sorted tuple per meld)."""
    if len(melds) == 1:
        return [(c,) for c in first_group_choices(hand, requirements, melds[0], natural_rule)]
    first, second = melds
    return [(c1, c2) for c1 in first_group_choices(hand, requirements, first, natural_rule)
            for c2 in second_group_choices(hand, c1, second, natural_rule)]


def laydown_card_problem(hand: Sequence[int], melds: Sequence[Meld], cards: Sequence[Sequence[int]],
                         natural_rule: NaturalRule) -> str | None:
    """Why ``cards`` (one list per meld) cannot be laid as ``melds`` from ``hand``, or None."""
    if len(cards) != len(melds):
        return f"a lay-down of {len(melds)} groups names the cards of {len(cards)}"
    for meld, group in zip(melds, cards):
        problem = meld_card_problem(meld, group)
        if problem:
            return problem
    used = bytearray(NUM_KINDS)
    for group in cards:
        for k in group:
            used[k] += 1
    if any(u > h for u, h in zip(used, hand)):
        return "the hand does not hold these cards"
    naturals = [sum(1 for k in group if k != WILD) for group in cards]
    if not any(naturals) or (natural_rule == NaturalRule.PER_GROUP and not all(naturals)):
        where = " in every group" if natural_rule == NaturalRule.PER_GROUP else ""
        return f"a lay-down needs a natural card{where} (R11)"
    return None


# --------------------------------------------------------------------------- enumeration


def number_supply(hand: Sequence[int]) -> list[int]:
    """``supply[n]``: natural cards of number n (1-12) in a hand; index 0 unused."""
    supply = [0] * (NUM_NUMBERS + 1)
    for card in range(NUM_NATURALS):
        c = hand[card]
        if c:
            supply[card % NUM_NUMBERS + 1] += c
    return supply


def colour_supply(hand: Sequence[int]) -> list[int]:
    return [sum(hand[c * NUM_NUMBERS:(c + 1) * NUM_NUMBERS]) for c in range(NUM_COLOURS)]


_POPCOUNT = bytes(bin(i).count("1") for i in range(1 << NUM_NUMBERS))
_NUMBERS = range(1, NUM_NUMBERS + 1)
#: Bit mask of the numbers present, keyed by a supply's 0/1 pattern (index 0 first).
_PRESENCE: dict[bytes, int] = {bytes([0] + [(m >> i) & 1 for i in range(NUM_NUMBERS)]): m for m in range(1 << NUM_NUMBERS)}


def presence(supply: list[int]) -> int:
    """Bit mask of the numbers a :func:`number_supply` holds (bit n-1 for number n)."""
    return _PRESENCE[bytes(supply).translate(PRESENT)]


@cache
def _run_options(present: int, size: int, least: int) -> tuple[tuple[int, int], ...]:
    """``(start, naturals)`` of the runs of ``size`` with at least ``least`` naturals, for a
    hand holding the numbers in bit mask ``present`` (bit n-1 for number n)."""
    window = (1 << size) - 1
    return tuple((v, nat) for v in range(1, NUM_NUMBERS - size + 2)
                 if (nat := _POPCOUNT[(present >> (v - 1)) & window]) >= least)


def _options(req: Requirement, supply: list[int], present: int, wilds: int,
             min_value: int) -> Sequence[tuple[int, int]]:
    """``(value, naturals)`` for every meld of ``req`` the supply can fill with at most ``wilds``
    Wilds, taking naturals first; ``present`` is the bit mask of numbers with supply."""
    size = req.size
    least = size - wilds
    if req.kind == GroupKind.SET:
        return [(v, supply[v] if supply[v] < size else size) for v in _NUMBERS if v >= min_value and supply[v] >= least]
    options = _run_options(present, size, least if least > 0 else 0)
    return options if min_value == 1 else [o for o in options if o[0] >= min_value]


def _span(kind: int, value: int, size: int) -> tuple[int, int]:
    """Lowest and highest number a set or run meld uses."""
    return (value, value) if kind == GroupKind.SET else (value, value + size - 1)


def _take(kind: int, low: int, high: int, naturals: int, supply: list[int], present: int) -> tuple[list[int], int]:
    """Take a set or run meld's natural cards (greedily, as :func:`allocate` does) out of
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
        return _colour_laydowns(hand, requirements)
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
    greedily (see :func:`allocate`), so one pass per first meld finds every second meld that
    still fits."""
    present = presence(supply)
    for req in requirements:  # quick rejection: each group alone must be possible
        if _most_naturals(req, supply, present) + wilds < req.size:
            return []
    first = requirements[0]
    if len(requirements) == 1:
        melds = MELDS[first.kind, first.size]
        return [(melds[v],) for v, nat in _options(first, supply, present, wilds, 1) if nat]
    if len(requirements) != 2:
        raise ValueError("phases have one or two groups")
    second = requirements[1]
    per_group = natural_rule == NaturalRule.PER_GROUP
    out: list[tuple[Meld, ...]] = []
    for v1, nat1 in _options(first, supply, present, wilds, 1):
        lo1, hi1 = _span(first.kind, v1, first.size)
        taken, left = _take(first.kind, lo1, hi1, nat1, supply, present)
        wilds_left = wilds - first.size + nat1
        if _most_naturals(second, supply, left) + wilds_left >= second.size:
            meld1 = MELDS[first.kind, first.size][v1]
            melds2 = MELDS[second.kind, second.size]
            for v2, nat2 in _options(second, supply, left, wilds_left, v1 if second == first else 1):
                if per_group and not nat2:
                    # Greedy gave the first meld every natural the second could use; it can
                    # pass one on if it holds two or more and took a number the second uses.
                    lo2, hi2 = _span(second.kind, v2, second.size)
                    if nat1 < 2 or not any(n in taken for n in range(max(lo1, lo2), min(hi1, hi2) + 1)):
                        continue
                elif not (nat1 if per_group else nat1 + nat2):
                    continue
                out.append((meld1, melds2[v2]))
        for n in taken:
            supply[n] += 1
    return out


def _colour_laydowns(hand: Sequence[int], requirements: Sequence[Requirement]) -> list[tuple[Meld, ...]]:
    if len(requirements) != 1:
        raise ValueError("a colour group can only be a phase on its own")
    size = requirements[0].size
    wilds = hand[WILD]
    return [(Meld(GroupKind.COLOUR, c, size),) for c, n in enumerate(colour_supply(hand)) if n and n + wilds >= size]


@cache
def _best_run(present: int, size: int) -> int:
    """Most naturals any run of ``size`` can use from the numbers in bit mask ``present``."""
    window = (1 << size) - 1
    return max(_POPCOUNT[(present >> (v - 1)) & window] for v in range(1, NUM_NUMBERS - size + 2))


def _most_naturals(req: Requirement, supply: list[int], present: int) -> int:
    if req.kind == GroupKind.SET:
        best = max(supply)
        return best if best < req.size else req.size
    return _best_run(present, req.size)


def phase_progress(hand: Sequence[int], requirements: Sequence[Requirement], natural_rule: NaturalRule) -> tuple[int, int]:
    """How far ``hand`` is from laying the phase down: ``(missing, ways)``, where ``missing`` is
    the fewest more cards that would complete it (0 exactly when :func:`laydowns` finds a
    lay-down) and ``ways`` the number of first groups that reach that minimum (more ways, more
    draws that help)."""
    wilds = hand[WILD]
    if requirements[0].kind == GroupKind.COLOUR:
        size = requirements[0].size
        counts = colour_supply(hand)
        best = max(counts)
        missing = max(size - wilds - best, 0 if best else 1)
        return missing, sum(1 for c in counts if max(size - wilds - c, 0 if c else 1) == missing)
    supply = number_supply(hand)
    present = presence(supply)
    first = requirements[0]
    best, ways = NUM_KINDS, 0
    for v1, nat1 in _options(first, supply, present, first.size, 1):
        if len(requirements) == 1:
            need = first.size - nat1 - wilds
            missing = need if need > 0 else (0 if nat1 else 1)
        else:
            second = requirements[1]
            lo1, hi1 = _span(first.kind, v1, first.size)
            taken, left = _take(first.kind, lo1, hi1, nat1, supply, present)
            nat2 = _most_naturals(second, supply, left)
            for n in taken:
                supply[n] += 1
            need = first.size + second.size - nat1 - nat2 - wilds
            groups_without = (nat1 == 0) + (nat2 == 0)
            floor = groups_without if natural_rule == NaturalRule.PER_GROUP else (1 if nat1 + nat2 == 0 else 0)
            missing = need if need > floor else floor
        if missing < best:
            best, ways = missing, 1
        elif missing == best:
            ways += 1
    if best == 0 and not laydowns(hand, requirements, natural_rule):
        best = 1  # only the per-group natural rule's corner cases get here
    return best, ways


def can_lay_down(hand: Sequence[int], requirements: Sequence[Requirement], natural_rule: NaturalRule) -> bool:
    return bool(laydowns(hand, requirements, natural_rule))


def matches_requirements(melds: Sequence[Meld], requirements: Sequence[Requirement]) -> bool:
    """Whether the melds are exactly the phase's groups (as a multiset, any order)."""
    wanted = sorted((r.kind, r.size) for r in requirements)
    return sorted((m.kind, m.size) for m in melds) == wanted


# --------------------------------------------------------------------------- table groups


_ALL_NUMBERS = tuple(range(1, NUM_NUMBERS + 1))


class TableGroup:
    """A group laid on the table. ``cards`` holds the card kinds; a run's cards are in
    ascending order from ``low``, so each Wild's number is its position (R12). A set's Wilds
    stand for ``value``; a colour group's Wilds for colour ``value``."""

    __slots__ = ("kind", "value", "cards", "low", "high")

    def __init__(self, kind: int, value: int, cards: list[int]) -> None:
        self.kind = kind
        self.value = value
        self.cards = cards
        self.low = value if kind == GroupKind.RUN else 0
        self.high = value + len(cards) - 1 if kind == GroupKind.RUN else 0

    def accepts(self, card: int, low_end: bool = False) -> bool:
        """R14: whether card ``card`` (natural or Wild) may be added. ``low_end`` picks the end
        of a run a Wild goes to; it must be False otherwise."""
        if card == WILD:
            if self.kind == GroupKind.RUN:
                return self.low > 1 if low_end else self.high < NUM_NUMBERS
            return not low_end
        if low_end or not 0 <= card < NUM_NATURALS:
            return False
        if self.kind == GroupKind.SET:
            return NUMBER_OF[card] == self.value
        if self.kind == GroupKind.RUN:
            n = NUMBER_OF[card]
            return n == self.low - 1 or n == self.high + 1
        return COLOUR_OF[card] == self.value

    def accepted_numbers(self) -> tuple[int, ...]:
        """The numbers a natural card may have to be added (for colour groups: in its colour)."""
        if self.kind == GroupKind.SET:
            return (self.value,)
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
            if not 1 <= self.value <= NUM_NUMBERS:
                return f"a set of number {self.value}"
            if any(k != WILD and NUMBER_OF[k] != self.value for k in self.cards):
                return f"a set of {self.value}s holds another number"
        elif self.kind == GroupKind.RUN:
            if self.low < 1 or self.high > NUM_NUMBERS:
                return f"a run from {self.low} to {self.high} leaves 1-12"
            if any(k != WILD and NUMBER_OF[k] != self.low + i for i, k in enumerate(self.cards)):
                return f"a run from {self.low} holds a card out of sequence"
        elif self.kind == GroupKind.COLOUR:
            if not 0 <= self.value < NUM_COLOURS:
                return f"a colour group of colour {self.value}"
            if any(k != WILD and COLOUR_OF[k] != self.value for k in self.cards):
                return f"a {COLOURS[self.value]} group holds another colour"
        else:
            return f"unknown group kind {self.kind}"
        return None

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, TableGroup) and self.kind == other.kind and self.value == other.value
                and self.cards == other.cards)

    def __repr__(self) -> str:
        return f"TableGroup({KIND_NAMES[self.kind]} {self.value}: {cards_text(self.cards)})"
