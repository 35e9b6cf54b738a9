"""Seats and turns: how many seats a game may have (R2), who plays next (seats out of a tie
replay are passed over, R19) and what the player to act does next (:class:`Stage`)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

import numpy as np

MIN_PLAYERS, MAX_PLAYERS = 2, 6


class Stage(IntEnum):
    """What the player to act does next (``Game.stage``)."""

    DRAW = 0
    PLAY = 1
    GAME_OVER = 2


def check_num_players(num_players: object) -> int:
    if (isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer))
            or not MIN_PLAYERS <= num_players <= MAX_PLAYERS):
        raise ValueError(f"num_players must be an integer from {MIN_PLAYERS} to {MAX_PLAYERS}, not {num_players!r}")
    return int(num_players)


def next_active(active: Sequence[bool], seat: int) -> int:
    """The next active seat after ``seat`` in play order (``seat`` itself if it is the only one)."""
    n = len(active)
    seat = (seat + 1) % n
    while not active[seat]:
        seat = (seat + 1) % n
    return seat
