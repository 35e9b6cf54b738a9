"""Optional planning features (``features="planning"``): how close the observer's own hand is
to its phase, computed by the rules engine's :func:`~phase10_env.engine.progress.phase_progress`,
and two pieces of public memory. They add nothing a player could not work out from its own
hand and what it saw; they spare a network from learning that arithmetic and that memory. The
progress parts are zero once the phase is down.

=====================  ====  ===========================================================
part                   size  meaning
=====================  ====  ===========================================================
progress               2     cards still missing / 10, ways to finish / 12
progress_with_discard  2     the same if the discard pile's top card were taken
missing_without        50    per card kind held: (cards missing after discarding one + 1)
                             / 11; 0 for kinds not held
ways_without           50    per card kind held: ways to finish after discarding one / 12
discard_below_top      50    one-hot of the discard pile's second card from the top
next_player_took       50    cards per kind the next player took from the discard pile
                             and has not played since
=====================  ====  ===========================================================

They cost about a dozen phase checks per observation (roughly 0.3 ms), so they are off by
default.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .engine.cards import COLOUR_OF, DECK_COUNTS, NUM_KINDS, NUMBER_OF, WILD, counts_of
from .engine.game import Game
from .engine.moves import can_take_discard
from .engine.phases import PHASES, GroupKind, NaturalRule
from .engine.progress import phase_progress
from .engine.view import SeatView
from .layout import Layout

PLANNING = Layout(
    ("progress", 2),
    ("progress_with_discard", 2),
    ("missing_without", NUM_KINDS),
    ("ways_without", NUM_KINDS),
    ("discard_below_top", NUM_KINDS),
    ("next_player_took", NUM_KINDS),
)
PLANNING_LAYOUT: tuple[tuple[str, int], ...] = PLANNING.fields
PLANNING_SIZE = PLANNING.size


def _high() -> np.ndarray:
    high = np.ones(PLANNING_SIZE, dtype=np.float32)
    parts = PLANNING.views(high)
    for name in ("progress", "progress_with_discard", "ways_without"):
        parts[name][:] = 1.5  # ways to finish may exceed 12
    parts["next_player_took"][:] = DECK_COUNTS
    return high


PLANNING_HIGH = _high()


def planning_features(game: Game, seat: int) -> np.ndarray:
    """The planning features of ``seat`` in ``game`` (what the observation encoder appends)."""
    return _features(game.hands[seat], game.phase_of(seat), game.rules.natural, game.discard_pile,
                     game.taken_from_discard[game.next_seat(seat)], game.laid[seat] or not game.active[seat])


def planning_features_of_view(view: SeatView) -> np.ndarray:
    """The same features from a seat's readable view: they need nothing else."""
    me = view.me
    nxt = view.players[view.next_seat()]
    return _features(counts_of(view.hand), me.phase, view.rules.natural, view.discard_pile,
                     counts_of(nxt.taken_from_discard), me.laid or not me.active)


def _features(hand_counts: Sequence[int], phase: int, rule: NaturalRule, pile: Sequence[int],
              next_took: Sequence[int], down: bool) -> np.ndarray:
    out = np.zeros(PLANNING_SIZE, dtype=np.float32)
    v = PLANNING.views(out)
    if len(pile) >= 2:
        v["discard_below_top"][pile[-2]] = 1.0
    v["next_player_took"][:] = np.frombuffer(bytes(next_took), dtype=np.uint8)
    if down:
        return out
    hand = bytearray(hand_counts)
    reqs = PHASES[phase]
    missing, ways = phase_progress(hand, reqs, rule)
    v["progress"][:] = (missing / 10, ways / 12)
    if can_take_discard(pile):
        hand[pile[-1]] += 1
        m, w = phase_progress(hand, reqs, rule)
        hand[pile[-1]] -= 1
        v["progress_with_discard"][:] = (m / 10, w / 12)
    by_colour = reqs[0].kind == GroupKind.COLOUR
    seen: dict[int, tuple[int, int]] = {}
    for kind in range(NUM_KINDS):
        if not hand[kind]:
            continue
        # Sets and runs care only about a card's number, colour groups only about its colour.
        key = kind if kind >= WILD else (COLOUR_OF[kind] if by_colour else NUMBER_OF[kind])
        if key not in seen:
            hand[kind] -= 1
            seen[key] = phase_progress(hand, reqs, rule)
            hand[kind] += 1
        m, w = seen[key]
        v["missing_without"][kind] = (m + 1) / 11
        v["ways_without"][kind] = w / 12
    return out
