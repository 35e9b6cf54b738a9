"""A game record: how the game started and every move since (:class:`GameRecord`).

The class lives in :mod:`.game`, beside ``Game``, because each makes the other (a game keeps its
record, a record replays into a game); this module keeps its import path.
"""

from __future__ import annotations

from .game import GameRecord

__all__ = ["GameRecord"]
