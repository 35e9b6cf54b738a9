"""The observation vector: what one player may know, relative to its own seat.

The layouts define the vector once, as named fields (:class:`~phase10_env.layout.Layout`):
``OBSERVATION`` its parts (``OBS_SLICES[name]`` is each part's slice), ``SEAT`` and ``GROUP``
the values of a seat block, ``PENDING_HIT``, ``STAGE`` and ``GAME`` those of the tail; the
encoder writes through their named views and offsets only. Seat blocks are ordered by
offset from the observer: 0 is the observer, 1 the next player to act after it, and so on;
blocks of seats a smaller game lacks are zero. Card-kind blocks (50 values) follow the engine's
kind order: red 1-12, blue 1-12, green 1-12, yellow 1-12, Wild, Skip.

==============  =======  ===============================================================
part            size     meaning
==============  =======  ===============================================================
hand            50       own hand, cards per kind
discard_top     50       one-hot of the discard pile's top card (zeros if empty)
discard_counts  50       cards per kind in the discard pile (all were seen discarded)
table_counts    50       cards per kind laid on the table
seats           6 x 68   per seat offset: 22 seat values, then its 2 groups x 23 values
pending_groups  2 x 23   the groups of a lay-down in progress, in the order chosen (group values)
pending_hit     20       a hit waiting for its card: target seat offset from the player to act
                         (6), group (2), number (12)
pending_cards   50       cards the move in progress has settled (its groups' and chosen cards)
stage           4        one-hot for the player to act: to draw, to play, to choose a lay-down's
                         second group, to choose a card
game            3        tie replay, draw pile size / 108, discard pile size / 108
==============  =======  ===============================================================

Seat values: present, active (not left out of a tie replay), the phase being played (one-hot
of phase 1-10), phases completed and phases still to complete, each as a share of the phases
that win the game (``phases_to_win``, 10 in the standard game), phase down this hand,
hand size (cards), score / 100 (capped at 100), Skip pending, last turn lost to a Skip, skipped this hand, is
the dealer, is to act.

Group values: present, kind (one-hot set, run, colour), numbers covered (12: a set's number, a
run's span), colour (one-hot, colour groups), size / 12, takes a Wild at its low end, takes a
Wild at its high end.

Nothing here depends on hidden cards: other hands and the draw pile's order enter only as sizes.
"""

from __future__ import annotations

from array import array

import numpy as np

from .actions import GROUPS_PER_SEAT, MAX_SEATS
from .engine.cards import DECK_COUNTS, DECK_SIZE, NUM_COLOURS, NUM_KINDS, NUM_NUMBERS
from .engine.compiled import load
from .engine.game import DRAW_STAGE, GAME_OVER, PLAY_STAGE, Game
from .engine.moves import Discard, Draw, Event, HandEnded, Hit, LayDown, Move
from .engine.partial import PartialHit, PartialLayDown, PartialMove
from .engine.phases import PHASES, GroupKind, Meld
from .engine.table import TableGroup, takes_wild
from .layout import Layout
from .planning import PLANNING_HIGH, PLANNING_SIZE, planning_features

#: A seat's own values (the first part of its block).
SEAT = Layout(("present", 1), ("active", 1), ("phase", len(PHASES)), ("phases_completed", 1), ("phases_left", 1),
              ("laid", 1), ("hand_size", 1), ("score", 1), ("skip_pending", 1), ("lost_turn", 1),
              ("skipped_this_hand", 1), ("dealer", 1), ("to_act", 1))
#: A group's values: on the table, or of a lay-down in progress.
GROUP = Layout(("present", 1), ("kind", len(GroupKind)), ("numbers", NUM_NUMBERS), ("colour", NUM_COLOURS), ("size", 1),
               ("wild_low", 1), ("wild_high", 1))
#: A hit waiting for its card.
PENDING_HIT = Layout(("seat", MAX_SEATS), ("group", GROUPS_PER_SEAT), ("number", NUM_NUMBERS))
#: Who is to do what: one-hot.
STAGE = Layout(("draw", 1), ("play", 1), ("next_group", 1), ("choose_card", 1))
GAME = Layout(("tie_replay", 1), ("draw_pile", 1), ("discard_pile", 1))
SEAT_FIELDS = {name: part.start for name, part in SEAT.slices.items()}
GROUP_FIELDS = {name: part.start for name, part in GROUP.slices.items()}
SEAT_VALUES, GROUP_VALUES = SEAT.size, GROUP.size
SEAT_BLOCK = SEAT_VALUES + GROUPS_PER_SEAT * GROUP_VALUES

#: The observation's parts, in order: ``compose`` fills the four card parts, the seat blocks and
#: then the tail (the move in progress, stage and game values), which has a layout of its own.
_CARD_PARTS = (("hand", NUM_KINDS), ("discard_top", NUM_KINDS), ("discard_counts", NUM_KINDS), ("table_counts", NUM_KINDS))
_TAIL_PARTS = (("pending_groups", GROUPS_PER_SEAT * GROUP_VALUES), ("pending_hit", PENDING_HIT.size),
               ("pending_cards", NUM_KINDS), ("stage", STAGE.size), ("game", GAME.size))
OBSERVATION = Layout(*_CARD_PARTS, ("seats", MAX_SEATS * SEAT_BLOCK), *_TAIL_PARTS)
TAIL = Layout(*_TAIL_PARTS)
LAYOUT: tuple[tuple[str, int], ...] = OBSERVATION.fields
OBS_SLICES: dict[str, slice] = OBSERVATION.slices
OBS_SIZE = OBSERVATION.size


SCORE_CAP = 10_000


def _high() -> np.ndarray:
    high = np.ones(OBS_SIZE, dtype=np.float32)
    parts = OBSERVATION.views(high)
    for name in ("hand", "discard_counts", "table_counts", "pending_cards"):
        parts[name][:] = DECK_COUNTS
    seats = parts["seats"].reshape(MAX_SEATS, SEAT_BLOCK)
    # A game reaches 11 (10 dealt plus one drawn); positions built for tests (build_game) may
    # hold any number of cards, and every position that loads stays inside the bounds.
    seats[:, SEAT.offset("hand_size")] = DECK_SIZE
    seats[:, SEAT.offset("score")] = SCORE_CAP / 100
    return high


OBS_LOW = np.zeros(OBS_SIZE, dtype=np.float32)
OBS_HIGH = _high()
FEATURES = ("standard", "planning")


def observation_bounds(features: str) -> tuple[np.ndarray, np.ndarray]:
    """Low and high bounds of the observation vector for a ``features`` setting."""
    if features not in FEATURES:
        raise ValueError(f"features must be one of {list(FEATURES)}, not {features!r}")
    if features == "standard":
        return OBS_LOW, OBS_HIGH
    return np.zeros(OBS_SIZE + PLANNING_SIZE, dtype=np.float32), np.concatenate([OBS_HIGH, PLANNING_HIGH])

# The offsets the hot paths write at, by name: inside the tail (an ``array('f')``: item writes
# cost a third of a numpy view's) and inside a seat block.
_T_HIT, _T_CARDS, _T_STAGE, _T_GAME = (TAIL.offset(name) for name in ("pending_hit", "pending_cards", "stage", "game"))
_T_DRAW, _T_PLAY, _T_NEXT_GROUP, _T_CHOOSE_CARD = (_T_STAGE + STAGE.offset(name) for name in STAGE.names())
_T_TIE_REPLAY, _T_DRAW_PILE, _T_DISCARD_PILE = (_T_GAME + GAME.offset(name) for name in GAME.names())
_HAND_SIZE, _TO_ACT, _LOST_TURN = SEAT.offset("hand_size"), SEAT.offset("to_act"), SEAT.offset("lost_turn")
_SKIP_PENDING, _SKIPPED = SEAT.offset("skip_pending"), SEAT.offset("skipped_this_hand")
# dtype objects, positional: the cheapest way to name them per call
_FLOAT32, _UINT8 = np.dtype(np.float32), np.dtype(np.uint8)


_NO_PENDING = array("f", bytes(4 * _T_STAGE))  # the move in progress's parts of the tail, zero
#: One-hot bytes of each card kind; index -1 (an empty discard pile): all zeros.
_ONE_HOT = [bytes(k == i for i in range(NUM_KINDS)) for k in range(NUM_KINDS)] + [bytes(NUM_KINDS)]


def compose_python(out: np.ndarray, hand: bytearray, top: int, discards: bytearray, table: bytearray,
                   seats: np.ndarray, start: int, used: int, tail: np.ndarray) -> None:
    """Fill ``out`` with ``[hand | one-hot(top) | discards | table | seats[start:start+used] |
    zeros | tail]`` (``top`` -1: no card). The reference for the compiled ``_compose.compose``,
    and what runs when that extension is not built: few numpy calls, as each costs more than
    the copying it does."""
    cards = 4 * len(hand)
    end, tail_start = cards + used, len(out) - len(tail)
    out[:cards] = np.frombuffer(hand + _ONE_HOT[top] + discards + table, _UINT8)
    out[cards:end] = seats[start:start + used]
    out[end:tail_start] = 0.0
    out[tail_start:] = tail


_compiled = load("phase10_env._compose", "observation composer")
compose = compose_python if _compiled is None else _compiled.compose


def _group_features(kind: int, value: int, low: int, high: int, size: int) -> np.ndarray:
    """A group's values (:data:`GROUP`): ``value`` its set's number or colour group's colour,
    ``low``-``high`` a run's span."""
    row = np.zeros(GROUP.size, np.float32)
    v = GROUP.views(row)
    v["present"][0] = 1.0
    v["kind"][kind] = 1.0
    if kind == GroupKind.SET:
        v["numbers"][value - 1] = 1.0
    elif kind == GroupKind.RUN:
        v["numbers"][low - 1:high] = 1.0
    else:
        v["colour"][value] = 1.0
    v["size"][0] = size / NUM_NUMBERS
    v["wild_low"][0] = takes_wild(kind, low, high, low_end=True)
    v["wild_high"][0] = takes_wild(kind, low, high, low_end=False)
    return row


def group_features(group: TableGroup) -> np.ndarray:
    """The values of a group on the table."""
    return _group_features(group.kind, group.value, group.low, group.high, len(group.cards))


def meld_features(meld: Meld) -> np.ndarray:
    """The values of a group of a lay-down in progress."""
    kind, value, size = meld
    return _group_features(kind, value, value, value + size - 1, size)


class ObservationEncoder:
    """Builds observations for one game.

    The seat blocks are kept up to date between moves (the env calls :meth:`after_move` and
    :meth:`set_pending`), so an observation is one :func:`compose` call. They are stored twice
    over (seat ``s`` at block ``s`` and ``s + n``), so any observer's seat order is one
    contiguous slice. :meth:`refresh_all` rebuilds them from the game. Single values are
    written through an ``array('f')`` sharing the numpy buffer (a third of the cost of a numpy
    item write); slices through the numpy view. The tail (pending meld, stage, game values) is
    an ``array('f')`` of its own, written before each observation.
    """

    def __init__(self, game: Game, planning: bool = False) -> None:
        self.game = game
        self.planning = planning
        n = game.num_players
        self._used = n * SEAT_BLOCK
        self._items = array("f", bytes(8 * self._used))  # 4 bytes per float, two copies
        self._flat = np.frombuffer(self._items, dtype=np.float32)
        self._tail = array("f", bytes(4 * TAIL.size))  # the move in progress, stage and game values
        self._tail_values = np.frombuffer(self._tail, dtype=np.float32)
        self._pending: PartialMove | None = None
        self._choosing_cards = False
        self._to_act = -1
        self.refresh_all()

    def refresh_all(self) -> None:
        for s in range(self.game.num_players):
            self.refresh_seat(s)
            self.refresh_groups(s)
        self._to_act = self.game.current
        self.set_pending(None)

    def _put(self, s: int, start: int, values: np.ndarray) -> None:
        """Write seat ``s``'s values from offset ``start`` of its block, in both copies."""
        i = s * SEAT_BLOCK + start
        stop = i + len(values)
        self._flat[i:stop] = values
        self._flat[i + self._used:stop + self._used] = values

    def refresh_seat(self, s: int) -> None:
        g = self.game
        row = np.zeros(SEAT.size, np.float32)
        v = SEAT.views(row)
        completed, to_win = g.phases_completed[s], g.rules.phases_to_win
        v["present"][0] = 1.0
        v["active"][0] = g.active[s]
        v["phase"][g.phase_of(s) - 1] = 1.0
        v["phases_completed"][0] = completed / to_win
        v["phases_left"][0] = (to_win - completed) / to_win
        v["laid"][0] = g.laid[s]
        v["hand_size"][0] = g.hand_sizes[s]
        v["score"][0] = min(g.scores[s], SCORE_CAP) / 100
        v["skip_pending"][0] = g.skip_pending[s]
        v["lost_turn"][0] = g.lost_turn[s]
        v["skipped_this_hand"][0] = g.skipped_this_hand[s]
        v["dealer"][0] = g.dealer == s
        v["to_act"][0] = g.current == s and g.stage != GAME_OVER
        self._put(s, 0, row)

    def refresh_groups(self, s: int) -> None:
        groups = np.zeros((GROUPS_PER_SEAT, GROUP.size), np.float32)
        for i, group in enumerate(self.game.table[s]):
            groups[i] = group_features(group)
        self._put(s, SEAT_VALUES, groups.reshape(-1))

    def set_pending(self, pending: PartialMove | None) -> None:
        """The move in progress of the player to act (``None``: none)."""
        self._pending = pending
        self._choosing_cards = type(pending) is PartialHit or (type(pending) is PartialLayDown and pending.meld is not None)
        tail = self._tail
        tail[:_T_STAGE] = _NO_PENDING
        if pending is None:
            return
        views = TAIL.views(self._tail_values)
        if type(pending) is PartialHit:
            hit = PENDING_HIT.views(views["pending_hit"])
            hit["seat"][(pending.target - self.game.current) % self.game.num_players] = 1.0
            hit["group"][pending.group] = 1.0
            hit["number"][pending.number - 1] = 1.0
        else:
            melds = [meld for meld, _ in pending.groups] + ([pending.meld] if pending.meld is not None else [])
            groups = views["pending_groups"].reshape(GROUPS_PER_SEAT, GROUP.size)
            for i, meld in enumerate(melds):
                groups[i] = meld_features(meld)
        for k in pending.cards_taken():
            views["pending_cards"][k] += 1.0

    def after_move(self, mover: int, move: Move, events: tuple[Event, ...]) -> None:
        """Bring the seat blocks up to date after the engine played ``move`` for ``mover``."""
        if events and any(type(e) is HandEnded for e in events):
            self.refresh_all()
            return
        g, flat = self.game, self._items
        i = mover * SEAT_BLOCK + _HAND_SIZE
        flat[i] = flat[i + self._used] = g.hand_sizes[mover]
        kind = type(move)
        if kind is Draw:
            return
        if kind is LayDown:
            self.refresh_seat(mover)
            self.refresh_groups(mover)
        elif type(move) is Hit:
            self.refresh_groups(move.target)
        elif events or (type(move) is Discard and move.target is not None):  # a Skip was aimed or a turn lost
            used = self._used
            for s in range(g.num_players):
                i = s * SEAT_BLOCK
                flat[i + _SKIP_PENDING] = flat[i + _SKIP_PENDING + used] = g.skip_pending[s]
                flat[i + _LOST_TURN] = flat[i + _LOST_TURN + used] = g.lost_turn[s]
                flat[i + _SKIPPED] = flat[i + _SKIPPED + used] = g.skipped_this_hand[s]
        current = g.current
        if current != self._to_act:
            used, last = self._used, self._to_act * SEAT_BLOCK
            now = current * SEAT_BLOCK
            flat[last + _TO_ACT] = flat[last + _TO_ACT + used] = 0.0
            flat[now + _TO_ACT] = flat[now + _TO_ACT + used] = 1.0
            flat[now + _LOST_TURN] = flat[now + _LOST_TURN + used] = g.lost_turn[current]
            self._to_act = current

    def observe(self, seat: int) -> np.ndarray:
        g = self.game
        pile = g.discard_pile
        tail, stage, pending = self._tail, g.stage, self._pending
        tail[_T_DRAW] = stage == DRAW_STAGE
        tail[_T_PLAY] = stage == PLAY_STAGE and pending is None
        tail[_T_NEXT_GROUP] = pending is not None and not self._choosing_cards
        tail[_T_CHOOSE_CARD] = self._choosing_cards
        tail[_T_TIE_REPLAY] = g.replay
        tail[_T_DRAW_PILE] = len(g.draw_pile) / DECK_SIZE
        tail[_T_DISCARD_PILE] = len(pile) / DECK_SIZE
        out = np.empty(OBS_SIZE, _FLOAT32)
        compose(out, g.hands[seat], pile[-1] if pile else -1, g.discard_counts, g.table_counts, self._flat,
                seat * SEAT_BLOCK, self._used, self._tail_values)
        if self.planning:
            return np.concatenate([out, planning_features(g, seat)])
        return out
