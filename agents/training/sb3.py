"""Self-play training with sb3-contrib's MaskablePPO on the single-agent view.

One learner seat (random each game) plays against opponents drawn per game from a pool
(random, heuristic, and frozen copies of the learner added as it trains). Everything a run
makes goes to ``runs/<name>/``: the config used, checkpoints (with the pool's copies), the final
model, TensorBoard logs, the learning curve (JSON and PNG, win rate against random and
heuristic over training steps) and the final evaluation.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import gymnasium
import numpy as np
import yaml
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecEnvWrapper, VecMonitor
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

from phase10_env import Phase10Env

from ..evaluation.tournament import TournamentResult, run_tournament
from ..plotting import pyplot
from ..policies.registry import make_agent
from . import rundir
from .config import RUNS_DIR, TrainConfig
from .opponents import OpponentPool, PolicySnapshot

if TYPE_CHECKING:
    from .sb3_vec import NativeVecEnv


def _set_torch_threads(n: int) -> None:
    import torch

    torch.set_num_threads(n)


def _make_env(cfg: TrainConfig) -> Phase10Env:
    _set_torch_threads(cfg.torch_threads)
    e = cfg.env
    return Phase10Env(num_players=e.num_players, rules=e.rules, rewards=e.rewards, episode=e.episode,
                      start_phases=e.start_phases, features=e.features, max_steps=e.max_steps)


#: The model a run trains, as the run's methods take it: an sb3 algorithm here; the RLlib run
#: (:mod:`.rllib`), which overrides them, passes Ray's ``Algorithm`` (or None: the policy it
#: exported last).
Learner: TypeAlias = Any


class MaskedVecEnv(VecEnvWrapper):
    """Serves ``action_masks`` from the masks each step already returns (one round trip per
    step instead of two for subprocess envs) and clocks the time spent stepping the envs."""

    def __init__(self, venv: VecEnv) -> None:
        super().__init__(venv)
        self.env_seconds = 0.0
        self._masks: np.ndarray | None = None

    def reset(self) -> VecEnvObs:
        start = time.perf_counter()
        obs = self.venv.reset()
        self._masks = np.stack([info["action_mask"] for info in self.venv.reset_infos])
        self.env_seconds += time.perf_counter() - start
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._start = time.perf_counter()
        self.venv.step_async(actions)

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, dones, infos = self.venv.step_wait()
        self._masks = np.stack([(self.venv.reset_infos[i] if done else info)["action_mask"]
                                for i, (done, info) in enumerate(zip(dones, infos))])
        self.env_seconds += time.perf_counter() - self._start
        return obs, rewards, dones, infos

    def env_method(self, method_name: str, *args: Any, indices: VecEnvIndices = None, **kwargs: Any) -> list[Any]:
        if method_name == "action_masks" and indices is None and self._masks is not None:
            return list(self._masks)
        return self.venv.env_method(method_name, *args, indices=indices, **kwargs)

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or self.venv.has_attr(attr_name)


class AnchoredMaskablePPO(MaskablePPO):
    """MaskablePPO that, with ``kl_coef`` > 0, ends every update with one pass over the rollout
    minimising ``kl_coef`` x KL(reference || policy) on the positions just played, where the
    reference is a frozen copy of the policy PPO started from (the imitation): the policy may
    move where the advantages say so, but is pulled back toward the teacher's play elsewhere."""

    kl_coef: float = 0.0
    reference: Any = None  # the frozen policy (set by the run, not saved in the model's zip)

    def _excluded_save_params(self) -> list[str]:
        return [*super()._excluded_save_params(), "reference"]

    def set_reference(self, state_dict: dict[str, Any] | None, kl_coef: float) -> None:
        """Anchor to a policy with the learner's shape and these weights (None: to the learner
        as it is now)."""
        import copy

        self.kl_coef = kl_coef
        self.reference = copy.deepcopy(self.policy)
        if state_dict is not None:
            self.reference.load_state_dict(state_dict)
        self.reference.set_training_mode(False)
        for p in self.reference.parameters():
            p.requires_grad_(False)

    def train(self) -> None:
        super().train()
        if self.kl_coef > 0 and self.reference is not None:
            self.logger.record("train/kl_to_reference", self._anchor_pass())

    def _anchor_pass(self) -> float:
        import torch

        # sb3's types say masks are numpy arrays and distributions lists or categoricals; here they
        # are the rollout buffer's tensors and one categorical, as the library passes them itself.
        policy: Any = self.policy
        policy.set_training_mode(True)
        kls = []
        for batch in self.rollout_buffer.get(self.batch_size):
            masks = batch.action_masks.bool()
            with torch.no_grad():
                ref = self.reference.get_distribution(batch.observations, action_masks=batch.action_masks)
                ref_logp = torch.log_softmax(ref.distribution.logits, -1)
            logp = torch.log_softmax(policy.get_distribution(batch.observations, action_masks=batch.action_masks)
                                     .distribution.logits, -1)
            kl = torch.where(masks, ref_logp.exp() * (ref_logp - logp), torch.zeros_like(logp)).sum(-1).mean()
            policy.optimizer.zero_grad()
            torch.autograd.backward(self.kl_coef * kl)
            torch.nn.utils.clip_grad_norm_(policy.parameters(), self.max_grad_norm)
            policy.optimizer.step()
            kls.append(kl.item())
        policy.set_training_mode(False)
        return float(np.mean(kls))


@dataclass
class CurvePoint:
    step: int
    opponent: str
    games: int
    win_rate: float
    ci95: tuple[float, float]


class TrainingRun:
    """A run directory and everything in it; :meth:`train` does the work."""

    def __init__(self, cfg: TrainConfig, runs_dir: Path = RUNS_DIR) -> None:
        self.cfg = cfg
        self.dir = runs_dir / cfg.name
        self.checkpoints = self.dir / "checkpoints"
        self.curve: list[CurvePoint] = []
        self.pool_snapshots: list[str] = []
        self.eval_seconds = 0.0  # wall time spent in evaluations so far this session

    # ------------------------------------------------------------------ setup

    def _vec_env(self) -> tuple[VecMonitor, MaskedVecEnv | NativeVecEnv]:
        """The envs PPO steps (with episode statistics for TensorBoard's ``rollout/``
        scalars), and the wrapper inside it that clocks the time spent in them."""
        cfg = self.cfg
        if cfg.vec_env.kind == "native":
            from .sb3_vec import NativeVecEnv
            from .vector_opponents import LearnerEnvs

            o = cfg.opponents
            native = NativeVecEnv(LearnerEnvs(cfg.env, cfg.vec_env.num_envs, o.pool, o.snapshot_weight,
                                              bool(o.snapshot_every), cfg.seed), cfg.env.features)
            return VecMonitor(native), native
        fns: list[Callable[[], gymnasium.Env[Any, Any]]] = [lambda: _make_env(cfg) for _ in range(cfg.vec_env.num_envs)]
        venv = SubprocVecEnv(fns) if cfg.vec_env.kind == "subproc" else DummyVecEnv(fns)
        venv.seed(cfg.seed)
        masked = MaskedVecEnv(venv)
        return VecMonitor(masked), masked

    def _new_model(self, venv: VecEnv) -> AnchoredMaskablePPO:
        p = self.cfg.ppo
        return AnchoredMaskablePPO(
            "MlpPolicy", venv, learning_rate=p.learning_rate, n_steps=p.n_steps, batch_size=p.batch_size,
            n_epochs=p.n_epochs, gamma=p.gamma, gae_lambda=p.gae_lambda, ent_coef=p.ent_coef, vf_coef=p.vf_coef,
            clip_range=p.clip_range, max_grad_norm=p.max_grad_norm, policy_kwargs={"net_arch": list(p.net_arch)},
            tensorboard_log=str(self.dir / "tb"), seed=self.cfg.seed, device="cpu", verbose=0)

    def latest_checkpoint(self) -> Path | None:
        found = sorted(self.checkpoints.glob("step_*.zip"))
        return found[-1] if found else None

    def pool(self, model: Learner) -> OpponentPool:
        """The opponent pool: the configured agents plus the learner's frozen copies."""
        o = self.cfg.opponents
        pool = OpponentPool({name: (make_agent(name), w) for name, w in o.pool.items()})
        if self.pool_snapshots:
            weight = o.snapshot_weight / len(self.pool_snapshots)
            for name in self.pool_snapshots:
                snapshot = PolicySnapshot(model.policy, name)
                snapshot.policy.load_state_dict(_load_state(self.checkpoints / f"{name}.pt"))
                pool.add(name, snapshot, weight)
        return pool

    def push_pool(self, venv: VecEnv, model: Learner) -> None:
        """Give every env its own copy of the current pool (the native games: the self-play
        share its frozen copies)."""
        if self.cfg.vec_env.kind == "native":
            from .masked_ppo_run import push_snapshots

            push_snapshots(self, venv.unwrapped.envs, model)  # type: ignore[attr-defined]
            return
        for i in range(venv.num_envs):
            venv.env_method("set_opponents", self.pool(model), indices=[i])

    # ------------------------------------------------------------------ saving

    def save_checkpoint(self, model: Learner) -> Path:
        self.checkpoints.mkdir(parents=True, exist_ok=True)
        path = self.checkpoints / f"step_{model.num_timesteps:010d}.zip"
        model.save(path)
        self.save_state()
        return path

    def save_state(self) -> None:
        """What a resumed run needs besides the model: the pool's snapshots and the curve."""
        (self.dir / "state.json").write_text(json.dumps({"pool_snapshots": self.pool_snapshots,
                                                         "curve": [p.__dict__ for p in self.curve]}, indent=1))

    def add_snapshot(self, model: Learner) -> None:
        import torch

        self.checkpoints.mkdir(parents=True, exist_ok=True)
        name = f"snapshot_{model.num_timesteps:010d}"
        torch.save(model.policy.state_dict(), self.checkpoints / f"{name}.pt")
        self.pool_snapshots = (self.pool_snapshots + [name])[-self.cfg.opponents.snapshot_keep:]

    def eval_agent(self, model: Learner) -> str:
        """The agent spec that plays ``model`` in evaluations (saved as ``eval_model.zip``)."""
        path = self.dir / "eval_model.zip"
        model.save(path)
        return f"ppo:{path}"

    def save_best(self, model: Learner) -> None:
        model.save(self.dir / "best_model.zip")

    def evaluate(self, model: Learner, games: int, step: int, seed: int,
                 progress: bool = False) -> dict[str, TournamentResult]:
        """Win rates of the current model against each evaluation opponent (``progress``: show
        a bar; off for the evaluations made while the training bar is on screen)."""
        start = time.perf_counter()
        spec = self.eval_agent(model)
        e, results = self.cfg.eval, {}
        for opponent in e.opponents:
            results[opponent] = run_tournament([spec, opponent], self.cfg.env.num_players, games, seed,
                                               self.cfg.env.rules, workers=e.workers or None, progress=progress)
            stats = results[opponent].entry_stats()[0]
            self.curve.append(CurvePoint(step, opponent, stats.games, stats.win_rate, stats.ci95))
        self.eval_seconds += time.perf_counter() - start
        return results

    def keep_if_best(self, model: Learner) -> None:
        """Save ``best_model.zip`` when the newest point against the last evaluation opponent
        (the strongest, by convention) is the best so far."""
        target = self.cfg.eval.opponents[-1]
        points = [p for p in self.curve if p.opponent == target]
        if points and points[-1].win_rate >= max(p.win_rate for p in points):
            self.save_best(model)

    def plot_curve(self) -> Path:
        plt = pyplot("the learning curve")
        fig, ax = plt.subplots(figsize=(6, 3.6))
        for opponent in self.cfg.eval.opponents:
            pts = [p for p in self.curve if p.opponent == opponent]
            if not pts:
                continue
            steps = [p.step for p in pts]
            ax.plot(steps, [p.win_rate for p in pts], marker="o", label=f"vs {opponent}")
            ax.fill_between(steps, [p.ci95[0] for p in pts], [p.ci95[1] for p in pts], alpha=0.2)
        ax.set_xlabel("learner steps")
        ax.set_ylabel("win rate (95% CI)")
        ax.set_ylim(0, 1)
        ax.set_title(f"{self.cfg.name}: {self.cfg.env.num_players}-player games")
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        path = self.dir / "learning_curve.png"
        fig.savefig(path, dpi=120)
        plt.close(fig)
        return path

    def imitate(self, model: Learner) -> None:
        """Warm-start the policy and value networks on the teacher's games, then DAgger rounds
        (see :mod:`agents.imitation`); the result is the learning curve's step 0."""
        from .imitation import collect, join, pretrain

        im, e, seed = self.cfg.imitation, self.cfg.env, self.cfg.seed
        workers = self.cfg.eval.workers or None
        threads = self.cfg.eval.workers or os.cpu_count() or 1
        demos = collect(im.teacher, im.games, e.num_players, e.rules, e.rewards, seed + 7, self.cfg.ppo.gamma,
                        workers=workers, features=e.features)
        report = pretrain(model.policy, demos, im.epochs, im.batch_size, im.learning_rate, seed, threads)
        rounds = []
        for r in range(im.dagger_rounds):
            path = self.dir / "dagger_model.zip"
            model.save(path)
            more = collect(im.teacher, im.dagger_games, e.num_players, e.rules, e.rewards, seed + 100 + r,
                           self.cfg.ppo.gamma, workers=workers, features=e.features, player=f"ppo-sample:{path}")
            demos = join(demos, more)
            rounds.append(pretrain(model.policy, demos, im.dagger_epochs, im.batch_size, im.learning_rate, seed + r, threads))
        report["dagger"] = rounds
        (self.dir / "imitation.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
        final = rounds[-1] if rounds else report
        print(f"imitated {im.teacher} on {final['samples']:,} decisions: {100 * final['accuracy']:.1f}% of its choices matched")

    # ------------------------------------------------------------------ the run

    def train(self, resume: bool = False, overwrite: bool = False, evaluate: bool = False) -> dict[str, Any]:
        """Train (``resume``: from the latest checkpoint; ``overwrite``: replacing a run already
        in the directory; see :mod:`agents.training.rundir`), evaluate, write the summary. A
        resumed run that has reached ``total_timesteps`` trains nothing, and evaluates again
        only with ``evaluate``."""
        cfg = self.cfg
        started = time.perf_counter()
        _set_torch_threads(cfg.torch_threads)
        checkpoint, done = self.begin(resume, overwrite, evaluate)
        if done is not None:
            return done
        venv, masked = self._vec_env()
        imitation_seconds = 0.0
        reference = self.checkpoints / "reference.pt"
        if checkpoint is not None:
            self.restore_state()
            model = AnchoredMaskablePPO.load(checkpoint, env=venv, device="cpu", tensorboard_log=str(self.dir / "tb"))
            if cfg.ppo.kl_coef > 0:
                if not reference.is_file():
                    raise ValueError(f"ppo.kl_coef needs the policy the run started from, {reference}, which this "
                                     f"run did not save: resume with ppo.kl_coef=0")
                model.set_reference(_load_state(reference), cfg.ppo.kl_coef)
            print(f"resuming {cfg.name} from {checkpoint.name} ({model.num_timesteps} steps)")
        else:
            model = self._new_model(venv)
            imitation_seconds = self.start_policy(model, started)
            if cfg.ppo.kl_coef > 0:
                import torch

                model.set_reference(None, cfg.ppo.kl_coef)
                self.checkpoints.mkdir(parents=True, exist_ok=True)
                torch.save(model.policy.state_dict(), reference)
        self.push_pool(venv, model)
        first_step = model.num_timesteps
        # PPO learns in whole rollouts: train to the first multiple of one at or past the target,
        # and say so, rather than let the progress bar overshoot its total.
        rollout = cfg.ppo.n_steps * cfg.vec_env.num_envs
        remaining = -(-(cfg.total_timesteps - first_step) // rollout) * rollout
        start, evals_before = time.perf_counter(), self.eval_seconds
        if remaining > 0:
            print(f"training {remaining:,} steps ({remaining // rollout} rollouts of {rollout:,}; "
                  f"total_timesteps={cfg.total_timesteps:,})")
            callback = _Periodic(self, venv, end=first_step + remaining, rollout=rollout)
            model.learn(remaining, callback=callback, progress_bar=True,
                        reset_num_timesteps=checkpoint is None, tb_log_name="ppo")
        learn_seconds = time.perf_counter() - start - (self.eval_seconds - evals_before)  # PPO alone
        model.save(self.dir / "model.zip")
        self.save_checkpoint(model)
        print(f"final evaluation: {cfg.eval.final_games} games against each of {cfg.eval.opponents} ...")
        final = self.evaluate(model, cfg.eval.final_games, model.num_timesteps, seed=cfg.seed + 10**6, progress=True)
        venv.close()
        seconds = {"imitation": imitation_seconds, "ppo": learn_seconds, "evaluation": self.eval_seconds,
                   "total": time.perf_counter() - started}
        return self.finish(self._summary(model, final, model.num_timesteps - first_step, seconds, masked.env_seconds))

    # ------------------------------------------------------------------ steps every backend's run shares

    def begin(self, resume: bool, overwrite: bool, evaluate: bool) -> tuple[Path | None, dict[str, Any] | None]:
        """Prepare the run directory and save the config; the checkpoint to resume from, and
        the summary instead when a resumed run has nothing left to do (printed)."""
        rundir.prepare(self.dir, resume, overwrite)
        checkpoint = self.latest_checkpoint() if resume else None
        if resume and checkpoint is None:
            raise ValueError(f"nothing to resume: no checkpoint in {self.checkpoints}")
        done = rundir.finished(self.dir, _steps_of(checkpoint), self.cfg.total_timesteps, evaluate) if checkpoint else None
        if done is not None:
            print(self.summary_text(done))
            return checkpoint, done
        (self.dir / "config.yaml").write_text(yaml.safe_dump(self.cfg.to_dict(), sort_keys=False), encoding="utf-8")
        return checkpoint, None

    def restore_state(self) -> dict[str, Any]:
        """The learning curve (and the snapshot pool, where the run keeps one) from ``state.json``."""
        state: dict[str, Any] = json.loads((self.dir / "state.json").read_text())
        if "pool_snapshots" in state:
            self.pool_snapshots = state["pool_snapshots"]
        self.curve = [CurvePoint(p["step"], p["opponent"], p["games"], p["win_rate"], tuple(p["ci95"]))
                      for p in state["curve"]]
        return state

    def start_policy(self, model: Learner, started: float) -> float:
        """A new run's first policy: the one ``init_from`` names, or the imitation of the teacher;
        then the learning curve's step 0. The seconds imitation took (0 without)."""
        cfg, seconds = self.cfg, 0.0
        if cfg.init_from:
            from ..policies.network import load_policy

            model.policy.load_state_dict(load_policy(cfg.init_from).state_dict())
            print(f"policy initialised from {cfg.init_from}")
        elif cfg.imitation.teacher:
            self.imitate(model)
            seconds = time.perf_counter() - started - self.eval_seconds
        if not self.curve and (cfg.eval.every or cfg.imitation.teacher):  # the curve starts at step 0
            self.evaluate(model, cfg.eval.games, 0, seed=cfg.seed)
            self.keep_if_best(model)
        return seconds

    def finish(self, summary: dict[str, Any]) -> dict[str, Any]:
        """Write ``eval.json``, the state (the curve now ends with the final evaluation) and the
        curve's plot; print the summary and the run's files."""
        (self.dir / "eval.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
        self.save_state()
        self.plot_curve()
        print(self.summary_text(summary))
        print(f"files of run {self.cfg.name}:")
        print("\n".join(rundir.files_written(self.dir)))
        return summary

    @staticmethod
    def summary_text(summary: dict[str, Any]) -> str:
        return summary_table(summary)

    def _summary(self, model: Learner, final: dict[str, TournamentResult], steps: int, seconds: dict[str, float],
                 env_seconds: float) -> dict[str, Any]:
        """``seconds``: this session's wall time by stage (``ppo`` without the curve's
        evaluations; speed and env share are of that)."""
        ppo = seconds["ppo"]
        return {
            "name": self.cfg.name,
            "model": str(self.dir / "model.zip"),
            "learner_steps": model.num_timesteps,
            "steps_this_session": steps,
            "train_seconds": ppo,
            "seconds": seconds,
            "learner_steps_per_second": steps / ppo if ppo else 0.0,
            "env_time_share": env_seconds / ppo if ppo else 0.0,
            "evaluation": {opp: r.to_json() for opp, r in final.items()},
            "learning_curve": [p.__dict__ for p in self.curve],
        }


def summary_table(summary: dict[str, Any]) -> str:
    lines = [f"run {summary['name']}: {summary['learner_steps']:,} learner steps; this session "
             f"{summary['steps_this_session']:,} steps in {summary['train_seconds'] / 60:.1f} min "
             f"({summary['learner_steps_per_second']:,.0f} steps/s, {100 * summary['env_time_share']:.0f}% in the env)",
             _stage_line(summary.get("seconds")),
             *rundir.evaluation_lines(summary["evaluation"])]
    lines.append(f"model: {summary['model']}  (play it as ppo:{summary['model']})")
    return "\n".join(lines)


def _stage_line(seconds: dict[str, float] | None) -> str:
    """The session's wall time by stage (runs made before it was recorded have none)."""
    if not seconds:
        return "wall time by stage: not recorded"
    return "wall time: " + ", ".join(f"{k} {v / 60:.1f} min" for k, v in seconds.items())


def _steps_of(checkpoint: Path) -> int:
    """The learner steps a checkpoint was saved at (its name: step_0000200704.zip)."""
    return int(checkpoint.stem.split("_")[1])


def _load_state(path: Path) -> dict[str, Any]:
    """A state dict saved with ``torch.save``."""
    import torch

    state: dict[str, Any] = torch.load(path, map_location="cpu")
    return state


class _Periodic(BaseCallback):
    """Self-play snapshots, checkpoints and learning-curve points at their configured steps."""

    def __init__(self, run: TrainingRun, venv: VecEnv, end: int, rollout: int) -> None:
        super().__init__()
        self.run, self.venv = run, venv
        self.end, self.rollout = end, rollout  # no curve point within a rollout of the final evaluation's
        cfg = run.cfg
        self.marks = {"snapshot": cfg.opponents.snapshot_every, "checkpoint": cfg.checkpoint_every, "eval": cfg.eval.every}
        self.next: dict[str, int] = {}

    def _on_training_start(self) -> None:
        now = self.model.num_timesteps
        self.next = {k: (now // every + 1) * every for k, every in self.marks.items() if every}

    def _on_step(self) -> bool:
        now = self.model.num_timesteps
        for kind, due in list(self.next.items()):
            if now < due:
                continue
            self.next[kind] = due + self.marks[kind]
            if kind == "snapshot":
                self.run.add_snapshot(self.model)
                self.run.push_pool(self.venv, self.model)
            elif kind == "checkpoint":
                self.run.save_checkpoint(self.model)
            elif self.end - now >= self.rollout:
                results = self.run.evaluate(self.model, self.run.cfg.eval.games, now, seed=self.run.cfg.seed + now)
                for opponent, result in results.items():
                    self.logger.record(f"eval/win_rate_vs_{opponent}", result.entry_stats()[0].win_rate)
                self.run.keep_if_best(self.model)
                self.run.plot_curve()
        return True
