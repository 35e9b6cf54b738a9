"""What an agent is given at its turn, and the small interface every agent implements.

An agent sees a :class:`PlayerObservation`: the encoded observation and legal-action mask of
its seat, the move in progress if any, and the readable
:class:`~phase10_env.engine.SeatView` of the same information (for rule-based agents and
humans). It holds nothing else: no environment and no game, so an agent cannot read another
seat's cards even by accident. ``raw_env.player_observation(agent)`` builds one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from .engine.partial import PartialMove
from .engine.view import SeatView
from .observation import OBS_SIZE
from .planning import PLANNING_SIZE, planning_features_of_view


@dataclass(frozen=True)
class PlayerObservation:
    """One agent's input for one decision. ``pending`` is the move the agent has started and
    finishes with this action (see :mod:`phase10_env.engine.partial`). ``view`` is ``None``
    when the caller was told the agent does not read it (``Policy.needs_view = False``):
    building it costs more than a network's whole decision."""

    agent: str
    seat: int
    observation: np.ndarray
    action_mask: np.ndarray
    pending: PartialMove | None
    view: SeatView | None

    def seat_view(self) -> SeatView:
        """The readable view, or a clear error for an agent that said it does not need one."""
        if self.view is None:
            raise RuntimeError("this observation was built without its SeatView: the agent set needs_view = False")
        return self.view

    def observation_of_size(self, size: int) -> np.ndarray:
        """The observation vector with ``size`` values: the standard one, or the standard one
        with the planning features appended (see :mod:`phase10_env.planning`)."""
        if size == len(self.observation):
            return self.observation
        if size == OBS_SIZE + PLANNING_SIZE and len(self.observation) == OBS_SIZE:
            return np.concatenate([self.observation, planning_features_of_view(self.seat_view())])
        if size == OBS_SIZE and len(self.observation) == OBS_SIZE + PLANNING_SIZE:
            return self.observation[:OBS_SIZE]
        raise ValueError(f"no observation of {size} values (the standard one has {OBS_SIZE})")

    @property
    def legal_actions(self) -> np.ndarray:
        """The unmasked action ids, ascending (``ndarray.nonzero``: np.flatnonzero's wrapper
        costs more than the search)."""
        return self.action_mask.nonzero()[0]


@runtime_checkable
class Policy(Protocol):
    """Anything that picks a legal action id for a :class:`PlayerObservation`.

    A policy may also define ``seed(seed)``: environments and tournaments call it when a new
    game starts, so that a game's seed fixes every choice in it; and ``needs_view = False``
    when it reads only the encoded observation and mask, which spares building the
    readable view for it."""

    def act(self, obs: PlayerObservation) -> int: ...


def needs_view(policy: object) -> bool:
    """Whether ``policy`` reads :attr:`PlayerObservation.view` (unless it says otherwise)."""
    return bool(getattr(policy, "needs_view", True))
