"""The built-in algorithms, registered under the contract of :mod:`.registry`:

* ``ppo``: sb3-contrib's MaskablePPO (train extra);
* ``bc``: behaviour cloning of the heuristic (:mod:`agents.training.imitation`; train extra);
* ``dqn``: masked DQN in Tianshou 2.x (integrations extra, :mod:`.tianshou_dqn`);
* ``masked-ppo``: the masked PPO of :mod:`agents.training.masked_ppo` on the native core
  (train extra, :mod:`.masked_ppo_algo`);
* ``rllib-ppo``: PPO on Ray RLlib with the masking module of :mod:`agents.training.rllib`
  (rllib extra, in its own virtual environment, :mod:`.rllib_ppo`).

Their libraries are imported when they train, so that listing them costs nothing. PPO and BC
evaluate the policy file they save (float16 weights, what ``ppo:PATH`` plays), so that the
file re-scores to the same episodes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from phase10_env.policy import Policy

from ..policies.registry import make_agent
from .registry import Algorithm, TrainContext, Trained, register

POLICY_FILE = "policy.zip"


def _sb3_policy_agent(policy: Any, name: str, deterministic: bool = True) -> Policy:
    """A frozen agent of an sb3 policy, rebuilt from its weights (a trained policy's tensors
    do not all deep-copy)."""
    from ..policies.network import PolicyNetAgent

    clone = type(policy)(policy.observation_space, policy.action_space, lambda _: 0.0, net_arch=policy.net_arch)
    clone.load_state_dict(policy.state_dict())
    return PolicyNetAgent(clone, name=name, deterministic=deterministic)


def _saved_policy(policy: Any, model_dir: Path) -> tuple[Policy, str]:
    """Save ``policy``'s weights (float16) and load them back: the agent the file plays."""
    from ..policies.network import save_policy

    path = save_policy(policy, model_dir / POLICY_FILE)
    return make_agent(f"ppo:{path}"), str(path)


def _new_ppo(env: Any, hp: dict[str, Any], seed: int) -> Any:
    from sb3_contrib import MaskablePPO

    keys = ("learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda", "ent_coef", "vf_coef",
            "clip_range", "max_grad_norm")
    return MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": list(hp["net_arch"])}, seed=seed, device="cpu",
                       verbose=0, **{k: hp[k] for k in keys if k in hp})


def train_ppo(ctx: TrainContext) -> Trained:
    """MaskablePPO on ``n_envs`` of the task's envs in this process. PPO learns in whole
    rollouts, so each stretch ends at the first rollout boundary at or past its mark (the
    steps taken are what is reported). Self-play: a sampling copy of the learner."""
    import torch
    from stable_baselines3.common.vec_env import DummyVecEnv

    from ..training.sb3 import MaskedVecEnv

    torch.set_num_threads(1)
    hp = ctx.hyperparameters
    venv = MaskedVecEnv(DummyVecEnv([ctx.make_env for _ in range(int(hp["n_envs"]))]))
    venv.seed(ctx.seed)
    model = _new_ppo(venv, hp, ctx.seed)
    for mark in ctx.marks:
        if mark > model.num_timesteps:
            model.learn(mark - model.num_timesteps, reset_num_timesteps=False)
        ctx.checkpoint(_sb3_policy_agent(model.policy, "ppo"), model.num_timesteps,
                       opponent=_sb3_policy_agent(model.policy, "self", deterministic=False))
    venv.close()
    agent, path = _saved_policy(model.policy, ctx.model_dir)
    return Trained(agent, model.num_timesteps, path)


def train_bc(ctx: TrainContext) -> Trained:
    """Record the teacher in every seat of full games of the task's player count until
    ``budget`` decisions are in (the excess of the last game dropped), then fit a MaskablePPO
    policy network to its choices. No curve: it learns from the decisions all at once."""
    import numpy as np
    import torch

    from ..training.imitation import Demonstrations, collect, join, pretrain

    torch.set_num_threads(1)
    hp, task = ctx.hyperparameters, ctx.task
    parts: list[Demonstrations] = []
    while sum(len(p) for p in parts) < ctx.budget:
        parts.append(collect(hp["teacher"], int(hp["games_per_batch"]), task.num_players, task.rules_config(),
                             task.rewards, ctx.seed * 1_000 + len(parts), float(hp["gamma"]), workers=1))
    demos = join(*parts)
    demos = Demonstrations(*(np.asarray(a)[:ctx.budget] for a in (demos.observations, demos.masks, demos.actions,
                                                                   demos.returns)))
    model = _new_ppo(ctx.make_env(), {"net_arch": hp["net_arch"]}, ctx.seed)
    report = pretrain(model.policy, demos, int(hp["epochs"]), int(hp["batch_size"]), float(hp["learning_rate"]), ctx.seed)
    agent, path = _saved_policy(model.policy, ctx.model_dir)
    return Trained(agent, len(demos), path, {"teacher_accuracy": report["accuracy"]})


def load_sb3_policy(path: str, hyperparameters: Mapping[str, Any]) -> Policy:
    return make_agent(f"ppo:{path}")


def train_dqn(ctx: TrainContext) -> Trained:
    from .tianshou_dqn import train_dqn as train

    return train(ctx)


def load_dqn(path: str, hyperparameters: Mapping[str, Any]) -> Policy:
    from .tianshou_dqn import load_qnet

    return load_qnet(path, hyperparameters)


def train_masked_ppo(ctx: TrainContext) -> Trained:
    from .masked_ppo_algo import train_masked_ppo as train

    return train(ctx)


def train_rllib_ppo(ctx: TrainContext) -> Trained:
    from .rllib_ppo import train_rllib_ppo as train

    return train(ctx)


def load_rllib_policy(path: str, hyperparameters: Mapping[str, Any]) -> Policy:
    return make_agent(f"rllib:{path}")


SB3 = ("sb3_contrib", "torch")
register(Algorithm("ppo", "MaskablePPO (SB3)", train_ppo, SB3, "train", load=load_sb3_policy))
register(Algorithm("bc", "BC of the heuristic", train_bc, SB3, "train", load=load_sb3_policy))
register(Algorithm("masked-ppo", "masked PPO (native core)", train_masked_ppo, SB3, "train", load=load_sb3_policy))
register(Algorithm("dqn", "masked DQN (Tianshou)", train_dqn, ("tianshou",), "integrations", load=load_dqn))
register(Algorithm("rllib-ppo", "PPO (RLlib)", train_rllib_ppo, ("ray.rllib",), "rllib", load=load_rllib_policy))
