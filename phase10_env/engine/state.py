"""The game state as data (:class:`GameState`) and its JSON form (:meth:`GameState.to_json`).

:class:`GameState` holds a position and nothing of how to play on from it; ``Game`` (in
:mod:`.game`) adds the rules of play on top, and :func:`~.loader.load_state` reads the JSON form
back, checking it. This module is below both: it imports nothing from the modules that load,
play, record or show a game.

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
Version 1 differs only in the name of each player's phases completed (``"phase_index"``);
:meth:`GameState.to_json` writes version 2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from .cards import (
    NUM_KINDS,
    NUM_NATURALS,
    NUM_NUMBERS,
    card_name,
    kinds_of,
)
from .config import RulesConfig
from .moves import HandResult, can_take_discard
from .phases import KIND_NAMES, PHASES, Requirement
from .seats import Stage, next_active
from .table import TableGroup

HAND_SIZE = 10
#: The stages as plain names, for the hot paths (an enum member costs five times a global to look up).
DRAW_STAGE, PLAY_STAGE, GAME_OVER = Stage.DRAW, Stage.PLAY, Stage.GAME_OVER
STAGE_NAMES = ("draw", "play", "game_over")

_S = TypeVar("_S", bound="GameState")
FORMAT, VERSION = "phase10-state", 2
def pcg64_generator(state: Mapping[str, Any]) -> np.random.Generator:
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
        self.stage: Stage = DRAW_STAGE
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
            self._rng = pcg64_generator(self._rng_state)
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
        return self.stage == DRAW_STAGE and can_take_discard(self.discard_pile)

    def add_to_hand(self, seat: int, card: int) -> None:
        """Put ``card`` into seat ``seat``'s hand, keeping the counts that go with it (for the
        code that builds and plays states: the loader, the game)."""
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


