"""The ten phases as data (R9), the groups they ask for, and the rule on natural cards (R11).

A lay-down is described by *melds*: ``Meld(kind, value, size)`` where ``value`` is the set's
number, the run's lowest number, or the colour group's colour. A meld declares what every Wild
in it stands for (R12). Which cards a meld takes from a hand is :mod:`.melds`; which lay-downs a
hand can make, :mod:`.search`; how far a hand is from one, :mod:`.progress`; the groups on the
table, :mod:`.table`.

>>> phase_text(2)
'set of 3 + run of 4'
>>> str(Meld(GroupKind.RUN, 3, 4))
'run 3-6'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple

from .cards import COLOURS, NUM_COLOURS, NUM_NUMBERS


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


def declared(kind: int, value: int, asked: GroupKind) -> int:
    """What a group of ``kind`` declaring ``value`` declares as a group of kind ``asked`` does (a
    set its number, a run its lowest number, a colour group its colour); a ``ValueError`` for a
    group of another kind. Groups keep the one field ``value`` (it is what their JSON form
    writes); code that means one kind reads it through the name of that kind's meaning."""
    if kind != asked:
        raise ValueError(f"a {KIND_NAMES[kind]} group declares no {_DECLARES[asked]}")
    return value


_DECLARES = {GroupKind.SET: "number", GroupKind.RUN: "lowest number", GroupKind.COLOUR: "colour"}


class Meld(NamedTuple):
    """A group to lay down: kind, ``value`` (the set's number, the run's lowest number or the
    colour group's colour: read it as :attr:`number`, :attr:`low` or :attr:`colour`) and size."""

    kind: GroupKind
    value: int
    size: int

    @property
    def number(self) -> int:
        """A set's number."""
        return declared(self.kind, self.value, GroupKind.SET)

    @property
    def low(self) -> int:
        """A run's lowest number."""
        return declared(self.kind, self.value, GroupKind.RUN)

    @property
    def high(self) -> int:
        """A run's highest number."""
        return declared(self.kind, self.value, GroupKind.RUN) + self.size - 1

    @property
    def colour(self) -> int:
        """A colour group's colour (0-3: red, blue, green, yellow)."""
        return declared(self.kind, self.value, GroupKind.COLOUR)

    def is_valid(self) -> bool:
        if self.kind == GroupKind.SET:
            return 1 <= self.number <= NUM_NUMBERS and self.size >= 1
        if self.kind == GroupKind.RUN:
            return self.size >= 1 and 1 <= self.low and self.high <= NUM_NUMBERS
        if self.kind == GroupKind.COLOUR:
            return 0 <= self.colour < NUM_COLOURS and self.size >= 1
        return False

    def __str__(self) -> str:
        if self.kind == GroupKind.SET:
            return f"set of {self.size} x {self.number}"
        if self.kind == GroupKind.RUN:
            return f"run {self.low}-{self.high}"
        return f"{self.size} {COLOURS[self.colour]}"


def declarable_values(kind: int, size: int) -> range:
    """Every value a meld of this kind and size may declare: a set's number, a run's lowest
    number (so that it ends by 12), a colour group's colour."""
    if kind == GroupKind.SET:
        return range(1, NUM_NUMBERS + 1)
    if kind == GroupKind.RUN:
        return range(1, NUM_NUMBERS - size + 2)
    return range(NUM_COLOURS)


#: ``MELDS[kind, size][value]``: shared Meld objects, so enumerating lay-downs builds none.
MELDS: dict[tuple[int, int], dict[int, Meld]] = {
    (kind, size): {v: Meld(kind, v, size) for v in declarable_values(kind, size)}
    for kind in GroupKind for size in range(1, NUM_NUMBERS + 1)
}


def matches_requirements(melds: Sequence[Meld], requirements: Sequence[Requirement]) -> bool:
    """Whether the melds are exactly the phase's groups (as a multiset, any order)."""
    wanted = sorted((r.kind, r.size) for r in requirements)
    return sorted((m.kind, m.size) for m in melds) == wanted


def partner_requirement(requirements: Sequence[Requirement], meld: Meld) -> Requirement | None:
    """The group a two-group phase still asks for once ``meld`` is laid (None for a one-group
    phase); ``meld`` must match one of the requirements."""
    if len(requirements) == 1:
        return None
    first, second = requirements
    return second if (first.kind, first.size) == (meld.kind, meld.size) else first


# --------------------------------------------------------------------------- R11


def missing_naturals(natural_rule: NaturalRule, naturals: Sequence[int]) -> int:
    """R11: how many more natural cards groups holding ``naturals`` natural cards each need to
    make a lay-down: under ``per_group`` one for every group without one, under ``per_phase``
    one if no group has any. Zero exactly when the groups may be laid.

    >>> missing_naturals(NaturalRule.PER_PHASE, (0, 2)), missing_naturals(NaturalRule.PER_GROUP, (0, 2))
    (0, 1)
    """
    if natural_rule == NaturalRule.PER_GROUP:
        return sum(1 for n in naturals if not n)
    return 0 if any(naturals) else 1


def needs_natural(natural_rule: NaturalRule, naturals_before: int, last: bool) -> bool:
    """R11: whether the next group of a lay-down must hold a natural card, given the natural
    cards of the groups chosen before it and whether it is the last group of the phase."""
    return natural_rule == NaturalRule.PER_GROUP or (last and not naturals_before)
