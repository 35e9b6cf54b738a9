"""A training run with the masked PPO of :mod:`.masked_ppo` (``backend: masked_ppo``): the same
config file, run directory (:mod:`.rundir`), resume, TensorBoard logs, evaluations and summary
as the SB3 backend's :class:`~.sb3.TrainingRun`, of which it is a subclass; what differs is
where the experience comes from. The learner's games are the native core's
(:class:`~.vector_opponents.LearnerEnvs`), the imitation's are too
(:mod:`.vector_imitation`), and checkpoints hold the weights and optimizer state
(``checkpoints/step_N.pt``). The final model is an SB3 model zip (``ppo:PATH`` plays it), and
the evaluations are tournaments, which play such a model in the core (the same games as
``phase10 eval`` plays).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from phase10_env.observation import observation_bounds

from ..policies.batched import BatchedPolicy
from ..policies.network import frozen_copy
from .imitation import join, pretrain
from .masked_ppo import MaskedPPO, new_policy
from .sb3 import Learner, TrainingRun, _load_state
from .vector_imitation import collect
from .vector_opponents import LearnerEnvs


class MaskedPPORun(TrainingRun):
    """``runs/<name>/`` trained by :class:`~.masked_ppo.MaskedPPO`; :meth:`train` does the work."""

    def latest_checkpoint(self) -> Path | None:
        found = sorted(self.checkpoints.glob("step_*.pt"))
        return found[-1] if found else None

    def save_checkpoint(self, model: Learner) -> Path:
        self.checkpoints.mkdir(parents=True, exist_ok=True)
        path = self.checkpoints / f"step_{model.num_timesteps:010d}.pt"
        torch.save(model.state(), path)
        self.save_state()
        return path

    def push_pool(self, venv: Any, model: Learner) -> None:
        push_snapshots(self, venv, model)

    def imitate(self, model: Learner) -> None:
        """Fit the heuristic's choices in batched games of the core, then DAgger rounds (the
        learner sampling one seat); the result is the learning curve's step 0."""
        im, cfg, seed = self.cfg.imitation, self.cfg, self.cfg.seed
        threads = cfg.eval.workers or torch.get_num_threads()
        precision = cfg.ppo.precision
        demos = collect(cfg.env, im.games, seed + 7, cfg.ppo.gamma)
        report = pretrain(model.policy, demos, im.epochs, im.batch_size, im.learning_rate, seed, threads, precision)
        rounds = []
        for r in range(im.dagger_rounds):
            player = BatchedPolicy(model.policy, deterministic=False, seed=seed + 100 + r)
            demos = join(demos, collect(cfg.env, im.dagger_games, seed + 100 + r, cfg.ppo.gamma, player=player))
            rounds.append(pretrain(model.policy, demos, im.dagger_epochs, im.batch_size, im.learning_rate, seed + r,
                                   threads, precision))
        report["dagger"] = rounds
        (self.dir / "imitation.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
        final = rounds[-1] if rounds else report
        print(f"imitated heuristic on {final['samples']:,} decisions: {100 * final['accuracy']:.1f}% of its choices matched")

    def train(self, resume: bool = False, overwrite: bool = False, evaluate: bool = False) -> dict[str, Any]:
        """As :meth:`TrainingRun.train <agents.training.sb3.TrainingRun.train>`."""
        cfg = self.cfg
        started = time.perf_counter()
        torch.set_num_threads(cfg.torch_threads)
        checkpoint, done = self.begin(resume, overwrite, evaluate)
        if done is not None:
            return done
        model = MaskedPPO(new_policy(observation_bounds(cfg.env.features)[0].shape[0], cfg.ppo.net_arch, cfg.ppo.learning_rate),
                          cfg.ppo, cfg.ppo.precision, cfg.seed)
        imitation_seconds = 0.0
        reference = self.checkpoints / "reference.pt"
        if checkpoint is not None:
            self.restore_state()
            model.load_state(torch.load(checkpoint, map_location="cpu"))
            if cfg.ppo.kl_coef > 0:
                if not reference.is_file():
                    raise ValueError(f"ppo.kl_coef needs the policy the run started from, {reference}, which this "
                                     f"run did not save: resume with ppo.kl_coef=0")
                model.set_reference(_load_state(reference))
            print(f"resuming {cfg.name} from {checkpoint.name} ({model.num_timesteps} steps)")
        else:
            imitation_seconds = self.start_policy(model, started)
            if cfg.ppo.kl_coef > 0:
                model.set_reference(None)
                self.checkpoints.mkdir(parents=True, exist_ok=True)
                torch.save(model.policy.state_dict(), reference)
        o = cfg.opponents
        envs = LearnerEnvs(cfg.env, cfg.vec_env.num_envs, o.pool, o.snapshot_weight, bool(o.snapshot_every),
                           cfg.seed + model.num_timesteps)
        self.push_pool(envs, model)
        first_step = model.num_timesteps
        rollout = cfg.ppo.n_steps * cfg.vec_env.num_envs
        remaining = -(-(cfg.total_timesteps - first_step) // rollout) * rollout
        start, evals_before = time.perf_counter(), self.eval_seconds
        if remaining > 0:
            print(f"training {remaining:,} steps ({remaining // rollout} rollouts of {rollout:,}; "
                  f"total_timesteps={cfg.total_timesteps:,}) with masked PPO in the native core ({cfg.ppo.precision})")
            periodic = _Periodic(self, envs, model, end=first_step + remaining, rollout=rollout)
            model.learn(envs, remaining, periodic)
            periodic.close()
        learn_seconds = time.perf_counter() - start - (self.eval_seconds - evals_before)  # PPO alone
        model.save(self.dir / "model.zip")
        self.save_checkpoint(model)
        print(f"final evaluation: {cfg.eval.final_games} games against each of {cfg.eval.opponents} ...")
        final = self.evaluate(model, cfg.eval.final_games, model.num_timesteps, seed=cfg.seed + 10**6, progress=True)
        seconds = {"imitation": imitation_seconds, "ppo": learn_seconds, "evaluation": self.eval_seconds,
                   "total": time.perf_counter() - started}
        return self.finish(self._summary(model, final, model.num_timesteps - first_step, seconds, envs.env_seconds))


def push_snapshots(run: TrainingRun, envs: LearnerEnvs, model: Learner) -> None:
    """Hand the self-play share of ``envs`` the pool's frozen copies (none yet: the learner as
    it is now)."""
    policies = []
    for name in run.pool_snapshots:
        policy = frozen_copy(model.policy)
        policy.load_state_dict(_load_state(run.checkpoints / f"{name}.pt"))
        policies.append(policy)
    envs.set_snapshots(policies or [model.policy])


class _Periodic:
    """After each rollout: TensorBoard scalars, then self-play snapshots, checkpoints and
    learning-curve points at their configured steps (as the SB3 backend's callback)."""

    def __init__(self, run: MaskedPPORun, envs: LearnerEnvs, model: MaskedPPO, end: int, rollout: int) -> None:
        from torch.utils.tensorboard import SummaryWriter

        self.run, self.envs, self.model = run, envs, model
        self.end, self.rollout = end, rollout
        cfg = run.cfg
        self.marks = {"snapshot": cfg.opponents.snapshot_every, "checkpoint": cfg.checkpoint_every, "eval": cfg.eval.every}
        now = model.num_timesteps
        self.next = {k: (now // every + 1) * every for k, every in self.marks.items() if every}
        self.writer = SummaryWriter(str(run.dir / "tb" / "masked_ppo"))
        self.clock = (time.perf_counter(), now)
        self.bar = tqdm(total=end - now, desc="masked PPO", unit="step", unit_scale=True)

    def __call__(self, stats: dict[str, float]) -> None:
        model, now = self.model, self.model.num_timesteps
        self.bar.update(now - self.clock[1])
        for key, value in stats.items():
            self.writer.add_scalar(f"train/{key}", value, now)
        if model.episode_returns:
            self.writer.add_scalar("rollout/ep_rew_mean", float(np.mean(model.episode_returns[-100:])), now)
            self.writer.add_scalar("rollout/ep_len_mean", float(np.mean(model.episode_lengths[-100:])), now)
        then, steps = self.clock
        self.writer.add_scalar("time/fps", (now - steps) / max(time.perf_counter() - then, 1e-9), now)
        self.clock = (time.perf_counter(), now)
        self.envs.draw_snapshot()
        for kind, due in list(self.next.items()):
            if now < due:
                continue
            self.next[kind] = due + self.marks[kind]
            if kind == "snapshot":
                self.run.add_snapshot(model)
                self.run.push_pool(self.envs, model)
            elif kind == "checkpoint":
                self.run.save_checkpoint(model)
            elif self.end - now >= self.rollout:
                results = self.run.evaluate(model, self.run.cfg.eval.games, now, seed=self.run.cfg.seed + now)
                for opponent, result in results.items():
                    self.writer.add_scalar(f"eval/win_rate_vs_{opponent}", result.entry_stats()[0].win_rate, now)
                self.run.keep_if_best(model)
                self.run.plot_curve()
        self.clock = (time.perf_counter(), now)

    def close(self) -> None:
        self.writer.close()
        self.bar.close()
