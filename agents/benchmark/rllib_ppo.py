"""PPO on Ray RLlib (the ``rllib`` extra, in its own virtual environment) on a task's
single-agent env, with the masking module of :mod:`agents.training.rllib`; the final network
is exported as ``policy.pt`` and evaluated as the ``rllib:PATH`` agent.

Self-play tasks run on the same single-agent env, as the other adapters do: the other seats
hold a copy of the learner (sampling its moves), sent to every env runner at every curve
point, so the budget counts the learner's actions alone (RLlib's multi-agent AEC env would
count every seat's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.tune.registry import register_env

from ..policies.rllib_policy import RLlibAgent, policy_data, save_policy
from ..ray_cluster import connect_ray
from ..training.rllib import MaskedPPOModule, MaskedSingleAgentEnv
from .registry import TrainContext, Trained
from .tasks import Task, make_env

ENV_NAME = "phase10_benchmark_task"


def _make(config: dict[str, Any]) -> MaskedSingleAgentEnv:
    return MaskedSingleAgentEnv(make_env(config["task"], illegal_action="penalize"))


def _export(algo: Any, path: Path) -> RLlibAgent:
    module = algo.get_module("default_policy")
    save_policy(module.net, module.obs_size, int(module.action_space.n), module.hiddens, path)
    return RLlibAgent(path)


def _runner_envs(runner: Any) -> list[Any]:
    """The envs an env runner samples from (none on the driver's runner when remote ones sample)."""
    return [] if runner.env is None else list(runner.env.unwrapped.envs)


def _send_self_play_opponents(algo: Any, seed: int) -> int:
    """Give every env of every env runner a copy of the learner as its opponents (each copy
    samples its moves with its own seeded generator); returns how many envs got one."""
    module = algo.get_module("default_policy")
    data = policy_data(module.net, module.obs_size, int(module.action_space.n), module.hiddens)

    def send(runner: Any) -> int:
        envs = _runner_envs(runner)
        for i, env in enumerate(envs):
            copy = RLlibAgent(data, deterministic=False, name="self")
            copy.seed(int(np.random.SeedSequence([seed, runner.worker_index, i]).generate_state(1)[0]))
            env.unwrapped.set_opponents(copy)
        return len(envs)

    return sum(algo.env_runner_group.foreach_env_runner(send))


def opponent_names(algo: Any) -> list[list[str]]:
    """For every env of every env runner, the names of its opponents ("random" for random legal moves)."""

    def names(runner: Any) -> list[list[str]]:
        return [[getattr(p, "name", "random") if p is not None else "random" for p in env.unwrapped.opponents]
                for env in _runner_envs(runner)]

    return [env for per_runner in algo.env_runner_group.foreach_env_runner(names) for env in per_runner]


def build_ppo(task: Task, seed: int, hp: dict[str, Any]) -> Any:
    """RLlib's PPO on ``task``'s single-agent env with the settings ``hp``, built on the Ray this
    process is connected to (a local one started if none)."""
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
    return config.build_algo()


def train_rllib_ppo(ctx: TrainContext) -> Trained:
    """Train RLlib's PPO for ``budget`` env steps (in whole training batches). The envs live in
    the env runners, not here: the self-play copies are sent to them after each checkpoint."""
    algo = build_ppo(ctx.task, ctx.seed, ctx.hyperparameters)
    steps = 0
    try:
        for n, mark in enumerate(ctx.marks):
            while steps < mark:
                steps = int(algo.train().get("num_env_steps_sampled_lifetime") or steps)
            ctx.checkpoint(_export(algo, ctx.model_dir / "eval_policy.pt"), steps)
            if ctx.self_play and not _send_self_play_opponents(algo, ctx.seed * 1_000 + n):
                raise RuntimeError("rllib-ppo: no env runner holds an env to give the self-play opponents to")
        agent = _export(algo, ctx.model_dir / "policy.pt")
    finally:
        algo.stop()
    return Trained(agent, steps, str(ctx.model_dir / "policy.pt"))
