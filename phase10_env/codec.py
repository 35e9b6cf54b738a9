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
from .engine.cards import NUM_NATURALS, NUM_NUMBERS, NUMBER_OF, SKIP, WILD
from .engine.game import Game, Stage
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


def fill_mask(game: Game, pending: Meld | None, out: np.ndarray) -> None:
    """Set ``out`` (zeros, int8, ``NUM_ACTIONS``) to the current player's legal actions.
    ``pending`` is the first meld of a lay-down in progress."""
    stage = game.stage
    if stage == Stage.DRAW:
        out[DRAW_DECK] = bool(game.draw_pile)
        out[DRAW_DISCARD] = game.can_draw_discard()
        return
    if stage != Stage.PLAY:
        return
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
    out[DISCARD_FIRST:DISCARD_WILD + 1] = np.frombuffer(hand, np.uint8, WILD + 1) != 0
    if hand[SKIP]:
        targets = game.skip_targets()
        n = game.num_players
        for t in targets:
            out[skip_id((t - seat) % n)] = 1
        if not targets:
            out[SKIP_NO_EFFECT] = 1


def _fill_hits(game: Game, seat: int, hand: bytearray, out: np.ndarray) -> None:
    n = game.num_players
    wild = hand[WILD]
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
                    if any(hand[k] for k in range(number - 1, NUM_NATURALS, NUM_NUMBERS)):
                        out[base + number - 1] = 1
            if wild:
                if group.accepts(WILD):
                    out[base + HIT_WILD_HIGH] = 1
                if group.kind == GroupKind.RUN and group.accepts(WILD, True):
                    out[base + HIT_WILD_LOW] = 1


def legal_mask(game: Game, pending: Meld | None = None) -> np.ndarray:
    out = np.zeros(NUM_ACTIONS, dtype=np.int8)
    fill_mask(game, pending, out)
    return out


def decode(game: Game, action: int, pending: Meld | None) -> Move | Meld:
    """The engine move an action stands for, or the meld to hold as ``pending`` when it starts a
    two-group lay-down. Assumes ``action`` is unmasked."""
    a = ACTIONS[action]
    seat, n = game.current, game.num_players
    kind = a.kind
    if kind == "discard":
        return Discard(a.card)
    if kind == "draw":
        return Draw(a.draw_from_discard)
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
