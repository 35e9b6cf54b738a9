"""PPO on Ray RLlib: the same runs as :mod:`agents.training.sb3`, with env runners (and, if
wanted, learners) spread over Ray, on this machine or a cluster. Needs the ``rllib`` extra.

Two environments are registered with Ray's registry (:func:`register_envs`), both as they are,
with nothing to wrap or rename:

* ``"phase10_aec"``: the AEC game through RLlib's ``PettingZooEnv``, every seat played by one
  shared policy (``rllib.mode: selfplay``);
* ``"phase10_single"``: the single-agent view, one learner seat against opponents drawn per game
  from ``opponents.pool`` (``rllib.mode: single``); its observation is the AEC env's
  ``Dict(observation, action_mask)``.

Both are built so that an unmasked random action (RLlib's env check steps one) cannot crash
them: the AEC env with ``illegal_action="terminate"``, the single-agent view with
``illegal_action="penalize"``. :class:`MaskedPPOModule` reads ``observation`` and
``action_mask`` and never picks an illegal action. The final network is exported as
``runs/<name>/policy.pt``, which the ``rllib:PATH`` agent plays with torch alone.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
import yaml
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env
from tqdm import tqdm

from phase10_env import Phase10Env, raw_env

from ..policies.registry import make_agent
from ..policies.rllib_policy import MaskedActorCritic, masked_logits, save_policy
from ..ray_cluster import connect_ray
from . import rundir
from .config import RUNS_DIR, TrainConfig
from .opponents import OpponentPool
from .sb3 import TrainingRun

AEC_ENV = "phase10_aec"
SINGLE_ENV = "phase10_single"
SHARED_POLICY = "shared"


# ---------------------------------------------------------------------- environments

def _env_options(config: dict[str, Any]) -> dict[str, Any]:
    keys = ("num_players", "rules", "rewards", "episode", "start_phases", "max_steps")
    return {k: config[k] for k in keys if k in config}


def make_aec_env(config: dict[str, Any] | None = None) -> PettingZooEnv:
    """The AEC game as an RLlib multi-agent env; ``config``: ``raw_env`` options."""
    return PettingZooEnv(raw_env(illegal_action="terminate", **_env_options(dict(config or {}))))


class MaskedSingleAgentEnv(gymnasium.Wrapper):
    """The single-agent view with the AEC env's observation, ``Dict(observation, action_mask)``,
    so that the masking module reads the mask where it reads the observation."""

    def __init__(self, env: Phase10Env) -> None:
        super().__init__(env)
        self.observation_space = env.aec.observation_space(env.aec.possible_agents[0])

    def _observe(self, obs: np.ndarray, info: dict[str, Any]) -> dict[str, np.ndarray]:
        return {"observation": obs, "action_mask": info["action_mask"]}

    def reset(self, **kwargs: Any) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return self._observe(obs, info), info

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._observe(obs, info), float(reward), terminated, truncated, info


def make_single_env(config: dict[str, Any] | None = None) -> MaskedSingleAgentEnv:
    """The single-agent view against ``config["opponents"]`` (agent spec -> sampling weight)."""
    config = dict(config or {})
    pool = OpponentPool({spec: (make_agent(spec), float(w)) for spec, w in config.get("opponents", {"random": 1.0}).items()})
    return MaskedSingleAgentEnv(Phase10Env(opponents=pool, illegal_action="penalize", **_env_options(config)))


def register_envs() -> None:
    """Register both environments with Ray's registry (``config.environment("phase10_aec")``)."""
    register_env(AEC_ENV, make_aec_env)
    register_env(SINGLE_ENV, make_single_env)


# ---------------------------------------------------------------------- the module

class MaskedPPOModule(TorchRLModule, ValueFunctionAPI):
    """PPO's actor-critic over ``Dict(observation, action_mask)`` observations: the network of
    :class:`~agents.policies.rllib_policy.MaskedActorCritic` on ``observation``, illegal
    actions' logits set to the float minimum. ``model_config``: ``{"hiddens": [256, 256]}``."""

    def setup(self) -> None:
        obs_space = self.observation_space
        if not (isinstance(obs_space, gymnasium.spaces.Dict) and set(obs_space.spaces) == {"observation", "action_mask"}
                and isinstance(obs_space["observation"], gymnasium.spaces.Box)):
            raise ValueError(f"MaskedPPOModule needs Dict(observation=Box, action_mask) observations, not {obs_space}")
        self.obs_size = int(obs_space["observation"].shape[0])
        self.hiddens = list(self.model_config.get("hiddens", [256, 256]))
        self.net = MaskedActorCritic(self.obs_size, int(self.action_space.n), self.hiddens)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        logits, _ = self.net(obs["observation"])
        return {Columns.ACTION_DIST_INPUTS: masked_logits(logits, obs["action_mask"])}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        logits, values = self.net(obs["observation"])
        return {Columns.ACTION_DIST_INPUTS: masked_logits(logits, obs["action_mask"]), Columns.VF_PREDS: values}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        values: torch.Tensor = self.net(batch[Columns.OBS]["observation"])[1]
        return values


# ---------------------------------------------------------------------- the run

def algorithm_config(cfg: TrainConfig) -> PPOConfig:
    """RLlib's PPO config for a run: env, runners, learners, the masking module, hyperparameters."""
    r, e = cfg.rllib, cfg.env
    env_config: dict[str, Any] = {"num_players": e.num_players, "rules": e.rules, "rewards": e.rewards,
                                  "episode": e.episode, "start_phases": e.start_phases, "max_steps": e.max_steps}
    module = RLModuleSpec(module_class=MaskedPPOModule, model_config={"hiddens": list(r.hiddens)})
    config = (
        PPOConfig()
        .framework("torch")
        .env_runners(num_env_runners=r.num_env_runners, num_envs_per_env_runner=r.num_envs_per_env_runner,
                     num_cpus_per_env_runner=1)
        .learners(num_learners=r.num_learners)
        .training(train_batch_size_per_learner=r.train_batch_size // max(1, r.num_learners),
                  minibatch_size=r.minibatch_size, num_epochs=r.num_epochs, lr=r.lr, gamma=r.gamma,
                  lambda_=r.gae_lambda, entropy_coeff=r.entropy_coeff, vf_loss_coeff=r.vf_loss_coeff,
                  clip_param=r.clip_param, grad_clip=r.grad_clip)
        .debugging(seed=cfg.seed, log_level="ERROR")
    )
    if r.mode == "selfplay":
        return (config.environment(AEC_ENV, env_config=env_config)
                .multi_agent(policies={SHARED_POLICY}, policy_mapping_fn=_shared_policy)
                .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={SHARED_POLICY: module})))
    env_config["opponents"] = dict(cfg.opponents.pool)
    return config.environment(SINGLE_ENV, env_config=env_config).rl_module(rl_module_spec=module)


def _shared_policy(agent_id: str, episode: Any, **kwargs: Any) -> str:
    return SHARED_POLICY


class RLlibRun(TrainingRun):
    """A run directory laid out as the SB3 runs' (config.yaml, checkpoints/, tb/, eval.json,
    learning_curve.png, state.json), with the final network as ``policy.pt``."""

    def __init__(self, cfg: TrainConfig, runs_dir: Path = RUNS_DIR, address: str | None = None) -> None:
        super().__init__(cfg, runs_dir)
        self.address = address
        self.env_steps = 0
        self.module_id = SHARED_POLICY if cfg.rllib.mode == "selfplay" else "default_policy"

    def latest_checkpoint(self) -> Path | None:
        found = sorted(p for p in self.checkpoints.glob("step_*") if p.is_dir())
        return found[-1] if found else None

    def export_policy(self, algo: Any, path: Path) -> Path:
        module = algo.get_module(self.module_id)
        return save_policy(module.net, module.obs_size, int(module.action_space.n), module.hiddens, path)

    def save_checkpoint(self, algo: Any) -> Path:
        path = self.checkpoints / f"step_{self.env_steps:010d}"
        algo.save_to_path(str(path.resolve()))
        self.save_state()
        return path

    def save_state(self) -> None:
        (self.dir / "state.json").write_text(json.dumps({"env_steps": self.env_steps,
                                                         "curve": [p.__dict__ for p in self.curve]}, indent=1))

    @staticmethod
    def summary_text(summary: dict[str, Any]) -> str:
        return summary_table(summary)

    def eval_agent(self, algo: Any) -> str:
        """The agent spec that plays the policy: exported as ``eval_policy.pt`` during training,
        the final ``policy.pt`` once the algorithm has stopped (``algo`` None)."""
        path = self.export_policy(algo, self.dir / "eval_policy.pt") if algo is not None else self.dir / "policy.pt"
        return f"rllib:{path}"

    def save_best(self, algo: Any) -> None:
        shutil.copyfile(self.dir / "eval_policy.pt", self.dir / "best_policy.pt")

    def build_algo(self, checkpoint: Path | None = None) -> Any:
        """RLlib's PPO for this run (Ray must be up), restored from ``checkpoint`` if given."""
        register_envs()
        algo = algorithm_config(self.cfg).build_algo()
        if checkpoint is not None:
            algo.restore_from_path(str(checkpoint.resolve()))
        return algo

    def train(self, resume: bool = False, overwrite: bool = False, evaluate: bool = False) -> dict[str, Any]:
        """Train (``resume``: from the latest checkpoint; ``overwrite``: replacing a run already in
        the directory, see :mod:`agents.training.rundir`), evaluate, write the summary. A resumed
        run that has reached ``total_timesteps`` trains nothing, and evaluates again only with
        ``evaluate``."""
        cfg = self.cfg
        torch.set_num_threads(cfg.torch_threads)
        checkpoint = self.latest_checkpoint() if resume else None
        if resume and checkpoint is None:
            raise ValueError(f"nothing to resume: no RLlib checkpoint in {self.checkpoints}")
        done = rundir.finished(self.dir, int(checkpoint.name.split("_")[1]), cfg.total_timesteps, evaluate) \
            if checkpoint is not None else None
        if done is not None:
            print(self.summary_text(done))
            return done
        ray = connect_ray(self.address)
        rundir.prepare(self.dir, resume, overwrite)
        (self.dir / "config.yaml").write_text(yaml.safe_dump(cfg.to_dict(), sort_keys=False), encoding="utf-8")
        algo = self.build_algo(checkpoint)
        if checkpoint is not None:
            self.restore_state()
            self.env_steps = int(checkpoint.name.split("_")[1])
            print(f"resuming {cfg.name} from {checkpoint.name} ({self.env_steps:,} env steps)")
        print(f"RLlib PPO ({cfg.rllib.mode}) on Ray {ray.__version__} at {ray.get_runtime_context().gcs_address}: "
              f"{cfg.rllib.num_env_runners} env runners x {cfg.rllib.num_envs_per_env_runner} envs, "
              f"{f'{cfg.rllib.num_learners} learners' if cfg.rllib.num_learners else 'the learner in this process'}, "
              f"{int(ray.cluster_resources().get('CPU', 0))} CPUs in the cluster")
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(str(self.dir / "tb"))
        marks = {"checkpoint": cfg.checkpoint_every, "eval": cfg.eval.every}
        due = {k: (self.env_steps // every + 1) * every for k, every in marks.items() if every}
        first_step, start = self.env_steps, time.perf_counter()
        bar = tqdm(total=cfg.total_timesteps, initial=self.env_steps, desc=f"{cfg.name} (rllib)", unit="step")
        try:
            while self.env_steps < cfg.total_timesteps:
                result = algo.train()
                runners = result["env_runners"]
                sampled = runners.get("num_env_steps_sampled", 0)
                sampled = int(sampled) if np.isfinite(sampled) else 0  # NaN when no runner reported this iteration
                self.env_steps += sampled
                bar.update(sampled)
                returns = runners.get("episode_return_mean")
                if returns is not None and not np.isnan(returns):
                    writer.add_scalar("rollout/episode_return_mean", returns, self.env_steps)
                    bar.set_postfix(ret=f"{returns:.2f}")
                writer.add_scalar("time/env_steps_per_second", (self.env_steps - first_step) / (time.perf_counter() - start),
                                  self.env_steps)
                for kind in [k for k, step in due.items() if self.env_steps >= step]:
                    due[kind] = (self.env_steps // marks[kind] + 1) * marks[kind]
                    if kind == "checkpoint":
                        self.save_checkpoint(algo)
                    else:
                        results = self.evaluate(algo, cfg.eval.games, self.env_steps, seed=cfg.seed + self.env_steps)
                        for opponent, res in results.items():
                            writer.add_scalar(f"eval/win_rate_vs_{opponent}", res.entry_stats()[0].win_rate, self.env_steps)
                        self.keep_if_best(algo)
                        self.save_state()
                        self.plot_curve()
        finally:
            bar.close()
        learn_seconds = time.perf_counter() - start
        self.export_policy(algo, self.dir / "policy.pt")
        self.save_checkpoint(algo)
        algo.stop()
        print(f"final evaluation: {cfg.eval.final_games} games against each of {cfg.eval.opponents} ...")
        final = self.evaluate(None, cfg.eval.final_games, self.env_steps, seed=cfg.seed + 10**6, progress=True)
        for opponent, res in final.items():
            writer.add_scalar(f"eval/win_rate_vs_{opponent}", res.entry_stats()[0].win_rate, self.env_steps)
        writer.close()
        summary = {
            "name": cfg.name,
            "backend": "rllib",
            "model": str(self.dir / "policy.pt"),
            "env_steps": self.env_steps,
            "steps_this_session": self.env_steps - first_step,
            "train_seconds": learn_seconds,
            "env_steps_per_second": (self.env_steps - first_step) / learn_seconds if learn_seconds else 0.0,
            "num_env_runners": cfg.rllib.num_env_runners,
            "evaluation": {opp: r.to_json() for opp, r in final.items()},
            "learning_curve": [p.__dict__ for p in self.curve],
        }
        return self.finish(summary)


def summary_table(summary: dict[str, Any]) -> str:
    lines = [f"run {summary['name']} (rllib, {summary['num_env_runners']} env runners): {summary['env_steps']:,} env steps; "
             f"this session {summary['steps_this_session']:,} in {summary['train_seconds'] / 60:.1f} min "
             f"({summary['env_steps_per_second']:,.0f} env steps/s)",
             *rundir.evaluation_lines(summary["evaluation"])]
    lines.append(f"policy: {summary['model']}  (play it as rllib:{summary['model']}; torch alone, no Ray needed)")
    return "\n".join(lines)
