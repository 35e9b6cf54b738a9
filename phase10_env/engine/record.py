"""A game record (:class:`GameRecord`): how a game started and every move since, and its JSON
file form (``{"format": "phase10-record", "version": 2, ...}``, read back strictly by
:func:`load_record`). A record is data: replaying it is the game's (``Game.from_record``), which
keeps its record as it plays.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import RulesConfig
from .loader import load_state
from .moves import Move, move_from_json, move_to_json
from .seats import check_num_players
from .seeds import seed_from_json, seed_to_json
from .state import GameState

__all__ = ["GameRecord", "load_record", "RECORD_FORMAT"]

RECORD_FORMAT = "phase10-record"
_RECORD_KEYS = {"format", "version", "num_players", "rules", "seed", "first_dealer", "moves"}
_RECORD_OPTIONAL = {"start", "start_phases"}  # version 1 records may lack them


@dataclass
class GameRecord:
    """A game record: how the game started (seed and first dealer, or a state) and every move
    since. ``Game.from_record`` replays it into the game exactly, because all randomness comes
    from the game's seeded generator."""

    num_players: int
    rules: RulesConfig
    seed: int
    first_dealer: int
    moves: list[Move] = field(default_factory=list)
    start_phases: list[int] | None = None
    start_game: GameState | None = None
    """The state the game started from (:meth:`Game.from_state`, or a saved record's ``start``),
    kept as data (nobody changes it) rather than as JSON until the record is saved:
    :meth:`Game.from_view` makes one many times a second."""

    def copy(self) -> GameRecord:
        """The same record with its own list of moves (the start is never changed)."""
        return GameRecord(self.num_players, self.rules, self.seed, self.first_dealer, self.moves[:],
                          self.start_phases, self.start_game)

    def start_state(self) -> dict[str, Any] | None:
        """The state the game started from (``GameState.to_json`` data), or None for a new game."""
        return self.start_game.to_json() if self.start_game is not None else None

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data (version 2: the seed as a decimal string, see :mod:`.seeds`)."""
        return {"format": RECORD_FORMAT, "version": 2, "num_players": self.num_players,
                "rules": self.rules.to_dict(), "seed": seed_to_json(self.seed), "first_dealer": self.first_dealer,
                "start_phases": self.start_phases, "start": self.start_state(), "moves": [move_to_json(m) for m in self.moves]}

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        """The record ``data`` describes (:func:`load_record`)."""
        return load_record(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


def load_record(data: object) -> GameRecord:
    """A game record from :meth:`GameRecord.to_json` data (version 2, or 1 with the seed as a
    number); anything else is a ``ValueError`` "malformed record: ..." naming the field: a missing
    or unknown key, or a value of the wrong type (nothing is coerced: ``1.7`` is no seed, ``"3"``
    no seat). A ``start`` state is checked as :func:`~.loader.load_state` checks one; whether the
    moves are legal shows when the record is replayed."""
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise ValueError(f"malformed record: not a {RECORD_FORMAT} object")
    missing, unknown = sorted(_RECORD_KEYS - set(data)), sorted(set(data) - _RECORD_KEYS - _RECORD_OPTIONAL)
    if missing or unknown:
        raise ValueError("malformed record: " + (f"lacks {missing}" if missing else f"has unknown key(s) {unknown}"))
    try:
        if data["version"] not in (1, 2) or isinstance(data["version"], bool):
            raise ValueError(f"version must be 1 or 2, not {data['version']!r}")
        n = check_num_players(data["num_players"])
        rules = RulesConfig.from_dict(data["rules"])
        seed = seed_from_json(data["seed"])
        dealer = data["first_dealer"]
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"first_dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        phases = data.get("start_phases")
        if phases is not None and (not isinstance(phases, list) or len(phases) != n or not all(
                isinstance(p, int) and not isinstance(p, bool) and 0 <= p < rules.phases_to_win for p in phases)):
            raise ValueError(f"start_phases must be null or {n} integers from 0 to {rules.phases_to_win - 1}, not {phases!r}")
        start = data.get("start")
        if start is not None and not isinstance(start, dict):
            raise ValueError(f"start must be null or a saved state, not {type(start).__name__}")
        moves = data["moves"]
        if not isinstance(moves, list):
            raise ValueError(f"moves must be a list, not {type(moves).__name__}")
        record = GameRecord(n, rules, seed, dealer, moves=[move_from_json(m, f"moves[{i}]") for i, m in enumerate(moves)],
                            start_phases=phases, start_game=None if start is None else load_state(start))
    except ValueError as e:
        raise ValueError(f"malformed record: {e}") from None
    return record
