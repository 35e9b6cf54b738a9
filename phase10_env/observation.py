"""The observation vector: what one player may know, relative to its own seat.

``LAYOUT`` defines the vector once; ``OBS_SLICES[name]`` gives each part's slice and
``SEAT_FIELDS`` / ``GROUP_FIELDS`` the offsets inside a seat block. Seat blocks are ordered by
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
from .engine.cards import DECK_COUNTS, DECK_SIZE, NUM_KINDS, NUM_NUMBERS
from .engine.compiled import load
from .engine.game import DRAW, GAME_OVER, PLAY, Game
from .engine.moves import Draw, Event, HandEnded, Hit, LayDown, Move
from .engine.partial import PartialHit, PartialLayDown, PartialMove
from .engine.phases import GroupKind, Meld
from .engine.table import TableGroup
from .planning import PLANNING_HIGH, PLANNING_SIZE, planning_features


def _offsets(fields: tuple[tuple[str, int], ...]) -> dict[str, int]:
    out, start = {}, 0
    for name, size in fields:
        out[name] = start
        start += size
    return out


_SEAT_LAYOUT = (("present", 1), ("active", 1), ("phase", 10), ("phases_completed", 1), ("phases_left", 1),
                ("laid", 1), ("hand_size", 1), ("score", 1), ("skip_pending", 1), ("lost_turn", 1),
                ("skipped_this_hand", 1), ("dealer", 1), ("to_act", 1))
_GROUP_LAYOUT = (("present", 1), ("kind", 3), ("numbers", NUM_NUMBERS), ("colour", 4), ("size", 1),
                 ("wild_low", 1), ("wild_high", 1))
SEAT_FIELDS = _offsets(_SEAT_LAYOUT)
GROUP_FIELDS = _offsets(_GROUP_LAYOUT)
SEAT_VALUES = sum(size for _, size in _SEAT_LAYOUT)
GROUP_VALUES = sum(size for _, size in _GROUP_LAYOUT)
SEAT_BLOCK = SEAT_VALUES + GROUPS_PER_SEAT * GROUP_VALUES

LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", NUM_KINDS),
    ("discard_top", NUM_KINDS),
    ("discard_counts", NUM_KINDS),
    ("table_counts", NUM_KINDS),
    ("seats", MAX_SEATS * SEAT_BLOCK),
    ("pending_groups", GROUPS_PER_SEAT * GROUP_VALUES),
    ("pending_hit", MAX_SEATS + GROUPS_PER_SEAT + NUM_NUMBERS),
    ("pending_cards", NUM_KINDS),
    ("stage", 4),
    ("game", 3),
)
OBS_SLICES: dict[str, slice] = {name: slice(o, o + size) for (name, size), o in zip(LAYOUT, _offsets(LAYOUT).values())}
OBS_SIZE = sum(size for _, size in LAYOUT)


SCORE_CAP = 10_000


def _high() -> np.ndarray:
    high = np.ones(OBS_SIZE, dtype=np.float32)
    counts = np.array(DECK_COUNTS, dtype=np.float32)
    for name in ("hand", "discard_counts", "table_counts", "pending_cards"):
        high[OBS_SLICES[name]] = counts
    seats = high[OBS_SLICES["seats"]].reshape(MAX_SEATS, SEAT_BLOCK)
    # A game reaches 11 (10 dealt plus one drawn); positions built for tests (build_game) may
    # hold any number of cards, and every position that loads stays inside the bounds.
    seats[:, SEAT_FIELDS["hand_size"]] = DECK_SIZE
    seats[:, SEAT_FIELDS["score"]] = SCORE_CAP / 100
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

_TAIL_START = OBS_SLICES["pending_groups"].start
_TAIL = OBS_SIZE - _TAIL_START
# compose() relies on this order: the four card parts, the seat blocks, then the tail.
assert [name for name, _ in LAYOUT][:5] == ["hand", "discard_top", "discard_counts", "table_counts", "seats"]
assert OBS_SLICES["seats"].start == 4 * NUM_KINDS
# Offsets inside the tail (the move in progress, stage, game).
_T_HIT = OBS_SLICES["pending_hit"].start - _TAIL_START
_T_CARDS = OBS_SLICES["pending_cards"].start - _TAIL_START
_T_STAGE = OBS_SLICES["stage"].start - _TAIL_START
_T_GAME = OBS_SLICES["game"].start - _TAIL_START
_HAND_SIZE, _TO_ACT, _LOST_TURN = SEAT_FIELDS["hand_size"], SEAT_FIELDS["to_act"], SEAT_FIELDS["lost_turn"]
_SKIP_START = SEAT_FIELDS["skip_pending"]
# dtype objects, positional: the cheapest way to name them per call
_FLOAT32, _UINT8 = np.dtype(np.float32), np.dtype(np.uint8)


_NO_PENDING = array("f", bytes(4 * _T_STAGE))
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


def _group_values(kind: int, value: int, low: int, high: int, size: int) -> list[float]:
    row = [0.0] * GROUP_VALUES
    row[0] = 1.0
    row[1 + kind] = 1.0
    numbers = GROUP_FIELDS["numbers"]
    if kind == GroupKind.SET:
        row[numbers + value - 1] = 1.0
    elif kind == GroupKind.RUN:
        for n in range(low, high + 1):
            row[numbers + n - 1] = 1.0
    else:
        row[GROUP_FIELDS["colour"] + value] = 1.0
    row[GROUP_FIELDS["size"]] = size / NUM_NUMBERS
    row[GROUP_FIELDS["wild_low"]] = float(kind == GroupKind.RUN and low > 1)
    row[GROUP_FIELDS["wild_high"]] = float(kind != GroupKind.RUN or high < NUM_NUMBERS)
    return row


def table_group_values(group: TableGroup) -> list[float]:
    return _group_values(group.kind, group.value, group.low, group.high, len(group.cards))


def meld_values(meld: Meld) -> list[float]:
    kind, value, size = meld
    return _group_values(kind, value, value, value + size - 1, size)


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
        self._tail = array("f", bytes(4 * _TAIL))  # the move in progress, stage and game values
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

    def _put(self, s: int, start: int, values: float | list[float]) -> None:
        """Write seat ``s``'s values from offset ``start`` of its block, in both copies."""
        i = s * SEAT_BLOCK + start
        stop = i + (len(values) if isinstance(values, list) else 1)
        self._flat[i:stop] = values
        self._flat[i + self._used:stop + self._used] = values

    def refresh_seat(self, s: int) -> None:
        g = self.game
        row = [0.0] * SEAT_VALUES
        completed = g.phases_completed[s]
        row[0] = 1.0
        row[1] = float(g.active[s])
        row[2 + g.phase_of(s) - 1] = 1.0
        to_win = g.rules.phases_to_win
        row[12] = completed / to_win
        row[13] = (to_win - completed) / to_win
        row[14] = float(g.laid[s])
        row[15] = float(g.hand_sizes[s])
        row[16] = min(g.scores[s], SCORE_CAP) / 100
        row[17] = float(g.skip_pending[s])
        row[18] = float(g.lost_turn[s])
        row[19] = float(g.skipped_this_hand[s])
        row[20] = float(g.dealer == s)
        row[21] = float(g.current == s and g.stage != GAME_OVER)
        self._put(s, 0, row)

    def refresh_groups(self, s: int) -> None:
        values = [0.0] * (GROUPS_PER_SEAT * GROUP_VALUES)
        for i, group in enumerate(self.game.table[s]):
            values[i * GROUP_VALUES:(i + 1) * GROUP_VALUES] = table_group_values(group)
        self._put(s, SEAT_VALUES, values)

    def set_pending(self, pending: PartialMove | None) -> None:
        """The move in progress of the player to act (``None``: none)."""
        self._pending = pending
        self._choosing_cards = type(pending) is PartialHit or (type(pending) is PartialLayDown and pending.meld is not None)
        tail = self._tail
        tail[:_T_STAGE] = _NO_PENDING
        if pending is None:
            return
        if type(pending) is PartialHit:
            tail[_T_HIT + (pending.target - self.game.current) % self.game.num_players] = 1.0
            tail[_T_HIT + MAX_SEATS + pending.group] = 1.0
            tail[_T_HIT + MAX_SEATS + GROUPS_PER_SEAT + pending.number - 1] = 1.0
        else:
            groups = [meld for meld, _ in pending.groups] + ([pending.meld] if pending.meld is not None else [])
            for i, meld in enumerate(groups):
                tail[i * GROUP_VALUES:(i + 1) * GROUP_VALUES] = array("f", meld_values(meld))
        for k in pending.cards_taken():
            tail[_T_CARDS + k] += 1.0

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
        elif kind is Hit:
            self.refresh_groups(move.target)
        elif events or move.target is not None:  # a Skip was aimed or a turn lost
            used = self._used
            for s in range(g.num_players):
                i = s * SEAT_BLOCK + _SKIP_START
                flat[i] = flat[i + used] = g.skip_pending[s]
                flat[i + 1] = flat[i + 1 + used] = g.lost_turn[s]
                flat[i + 2] = flat[i + 2 + used] = g.skipped_this_hand[s]
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
        tail[_T_STAGE] = stage == DRAW
        tail[_T_STAGE + 1] = stage == PLAY and pending is None
        tail[_T_STAGE + 2] = pending is not None and not self._choosing_cards
        tail[_T_STAGE + 3] = self._choosing_cards
        tail[_T_GAME] = g.replay
        tail[_T_GAME + 1] = len(g.draw_pile) / DECK_SIZE
        tail[_T_GAME + 2] = len(pile) / DECK_SIZE
        out = np.empty(OBS_SIZE, _FLOAT32)
        compose(out, g.hands[seat], pile[-1] if pile else -1, g.discard_counts, g.table_counts, self._flat,
                seat * SEAT_BLOCK, self._used, self._tail_values)
        if self.planning:
            return np.concatenate([out, planning_features(g, seat)])
        return out
