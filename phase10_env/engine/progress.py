"""How far a hand is from laying its phase down: the fewest cards missing and the ways to
finish (:func:`phase_progress`), and how many whole lay-downs that many cards would complete
(:func:`count_laydowns`). Measures for players and features, not rules: a hand may lay down
exactly when :func:`~.search.laydowns` finds a lay-down, which is when ``missing`` is 0.

>>> from phase10_env.engine import PHASES, parse_cards
>>> from phase10_env.engine.cards import counts_of
>>> phase_progress(counts_of(parse_cards("R7 B7 G7 Y3 B3 R1")), PHASES[1], NaturalRule.PER_PHASE)  # one 3 short
(1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import NUM_KINDS, NUM_NUMBERS, WILD
from .phases import GroupKind, NaturalRule, Requirement, declarable_values, missing_naturals
from .search import (
    colour_supply,
    group_options,
    laydowns,
    most_naturals,
    number_supply,
    presence,
    run_naturals,
    span,
    take_numbers,
)


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
        missing = max(size - wilds - best, missing_naturals(natural_rule, (best,)))
        return missing, sum(1 for c in counts if max(size - wilds - c, missing_naturals(natural_rule, (c,))) == missing)
    supply = number_supply(hand)
    present = presence(supply)
    first = requirements[0]
    best, ways = NUM_KINDS, 0
    for v1, nat1 in group_options(first, supply, present, first.size, 1):
        if len(requirements) == 1:
            need = first.size - nat1 - wilds
            missing = need if need > 0 else missing_naturals(natural_rule, (nat1,))
        else:
            second = requirements[1]
            lo1, hi1 = span(first.kind, v1, first.size)
            taken, left = take_numbers(first.kind, lo1, hi1, nat1, supply, present)
            nat2 = most_naturals(second, supply, left)
            for n in taken:
                supply[n] += 1
            need = first.size + second.size - nat1 - nat2 - wilds
            floor = missing_naturals(natural_rule, (nat1, nat2))
            missing = need if need > floor else floor
        if missing < best:
            best, ways = missing, 1
        elif missing == best:
            ways += 1
    if best == 0 and not laydowns(hand, requirements, natural_rule):
        best = 1  # only the per-group natural rule's corner cases get here
    return best, ways


def count_laydowns(hand: Sequence[int], requirements: Sequence[Requirement], missing: int) -> int:
    """How many lay-downs (a value for every group of the phase) ``missing`` more cards would
    complete, each group taking the hand's natural cards first and the Wilds making up the
    rest. A finer count of the ways to finish than :func:`phase_progress` gives, for players
    that plan; it counts the natural card of R11 per phase, whatever the rules say. (A phase of
    two groups starts with a set, R9.)"""
    size = sum(r.size for r in requirements)
    wilds = hand[WILD]
    completes = [max(size - n - wilds, missing_naturals(NaturalRule.PER_PHASE, (n,))) == missing for n in range(size + 1)]
    first = requirements[0]
    if first.kind == GroupKind.COLOUR:
        return sum(completes[min(n, first.size)] for n in colour_supply(hand))
    supply = number_supply(hand)
    present = presence(supply)
    if len(requirements) == 1:
        return sum(completes[run_naturals(present, v, first.size)] for v in declarable_values(GroupKind.RUN, first.size))
    second = requirements[1]
    count = 0
    for v1 in range(1, NUM_NUMBERS + 1):
        n1 = min(supply[v1], first.size)
        left = supply[v1] - n1
        if second.kind == GroupKind.SET:
            count += completes[n1 + min(left, second.size)]
            count += sum(completes[n1 + min(supply[v2], second.size)]
                         for v2 in range(v1 + 1 if second == first else 1, NUM_NUMBERS + 1) if v2 != v1)
        else:
            rest = present if left else present & ~(1 << (v1 - 1))
            count += sum(completes[n1 + run_naturals(rest, v2, second.size)]
                         for v2 in declarable_values(GroupKind.RUN, second.size))
    return count
