"""Legal-action masks: which action ids the player to act may take now, exactly the engine's
legal moves and steps of a move in progress (``tests/env/test_masks.py`` walks every action
sequence to check it both ways).

The masks restate no rule: they come from the engine's queries (lay-downs through
:func:`~phase10_env.engine.partial.first_melds`, the open choices of a move in progress,
``TableGroup.accepts`` and ``accepted_numbers``, ``skip_targets``, R5 through
``can_take_discard``).
"""

from __future__ import annotations

import numpy as np

from .actions import (
    CHOOSE_FIRST,
    DISCARD_FIRST,
    DISCARD_WILD,
    HIT_WILD_HIGH,
    HIT_WILD_LOW,
    MELD_IDS,
    NUM_ACTIONS,
    SKIP_NO_EFFECT,
    hit_id,
    skip_id,
)
from .engine.cards import NUM_NUMBERS, PRESENT, SKIP, WILD
from .engine.game import DRAW_STAGE, PLAY_STAGE, Game
from .engine.moves import can_take_discard
from .engine.partial import PartialLayDown, PartialMove, first_melds, open_cards, second_melds
from .engine.phases import GroupKind
from .engine.table import takes_wild

_INT8 = np.dtype(np.int8)  # a dtype object, positional: the cheapest way to name it per call


def _read_only(values: bytes | bytearray) -> np.ndarray:
    return np.frombuffer(bytes(values), _INT8)  # an array over ``bytes`` is read-only


#: Draw-stage masks, shared: ``_DRAW_MASKS[deck has cards][discard pile's top may be taken]``.
_DRAW_MASKS = tuple(tuple(_read_only(bytes([deck, discard]) + bytes(NUM_ACTIONS - 2)) for discard in (0, 1))
                    for deck in (0, 1))
NO_ACTIONS = _read_only(bytes(NUM_ACTIONS))


def legal_mask(game: Game, partial: PartialMove | None = None) -> np.ndarray:
    """The current player's legal actions, ``partial`` the move in progress, as an int8 array
    of 0 and 1, read-only because draw-stage masks are shared."""
    stage = game.stage
    if stage == DRAW_STAGE:
        return _DRAW_MASKS[1 if game.draw_pile else 0][1 if can_take_discard(game.discard_pile) else 0]
    if stage != PLAY_STAGE:
        return NO_ACTIONS
    out = bytearray(NUM_ACTIONS)
    if partial is None:
        _fill_play_mask(game, out)
        return _read_only(out)
    seat = game.current
    hand, reqs, rule = game.hands[seat], game.requirements(seat), game.rules.natural
    if type(partial) is PartialLayDown and partial.meld is None:
        for meld in second_melds(hand, reqs, rule, partial):
            out[MELD_IDS[meld]] = 1
    else:
        for k in open_cards(hand, reqs, rule, partial):
            out[CHOOSE_FIRST + k] = 1
    return _read_only(out)


def _fill_play_mask(game: Game, out: bytearray) -> None:
    """Set the play-stage actions of the current player, no move in progress, in ``out``."""
    seat = game.current
    hand = game.hands[seat]
    if not game.laid[seat]:
        for meld in first_melds(game):
            out[MELD_IDS[meld]] = 1
    else:
        _fill_hits(game, seat, hand, out)
    out[DISCARD_FIRST:DISCARD_WILD + 1] = hand[:WILD + 1].translate(PRESENT)
    if hand[SKIP]:
        targets = game.skip_targets()
        n = game.num_players
        for t in targets:
            out[skip_id((t - seat) % n)] = 1
        if not targets:
            out[SKIP_NO_EFFECT] = 1


def _fill_hits(game: Game, seat: int, hand: bytearray, out: bytearray) -> None:
    """Set the hits of ``seat`` (which has laid its phase) in ``out``: a hit action names a
    card's number, which a colour group takes in its own colour only."""
    n = game.num_players
    wild = hand[WILD]
    supply = game.number_counts[seat]
    for offset in range(n):
        for g, group in enumerate(game.table[(seat + offset) % n]):
            base = hit_id(offset, g, 0)
            if group.kind == GroupKind.COLOUR:
                before_one = group.colour * NUM_NUMBERS - 1  # the kind of that colour's 1, less one
                for number in group.accepted_numbers():
                    if hand[before_one + number]:
                        out[base + number - 1] = 1
            else:
                for number in group.accepted_numbers():
                    if supply[number]:
                        out[base + number - 1] = 1
            if wild:
                if takes_wild(group.kind, group.low, group.high, low_end=False):
                    out[base + HIT_WILD_HIGH] = 1
                if takes_wild(group.kind, group.low, group.high, low_end=True):
                    out[base + HIT_WILD_LOW] = 1
