"""What an agent is given at its turn, and the small interface every agent implements.

An agent sees a :class:`PlayerObservation`: the encoded observation and legal-action mask,
plus, on request, the readable :class:`~phase10_env.engine.SeatView` of the same information
(for rule-based agents and humans). Both come from the acting seat's side only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from .engine.phases import Meld
from .engine.view import SeatView
from .observation import OBS_SIZE
from .planning import PLANNING_SIZE, planning_features

if TYPE_CHECKING:
    from .env import raw_env


@dataclass
class PlayerObservation:
    """One agent's input for one decision."""

    agent: str
    seat: int
    observation: np.ndarray
    action_mask: np.ndarray
    pending_meld: Meld | None
    _env: raw_env = field(repr=False)
    _view: SeatView | None = field(default=None, repr=False)

    @classmethod
    def of(cls, env: raw_env, agent: str | None = None) -> PlayerObservation:
        """The input of ``agent`` (default: the agent to act) in ``env`` now."""
        agent = agent or env.agent_selection
        obs = env.observe(agent)
        return cls(agent, env.possible_agents.index(agent), obs["observation"], obs["action_mask"], env.pending_meld, env)

    def view(self) -> SeatView:
        """The readable view of this seat (built on first use)."""
        if self._view is None:
            self._view = self._env.seat_view(self.agent)
        return self._view

    def observation_of_size(self, size: int) -> np.ndarray:
        """The observation vector with ``size`` values: the standard one, or the standard one
        with the planning features appended (see :mod:`phase10_env.planning`)."""
        if size == len(self.observation):
            return self.observation
        if size == OBS_SIZE + PLANNING_SIZE and len(self.observation) == OBS_SIZE:
            return np.concatenate([self.observation, planning_features(self._env.game, self.seat)])
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
    game starts, so that a game's seed fixes every choice in it."""

    def act(self, obs: PlayerObservation) -> int: ...


class RandomPolicy:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: PlayerObservation) -> int:
        legal = obs.legal_actions
        return int(legal[self.rng.integers(len(legal))])
