"""Tianshou (2.x) takes the AEC env as it is: a masked DQN learns for a few hundred steps in one
seat against Tianshou's masked random player, and never picks an illegal move."""

from __future__ import annotations

import numpy as np
import pytest

from tests.integrations._require import require

pytestmark = pytest.mark.integrations
require("tianshou")

import torch  # noqa: E402
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.env.pettingzoo_env import PettingZooEnv  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode  # noqa: E402

from phase10_env import env as phase10  # noqa: E402


def make_env() -> PettingZooEnv:
    return PettingZooEnv(phase10(num_players=2, phases_to_win=1))  # short games: a game ends at the first phase made


def test_masked_dqn_learns_in_one_seat_and_plays_only_legal_moves() -> None:
    torch.manual_seed(0)
    env = make_env()
    obs_space = env.observation_space["observation"]
    net = Net(state_shape=obs_space.shape, action_shape=env.action_space.n, hidden_sizes=[64])
    learner = DQN(policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.2,
                                                 eps_inference=0.0),
                  optim=AdamOptimizerFactory(lr=1e-3), gamma=0.99, target_update_freq=50)
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, opponent], env=env)
    envs = DummyVectorEnv([make_env for _ in range(2)])
    envs.seed(0)
    buffer = VectorReplayBuffer(2000, len(envs))
    collector = Collector[CollectStats](algorithm, envs, buffer, exploration_noise=True)
    collector.reset()
    before = [p.detach().clone() for p in net.parameters()]
    steps = 0
    while steps < 400:
        steps += collector.collect(n_step=40).n_collected_steps
        with policy_within_training_step(algorithm.policy), torch_train_mode(algorithm.policy):  # as its trainer does
            algorithm.update(buffer=buffer, sample_size=32)
    assert any(not torch.equal(a, b) for a, b in zip(before, net.parameters())), "the Q-network was updated"
    data = buffer.sample(0)[0]  # every stored transition
    masks = np.asarray(data.obs.mask, dtype=bool)
    actions = np.asarray(data.act, dtype=int)
    assert len(actions) >= 400
    assert masks[np.arange(len(actions)), actions].all(), "every move taken was legal"
    seats = np.asarray(data.obs.agent_id)
    assert set(seats) == {"player_0", "player_1"}, "both seats moved"
