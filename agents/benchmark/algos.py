"""The benchmark's algorithms, each an adapter from a task, a seed, an env-step budget and its
hyperparameters (``configs/benchmark/<algo>.yaml``) to a trained agent, calling back at the
protocol's curve points so that the learning curve is measured by the same evaluation.

* ``ppo``: sb3-contrib's MaskablePPO (train extra);
* ``bc``: behaviour cloning of the heuristic (:mod:`agents.training.imitation`; train extra);
* ``dqn``: masked DQN in Tianshou 2.x (integrations extra, :mod:`.tianshou_dqn`);
* ``rllib-ppo``: PPO on Ray RLlib with the masking module of :mod:`agents.training.rllib`
  (rllib extra, in its own virtual environment, :mod:`.rllib_ppo`).
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phase10_env.policy import Policy

from .tasks import SELF_PLAY, Task, make_env

# Called at each curve point with the agent as it is and the env steps trained so far.
CurveHook = Callable[[Policy, int], None]

ALGOS: dict[str, tuple[str, tuple[str, ...], str]] = {  # name -> (label, modules it needs, extra to install)
    "ppo": ("MaskablePPO (SB3)", ("sb3_contrib", "torch"), "train"),
    "bc": ("BC of the heuristic", ("sb3_contrib", "torch"), "train"),
    "dqn": ("masked DQN (Tianshou)", ("tianshou",), "integrations"),
    "rllib-ppo": ("PPO (RLlib)", ("ray.rllib",), "rllib"),
}


@dataclass
class Trained:
    """What training left: the agent to evaluate, the env steps it used and the wall time of
    training alone (curve evaluations excluded), and where its model was saved."""

    agent: Policy
    env_steps: int
    train_seconds: float
    model: str | None = None
    notes: dict[str, Any] = field(default_factory=dict)


def require(algo: str) -> None:
    """Fail with the extra to install when ``algo``'s library is missing."""
    if algo not in ALGOS:
        raise ValueError(f"unknown algorithm {algo!r}; algorithms are {list(ALGOS)} (or --algo ref --agent SPEC)")
    label, modules, extra = ALGOS[algo]
    missing = [m for m in modules if not _importable(m)]
    if missing:
        where = " in a virtual environment of its own (ray[rllib] pins gymnasium 1.2.2; see README \"Scaling out\")" \
            if extra == "rllib" else ""
        raise ValueError(f"--algo {algo} ({label}) needs {', '.join(missing)}: pip install -e \".[{extra}]\"{where}")


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def curve_steps(budget: int, points: int) -> list[int]:
    """The env steps of the curve's evaluations during training: ``points`` evenly spaced, the
    last at the budget."""
    return [round(budget * (k + 1) / points) for k in range(points)]


def train(algo: str, task: Task, seed: int, budget: int, hp: dict[str, Any], marks: list[int], on_curve: CurveHook,
          model_dir: Path) -> Trained:
    """Train ``algo`` on ``task`` for ``budget`` env steps (see the module docstring)."""
    require(algo)
    if algo == "ppo":
        return train_ppo(task, seed, budget, hp, marks, on_curve, model_dir)
    if algo == "bc":
        return train_bc(task, seed, budget, hp, model_dir)
    if algo == "dqn":
        from .tianshou_dqn import train_dqn

        return train_dqn(task, seed, budget, hp, marks, on_curve, model_dir)
    from .rllib_ppo import train_rllib_ppo

    return train_rllib_ppo(task, seed, budget, hp, marks, on_curve, model_dir)


def _policy_agent(policy: Any, name: str, deterministic: bool = True) -> Policy:
    """A frozen agent of an sb3 policy, rebuilt from its weights (a trained policy's tensors
    do not all deep-copy)."""
    from ..policies.network import PolicyNetAgent

    clone = type(policy)(policy.observation_space, policy.action_space, lambda _: 0.0, net_arch=policy.net_arch)
    clone.load_state_dict(policy.state_dict())
    return PolicyNetAgent(clone, name=name, deterministic=deterministic)


def _new_ppo(env: Any, hp: dict[str, Any], seed: int) -> Any:
    from sb3_contrib import MaskablePPO

    keys = ("learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda", "ent_coef", "vf_coef",
            "clip_range", "max_grad_norm")
    return MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": list(hp["net_arch"])}, seed=seed, device="cpu",
                       verbose=0, **{k: hp[k] for k in keys if k in hp})


def train_ppo(task: Task, seed: int, budget: int, hp: dict[str, Any], marks: list[int], on_curve: CurveHook,
              model_dir: Path) -> Trained:
    """MaskablePPO on the task's env, ``n_envs`` in this process. PPO learns in whole rollouts,
    so each stretch ends at the first rollout boundary at or past its mark (the steps actually
    taken are what is reported). Self-play tasks: the opponents are a sampling copy of the
    learner, refreshed at every curve point."""
    import torch
    from stable_baselines3.common.vec_env import DummyVecEnv

    from ..training.sb3 import MaskedVecEnv

    torch.set_num_threads(1)
    venv = MaskedVecEnv(DummyVecEnv([lambda: make_env(task.id) for _ in range(int(hp["n_envs"]))]))
    venv.seed(seed)
    model = _new_ppo(venv, hp, seed)
    seconds = 0.0
    for mark in marks:
        if task.train_opponents == SELF_PLAY:
            venv.env_method("set_opponents", _policy_agent(model.policy, "self", deterministic=False))
        start = time.perf_counter()
        if mark > model.num_timesteps:
            model.learn(mark - model.num_timesteps, reset_num_timesteps=False)
        seconds += time.perf_counter() - start
        on_curve(_policy_agent(model.policy, "ppo"), model.num_timesteps)
    path = model_dir / "model.zip"
    model.save(path)
    venv.close()
    return Trained(_policy_agent(model.policy, "ppo"), model.num_timesteps, seconds, str(path))


def train_bc(task: Task, seed: int, budget: int, hp: dict[str, Any], model_dir: Path) -> Trained:
    """Record the teacher in every seat of full games of the task's player count until
    ``budget`` decisions are in (the excess of the last game dropped), then fit a MaskablePPO
    policy network to its choices."""
    import numpy as np
    import torch

    from ..training.imitation import Demonstrations, collect, join, pretrain

    torch.set_num_threads(1)
    start = time.perf_counter()
    parts: list[Demonstrations] = []
    batch = 0
    while sum(len(p) for p in parts) < budget:
        parts.append(collect(hp["teacher"], int(hp["games_per_batch"]), task.num_players, task.rules, task.rewards,
                             seed * 1_000 + batch, float(hp["gamma"]), workers=1))
        batch += 1
    demos = join(*parts)
    demos = Demonstrations(*(np.asarray(a)[:budget] for a in (demos.observations, demos.masks, demos.actions,
                                                                demos.returns)))
    model = _new_ppo(make_env(task.id), {"net_arch": hp["net_arch"]}, seed)
    report = pretrain(model.policy, demos, int(hp["epochs"]), int(hp["batch_size"]), float(hp["learning_rate"]), seed)
    path = model_dir / "model.zip"
    model.save(path)
    return Trained(_policy_agent(model.policy, "bc"), len(demos), time.perf_counter() - start, str(path),
                   {"teacher_accuracy": report["accuracy"]})
