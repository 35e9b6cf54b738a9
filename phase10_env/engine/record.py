"""A game record: how the game started (seed and first dealer, or a loaded state) and every
move since. Replaying it rebuilds the game exactly, because all randomness comes from the
game's seeded generator."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import RulesConfig
from .moves import Move, move_from_json, move_to_json

if TYPE_CHECKING:
    from .game import Game


@dataclass
class GameRecord:
    num_players: int
    rules: RulesConfig
    seed: int
    first_dealer: int
    start: dict[str, Any] | None = None
    """A state the game was loaded from (``Game.to_json`` data), or None for a new game."""
    moves: list[Move] = field(default_factory=list)
    start_phases: list[int] | None = None
    start_game: Game | None = None
    """A game the record starts from, kept as a game (a copy nobody plays) rather than as JSON
    until the record is saved: what :meth:`Game.from_view` makes, many times a second."""

    def copy(self) -> GameRecord:
        """The same record with its own list of moves (the start is never changed)."""
        return GameRecord(self.num_players, self.rules, self.seed, self.first_dealer, self.start, self.moves[:],
                          self.start_phases, self.start_game)

    def start_state(self) -> dict[str, Any] | None:
        """The state the game started from (``Game.to_json`` data), or None for a new game."""
        return self.start_game.to_json() if self.start_game is not None else self.start

    def replay(self, upto: int | None = None):
        """The game after the first ``upto`` moves (all by default)."""
        from .game import Game

        if self.start_game is not None:
            game = self.start_game.copy()
        elif self.start is not None:
            game = Game.from_json(self.start)
        else:
            game = Game(self.num_players, self.rules, seed=self.seed, first_dealer=self.first_dealer,
                        start_phases=self.start_phases)
        for move in self.moves[:upto]:
            game.apply(move)
        return game

    def to_json(self) -> dict[str, Any]:
        return {"format": "phase10-record", "version": 1, "num_players": self.num_players,
                "rules": self.rules.to_dict(), "seed": self.seed, "first_dealer": self.first_dealer,
                "start_phases": self.start_phases, "start": self.start_state(), "moves": [move_to_json(m) for m in self.moves]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != "phase10-record":
            raise ValueError("malformed record: not a phase10-record object")
        try:
            return cls(int(data["num_players"]), RulesConfig.from_dict(data["rules"]), int(data["seed"]),
                       int(data["first_dealer"]), data.get("start"), [move_from_json(m) for m in data["moves"]],
                       data.get("start_phases"))
        except (KeyError, TypeError) as e:
            raise ValueError(f"malformed record: {e}") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
