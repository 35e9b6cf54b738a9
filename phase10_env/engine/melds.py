"""Which cards form a meld (R10-R12): the cards a lay-down takes by default (:func:`allocate`),
and every choice of cards a player may name instead, with the reason a choice is refused.

The cards a meld takes by default follow one fixed rule (:func:`allocate`): natural cards first,
colours in the order red, blue, green, yellow (colour groups take their highest numbers first),
Wilds only for what no natural card can fill. So a default lay-down never spends a Wild where the
hand holds the natural card it would stand for; a player who wants that Wild on the table names
its cards (``LayDown.cards``) or hits it afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import COLOUR_OF, NUM_KINDS, NUM_NATURALS, NUM_NUMBERS, NUMBER_OF, WILD, cards_text
from .phases import (
    MELDS,
    GroupKind,
    Meld,
    NaturalRule,
    Requirement,
    missing_naturals,
    needs_natural,
    partner_requirement,
)


def naturals_of(cards: Sequence[int]) -> int:
    """How many of ``cards`` are natural (numbered) cards."""
    return sum(1 for k in cards if k != WILD)


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
                slot = NUMBER_OF[card] - melds[needy].low
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
    if missing_naturals(natural_rule, naturals):
        # Only per_group can be mended: each group without a natural borrows one.
        if natural_rule != NaturalRule.PER_GROUP or not all(
                _give_natural(groups, melds, i) for i, n in enumerate(naturals) if not n):
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
    return [naturals.get(n, WILD) for n in range(meld.low, meld.high + 1)]


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
        kinds = slots[0]
        if i == len(kinds):
            wild = size - len(chosen)
            if 0 <= wild <= wilds:
                found.add(tuple(chosen) + (WILD,) * wild)
            return
        k = kinds[i]
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


def without(avail: Sequence[int], cards: Sequence[int]) -> bytearray:
    """Per-kind counts ``avail`` less ``cards`` (which it holds)."""
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
        return meld_choices(hand, meld, need_natural=needs_natural(natural_rule, 0, last=True))
    out = []
    for cards in meld_choices(hand, meld, need_natural=needs_natural(natural_rule, 0, last=False)):
        left = without(hand, cards)
        need = needs_natural(natural_rule, naturals_of(cards), last=True)
        if any(can_fill(left, m, need) for m in MELDS[partner.kind, partner.size].values()):
            out.append(cards)
    return out


def second_group_choices(hand: Sequence[int], first: tuple[int, ...], meld: Meld,
                         natural_rule: NaturalRule) -> list[tuple[int, ...]]:
    """The card choices for ``meld``, the second group of a lay-down whose first group takes
    the cards ``first``, from what the hand holds besides them."""
    need = needs_natural(natural_rule, naturals_of(first), last=True)
    return meld_choices(without(hand, first), meld, need_natural=need)


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
    if missing_naturals(natural_rule, [naturals_of(group) for group in cards]):
        where = " in every group" if natural_rule == NaturalRule.PER_GROUP else ""
        return f"a lay-down needs a natural card{where} (R11)"
    return None
