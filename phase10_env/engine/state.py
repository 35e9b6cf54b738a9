"""The game state as data (:class:`GameState`), its JSON form, and the strict loader.

:class:`GameState` holds a position and nothing of how to play on from it; ``Game`` (in
:mod:`.game`) adds the rules of play on top. This module is below ``Game``: it imports nothing
from the modules that play, record or show a game.

The schema is ``state_schema.json`` beside this module. In short::

    {"format": "phase10-state", "version": 2,
     "rules": {...RulesConfig options...}, "num_players": 2, "seed": 7,
     "rng": {...numpy PCG64 bit-generator state...},
     "hand_number": 1, "dealer": 1, "current": 0, "stage": "draw" | "play" | "game_over",
     "replay": false, "winners": [],
     "draw_pile": ["R7", ...], "discard_pile": ["W", ...],          # bottom first, top last
     "players": [{"hand": [...], "taken_from_discard": [...], "phases_completed": 0, "laid": false,
                  "score": 0, "active": true, "skip_pending": false, "lost_turn": false,
                  "skipped_this_hand": false,
                  "table": [{"kind": "set" | "run" | "colour", "value": 7, "cards": ["R7", "W", "B7"]}]}],
     "history": [{"hand_number": 1, "went_out": 0, "points": [...], "made_phase": [...],
                  "scores": [...], "phases_completed": [...]}]}

A run's ``value`` is its lowest number and its cards are listed from low to high, so each Wild's
number is its position; a set's ``value`` is its number, a colour group's its colour (0-3 for
red, blue, green, yellow). Cards are named as :mod:`.cards` says (``^([RBGY]([1-9]|1[0-2])|W|S)$``).

Version 1 differs only in the name of each player's phases completed (``"phase_index"``); the
loader reads it, and :meth:`GameState.to_json` writes version 2.

:func:`load_state` accepts the states a game can reach and rejects anything else with a
``ValueError`` naming the field and the bad value: "malformed state: ..." for a wrong key, type
or range (the ``rng`` dict included, before numpy sees it), "inconsistent state: ..." for values
that cannot go together: a card missing or in two places, a group that breaks R10-R12, an
impossible phase number, a hand size no deal and turn lead to, a turn begun at an empty draw pile
with discards to reshuffle (R7), Skips no discard explains (R15), hand results (``history``) that
do not add up to the scores and phases, winners R19/R20 do not name. A position made with
``build_game`` carries ``"built": true``: its hands may hold any number of cards (at least one)
and its discard pile may be empty at the draw stage; everything else is checked as usual.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, TypeVar

import numpy as np

from .cards import (
    DECK_COUNTS,
    DECK_SIZE,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_NUMBERS,
    card_name,
    hand_points,
    kinds_of,
    parse_card,
)
from .config import RulesConfig
from .moves import HandResult, can_take_discard
from .phases import KIND_NAMES, PHASES, GroupKind, Requirement, missing_naturals
from .seats import Stage, check_num_players, next_active
from .table import TableGroup

HAND_SIZE = 10
DRAW, PLAY, GAME_OVER = Stage.DRAW, Stage.PLAY, Stage.GAME_OVER
STAGE_NAMES = ("draw", "play", "game_over")

_T = TypeVar("_T")
_S = TypeVar("_S", bound="GameState")
FORMAT, VERSION = "phase10-state", 2
#: The key of a player's phases completed in each format version (renamed in version 2).
_PHASES_KEY = {1: "phase_index", 2: "phases_completed"}
_TOP_KEYS = {"format", "version", "rules", "num_players", "seed", "rng", "hand_number", "dealer", "current",
             "stage", "replay", "winners", "draw_pile", "discard_pile", "players", "history"}
_PLAYER_KEYS = {"hand", "taken_from_discard", "laid", "score", "active", "skip_pending", "lost_turn",
                "skipped_this_hand", "table"}
_GROUP_KEYS = {"kind", "value", "cards"}
_HISTORY_KEYS = {"hand_number", "went_out", "points", "made_phase", "scores", "phases_completed"}
_RNG_KEYS = {"bit_generator", "state", "has_uint32", "uinteger"}
_PCG64_KEYS = {"state", "inc"}
_UINT128_MAX, _UINT32_MAX = 2**128 - 1, 2**32 - 1


def _generator(state: Mapping[str, Any]) -> np.random.Generator:
    """A PCG64 generator in ``state`` (a ``bit_generator.state`` dict)."""
    bit_generator = np.random.PCG64(0)
    # numpy's stub types the setter as its own TypedDict; what it gets here is a state numpy
    # wrote, or one _load_rng has checked key by key.
    bit_generator.state = state  # type: ignore[assignment]
    return np.random.Generator(bit_generator)


class GameState:
    """A position of a Phase 10 game between ``num_players`` seats, as data: ``Game`` plays on
    from one (``Game.from_state``). Read the attributes, never modify them:

    * ``hands[s]``: per-kind counts of seat ``s``'s hand; ``hand_sizes[s]`` their sum;
      ``number_counts[s][n]``: its natural cards of number ``n`` (1-12; index 0 unused);
    * ``draw_pile``, ``discard_pile``: card kinds, the top last; ``discard_counts``,
      ``table_counts``: per-kind counts of the discard pile and of all cards on the table;
    * ``table[s]``: the groups seat ``s`` laid this hand (``TableGroup``);
    * ``phases_completed[s]``: how many phases of ``rules.phases`` seat ``s`` has completed (so
      the index of the phase it plays); ``laid[s]``: phase down this hand; ``scores[s]``;
    * ``skip_pending[s]``, ``lost_turn[s]`` (last turn lost to a Skip, not played since),
      ``skipped_this_hand[s]``; ``taken_from_discard[s]``: per-kind counts of cards others saw
      ``s`` take from the discard pile and not yet play;
    * ``active[s]``: takes part in hands (False only for seats out of a tie replay);
    * ``current``, ``stage``, ``dealer``, ``hand_number``, ``replay``, ``winners``, ``history``;
    * ``seed`` and ``rng``: the game's own generator, which every deal and reshuffle draws from;
    * ``built``: a position set up by ``build_game`` for tests and puzzles, whose hands may hold
      any number of cards (see :mod:`~phase10_env.engine.scenario`). Saved with the state.
    """

    def __init__(self, rules: RulesConfig, num_players: int) -> None:
        """An empty table (no cards anywhere) for ``num_players`` seats, to fill in."""
        n = self.num_players = num_players
        self.rules = rules
        self.seed = 0
        self.hands = [bytearray(NUM_KINDS) for _ in range(n)]
        self.hand_sizes = [0] * n
        self.number_counts = [[0] * (NUM_NUMBERS + 1) for _ in range(n)]
        self.taken_from_discard = [bytearray(NUM_KINDS) for _ in range(n)]
        self.draw_pile: list[int] = []
        self.discard_pile: list[int] = []
        self.discard_counts = bytearray(NUM_KINDS)
        self.table_counts = bytearray(NUM_KINDS)
        self.table: list[list[TableGroup]] = [[] for _ in range(n)]
        self.phases_completed = [0] * n
        self.laid = [False] * n
        self.scores = [0] * n
        self.skip_pending = [False] * n
        self.lost_turn = [False] * n
        self.skipped_this_hand = [False] * n
        self.active = [True] * n
        self.dealer = 0
        self.current = 0
        self.stage: Stage = DRAW
        self.hand_number = 0
        self.replay = False
        self.winners: tuple[int, ...] = ()
        self.history: list[HandResult] = []
        self.built = False
        self._rng: np.random.Generator | None = None
        self._rng_state: Mapping[str, Any] = {}

    @property
    def rng(self) -> np.random.Generator:
        """The game's own generator: every deal and reshuffle draws from it."""
        if self._rng is None:
            self._rng = _generator(self._rng_state)
        return self._rng

    @rng.setter
    def rng(self, rng: np.random.Generator) -> None:
        self._rng = rng

    @property
    def is_over(self) -> bool:
        return self.stage == GAME_OVER

    def phase_of(self, seat: int) -> int:
        """The phase number (1-10) seat ``seat`` is playing this hand."""
        rules = self.rules
        return rules.phases[min(self.phases_completed[seat], rules.phases_to_win - 1)]

    def table_phase(self, seat: int) -> int:
        """The phase number seat ``seat``'s groups on the table make. After the game's last hand
        (outside a tie replay) those who laid have already advanced past it."""
        if self.stage == GAME_OVER and not self.replay and self.laid[seat]:
            return self.rules.phases[self.phases_completed[seat] - 1]
        return self.phase_of(seat)

    def requirements(self, seat: int) -> tuple[Requirement, ...]:
        return PHASES[self.phase_of(seat)]

    def next_seat(self, seat: int) -> int:
        """The next active seat after ``seat`` in play order."""
        return next_active(self.active, seat)

    def discard_top(self) -> int | None:
        return self.discard_pile[-1] if self.discard_pile else None

    def can_draw_discard(self) -> bool:
        """Whether the player to act may draw the discard pile's top card now (R5)."""
        return self.stage == DRAW and can_take_discard(self.discard_pile)

    def _add_to_hand(self, seat: int, card: int) -> None:
        self.hands[seat][card] += 1
        self.hand_sizes[seat] += 1
        if card < NUM_NATURALS:
            self.number_counts[seat][card % NUM_NUMBERS + 1] += 1

    def copy(self: _S) -> _S:
        """An independent copy (its own random generator in the same state), sharing no mutable
        state with this one. About the cost of a few environment steps."""
        new = type(self).__new__(type(self))
        self._copy_to(new)
        return new

    def _copy_to(self, new: GameState) -> None:
        """Make ``new`` (a bare instance) a copy of this state; attributes of subclasses come
        along as they are, for the subclass to copy or reset."""
        new.__dict__.update(self.__dict__)  # immutable values (rules, seed, numbers, tuples) shared
        new.hands = [bytearray(h) for h in self.hands]
        new.hand_sizes = self.hand_sizes[:]
        new.number_counts = [c[:] for c in self.number_counts]
        new.taken_from_discard = [bytearray(t) for t in self.taken_from_discard]
        new.draw_pile = self.draw_pile[:]
        new.discard_pile = self.discard_pile[:]
        new.discard_counts = bytearray(self.discard_counts)
        new.table_counts = bytearray(self.table_counts)
        new.table = [[g.copy() for g in groups] for groups in self.table]
        new.phases_completed = self.phases_completed[:]
        new.laid = self.laid[:]
        new.scores = self.scores[:]
        new.skip_pending = self.skip_pending[:]
        new.lost_turn = self.lost_turn[:]
        new.skipped_this_hand = self.skipped_this_hand[:]
        new.active = self.active[:]
        new.history = self.history[:]
        # Building a generator costs half a copy, and most copies never shuffle: keep its state
        # and build the generator on first use.
        new._rng = None
        new._rng_state = self._rng_state if self._rng is None else self._rng.bit_generator.state

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (schema: ``state_schema.json``)."""
        state: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "num_players": self.num_players,
            "seed": self.seed,
            "rng": self.rng.bit_generator.state,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "current": self.current,
            "stage": STAGE_NAMES[self.stage],
            "replay": self.replay,
            "winners": list(self.winners),
            "draw_pile": _names(self.draw_pile),
            "discard_pile": _names(self.discard_pile),
            "players": [
                {
                    "hand": _names(kinds_of(self.hands[s])),
                    "taken_from_discard": _names(kinds_of(self.taken_from_discard[s])),
                    "phases_completed": self.phases_completed[s],
                    "laid": self.laid[s],
                    "score": self.scores[s],
                    "active": self.active[s],
                    "skip_pending": self.skip_pending[s],
                    "lost_turn": self.lost_turn[s],
                    "skipped_this_hand": self.skipped_this_hand[s],
                    "table": [{"kind": KIND_NAMES[g.kind], "value": g.value, "cards": _names(g.cards)}
                              for g in self.table[s]],
                }
                for s in range(self.num_players)
            ],
            "history": [r.to_json() for r in self.history],
        }
        if self.built:
            state["built"] = True
        return state


def _names(kinds: Sequence[int]) -> list[str]:
    return [card_name(k) for k in kinds]


class _Reader:
    """Typed access to a JSON mapping; every error names the offending path."""

    def __init__(self, data: object, path: str, keys: set[str], optional: frozenset[str] = frozenset()) -> None:
        if not isinstance(data, Mapping):
            raise ValueError(f"malformed state: {path or 'state'} must be an object, not {type(data).__name__}")
        missing, unknown = sorted(keys - set(data)), sorted(set(data) - keys - optional, key=str)
        if missing:
            raise ValueError(f"malformed state: {path or 'state'} lacks {missing}")
        if unknown:
            raise ValueError(f"malformed state: {path or 'state'} has unknown key(s) {unknown}")
        self.data: Mapping[str, Any] = data
        self.path = path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def integer(self, key: str, lo: int = 0, hi: int | None = None) -> int:
        return _int(self.data[key], self.where(key), lo, hi)

    def boolean(self, key: str) -> bool:
        return _bool(self.data[key], self.where(key))

    def score(self, key: str) -> int:
        return _score(self.data[key], self.where(key))

    def cards(self, key: str) -> list[int]:
        """A list of card names as kinds. No kind may occur more often than the deck has it, so
        the per-kind counters (bytes) the game keeps cannot overflow."""
        v, where = self.data[key], self.where(key)
        if not isinstance(v, list):
            raise ValueError(f"malformed state: {where} must be a list of card names, not {type(v).__name__}")
        if len(v) > DECK_SIZE:
            raise ValueError(f"inconsistent state: {where} lists {len(v)} cards; the deck has {DECK_SIZE}")
        kinds = []
        for i, name in enumerate(v):
            try:
                kinds.append(parse_card(name))
            except ValueError:
                raise ValueError(f"malformed state: {where}[{i}] must be a card name such as 'R7', 'Y12', 'W' or 'S', "
                                 f"not {name!r}") from None
        counts = Counter(kinds)
        for k in sorted(counts):
            if counts[k] > DECK_COUNTS[k]:
                raise ValueError(f"inconsistent state: {where} holds {counts[k]} copies of {card_name(k)}; "
                                 f"the deck has {DECK_COUNTS[k]}")
        return kinds

    def items(self, key: str) -> list[object]:
        """The JSON list under ``key``."""
        v = self.data[key]
        if not isinstance(v, list):
            raise ValueError(f"malformed state: {self.where(key)} must be a list, not {type(v).__name__}")
        return v

    def per_seat(self, key: str, n: int, check: Callable[[object, str], _T]) -> tuple[_T, ...]:
        """A list of one value per player, each passed through ``check(value, path)``."""
        v, where = self.items(key), self.where(key)
        if len(v) != n:
            raise ValueError(f"malformed state: {where} must list one value per player ({n}), not {len(v)}")
        return tuple(check(x, f"{where}[{i}]") for i, x in enumerate(v))


def _int(v: object, where: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        bound = f"from {lo} to {hi}" if hi is not None else f">= {lo}"
        raise ValueError(f"malformed state: {where} must be an integer {bound}, not {v!r}")
    return v


def _bool(v: object, where: str) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"malformed state: {where} must be true or false, not {v!r}")
    return v


def _score(v: object, where: str) -> int:
    v = _int(v, where)
    if v % 5:
        raise ValueError(f"inconsistent state: {where} is {v}, but every card scores 5, 10, 15 or 25 (R17), "
                         f"so points are multiples of 5")
    return v


def load_state(data: Mapping[str, Any]) -> GameState:
    """The state ``data`` (``GameState.to_json`` data, version 1 or 2) describes, checked as the
    module docstring says; raises ``ValueError`` if it is malformed or inconsistent."""
    top = _Reader(data, "", _TOP_KEYS, optional=frozenset({"built"}))
    version = data["version"]
    if data["format"] != FORMAT or type(version) is not int or version not in _PHASES_KEY:
        raise ValueError(f"malformed state: expected format {FORMAT!r} version {' or '.join(map(str, _PHASES_KEY))}, "
                         f"got {data['format']!r} version {version!r}")
    try:
        rules = RulesConfig.from_dict(data["rules"])
    except ValueError as e:
        raise ValueError(f"malformed state: rules: {e}") from None
    try:
        n = check_num_players(data["num_players"])
    except ValueError as e:
        raise ValueError(f"malformed state: {e}") from None
    state = GameState(rules, n)
    state.built = "built" in data and top.boolean("built")
    state.seed = top.integer("seed")
    state.rng = _load_rng(data["rng"])
    state.hand_number = top.integer("hand_number", 1)
    state.dealer = top.integer("dealer", 0, n - 1)
    state.current = top.integer("current", 0, n - 1)
    if data["stage"] not in STAGE_NAMES:
        raise ValueError(f"malformed state: stage must be one of {list(STAGE_NAMES)}, not {data['stage']!r}")
    state.stage = Stage(STAGE_NAMES.index(data["stage"]))
    state.replay = top.boolean("replay")
    winners = tuple(_int(w, f"winners[{i}]", 0, n - 1) for i, w in enumerate(top.items("winners")))
    if len(set(winners)) != len(winners):
        raise ValueError(f"malformed state: winners must be distinct seats, not {list(winners)!r}")
    state.winners = winners
    state.draw_pile = top.cards("draw_pile")
    state.discard_pile = top.cards("discard_pile")
    for card in state.discard_pile:
        state.discard_counts[card] += 1
    players = top.items("players")
    if len(players) != n:
        raise ValueError(f"malformed state: players lists {len(players)} players for num_players={n}")
    phases_key = _PHASES_KEY[version]
    for s, pdata in enumerate(players):
        _load_player(state, s, _Reader(pdata, f"players[{s}]", _PLAYER_KEYS | {phases_key}), phases_key)
    state.history = [_load_hand_result(_Reader(h, f"history[{i}]", _HISTORY_KEYS), n, rules.phases_to_win)
                     for i, h in enumerate(top.items("history"))]
    _check_consistency(state)
    return state


def _load_rng(data: object) -> np.random.Generator:
    """A generator in the saved PCG64 state, checked here first: numpy raises ``OverflowError``
    for out-of-range numbers and ignores unknown keys."""
    r = _Reader(data, "rng", _RNG_KEYS)
    if r.data["bit_generator"] != "PCG64":
        raise ValueError(f"malformed state: rng.bit_generator must be 'PCG64', not {r.data['bit_generator']!r}")
    pcg = _Reader(r.data["state"], r.where("state"), _PCG64_KEYS)
    state, inc = pcg.integer("state", 0, _UINT128_MAX), pcg.integer("inc", 0, _UINT128_MAX)
    if not inc % 2:
        raise ValueError(f"malformed state: rng.state.inc must be odd (numpy's PCG64 streams always are), not {inc}")
    return _generator({"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
                       "has_uint32": r.integer("has_uint32", 0, 1), "uinteger": r.integer("uinteger", 0, _UINT32_MAX)})


def _load_player(state: GameState, s: int, p: _Reader, phases_key: str) -> None:
    for card in p.cards("hand"):
        state._add_to_hand(s, card)
    for card in p.cards("taken_from_discard"):
        state.taken_from_discard[s][card] += 1
    state.phases_completed[s] = p.integer(phases_key, 0, state.rules.phases_to_win)
    state.laid[s] = p.boolean("laid")
    state.scores[s] = p.score("score")
    state.active[s] = p.boolean("active")
    state.skip_pending[s] = p.boolean("skip_pending")
    state.lost_turn[s] = p.boolean("lost_turn")
    state.skipped_this_hand[s] = p.boolean("skipped_this_hand")
    for i, gdata in enumerate(p.items("table")):
        g = _Reader(gdata, p.where(f"table[{i}]"), _GROUP_KEYS)
        if g.data["kind"] not in KIND_NAMES:
            raise ValueError(f"malformed state: {g.where('kind')} must be one of {list(KIND_NAMES)}, not {g.data['kind']!r}")
        kind = GroupKind(KIND_NAMES.index(g.data["kind"]))
        group = TableGroup(kind, g.integer("value"), g.cards("cards"))
        problem = group.problem()
        if problem:
            raise ValueError(f"malformed state: {p.where(f'table[{i}]')}: {problem}")
        state.table[s].append(group)
        for card in group.cards:
            state.table_counts[card] += 1


def _load_hand_result(r: _Reader, n: int, phases_to_win: int) -> HandResult:
    went_out = None if r.data["went_out"] is None else r.integer("went_out", 0, n - 1)
    return HandResult(r.integer("hand_number", 1), went_out, r.per_seat("points", n, _score),
                      r.per_seat("made_phase", n, _bool), r.per_seat("scores", n, _score),
                      r.per_seat("phases_completed", n, partial(_int, lo=0, hi=phases_to_win)))


def _bad(msg: str) -> ValueError:
    return ValueError(f"inconsistent state: {msg}")


def _check_consistency(state: GameState) -> None:
    n, rules = state.num_players, state.rules
    counts = [0] * NUM_KINDS
    for pile in (state.draw_pile, state.discard_pile):
        for card in pile:
            counts[card] += 1
    for s in range(n):
        for k in range(NUM_KINDS):
            counts[k] += state.hands[s][k] + sum(g.cards.count(k) for g in state.table[s])
    for k in range(NUM_KINDS):
        if counts[k] != DECK_COUNTS[k]:
            raise _bad(f"card {card_name(k)} appears {counts[k]} times; the deck has {DECK_COUNTS[k]}")

    over = state.stage == GAME_OVER
    if over != bool(state.winners):
        raise _bad("winners must be listed exactly when the stage is game_over")
    if state.replay and sum(state.active) < 2:
        raise _bad("a tie replay needs at least two active players")
    if not state.replay and not all(state.active):
        raise _bad("only a tie replay leaves players inactive")
    if rules.advance_all and state.replay:
        raise _bad("advance_all games have no tie replay")
    if rules.advance_all and not over and max(state.phases_completed) >= rules.phases_to_win:
        raise _bad(f"an advance_all game in which a seat completed all {rules.phases_to_win} phases is over (R20)")
    for s in range(n):
        if state.phases_completed[s] == rules.phases_to_win and not (over or state.replay):
            raise _bad(f"seat {s} completed the last phase but the game goes on outside a tie replay")
        if state.replay and state.active[s] and state.phases_completed[s] != rules.phases_to_win:
            raise _bad(f"seat {s} plays a tie replay without having completed the last phase")
        if not state.active[s] and (state.hand_sizes[s] or state.table[s] or any(state.taken_from_discard[s])
                                   or state.skip_pending[s] or state.lost_turn[s] or state.skipped_this_hand[s]):
            raise _bad(f"seat {s} sits out the tie replay but holds cards, groups or Skips of this hand")
        if any(state.taken_from_discard[s][k] > state.hands[s][k] for k in range(NUM_KINDS)):
            raise _bad(f"seat {s}'s taken_from_discard lists cards not in its hand")
        if (state.skip_pending[s] or state.lost_turn[s]) and not state.skipped_this_hand[s]:
            raise _bad(f"seat {s} has a Skip pending or lost its last turn to one, so it was skipped this hand")
        if state.skip_pending[s] and state.lost_turn[s] and rules.skip_rule != "pending_only":
            raise _bad(f"seat {s} lost its last turn to a Skip and has another pending; skip_rule="
                       f"{rules.skip_rule!r} forbids aiming a Skip at it (R15)")
        if state.laid[s] != bool(state.table[s]):
            raise _bad(f"seat {s}: laid must be true exactly when it has groups on the table")
        if state.table[s]:
            if over and not state.replay and not state.phases_completed[s]:
                raise _bad(f"seat {s} laid its phase in the game's last hand but completed no phase (R18)")
            _check_groups(state, s)
    if state.lost_turn[state.current]:
        raise _bad("the current player's turn has begun, so its last turn was not lost to a Skip")
    _check_history(state)
    _check_hands(state)
    if over:
        _check_game_over(state)
        return
    if not state.active[state.current] or not state.active[state.dealer]:
        raise _bad("the current player and the dealer must be active")
    if state.skip_pending[state.current]:
        raise _bad("the current player cannot have a Skip pending (that turn would be lost)")
    if state.stage == DRAW:
        if not state.discard_pile and not state.built:
            raise _bad("the current player is to draw, but the discard pile is empty: a turn begins after a "
                       "discard or after the deal, which turns up a card (R3)")
        if not state.draw_pile and len(state.discard_pile) > 1:
            raise _bad(f"the current player is to draw from an empty draw pile while the discard pile holds "
                       f"{len(state.discard_pile)} cards: the turn would have begun by shuffling all of them but the "
                       f"top card into a new draw pile (R7)")
        if not state.draw_pile and not state.can_draw_discard():
            raise _bad("the current player must draw but no card can be drawn (R7 would have ended the hand)")


def _check_groups(state: GameState, s: int) -> None:
    phase = state.table_phase(s)
    groups, reqs = state.table[s], PHASES[phase]
    shapes = sorted((g.kind, len(g.cards)) for g in groups)
    wanted = sorted((r.kind, r.size) for r in reqs)
    # Both lists sort by kind, then size; pairing them in order matches each group to the
    # smallest requirement of its kind it can meet.
    fits = len(shapes) == len(wanted) and all(k == rk and size >= rs for (k, size), (rk, rs) in zip(shapes, wanted))
    if not fits:
        raise _bad(f"seat {s}'s groups do not make phase {phase}")
    if missing_naturals(state.rules.natural, [g.naturals() for g in groups]):
        raise _bad(f"seat {s}'s phase breaks natural_rule={state.rules.natural_rule!r} (R11)")


def _check_hands(state: GameState) -> None:
    """Hand sizes a game can reach. Cards leave a hand only by the one discard that follows each
    draw, or onto the table: so a seat that has not laid its phase holds the 10 cards dealt (11
    while it plays its turn, having drawn), one that has laid holds that less the cards it laid
    and hit, and the cards on the table are all those the seats played. An active seat holds a
    card until it goes out, which ends the hand. A built position (``build_game``) was never
    dealt: only that last rule holds there."""
    over = state.stage == GAME_OVER
    went_out = state.history[-1].went_out if over else None
    played = 0
    for s in range(state.num_players):
        if not state.active[s]:
            continue
        size = state.hand_sizes[s]
        if not size and s != went_out:
            raise _bad(f"seat {s} holds no cards, so it went out and the hand should have ended (R16)")
        if state.built:
            continue
        dealt = HAND_SIZE + (not over and s == state.current and state.stage == PLAY)
        if not state.laid[s] and size != dealt:
            drawn = ", plus the card drawn this turn" if dealt > HAND_SIZE else ""
            raise _bad(f"seat {s} holds {size} cards without having laid its phase; it must hold {dealt} (10 dealt{drawn})")
        if state.laid[s]:
            most = dealt - sum(r.size for r in PHASES[state.table_phase(s)])
            if size > most:
                raise _bad(f"seat {s} holds {size} cards after laying its phase, which takes {dealt - most} of its "
                           f"{dealt}; it can hold at most {most}")
        played += dealt - size
    if went_out is not None and state.hand_sizes[went_out]:
        raise _bad(f"seat {went_out} went out in the last hand (history) but holds cards")
    on_table = sum(len(g.cards) for groups in state.table for g in groups)
    # Going out by laying down or hitting the last card skips the discard: one card more played.
    if not state.built and on_table not in ((played, played + 1) if went_out is not None else (played,)):
        raise _bad(f"the table holds {on_table} cards, but the seats' hands are {played} cards short of those "
                   f"dealt and drawn; every card that left a hand other than by a discard went to the table")


def _check_history(state: GameState) -> None:
    """The hand results agree with one another and with the state: hands numbered in order,
    scores the running sums of points (R17), phases advancing by at most one (R18)."""
    history, over = state.history, state.stage == GAME_OVER
    if not history:
        if over:
            raise _bad("a finished game must list the result of its last hand in history")
        return
    n = state.num_players
    for i, r in enumerate(history):
        if any(r.points[s] > r.scores[s] for s in range(n)):
            raise _bad(f"history[{i}]: a seat's score is lower than the points it scored in that hand")
        if r.went_out is not None and (r.points[r.went_out] or not r.made_phase[r.went_out]):
            raise _bad(f"history[{i}]: seat {r.went_out} went out, so it made its phase and scored 0 (R16)")
        if not i:
            continue
        before = history[i - 1]
        if r.hand_number != before.hand_number + 1:
            raise _bad(f"history[{i}].hand_number is {r.hand_number}, but the hand before it was {before.hand_number}")
        if any(r.scores[s] != before.scores[s] + r.points[s] for s in range(n)):
            raise _bad(f"history[{i}].scores must be history[{i - 1}].scores plus history[{i}].points (R17)")
        for s in range(n):
            step = r.phases_completed[s] - before.phases_completed[s]
            if step not in (0, 1) or (step and not (r.made_phase[s] or state.rules.advance_all)):
                raise _bad(f"history[{i}].phases_completed: seat {s} goes from {before.phases_completed[s]} to "
                           f"{r.phases_completed[s]}; a seat advances one phase, when it makes its phase (R18)")
    last = history[-1]
    expected = state.hand_number if over else state.hand_number - 1
    if last.hand_number != expected:
        raise _bad(f"the last entry of history is hand {last.hand_number}, but this is hand {state.hand_number}"
                   f"{' and the game is over' if over else ''}, so it must be hand {expected}")
    if list(last.scores) != state.scores:
        raise _bad(f"the players' scores {state.scores} are not those after the last hand in history {list(last.scores)}")
    if list(last.phases_completed) != state.phases_completed:
        raise _bad(f"the players' phases completed {state.phases_completed} are not those after the last hand in history "
                   f"{list(last.phases_completed)}")


def _check_game_over(state: GameState) -> None:
    """The game ended with the last hand in history (R19, R20): the cards still in hand are the
    points it scored, and the winners are those the rules name."""
    n, rules, last = state.num_players, state.rules, state.history[-1]
    for s in range(n):
        if last.points[s] != hand_points(state.hands[s]):
            raise _bad(f"seat {s}'s hand scores {hand_points(state.hands[s])}, but the game's last hand (history) "
                       f"gave it {last.points[s]} points (R17)")
    if list(last.made_phase) != state.laid:
        raise _bad("the seats that laid their phase are not those that made it in the last hand (history)")
    if last.went_out is not None and last.went_out != state.current:
        raise _bad(f"seat {last.went_out} went out, ending the game, so it must be the current player")
    winners = sorted(state.winners)
    if rules.advance_all:
        best = min(state.scores)
        if winners != [s for s in range(n) if state.scores[s] == best]:
            raise _bad(f"an advance_all game is won by every seat with the lowest score, not by seats {winners} (R20)")
        if max(state.phases_completed) != rules.phases_to_win:
            raise _bad(f"an advance_all game ends in the hand of the list's last phase, not with phases completed "
                       f"{state.phases_completed} of {rules.phases_to_win} (R20)")
    elif state.replay:
        if winners != [last.went_out]:
            raise _bad(f"a tie replay is won by the seat that goes out, not by seats {winners} (R19)")
    else:
        done = [s for s in range(n) if state.laid[s] and state.phases_completed[s] == rules.phases_to_win]
        if len(winners) != 1 or winners[0] not in done or any(
                state.scores[s] <= state.scores[winners[0]] for s in done if s != winners[0]):
            raise _bad(f"the game is won by the one seat with the lowest score of those that completed the last "
                       f"phase in the last hand, not by seats {winners} (R19)")
