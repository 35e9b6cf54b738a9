"""Opponents for self-play: frozen copies of the learner's policy, and a pool that picks one
opponent per game by weight."""

from __future__ import annotations

import copy

import numpy as np

from phase10_env.policy import PlayerObservation, Policy


class PolicySnapshot:
    """A frozen copy of a MaskablePPO policy network that acts as an opponent, sampling from its
    masked action distribution (or taking the most likely action)."""

    def __init__(self, policy, name: str = "snapshot", deterministic: bool = False) -> None:
        import torch

        self.policy = copy.deepcopy(policy).to("cpu").eval()
        for p in self.policy.parameters():
            p.requires_grad_(False)
        self.name = name
        self.deterministic = deterministic
        self.rng = np.random.default_rng()
        self._torch = torch

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        policy, torch = self.policy, self._torch
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
            features = policy.extract_features(obs, policy.pi_features_extractor)
            latent = policy.mlp_extractor.forward_actor(features)
            return policy.action_net(latent)[0].numpy().astype(np.float64)

    def act(self, obs: PlayerObservation) -> int:
        logits = self.logits(obs.observation)
        legal = np.flatnonzero(obs.action_mask)
        scores = logits[legal]
        if self.deterministic:
            return int(legal[np.argmax(scores)])
        p = np.exp(scores - scores.max())
        return int(legal[self.rng.choice(len(legal), p=p / p.sum())])


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

    def act(self, obs: PlayerObservation) -> int:
        if self.current is None:
            self.seed(None)
        return self.current.act(obs)
