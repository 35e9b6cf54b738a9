"""Between engine moves and action ids: legal-action masks, and decoding an action into the
move the engine plays. The masks are computed from the engine's own rule queries
(``laydown_options``, ``TableGroup.accepts``, ``skip_targets``), so the env never restates a rule.
"""

from __future__ import annotations

import numpy as np

from .actions import (
    ACTIONS,
    DISCARD_FIRST,
    DISCARD_WILD,
    DRAW_DECK,
    DRAW_DISCARD,
    HIT_WILD_HIGH,
    HIT_WILD_LOW,
    MELD_IDS,
    NUM_ACTIONS,
    SKIP_NO_EFFECT,
    hit_id,
    skip_id,
)
from .engine.cards import NUM_NATURALS, NUM_NUMBERS, NUMBER_OF, PRESENT, SKIP, WILD
from .engine.game import DRAW, PLAY, Game
from .engine.moves import Discard, Draw, Hit, LayDown, Move
from .engine.phases import GroupKind, Meld


def _partner(melds: tuple[Meld, ...], pending: Meld) -> Meld | None:
    """The other meld of a two-group lay-down that contains ``pending``."""
    if len(melds) == 2:
        if melds[0] == pending:
            return melds[1]
        if melds[1] == pending:
            return melds[0]
    return None


_INT8 = np.dtype(np.int8)  # a dtype object, positional: the cheapest way to name it per call


def _read_only(values: bytes | bytearray) -> np.ndarray:
    return np.frombuffer(bytes(values), _INT8)  # an array over ``bytes`` is read-only


#: Draw-stage masks, shared: ``_DRAW_MASKS[deck has cards][discard pile's top may be taken]``.
_DRAW_MASKS = tuple(tuple(_read_only(bytes([deck, discard]) + bytes(NUM_ACTIONS - 2)) for discard in (0, 1))
                    for deck in (0, 1))
NO_ACTIONS = _read_only(bytes(NUM_ACTIONS))


def legal_mask(game: Game, pending: Meld | None = None) -> np.ndarray:
    """The current player's legal actions as an int8 array of 0 and 1, read-only because
    draw-stage masks are shared. ``pending`` is the first meld of a lay-down in progress."""
    stage = game.stage
    if stage == DRAW:
        pile = game.discard_pile
        return _DRAW_MASKS[1 if game.draw_pile else 0][1 if pile and pile[-1] != SKIP else 0]  # can_draw_discard()
    if stage != PLAY:
        return NO_ACTIONS
    out = bytearray(NUM_ACTIONS)
    _fill_play_mask(game, pending, out)
    return _read_only(out)


def _fill_play_mask(game: Game, pending: Meld | None, out: bytearray) -> None:
    """Set the play-stage actions of the current player in ``out`` (all zeros)."""
    if pending is not None:
        for melds in game.laydown_options():
            partner = _partner(melds, pending)
            if partner is not None:
                out[MELD_IDS[partner]] = 1
        return
    seat = game.current
    hand = game.hands[seat]
    if not game.laid[seat]:
        for melds in game.laydown_options():
            for meld in melds:
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
    n = game.num_players
    wild = hand[WILD]
    supply = game.number_counts[seat]
    for offset in range(n):
        for g, group in enumerate(game.table[(seat + offset) % n]):
            base = hit_id(offset, g, 0)
            if group.kind == GroupKind.COLOUR:
                first = group.value * NUM_NUMBERS
                for i in range(NUM_NUMBERS):
                    if hand[first + i]:
                        out[base + i] = 1
            else:
                for number in group.accepted_numbers():
                    if supply[number]:
                        out[base + number - 1] = 1
            if wild:
                if group.accepts(WILD):
                    out[base + HIT_WILD_HIGH] = 1
                if group.kind == GroupKind.RUN and group.accepts(WILD, True):
                    out[base + HIT_WILD_LOW] = 1


_DRAWS = (Draw(False), Draw(True))
_DISCARDS = tuple(Discard(k) for k in range(WILD + 1))


def decode(game: Game, action: int, pending: Meld | None) -> Move | Meld:
    """The engine move an action stands for, or the meld to hold as ``pending`` when it starts a
    two-group lay-down. Assumes ``action`` is unmasked."""
    if action < 2:
        return _DRAWS[action]
    if DISCARD_FIRST <= action <= DISCARD_WILD:
        return _DISCARDS[action - DISCARD_FIRST]
    a = ACTIONS[action]
    seat, n = game.current, game.num_players
    kind = a.kind
    if kind == "skip":
        return Discard(SKIP, None if a.skip_offset is None else (seat + a.skip_offset) % n)
    if kind == "lay":
        if pending is not None:
            return LayDown((pending, a.meld))
        if len(game.requirements(seat)) == 1:
            return LayDown((a.meld,))
        return a.meld
    target = (seat + a.seat_offset) % n
    if a.hit_card >= HIT_WILD_HIGH:
        return Hit(target, a.group, WILD, a.hit_card == HIT_WILD_LOW)
    group = game.table[target][a.group]
    if group.kind == GroupKind.COLOUR:
        return Hit(target, a.group, group.value * NUM_NUMBERS + a.hit_card)
    hand = game.hands[seat]
    card = next(k for k in range(a.hit_card, NUM_NATURALS, NUM_NUMBERS) if hand[k])
    return Hit(target, a.group, card)


def encode(move: Move, seat: int, num_players: int) -> int:
    """The action id that plays ``move`` for ``seat`` (for a lay-down: the id of its first
    meld; the other follows as a second action)."""
    if isinstance(move, Draw):
        return DRAW_DISCARD if move.from_discard else DRAW_DECK
    if isinstance(move, LayDown):
        return MELD_IDS[move.melds[0]]
    if isinstance(move, Hit):
        offset = (move.target - seat) % num_players
        if move.card == WILD:
            return hit_id(offset, move.group, HIT_WILD_LOW if move.low_end else HIT_WILD_HIGH)
        return hit_id(offset, move.group, NUMBER_OF[move.card] - 1)
    if isinstance(move, Discard):
        if move.card != SKIP:
            return DISCARD_WILD if move.card == WILD else DISCARD_FIRST + move.card
        return SKIP_NO_EFFECT if move.target is None else skip_id((move.target - seat) % num_players)
    raise TypeError(f"not a move: {move!r}")
