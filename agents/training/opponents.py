"""Opponents for self-play: frozen copies of the learner's policy, and a pool that picks one
opponent per game by weight."""

from __future__ import annotations

import numpy as np

from phase10_env.policy import PlayerObservation, Policy, needs_view

from ..policies.network import PolicyNetAgent, Sb3Policy


class PolicySnapshot(PolicyNetAgent):
    """A frozen copy of the learner's policy network; it samples its moves, so that self-play
    opponents vary."""

    def __init__(self, policy: Sb3Policy, name: str = "snapshot") -> None:
        super().__init__(policy, name=name, deterministic=False)


class OpponentPool:
    """Plays each game as one member, drawn by weight when the game starts (``seed``)."""

    def __init__(self, members: dict[str, tuple[Policy, float]] | None = None) -> None:
        self.members: dict[str, tuple[Policy, float]] = dict(members or {})
        self.rng = np.random.default_rng()
        self.current: Policy | None = None

    def add(self, name: str, policy: Policy, weight: float) -> None:
        self.members[name] = (policy, weight)

    def remove(self, name: str) -> None:
        del self.members[name]

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)
        names = [n for n, (_, w) in self.members.items() if w > 0]
        if not names:
            raise ValueError("the opponent pool has no member with a positive weight")
        weights = np.array([self.members[n][1] for n in names], dtype=float)
        self.current = self.members[names[self.rng.choice(len(names), p=weights / weights.sum())]][0]
        if hasattr(self.current, "seed"):
            self.current.seed(None if seed is None else seed + 1)

    @property
    def needs_view(self) -> bool:
        return self.current is None or needs_view(self.current)

    def act(self, obs: PlayerObservation) -> int:
        return self._member().act(obs)

    def _member(self) -> Policy:
        """The member playing this game (one drawn now if no game has seeded the pool)."""
        if self.current is None:
            self.seed(None)
        assert self.current is not None  # seed() sets it or raises
        return self.current
