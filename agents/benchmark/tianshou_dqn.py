"""Masked DQN in Tianshou 2.x (the ``integrations`` extra) on a task's single-agent env.

Tianshou's Q-learning policy masks actions when the observation is ``{"obs", "mask"}``
(:class:`MaskedObservation` gives it that): the greedy action, the exploration's random
actions and the bootstrap target all stay among the legal actions. Self-play tasks: the
opponents are a greedy copy of the Q-network, refreshed at every curve point.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.utils.net.common import Net
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode

from phase10_env import NUM_ACTIONS, OBS_SIZE, Phase10Env
from phase10_env.policy import PlayerObservation

from .registry import TrainContext, Trained


class MaskedObservation(gymnasium.Wrapper):
    """The observation as ``{"obs": vector, "mask": legal actions}``, as Tianshou masks it."""

    def __init__(self, env: Phase10Env) -> None:
        super().__init__(env)
        self.observation_space = gymnasium.spaces.Dict(
            {"obs": env.observation_space, "mask": gymnasium.spaces.MultiBinary(NUM_ACTIONS)})

    def reset(self, **kwargs: Any) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return {"obs": obs, "mask": info["action_mask"]}, info

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return {"obs": obs, "mask": info["action_mask"]}, float(reward), terminated, truncated, info


class QNetAgent:
    """Plays a frozen copy of a Q-network: the legal action of highest value."""

    needs_view = False

    def __init__(self, net: torch.nn.Module, name: str = "dqn") -> None:
        self.net = copy.deepcopy(net).eval()
        self.name = name

    def act(self, obs: PlayerObservation) -> int:
        legal = obs.legal_actions
        with torch.no_grad():
            q, _ = self.net(torch.as_tensor(obs.observation, dtype=torch.float32).unsqueeze(0))
        return int(legal[np.argmax(q[0].numpy()[legal])])


def train_dqn(ctx: TrainContext) -> Trained:
    """Train a masked DQN for ``budget`` env steps (collected in chunks of ``collect_steps``;
    the steps actually collected are reported), with a linearly decaying epsilon. Self-play:
    a greedy copy of the Q-network."""
    torch.set_num_threads(1)
    torch.manual_seed(ctx.seed)
    hp, budget = ctx.hyperparameters, ctx.budget
    envs_made: list[Phase10Env] = []

    def factory() -> MaskedObservation:
        env = ctx.make_env()
        envs_made.append(env)
        return MaskedObservation(env)

    envs = DummyVectorEnv([factory for _ in range(int(hp["n_envs"]))])
    envs.seed(ctx.seed)
    probe = envs_made[0]
    net = Net(state_shape=(OBS_SIZE,), action_shape=NUM_ACTIONS, hidden_sizes=list(hp["hidden_sizes"]))
    policy = DiscreteQLearningPolicy(model=net, action_space=probe.action_space, eps_training=float(hp["eps_train_start"]),
                                     eps_inference=0.0)
    algorithm = DQN(policy=policy, optim=AdamOptimizerFactory(lr=float(hp["learning_rate"])), gamma=float(hp["gamma"]),
                    target_update_freq=int(hp["target_update_freq"]))
    buffer = VectorReplayBuffer(int(hp["buffer_size"]), len(envs))
    collector = Collector[CollectStats](algorithm, envs, buffer, exploration_noise=True)
    decay = max(1.0, float(hp["eps_decay_fraction"]) * budget)
    start_eps, end_eps = float(hp["eps_train_start"]), float(hp["eps_train_end"])
    steps = 0
    collector.reset()
    for mark in ctx.marks:
        while steps < mark:
            policy.set_eps_training(start_eps + (end_eps - start_eps) * min(1.0, steps / decay))
            steps += collector.collect(n_step=int(hp["collect_steps"])).n_collected_steps
            if len(buffer) >= int(hp["batch_size"]):
                with policy_within_training_step(algorithm.policy), torch_train_mode(algorithm.policy):
                    for _ in range(int(hp["updates_per_collect"])):
                        algorithm.update(buffer=buffer, sample_size=int(hp["batch_size"]))
        ctx.checkpoint(QNetAgent(net), steps, opponent=QNetAgent(net, "self"))
    path = ctx.model_dir / "qnet.pt"
    torch.save(net.state_dict(), path)
    envs.close()
    return Trained(QNetAgent(net), steps, str(path))


def load_qnet(path: str, hyperparameters: Mapping[str, Any]) -> QNetAgent:
    """The greedy agent of a Q-network saved by :func:`train_dqn` (``hidden_sizes`` from the
    hyperparameters it was trained with)."""
    net = Net(state_shape=(OBS_SIZE,), action_shape=NUM_ACTIONS, hidden_sizes=list(hyperparameters["hidden_sizes"]))
    net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return QNetAgent(net)
