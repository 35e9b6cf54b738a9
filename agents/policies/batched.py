"""A policy network as a batched player: ``policy(observations, masks) -> actions`` over arrays
of rows, the form :class:`~phase10_env.vector.Phase10VectorEnv` takes as an opponent and the
native tournament games take for a ``ppo:PATH`` entry. It plays as
:class:`~.network.PolicyNetAgent` does (masked logits, then argmax or a sample), many positions
per network call."""

from __future__ import annotations

import numpy as np

from .network import Sb3Policy, frozen_copy

MASKED = -1e9  # the logit a masked action gets


def masked_logits(policy: Sb3Policy, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The network's scores of every action (as :meth:`~.network.PolicyNetAgent.logits`: actor
    logits, Q-values of a DQN, mean quantiles of a QR-DQN), every illegal action at ``MASKED``."""
    import torch

    with torch.no_grad():
        obs = torch.as_tensor(observations, dtype=torch.float32)
        if hasattr(policy, "q_net"):  # DQN
            scores = policy.q_net(obs)
        elif hasattr(policy, "quantile_net"):  # QR-DQN: the mean over quantiles
            scores = policy.quantile_net(obs).mean(dim=1)
        else:
            features = policy.extract_features(obs, policy.pi_features_extractor)
            scores = policy.action_net(policy.mlp_extractor.forward_actor(features))
    return np.where(masks, scores.numpy(), MASKED)


class BatchedPolicy:
    """A frozen copy of an sb3 policy playing many positions at once:
    deterministic (the best legal action) or sampling from the masked softmax."""

    def __init__(self, policy: Sb3Policy, deterministic: bool = True, seed: int | None = None) -> None:
        self.policy = frozen_copy(policy)
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.input_size = int(self.policy.observation_space.shape[0])

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if observations.shape[1] != self.input_size:
            raise ValueError(f"this policy reads observations of {self.input_size} values, not {observations.shape[1]} "
                             f"(another env.features setting?)")
        logits = masked_logits(self.policy, observations, masks)
        if self.deterministic:
            return np.asarray(logits.argmax(axis=1), dtype=np.int64)
        return sample(logits, self.rng)


def sample(logits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row drawn from the softmax of ``logits`` (Gumbel-max)."""
    gumbel = -np.log(-np.log(rng.random(logits.shape)))
    return np.asarray((logits + gumbel).argmax(axis=1), dtype=np.int64)
