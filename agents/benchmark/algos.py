"""The built-in algorithms, registered under the contract of :mod:`.registry`:

* ``ppo``: sb3-contrib's MaskablePPO on the native core's games (train extra);
* ``bc``: behaviour cloning of the heuristic, its games played in the native core
  (:mod:`agents.training.vector_imitation`; train extra);
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

import itertools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from phase10_env.policy import Policy

from ..policies.registry import make_agent
from .registry import Algorithm, TrainContext, Trained, register

if TYPE_CHECKING:
    from ..training.imitation import Demonstrations

POLICY_FILE = "policy.zip"


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
    """MaskablePPO stepping ``n_envs`` of the task's games at once in the native core (the SB3
    vector env of :mod:`agents.training.sb3_vec`: the same games, opponents and self-play copies
    as ``masked-ppo``'s). PPO learns in whole rollouts, so each stretch ends at the first rollout
    boundary at or past its mark (the steps taken are what is reported). Self-play: a sampling
    copy of the learner, refreshed at every curve point."""
    import torch

    from ..policies.network import PolicyNetAgent
    from ..training.sb3_vec import NativeVecEnv
    from .masked_ppo_algo import core_settings, learner_envs

    torch.set_num_threads(1)
    hp, env = ctx.hyperparameters, core_settings(ctx.task)
    envs = learner_envs(ctx, env)
    model = _new_ppo(NativeVecEnv(envs, env.features), hp, ctx.seed)
    if ctx.self_play:
        envs.set_snapshots([model.policy])
    for mark in ctx.marks:
        if mark > model.num_timesteps:
            model.learn(mark - model.num_timesteps, reset_num_timesteps=False)
        ctx.checkpoint(PolicyNetAgent(model.policy, "ppo"), model.num_timesteps,
                       opponent=PolicyNetAgent(model.policy, "self", deterministic=False))
        if ctx.self_play:
            envs.set_snapshots([model.policy])
    agent, path = _saved_policy(model.policy, ctx.model_dir)
    return Trained(agent, model.num_timesteps, path)


def train_bc(ctx: TrainContext) -> Trained:
    """Record the heuristic in every seat of full games of the task's player count, played
    ``games_per_batch`` at a time in the native core, until ``budget`` decisions are in (the
    excess of the last batch dropped), then fit a MaskablePPO policy network to its choices. No
    curve: it learns from the decisions all at once."""
    import torch

    from ..training.imitation import pretrain
    from ..training.vector_imitation import collect
    from .masked_ppo_algo import core_settings

    torch.set_num_threads(1)
    hp, env = ctx.hyperparameters, core_settings(ctx.task)
    batches = (collect(env, int(hp["games_per_batch"]), ctx.seed * 1_000 + b, float(hp["gamma"]))
               for b in itertools.count())
    demos = first_decisions(batches, ctx.budget)
    model = _new_ppo(ctx.make_env(), {"net_arch": hp["net_arch"]}, ctx.seed)
    report = pretrain(model.policy, demos, int(hp["epochs"]), int(hp["batch_size"]), float(hp["learning_rate"]), ctx.seed)
    agent, path = _saved_policy(model.policy, ctx.model_dir)
    return Trained(agent, len(demos), path, {"teacher_accuracy": report["accuracy"]})


def first_decisions(batches: Iterable[Demonstrations], budget: int) -> Demonstrations:
    """The first ``budget`` decisions of ``batches``, copied into arrays of that size as they
    come (at the protocol's budgets the observations alone are gigabytes: no second copy)."""
    import numpy as np

    from ..training.imitation import Demonstrations

    arrays: list[np.ndarray] = []
    filled = 0
    for batch in batches:
        parts = (batch.observations, batch.masks, batch.actions, batch.returns)
        if not arrays:
            arrays = [np.empty((budget, *a.shape[1:]), a.dtype) for a in parts]
        take = min(len(batch), budget - filled)
        for whole, part in zip(arrays, parts):
            whole[filled:filled + take] = part[:take]
        filled += take
        if filled == budget:
            return Demonstrations(*arrays)
    raise ValueError(f"the batches ran out at {filled} decisions of the {budget} asked for")


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
