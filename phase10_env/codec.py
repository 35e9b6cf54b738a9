"""Between engine moves and action ids: legal-action masks, decoding an action into the move
the engine plays, and the moves a player builds over several actions (:class:`Pending`: a
lay-down group by group, the cards of a group or of a hit when there is a choice). The masks
are computed from the engine's own rule queries (``laydown_options``, the card choices of
:mod:`~phase10_env.engine.phases`, ``TableGroup.accepts``, ``skip_targets``), so the env never
restates a rule.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

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
from .engine.cards import NUM_NATURALS, NUM_NUMBERS, NUMBER_OF, PRESENT, SKIP, WILD
from .engine.game import DRAW, PLAY, Game
from .engine.melds import arrange, can_fill, first_group_choices, second_group_choices
from .engine.moves import Discard, Draw, Hit, LayDown, Move
from .engine.phases import MELDS, GroupKind, Meld, partner_requirement


@dataclass(frozen=True)
class Pending:
    """A move the player to act has started and finishes with its next actions.

    * a lay-down: ``laid`` holds its groups whose cards are settled (meld, sorted cards), and
      ``meld`` a group whose cards are being chosen (or None: the second group is next);
    * a hit: ``hit`` is ``(target seat, group, number)`` and its card is being chosen.

    While cards are chosen, ``options`` lists the choices still open (sorted tuples of kinds)
    and ``picked`` the cards all of them share, settled already."""

    laid: tuple[tuple[Meld, tuple[int, ...]], ...] = ()
    meld: Meld | None = None
    hit: tuple[int, int, int] | None = None
    options: tuple[tuple[int, ...], ...] = ()
    picked: tuple[int, ...] = ()

    @property
    def choosing_cards(self) -> bool:
        return bool(self.options)

    def settled_cards(self) -> list[int]:
        """Every card this move has taken from the hand so far."""
        return [k for _, cards in self.laid for k in cards] + list(self.picked)


_INT8 = np.dtype(np.int8)  # a dtype object, positional: the cheapest way to name it per call


def _read_only(values: bytes | bytearray) -> np.ndarray:
    return np.frombuffer(bytes(values), _INT8)  # an array over ``bytes`` is read-only


#: Draw-stage masks, shared: ``_DRAW_MASKS[deck has cards][discard pile's top may be taken]``.
_DRAW_MASKS = tuple(tuple(_read_only(bytes([deck, discard]) + bytes(NUM_ACTIONS - 2)) for discard in (0, 1))
                    for deck in (0, 1))
NO_ACTIONS = _read_only(bytes(NUM_ACTIONS))


def legal_mask(game: Game, pending: Pending | None = None) -> np.ndarray:
    """The current player's legal actions as an int8 array of 0 and 1, read-only because
    draw-stage masks are shared."""
    stage = game.stage
    if stage == DRAW:
        # Game.can_draw_discard, inlined: a quarter of this call's time at the draw stage (measured;
        # tests/env/test_codec_reference.py holds the copy to the reference).
        pile = game.discard_pile
        return _DRAW_MASKS[1 if game.draw_pile else 0][1 if pile and pile[-1] != SKIP else 0]
    if stage != PLAY:
        return NO_ACTIONS
    out = bytearray(NUM_ACTIONS)
    if pending is None:
        _fill_play_mask(game, out)
    elif pending.options:
        have = Counter(pending.picked)
        for option in pending.options:
            for k, count in Counter(option).items():
                if count > have[k]:
                    out[CHOOSE_FIRST + k] = 1
    else:
        for meld in second_group_templates(game, pending):
            out[MELD_IDS[meld]] = 1
    return _read_only(out)


def second_group_templates(game: Game, pending: Pending) -> list[Meld]:
    """The melds that may complete a lay-down whose first group is settled."""
    seat = game.current
    (first, cards), = pending.laid
    partner = partner_requirement(game.requirements(seat), first)
    left = bytearray(game.hands[seat])
    for k in cards:
        left[k] -= 1
    need = game.rules.natural_rule == "per_group" or cards[0] == WILD
    return [m for m in MELDS[partner.kind, partner.size].values() if can_fill(left, m, need)]


def _fill_play_mask(game: Game, out: bytearray) -> None:
    """Set the play-stage actions of the current player, no move in progress, in ``out``."""
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


def decode(game: Game, action: int, pending: Pending | None) -> Move | Pending:
    """The engine move an action completes, or the move in progress it leads to (a
    :class:`Pending`). Assumes ``action`` is unmasked."""
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
        hand, rule = game.hands[seat], game.rules.natural
        if pending is None:
            options = first_group_choices(hand, game.requirements(seat), a.meld, rule)
            return _settle(game, Pending(meld=a.meld, options=tuple(options)))
        options = second_group_choices(hand, pending.laid[0][1], a.meld, rule)
        return _settle(game, replace(pending, meld=a.meld, options=tuple(options)))
    if kind == "choose":
        picked = Counter(pending.picked)
        picked[a.card] += 1
        return _settle(game, replace(pending, options=tuple(o for o in pending.options if _holds(o, picked))))
    target = (seat + a.seat_offset) % n
    if a.hit_card >= HIT_WILD_HIGH:
        return Hit(target, a.group, WILD, a.hit_card == HIT_WILD_LOW)
    group = game.table[target][a.group]
    if group.kind == GroupKind.COLOUR:
        return Hit(target, a.group, group.value * NUM_NUMBERS + a.hit_card)
    hand = game.hands[seat]
    kinds = [k for k in range(a.hit_card, NUM_NATURALS, NUM_NUMBERS) if hand[k]]
    if len(kinds) == 1:
        return Hit(target, a.group, kinds[0])
    return Pending(hit=(target, a.group, a.hit_card + 1), options=tuple((k,) for k in kinds))


def _holds(option: tuple[int, ...], cards: Counter) -> bool:
    have = Counter(option)
    return all(have[k] >= c for k, c in cards.items())


def _settle(game: Game, pending: Pending) -> Move | Pending:
    """Make the move once one card choice is left; else settle what every choice shares."""
    if len(pending.options) > 1:
        shared = Counter(pending.options[0])
        for option in pending.options[1:]:
            shared &= Counter(option)
        return replace(pending, picked=tuple(sorted(shared.elements())))
    (cards,) = pending.options
    if pending.hit is not None:
        target, group, _ = pending.hit
        return Hit(target, group, cards[0])
    laid = pending.laid + ((pending.meld, cards),)
    if len(laid) < len(game.requirements(game.current)):
        return Pending(laid=laid)
    return LayDown(tuple(m for m, _ in laid), tuple(tuple(arrange(m, c)) for m, c in laid))


def next_action(move: Move, pending: Pending | None, seat: int, num_players: int) -> int:
    """The next action id toward ``move`` (a legal engine move) from ``pending``: what an agent
    that has chosen a whole move plays, one action at a time."""
    if pending is None:
        return encode(move, seat, num_players)
    if pending.hit is not None:
        return CHOOSE_FIRST + move.card
    rest = [(m, tuple(sorted(c))) for m, c in zip(move.melds, move.cards)]
    for group in pending.laid:
        rest.remove(group)
    if pending.meld is None:  # the second group of the lay-down is next
        return MELD_IDS[rest[0][0]]
    cards = next(c for m, c in rest if m == pending.meld)
    picked = Counter(pending.picked)

    def still_open(k: int) -> int:  # choices left after choosing k: the fewer, the sooner done
        return sum(_holds(o, picked + Counter((k,))) for o in pending.options)

    return CHOOSE_FIRST + min(sorted((Counter(cards) - picked).elements()), key=still_open)


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
