"""PPO on Ray RLlib (the ``rllib`` extra, in its own virtual environment) on a task's
single-agent env, with the masking module of :mod:`agents.training.rllib`; the final network
is exported as ``policy.pt`` and evaluated as the ``rllib:PATH`` agent. Tasks with fixed
opponents only: RLlib's self-play (its multi-agent AEC env) counts every seat's actions, which
the protocol's budget does not."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.tune.registry import register_env

from ..play import connect_ray
from ..policies.rllib_policy import RLlibAgent, save_policy
from ..training.rllib import MaskedPPOModule, MaskedSingleAgentEnv
from .algos import CurveHook, Trained
from .tasks import SELF_PLAY, Task, make_env

ENV_NAME = "phase10_benchmark_task"


def _make(config: dict[str, Any]) -> MaskedSingleAgentEnv:
    return MaskedSingleAgentEnv(make_env(config["task"], illegal_action="penalize"))


def _export(algo: Any, path: Path) -> RLlibAgent:
    module = algo.get_module("default_policy")
    save_policy(module.net, module.obs_size, int(module.action_space.n), module.hiddens, path)
    return RLlibAgent(path)


def train_rllib_ppo(task: Task, seed: int, budget: int, hp: dict[str, Any], marks: list[int], on_curve: CurveHook,
                    model_dir: Path) -> Trained:
    """Train RLlib's PPO for ``budget`` env steps (in whole training batches)."""
    if task.train_opponents == SELF_PLAY:
        raise ValueError(f"rllib-ppo: {task.short} is a self-play task; this adapter trains against fixed opponents only")
    torch.set_num_threads(1)
    connect_ray(None)
    register_env(ENV_NAME, _make)
    config = (
        PPOConfig().framework("torch")
        .environment(ENV_NAME, env_config={"task": task.id})
        .env_runners(num_env_runners=int(hp["num_env_runners"]), num_envs_per_env_runner=int(hp["num_envs_per_env_runner"]),
                     num_cpus_per_env_runner=1)
        .training(train_batch_size_per_learner=int(hp["train_batch_size"]), minibatch_size=int(hp["minibatch_size"]),
                  num_epochs=int(hp["num_epochs"]), lr=float(hp["lr"]), gamma=float(hp["gamma"]),
                  lambda_=float(hp["gae_lambda"]), entropy_coeff=float(hp["entropy_coeff"]))
        .rl_module(rl_module_spec=RLModuleSpec(module_class=MaskedPPOModule, model_config={"hiddens": list(hp["hiddens"])}))
        .debugging(seed=seed, log_level="ERROR")
    )
    algo = config.build_algo()
    steps, seconds = 0, 0.0
    try:
        for mark in marks:
            started = time.perf_counter()
            while steps < mark:
                steps = int(algo.train().get("num_env_steps_sampled_lifetime") or steps)
            seconds += time.perf_counter() - started
            on_curve(_export(algo, model_dir / "eval_policy.pt"), steps)
        agent = _export(algo, model_dir / "policy.pt")
    finally:
        algo.stop()
    return Trained(agent, steps, seconds, str(model_dir / "policy.pt"))
