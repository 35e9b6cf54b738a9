"""Between engine moves and action ids: legal-action masks, decoding an action into the move
or the step of a move in progress it names, and the agent side (the next action toward a move).

The codec restates no rule: masks come from the engine's queries (``laydown_options`` through
:func:`~phase10_env.engine.partial.first_melds`, the open choices of a move in progress,
``TableGroup.accepts``, ``skip_targets``), and the actions that build a lay-down or a hit map
onto the steps of :mod:`phase10_env.engine.partial`.
"""

from __future__ import annotations

import numpy as np

from .actions import (
    ACTIONS,
    CHOOSE_FIRST,
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
from .engine.cards import NUM_NUMBERS, NUMBER_OF, PRESENT, SKIP, WILD, counts_of
from .engine.game import DRAW, PLAY, Game
from .engine.moves import Discard, Draw, Hit, LayDown, Move, can_take_discard
from .engine.partial import (
    ChooseCard,
    HitNumber,
    LayMeld,
    PartialLayDown,
    PartialMove,
    Step,
    advance,
    first_melds,
    next_step,
    open_cards,
    second_melds,
)
from .engine.phases import GroupKind
from .engine.view import SeatView

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
    if stage == DRAW:
        return _DRAW_MASKS[1 if game.draw_pile else 0][1 if can_take_discard(game.discard_pile) else 0]
    if stage != PLAY:
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
                before_one = group.value * NUM_NUMBERS - 1  # the kind of that colour's 1, less one
                for number in group.accepted_numbers():
                    if hand[before_one + number]:
                        out[base + number - 1] = 1
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


def step_of(game: Game, action: int) -> Step | None:
    """The engine step an action id names (a lay-down's group, a hit's number, a card chosen),
    or None for an action that names a whole move."""
    a = ACTIONS[action]
    if a.kind == "lay":
        assert a.meld is not None  # every lay action names its meld
        return LayMeld(a.meld)
    if a.kind == "choose":
        return ChooseCard(a.card)
    if a.kind == "hit" and a.hit_card < HIT_WILD_HIGH:
        return HitNumber((game.current + a.seat_offset) % game.num_players, a.group, a.hit_card + 1)
    return None


def decode(game: Game, action: int, partial: PartialMove | None) -> Move | PartialMove:
    """The engine move an action completes, or the move in progress it leads to, from the move
    in progress ``partial``. Assumes ``action`` is unmasked (an illegal step raises
    :class:`~phase10_env.engine.IllegalMoveError`; an illegal move is not checked here)."""
    if action < 2:
        return _DRAWS[action]
    if DISCARD_FIRST <= action <= DISCARD_WILD:
        return _DISCARDS[action - DISCARD_FIRST]
    a = ACTIONS[action]
    if a.kind == "skip":
        return Discard(SKIP, None if a.skip_offset is None else (game.current + a.skip_offset) % game.num_players)
    step = step_of(game, action)
    if step is None:  # a Wild hit
        target = (game.current + a.seat_offset) % game.num_players
        return Hit(target, a.group, WILD, a.hit_card == HIT_WILD_LOW)
    return advance(game, partial, step)


def next_action(view: SeatView, move: Move, partial: PartialMove | None) -> int:
    """The next action id toward ``move`` (a legal engine move) from the move in progress
    ``partial``: what an agent that has chosen a whole move plays, one action at a time."""
    if partial is None:
        return encode(move, view.seat, view.num_players)
    step = next_step(counts_of(view.hand), view.me.requirements, view.rules.natural, partial, move)
    if type(step) is ChooseCard:
        return CHOOSE_FIRST + step.card
    if type(step) is LayMeld:
        return MELD_IDS[step.meld]
    raise AssertionError(f"a move in progress goes on by a card or a group, not {step}")


def encode(move: Move, seat: int, num_players: int) -> int:
    """The action id that plays ``move`` for ``seat``, or starts it (a lay-down: the id of its
    first meld; a hit: the id of its number, a card choice may follow)."""
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
