"""The uniformly random agent: every legal action equally likely, from its own seeded generator."""

from __future__ import annotations

import numpy as np

from .policy import PlayerObservation


class RandomAgent:
    name = "random"
    needs_view = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: PlayerObservation) -> int:
        legal = obs.legal_actions
        return int(legal[self.rng.integers(len(legal))])
