"""Between action ids and engine moves, both ways: decoding an action into the move it plays or
the step of a move in progress it takes (the env's side), and encoding a move an agent has
chosen into its next action (the agent's side). The actions that build a lay-down or a hit map
onto the steps of :mod:`phase10_env.engine.partial`; the codec restates no rule. Which actions
are legal is :mod:`.masks`.
"""

from __future__ import annotations

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
    SKIP_NO_EFFECT,
    hit_id,
    skip_id,
)
from .engine.cards import NUMBER_OF, SKIP, WILD, counts_of
from .engine.game import Game
from .engine.moves import Discard, Draw, Hit, LayDown, Move
from .engine.partial import (
    ChooseCard,
    HitNumber,
    LayMeld,
    PartialMove,
    Step,
    advance,
    next_step,
)
from .engine.view import SeatView

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


def move_of(game: Game, action: int) -> Move | None:
    """The whole engine move an action id names (a draw, a discard, a Skip, a Wild's hit), or
    None for an action that is a step of a move in progress (:func:`step_of`)."""
    if action < 2:
        return _DRAWS[action]
    if DISCARD_FIRST <= action <= DISCARD_WILD:
        return _DISCARDS[action - DISCARD_FIRST]
    a = ACTIONS[action]
    if a.kind == "skip":
        return Discard(SKIP, None if a.skip_offset is None else (game.current + a.skip_offset) % game.num_players)
    if a.kind == "hit" and a.hit_card >= HIT_WILD_HIGH:
        target = (game.current + a.seat_offset) % game.num_players
        return Hit(target, a.group, WILD, a.hit_card == HIT_WILD_LOW)
    return None


def decode(game: Game, action: int, partial: PartialMove | None) -> Move | PartialMove:
    """The engine move an action completes, or the move in progress it leads to, from the move
    in progress ``partial``. Assumes ``action`` is unmasked (an illegal step raises
    :class:`~phase10_env.engine.IllegalMoveError`; an illegal move is not checked here)."""
    if action < 2:  # the draws and plain discards first: most actions are
        return _DRAWS[action]
    if DISCARD_FIRST <= action <= DISCARD_WILD:
        return _DISCARDS[action - DISCARD_FIRST]
    move = move_of(game, action)
    if move is not None:
        return move
    step = step_of(game, action)
    assert step is not None  # every action names a move or a step
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
