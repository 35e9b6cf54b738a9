"""Warm start by imitation: record a teacher agent (the heuristic) playing against itself, then
fit the policy network to its choices (masked cross-entropy) and the value network to the
returns the seat went on to receive. DAgger rounds then let the network play one seat against
the teacher, label every position it reached with the teacher's choice, and fit again, so the
network also learns what to do in the positions its own mistakes lead to. PPO then starts from a
player that already knows the game instead of from random play."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from tqdm import tqdm

from phase10_env import raw_env
from phase10_env.engine.config import RulesSpec
from phase10_env.play import play
from phase10_env.rewards import RewardsSpec

from ..evaluation.tournament import game_seed
from ..policies.network import Sb3Policy
from ..policies.registry import cached_agent, forget_agents
from ..pool import parallel_map


@dataclass
class Demonstrations:
    observations: np.ndarray  # float32 [N, obs]
    masks: np.ndarray  # bool [N, actions]
    actions: np.ndarray  # int64 [N]
    returns: np.ndarray  # float32 [N]: discounted reward that followed each decision

    def __len__(self) -> int:
        return len(self.actions)


def _play(args: tuple[str, str | None, int, RulesSpec, RewardsSpec, str, int, float, int]) -> Demonstrations:
    teacher_spec, player_spec, num_players, rules, rewards, features, seed, gamma, index = args
    teacher = cached_agent(teacher_spec)
    player = cached_agent(player_spec) if player_spec else None
    for i, policy in enumerate((teacher, player)):
        if policy is not None and hasattr(policy, "seed"):
            policy.seed(game_seed(seed, index, i))
    env = raw_env(num_players=num_players, rules=rules, rewards=rewards, features=features, max_steps=50_000)
    env.reset(seed=game_seed(seed, index))
    player_agent = env.possible_agents[index % num_players] if player else None
    obs, masks, actions, owner = [], [], [], []
    rewards_after: dict[str, list[float]] = {a: [] for a in env.possible_agents}

    def credit(agent: str) -> None:
        """Add what ``agent`` received since its last decision to that decision's reward."""
        if rewards_after[agent]:
            rewards_after[agent][-1] += env.cumulative_reward(agent)

    def choose(agent: str) -> int:
        credit(agent)
        seen = env.player_observation(agent)
        label = teacher.act(seen)
        obs.append(seen.observation)
        masks.append(seen.action_mask.astype(bool))
        actions.append(label)
        owner.append(agent)
        rewards_after[agent].append(0.0)
        return player.act(seen) if player is not None and agent == player_agent else label

    play(env, choose, on_done=credit)
    returns = np.zeros(len(actions), dtype=np.float32)
    for agent, rewards_list in rewards_after.items():
        idx = [i for i, a in enumerate(owner) if a == agent]
        g = 0.0
        for i, r in zip(reversed(idx), reversed(rewards_list)):
            g = r + gamma * g
            returns[i] = g
    return Demonstrations(np.array(obs, dtype=np.float32), np.array(masks), np.array(actions, dtype=np.int64), returns)


def collect(teacher: str, games: int, num_players: int, rules: RulesSpec, rewards: RewardsSpec, seed: int, gamma: float,
            workers: int | None = None, features: str = "standard", player: str | None = None) -> Demonstrations:
    """The teacher's choice at every decision of ``games`` games. The teacher plays every seat,
    or, with ``player`` (an agent name), all but one seat, ``player`` holding that one (it
    rotates): the teacher then labels the positions ``player`` reaches, too."""
    forget_agents()
    jobs = [(teacher, player, num_players, rules, rewards, features, seed, gamma, g) for g in range(games)]
    desc = f"recording {teacher}" + (f" against {player}" if player else "")
    return join(*parallel_map(_play, jobs, workers, desc=desc))


def pretrain(policy: Sb3Policy, demos: Demonstrations, epochs: int, batch_size: int, learning_rate: float, seed: int,
             threads: int = 1, precision: str = "fp32") -> dict[str, Any]:
    """Fit ``policy`` (a MaskablePPO policy) to the demonstrations on ``threads`` torch threads
    (nothing else runs meanwhile, so the run's cores), its forward passes at ``precision`` (see
    :mod:`.precision`); returns the final accuracy (share of the teacher's choices the network's
    most likely action matches) and losses."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        return _fit(policy, demos, epochs, batch_size, learning_rate, seed, precision)
    finally:
        torch.set_num_threads(before)


def _fit(policy: Sb3Policy, demos: Demonstrations, epochs: int, batch_size: int, learning_rate: float,
         seed: int, precision: str) -> dict[str, Any]:
    import torch

    from .precision import autocast

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    obs = torch.as_tensor(demos.observations)
    masks = torch.as_tensor(demos.masks)
    actions = torch.as_tensor(demos.actions)
    returns = torch.as_tensor(demos.returns)
    n = len(demos)
    history: list[dict[str, float]] = []
    policy.train()
    for epoch in tqdm(range(epochs), desc="imitation", unit="epoch"):
        order = torch.as_tensor(rng.permutation(n))
        totals = np.zeros(3)
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            with autocast(precision):
                features = policy.extract_features(obs[idx], policy.pi_features_extractor)
                latent_pi, latent_vf = policy.mlp_extractor(features)
                logits = policy.action_net(latent_pi).float().masked_fill(~masks[idx], -1e9)
                values = policy.value_net(latent_vf).float().squeeze(-1)
            policy_loss = torch.nn.functional.cross_entropy(logits, actions[idx])
            value_loss = torch.nn.functional.mse_loss(values, returns[idx])
            loss = policy_loss + 0.5 * value_loss
            optimizer.zero_grad()
            torch.autograd.backward(loss)
            optimizer.step()
            hits = (logits.argmax(-1) == actions[idx]).sum().item()
            totals += (policy_loss.item() * len(idx), value_loss.item() * len(idx), hits)
        history.append({"epoch": epoch + 1, "policy_loss": totals[0] / n, "value_loss": totals[1] / n, "accuracy": totals[2] / n})
    policy.eval()
    return {"samples": n, "history": history, **history[-1]}


def join(*parts: Demonstrations) -> Demonstrations:
    """The demonstrations of all ``parts`` in one set."""
    return Demonstrations(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(Demonstrations)))
