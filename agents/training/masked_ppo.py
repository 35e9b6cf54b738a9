"""A compact masked PPO in the CleanRL style, for the batched games of the native core.

The network is sb3-contrib's ``MaskableActorCriticPolicy`` (``net_arch`` from the config:
separate policy and value MLPs with tanh, orthogonal initialisation, Adam with eps 1e-5), so it
has SB3's shape, and a trained model saves as the zip ``ppo:PATH`` plays. Everything else is
here, in the order it runs:

1. :meth:`MaskedPPO.collect`: ``n_steps`` decisions in each of the learner's games
   (:class:`~.vector_opponents.LearnerEnvs`, many games per call of the core); an illegal
   action's logit is :data:`MASKED` before the softmax, so it is never sampled. A game cut short
   (``max_steps``) is bootstrapped with the value of its last observation, as SB3 does.
2. :func:`advantages`: generalised advantage estimation (GAE) and the returns.
3. :meth:`MaskedPPO.update`: ``n_epochs`` passes over the rollout in shuffled minibatches of
   ``batch_size``: the clipped surrogate with advantages normalised per minibatch, the value
   loss (``vf_coef``), the entropy bonus (``ent_coef``) over the legal actions, the gradient
   clipped to ``max_grad_norm``; with ``kl_coef`` > 0 also ``kl_coef`` x KL(reference || policy)
   toward a frozen reference (the policy the run started from), as the SB3 backend's anchor.

``precision="bf16"`` runs the network's forward passes under CPU autocast in bfloat16 (losses
and softmax stay float32); ``"fp32"`` is the reference.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional as F

from phase10_env.actions import NUM_ACTIONS

from ..policies.network import Sb3Policy, save_policy
from .config import PPOSettings
from .precision import autocast
from .vector_opponents import LearnerEnvs

MASKED = -1e8  # an illegal action's logit


def new_policy(obs_size: int, net_arch: list[int], learning_rate: float) -> Sb3Policy:
    """An untrained network of the shape SB3's MaskablePPO builds for ``net_arch``."""
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    space = spaces.Box(-np.inf, np.inf, (obs_size,), np.float32)
    return MaskableActorCriticPolicy(space, spaces.Discrete(NUM_ACTIONS), lambda _: learning_rate,
                                     net_arch=list(net_arch))


def heads(policy: Sb3Policy, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The policy's logits and value for a batch of observations (float32)."""
    latent_pi, latent_vf = policy.mlp_extractor(obs)
    return policy.action_net(latent_pi).float(), policy.value_net(latent_vf).float().squeeze(-1)


def masked_log_probs(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    return torch.log_softmax(logits.masked_fill(~masks, MASKED), dim=-1)


@dataclass
class Rollout:
    """``n_steps`` x ``num_envs`` decisions of the learner (arrays indexed [step, game])."""

    obs: torch.Tensor
    masks: torch.Tensor
    actions: torch.Tensor
    log_probs: torch.Tensor
    values: torch.Tensor
    rewards: np.ndarray
    dones: np.ndarray  # the game ended with this step
    last_values: np.ndarray  # values of the observations after the last step

    def __len__(self) -> int:
        return int(self.actions.numel())


def advantages(rollout: Rollout, gamma: float, gae_lambda: float) -> tuple[np.ndarray, np.ndarray]:
    """GAE advantages and returns (advantages + values), [step, game]."""
    values = rollout.values.numpy().astype(np.float64)
    steps = len(values)
    adv = np.zeros_like(values)
    last = np.zeros(values.shape[1])
    for t in reversed(range(steps)):
        next_values = rollout.last_values if t == steps - 1 else values[t + 1]
        alive = 1.0 - rollout.dones[t]
        delta = rollout.rewards[t] + gamma * next_values * alive - values[t]
        last = delta + gamma * gae_lambda * alive * last
        adv[t] = last
    return adv, adv + values


class MaskedPPO:
    """The learner: a policy, its optimizer and the step count (what ``TrainingRun``'s
    evaluation and snapshots use: ``policy``, ``num_timesteps``, ``save``)."""

    def __init__(self, policy: Sb3Policy, settings: PPOSettings, precision: str = "fp32", seed: int = 0) -> None:
        self.policy = policy
        self.settings = settings
        self.precision = precision
        self.optimizer = torch.optim.Adam(policy.parameters(), lr=settings.learning_rate, eps=1e-5)
        self.num_timesteps = 0
        self.reference: Sb3Policy | None = None
        self.generator = torch.Generator().manual_seed(seed)
        self.rng = np.random.default_rng(seed)
        self._obs: np.ndarray | None = None
        self._masks: np.ndarray | None = None
        self.episode_returns: list[float] = []
        self.episode_lengths: list[int] = []
        self.seconds = {"collect": 0.0, "update": 0.0}  # wall time in each half of learn()

    # ------------------------------------------------------------------ saving

    def save(self, path: str | Path) -> Path:
        """The policy as an SB3 model zip (``ppo:PATH`` plays it)."""
        return save_policy(self.policy, path, half=False)

    def state(self) -> dict[str, Any]:
        """What a checkpoint holds: weights, optimizer state, step count."""
        return {"policy": self.policy.state_dict(), "optimizer": self.optimizer.state_dict(),
                "num_timesteps": self.num_timesteps}

    def load_state(self, state: dict[str, Any]) -> None:
        self.policy.load_state_dict(state["policy"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.num_timesteps = int(state["num_timesteps"])

    def set_reference(self, state: dict[str, Any] | None) -> None:
        """Anchor (``kl_coef``) to a frozen copy of the policy with these weights (None: as it is now)."""
        self.reference = copy.deepcopy(self.policy).eval()
        if state is not None:
            self.reference.load_state_dict(state)
        for p in self.reference.parameters():
            p.requires_grad_(False)

    # ------------------------------------------------------------------ playing

    def act(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, torch.Tensor, torch.Tensor]:
        """Sampled actions, their log-probabilities and the values, for a batch of positions."""
        with torch.no_grad(), autocast(self.precision):
            logits, values = heads(self.policy, torch.from_numpy(obs))
        log_probs = masked_log_probs(logits, torch.from_numpy(masks))
        gumbel = -torch.log(-torch.log(torch.rand(log_probs.shape, generator=self.generator).clamp_min(1e-20)))
        actions = (log_probs + gumbel).argmax(dim=-1)
        return actions.numpy(), log_probs.gather(1, actions[:, None]).squeeze(1), values

    def values(self, obs: np.ndarray) -> np.ndarray:
        with torch.no_grad(), autocast(self.precision):
            return heads(self.policy, torch.from_numpy(obs))[1].numpy().astype(np.float64)

    def collect(self, envs: LearnerEnvs, n_steps: int) -> Rollout:
        """Play ``n_steps`` decisions in every game of ``envs``."""
        if self._obs is None or self._masks is None:
            self._obs, self._masks = envs.reset()
            self._running = np.zeros(envs.num_envs)
            self._length = np.zeros(envs.num_envs, dtype=np.int64)
        n = envs.num_envs
        obs = torch.empty((n_steps, n, self._obs.shape[1]))
        masks = torch.empty((n_steps, n, NUM_ACTIONS), dtype=torch.bool)
        actions = torch.empty((n_steps, n), dtype=torch.int64)
        log_probs, values = torch.empty((n_steps, n)), torch.empty((n_steps, n))
        rewards, dones = np.zeros((n_steps, n)), np.zeros((n_steps, n))
        gamma = self.settings.gamma
        for t in range(n_steps):
            obs[t], masks[t] = torch.from_numpy(self._obs), torch.from_numpy(self._masks)
            act, log_probs[t], values[t] = self.act(self._obs, self._masks)
            actions[t] = torch.from_numpy(act)
            step = envs.step(act)
            self._obs, self._masks = step.obs, step.masks
            rewards[t], dones[t] = step.rewards, step.terminated | step.truncated
            cut = np.flatnonzero(step.truncated & ~step.terminated)
            if len(cut):  # cut short, not lost: what the game was still worth
                rewards[t, cut] += gamma * self.values(step.final_obs[cut])
            self._running += step.rewards
            self._length += 1
            for i in np.flatnonzero(dones[t]):
                self.episode_returns.append(float(self._running[i]))
                self.episode_lengths.append(int(self._length[i]))
                self._running[i], self._length[i] = 0.0, 0
        self.num_timesteps += n_steps * n
        return Rollout(obs, masks, actions, log_probs, values, rewards, dones, self.values(self._obs))

    # ------------------------------------------------------------------ learning

    def update(self, rollout: Rollout) -> dict[str, float]:
        """The PPO update on one rollout; the losses and statistics of its last epoch."""
        s = self.settings
        adv, ret = advantages(rollout, s.gamma, s.gae_lambda)
        size = len(rollout)
        obs = rollout.obs.reshape(size, -1)
        masks = rollout.masks.reshape(size, -1)
        actions, old_log_probs = rollout.actions.reshape(size), rollout.log_probs.reshape(size)
        advs = torch.as_tensor(adv.reshape(size), dtype=torch.float32)
        returns = torch.as_tensor(ret.reshape(size), dtype=torch.float32)
        ref_log_probs = self._reference_log_probs(obs, masks) if s.kl_coef > 0 and self.reference is not None else None
        self.policy.train()
        stats: dict[str, list[float]] = {k: [] for k in ("policy_loss", "value_loss", "entropy", "approx_kl",
                                                         "clip_fraction", "kl_to_reference")}
        for _ in range(s.n_epochs):
            order = torch.from_numpy(self.rng.permutation(size))
            for start in range(0, size, s.batch_size):
                idx = order[start:start + s.batch_size]
                with autocast(self.precision):
                    logits, values = heads(self.policy, obs[idx])
                log_probs = masked_log_probs(logits, masks[idx])
                new = log_probs.gather(1, actions[idx, None]).squeeze(1)
                log_ratio = new - old_log_probs[idx]
                ratio = log_ratio.exp()
                a = advs[idx]
                if len(idx) > 1:
                    a = (a - a.mean()) / (a.std() + 1e-8)
                policy_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - s.clip_range, 1 + s.clip_range)).mean()
                value_loss = F.mse_loss(values, returns[idx])
                probs = log_probs.exp()
                entropy = -(probs * log_probs).where(masks[idx], torch.zeros(())).sum(-1).mean()
                loss = policy_loss + s.vf_coef * value_loss - s.ent_coef * entropy
                if ref_log_probs is not None:
                    ref = ref_log_probs[idx]
                    kl_ref = (ref.exp() * (ref - log_probs)).where(masks[idx], torch.zeros(())).sum(-1).mean()
                    loss = loss + s.kl_coef * kl_ref
                    stats["kl_to_reference"].append(kl_ref.item())
                self.optimizer.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                torch.nn.utils.clip_grad_norm_(self.policy.parameters(), s.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    stats["approx_kl"].append(((ratio - 1) - log_ratio).mean().item())
                    stats["clip_fraction"].append(((ratio - 1).abs() > s.clip_range).float().mean().item())
                stats["policy_loss"].append(policy_loss.item())
                stats["value_loss"].append(value_loss.item())
                stats["entropy"].append(entropy.item())
        self.policy.eval()
        explained = 1 - float(np.var(ret - rollout.values.numpy()) / (np.var(ret) + 1e-12))
        return {**{k: float(np.mean(v)) for k, v in stats.items() if v}, "explained_variance": explained}

    def _reference_log_probs(self, obs: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        assert self.reference is not None
        parts = []
        with torch.no_grad(), autocast(self.precision):
            for start in range(0, len(obs), 8192):
                parts.append(masked_log_probs(heads(self.reference, obs[start:start + 8192])[0], masks[start:start + 8192]))
        return torch.cat(parts)

    def learn(self, envs: LearnerEnvs, steps: int, on_rollout: Callable[[dict[str, float]], None] | None = None) -> None:
        """Collect and update until ``steps`` more decisions were played (whole rollouts);
        ``on_rollout`` gets each update's statistics."""
        target = self.num_timesteps + steps
        while self.num_timesteps < target:
            start = time.perf_counter()
            rollout = self.collect(envs, self.settings.n_steps)
            middle = time.perf_counter()
            stats = self.update(rollout)
            self.seconds["collect"] += middle - start
            self.seconds["update"] += time.perf_counter() - middle
            if on_rollout is not None:
                on_rollout(stats)
