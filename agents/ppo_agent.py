"""Trained policies as agents: a MaskablePPO policy network picks the most likely legal action
(or samples one). ``ppo:PATH`` loads a saved sb3-contrib model; self-play uses frozen copies of
the learner's network the same way."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np

from phase10_env.policy import PlayerObservation


class PolicyNetAgent:
    """Acts with an sb3 actor-critic policy network: masked logits, then argmax or a sample.
    It runs the network directly (no ``predict`` preprocessing), on a private frozen copy."""

    def __init__(self, policy, name: str = "ppo", deterministic: bool = True) -> None:
        import torch

        self.policy = copy.deepcopy(policy).to("cpu").eval()
        for p in self.policy.parameters():
            p.requires_grad_(False)
        self.name = name
        self.deterministic = deterministic
        self.rng = np.random.default_rng()
        self._torch = torch
        self.input_size = int(self.policy.observation_space.shape[0])

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
        legal = np.flatnonzero(obs.action_mask)
        scores = self.logits(obs.observation_of_size(self.input_size))[legal]
        if self.deterministic:
            return int(legal[np.argmax(scores)])
        p = np.exp(scores - scores.max())
        return int(legal[self.rng.choice(len(legal), p=p / p.sum())])


def load_model(path: str | Path):
    """Load a saved MaskablePPO model on the CPU."""
    path = Path(path)
    if not path.exists() and path.with_suffix(".zip").exists():
        path = path.with_suffix(".zip")
    if not path.exists():
        raise ValueError(f"no saved model at {str(path)!r}")
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    return MaskablePPO.load(path, device="cpu")


class PPOAgent(PolicyNetAgent):
    """A saved MaskablePPO model (``ppo:PATH``); deterministic by default."""

    def __init__(self, path: str | Path, deterministic: bool = True) -> None:
        super().__init__(load_model(path).policy, name=f"ppo:{path}", deterministic=deterministic)
