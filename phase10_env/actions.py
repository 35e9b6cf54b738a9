"""The action table: one fixed ``Discrete(NUM_ACTIONS)`` space for every phase and player count.

A turn is several consecutive actions by the same agent: a draw, then any number of lay-down
and hit actions, then a discard that ends the turn (or going out ends it earlier). Seats in
actions are *relative* to the acting seat: offset 0 is the actor, 1 the next player, and so on.

=========  =====  =====================================================================
ids        count  meaning
=========  =====  =====================================================================
0          1      draw the top card of the draw pile
1          1      take the top card of the discard pile
2-49       48     lay a set: size 2, 3, 4, 5 (12 ids each) x number 1-12
50-73      24     lay a run: length 4 (start 1-9), 7 (1-6), 8 (1-5), 9 (1-4)
74-77      4      lay 7 cards of one colour: red, blue, green, yellow
78-245     168    hit: target seat offset 0-5 x its group 0-1 x card (number 1-12,
                  Wild at the high end, Wild at the low end of a run); 14 ids per group
246-293    48     discard a coloured number: colour (red, blue, green, yellow) x number 1-12
294        1      discard a Wild
295-299    5      discard a Skip at seat offset 1-5
300        1      discard a Skip to no effect (only when no player may be skipped, R15)
301-349    49     choose a card for the lay-down or hit in progress: colour x number, Wild
=========  =====  =====================================================================

Lay-down actions are *meld templates*: each lays one group of the current phase, declaring
what its Wilds stand for (R12). A template is legal only if the phase has such a group still to
lay and the rest of the hand can complete the phase with it; after a two-group phase's first
template only completing templates are legal, so a started lay-down always finishes within the
turn. The player also chooses every card that leaves its hand (R10-R12): where a group could be
made of different cards (which copies of a number, a natural card or a Wild), or a hit with
number *n* could play different colours of *n*, the lay-down or hit waits for "choose a card"
actions. Each one puts a card into the group (or names the hit's card); only cards some choice
still open takes are unmasked, cards every open choice takes are settled at once, and the move
is made as soon as one choice remains. Where there is nothing to choose, no such step appears.

>>> NUM_ACTIONS, describe(DRAW_DECK), describe(MELD_IDS[Meld(GroupKind.RUN, 3, 4)]), describe(CHOOSE_FIRST + WILD)
(350, 'draw from the deck', 'lay run 3-6', 'choose W')
"""

from __future__ import annotations

from typing import Literal, NamedTuple

import numpy as np

from .engine.cards import COLOURS, NUM_NATURALS, NUM_NUMBERS, WILD, card_name
from .engine.phases import GroupKind, Meld

MAX_SEATS = 6
GROUPS_PER_SEAT = 2
SET_SIZES = (2, 3, 4, 5)
RUN_LENGTHS = (4, 7, 8, 9)
COLOUR_SIZES = (7,)
HIT_CARDS = NUM_NUMBERS + 2  # numbers 1-12, Wild high, Wild low
HIT_WILD_HIGH, HIT_WILD_LOW = NUM_NUMBERS, NUM_NUMBERS + 1


ActionKind = Literal["draw", "lay", "hit", "discard", "skip", "choose"]


class Action(NamedTuple):
    """What an action id means. ``kind`` is one of draw, lay, hit, discard, skip, choose."""

    kind: ActionKind
    draw_from_discard: bool = False
    meld: Meld | None = None
    seat_offset: int = 0
    group: int = 0
    hit_card: int = 0  # 0-11: number 1-12; 12: Wild high; 13: Wild low
    card: int = 0  # discarded or chosen card kind
    skip_offset: int | None = None  # Skip target offset, None for the no-effect Skip


def _build_table() -> tuple[Action, ...]:
    table: list[Action] = [Action("draw", False), Action("draw", True)]
    for size in SET_SIZES:
        table += [Action("lay", meld=Meld(GroupKind.SET, n, size)) for n in range(1, NUM_NUMBERS + 1)]
    for length in RUN_LENGTHS:
        table += [Action("lay", meld=Meld(GroupKind.RUN, s, length)) for s in range(1, NUM_NUMBERS - length + 2)]
    for size in COLOUR_SIZES:
        table += [Action("lay", meld=Meld(GroupKind.COLOUR, c, size)) for c in range(len(COLOURS))]
    for offset in range(MAX_SEATS):
        for g in range(GROUPS_PER_SEAT):
            table += [Action("hit", seat_offset=offset, group=g, hit_card=h) for h in range(HIT_CARDS)]
    table += [Action("discard", card=k) for k in range(NUM_NATURALS + 1)]
    table += [Action("skip", skip_offset=o) for o in range(1, MAX_SEATS)]
    table.append(Action("skip", skip_offset=None))
    table += [Action("choose", card=k) for k in range(NUM_NATURALS + 1)]
    return tuple(table)


#: ``ACTIONS[i]`` is the meaning of action id ``i``.
ACTIONS: tuple[Action, ...] = _build_table()
NUM_ACTIONS = len(ACTIONS)

DRAW_DECK, DRAW_DISCARD = 0, 1
MELD_IDS: dict[Meld, int] = {a.meld: i for i, a in enumerate(ACTIONS) if a.meld is not None}
LAY_FIRST = min(MELD_IDS.values())
HIT_FIRST = next(i for i, a in enumerate(ACTIONS) if a.kind == "hit")
DISCARD_FIRST = next(i for i, a in enumerate(ACTIONS) if a.kind == "discard")
DISCARD_WILD = DISCARD_FIRST + WILD
SKIP_FIRST = next(i for i, a in enumerate(ACTIONS) if a.kind == "skip")  # offset 1
SKIP_NO_EFFECT = next(i for i, a in enumerate(ACTIONS) if a.kind == "skip" and a.skip_offset is None)
CHOOSE_FIRST = next(i for i, a in enumerate(ACTIONS) if a.kind == "choose")  # + card kind (Wild: + 48)


def hit_id(seat_offset: int, group: int, hit_card: int) -> int:
    return HIT_FIRST + (seat_offset * GROUPS_PER_SEAT + group) * HIT_CARDS + hit_card


def skip_id(seat_offset: int) -> int:
    return SKIP_FIRST + seat_offset - 1


class IllegalActionError(ValueError):
    """An integer action that is not legal in the current state (out of range or masked)."""


def check_action_id(action: object) -> int:
    """``action`` as an ``int`` if it is an action id; else a ``ValueError`` (an
    :class:`IllegalActionError` for an integer out of range), the error ``env.step`` gives."""
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"action must be an integer in [0, {NUM_ACTIONS}), not {action!r}")
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(f"action {action} is out of range [0, {NUM_ACTIONS})")
    return int(action)


def describe(action: int) -> str:
    """A readable description of an action id (a ``ValueError`` for anything else)."""
    a = ACTIONS[check_action_id(action)]
    if a.kind == "draw":
        return "take the discard" if a.draw_from_discard else "draw from the deck"
    if a.kind == "lay":
        return f"lay {a.meld}"
    if a.kind == "hit":
        who = "own" if a.seat_offset == 0 else f"seat +{a.seat_offset}'s"
        card = {HIT_WILD_HIGH: "Wild (high end)", HIT_WILD_LOW: "Wild (low end)"}.get(a.hit_card, str(a.hit_card + 1))
        return f"hit {card} on {who} group {a.group}"
    if a.kind == "discard":
        return f"discard {card_name(a.card)}"
    if a.kind == "choose":
        return f"choose {card_name(a.card)}"
    return "discard Skip (no effect)" if a.skip_offset is None else f"discard Skip on seat +{a.skip_offset}"
