"""The masked PPO trainer against sb3-contrib's MaskablePPO, measured side by side in one run:

    python -m agents.training.trainer_bench speed   # learner steps/s, same network and opponents
    python -m agents.training.trainer_bench curves  # win rate against the heuristic over wall-clock minutes
    python -m agents.training.trainer_bench check   # both learn a small task with the same hyperparameters

* ``speed``: for each opponent (random; heuristic), learner steps per second of wall time
  (collecting and updating; warm-up rollout excluded) of SB3 MaskablePPO as ``configs/default.yaml``
  runs it (8 Python games, ``DummyVecEnv``), SB3 MaskablePPO on the native games (``vec_env.kind:
  native``), and the masked PPO in fp32 and bf16; same network (256, 256), same env settings.
* ``curves``: each trainer from scratch against the heuristic for the same wall time; every
  ``--every`` seconds of training, the clock stops and the policy plays 200 games against the
  heuristic (a native tournament).
* ``check``: one-hand episodes (``episode: hand``) against random, each trainer with the same
  hyperparameters on the same native games, over several seeds: the mean episode return over the
  last 2,000 episodes, before and after the same number of learner steps.

Figures print as a table and are written as JSON (``--out``).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch

from ..evaluation.tournament import run_tournament
from ..policies.network import Sb3Policy, save_policy
from .config import EnvSettings, PPOSettings
from .masked_ppo import MaskedPPO, new_policy
from .vector_opponents import LearnerEnvs

NET = [256, 256]
ENV = EnvSettings(features="planning")  # configs/default.yaml's games
SB3_SHAPE = {"num_envs": 8, "n_steps": 256, "batch_size": 1024}  # configs/default.yaml's rollout
MASKED_SHAPE = {"num_envs": 128, "n_steps": 64, "batch_size": 2048}


def _obs_size(env: EnvSettings) -> int:
    from phase10_env.observation import observation_bounds

    return int(observation_bounds(env.features)[0].shape[0])


class _Trainer(Protocol):
    """One trainer behind a common face: ``rollout()`` (collect and update once), its step
    count, its policy and the mean return of its latest episodes."""

    name: str
    policy: Sb3Policy

    def rollout(self) -> None: ...

    @property
    def steps(self) -> int: ...

    def recent_return(self, episodes: int) -> float: ...


class _Masked:
    def __init__(self, env: EnvSettings, opponent: str, precision: str, settings: PPOSettings, num_envs: int,
                 seed: int) -> None:
        self.name = f"masked_ppo ({precision})"
        torch.manual_seed(seed)
        self.envs = LearnerEnvs(env, num_envs, {opponent: 1.0}, 1.0, False, seed)
        self.ppo = MaskedPPO(new_policy(_obs_size(env), NET, settings.learning_rate), settings, precision, seed)
        self.policy = self.ppo.policy

    def rollout(self) -> None:
        self.ppo.update(self.ppo.collect(self.envs, self.ppo.settings.n_steps))

    @property
    def steps(self) -> int:
        return self.ppo.num_timesteps

    def recent_return(self, episodes: int) -> float:
        return float(np.mean(self.ppo.episode_returns[-episodes:]))


class _Sb3:
    def __init__(self, env: EnvSettings, opponent: str, native: bool, settings: PPOSettings, num_envs: int,
                 seed: int) -> None:
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecMonitor

        from phase10_env import Phase10Env

        from ..policies.registry import make_agent
        from .sb3 import MaskedVecEnv
        from .sb3_vec import NativeVecEnv

        self.name = "sb3 MaskablePPO (" + ("native games" if native else f"{num_envs} Python games") + ")"
        venv: VecEnv
        if native:
            venv = NativeVecEnv(LearnerEnvs(env, num_envs, {opponent: 1.0}, 1.0, False, seed), env.features)
        else:
            def make() -> Phase10Env:
                return Phase10Env(opponents=make_agent(opponent), rewards=env.rewards, episode=env.episode,
                                  features=env.features, max_steps=env.max_steps)

            dummy = DummyVecEnv([make for _ in range(num_envs)])
            dummy.seed(seed)
            venv = MaskedVecEnv(dummy)
        self.monitor = VecMonitor(venv)
        s = settings
        self.model = MaskablePPO("MlpPolicy", self.monitor, learning_rate=s.learning_rate, n_steps=s.n_steps,
                                 batch_size=s.batch_size, n_epochs=s.n_epochs, gamma=s.gamma, gae_lambda=s.gae_lambda,
                                 ent_coef=s.ent_coef, vf_coef=s.vf_coef, clip_range=s.clip_range,
                                 max_grad_norm=s.max_grad_norm, policy_kwargs={"net_arch": NET}, seed=seed,
                                 device="cpu", verbose=0)
        self.policy = self.model.policy
        self.rollout_size = s.n_steps * num_envs
        self.returns: list[float] = []
        self._first = True

    def rollout(self) -> None:
        self.model.learn(self.rollout_size, reset_num_timesteps=self._first, callback=self._record)
        self._first = False

    def _record(self, local: dict[str, Any], _: dict[str, Any]) -> bool:
        for info in local["infos"]:
            if "episode" in info:
                self.returns.append(float(info["episode"]["r"]))
        return True

    @property
    def steps(self) -> int:
        return int(self.model.num_timesteps)

    def recent_return(self, episodes: int) -> float:
        return float(np.mean(self.returns[-episodes:]))


def _settings(shape: dict[str, int], **overrides: Any) -> PPOSettings:
    return PPOSettings(n_steps=shape["n_steps"], batch_size=shape["batch_size"], **overrides)


def _rate(trainer: _Trainer, seconds: float) -> dict[str, Any]:
    """Steps per second over whole rollouts after a first (warm-up) one, for about ``seconds``."""
    trainer.rollout()
    first, start = trainer.steps, time.perf_counter()
    while time.perf_counter() - start < seconds:
        trainer.rollout()
    wall = time.perf_counter() - start
    return {"trainer": trainer.name, "steps": trainer.steps - first, "seconds": wall,
            "steps_per_second": (trainer.steps - first) / wall}


def speed(seconds: float, seed: int = 0) -> dict[str, Any]:
    """Learner steps/s of each trainer against each opponent (see the module docstring)."""
    rows = []
    for opponent in ("random", "heuristic"):
        makers: list[Callable[[], _Trainer]] = [
            partial(_Sb3, ENV, opponent, False, _settings(SB3_SHAPE), SB3_SHAPE["num_envs"], seed),
            partial(_Sb3, ENV, opponent, True, _settings(MASKED_SHAPE), MASKED_SHAPE["num_envs"], seed),
            partial(_Masked, ENV, opponent, "fp32", _settings(MASKED_SHAPE), MASKED_SHAPE["num_envs"], seed),
            partial(_Masked, ENV, opponent, "bf16", _settings(MASKED_SHAPE), MASKED_SHAPE["num_envs"], seed),
        ]
        for make in makers:
            rows.append({"opponent": opponent, **_rate(make(), seconds)})
            print(_speed_line(rows[-1]), flush=True)
    for row in rows:
        base = next(r for r in rows if r["opponent"] == row["opponent"])
        row["vs_sb3"] = row["steps_per_second"] / base["steps_per_second"]
    return {"kind": "speed", "seconds_each": seconds, "rows": rows}


def _speed_line(row: dict[str, Any]) -> str:
    ratio = f"  {row['vs_sb3']:5.1f}x" if "vs_sb3" in row else ""
    return f"{row['opponent']:10s} {row['trainer']:36s} {row['steps_per_second']:9,.0f} steps/s{ratio}"


def _win_rate(policy: Sb3Policy, games: int, seed: int) -> tuple[float, tuple[float, float]]:
    with tempfile.TemporaryDirectory() as folder:
        path = save_policy(policy, Path(folder) / "m.zip", half=False)
        stats = run_tournament([f"ppo:{path}", "heuristic"], 2, games, seed, progress=False).entry_stats()[0]
    return stats.win_rate, stats.ci95


def curves(minutes: float, every: float, games: int = 200, seed: int = 0) -> dict[str, Any]:
    """Win rate against the heuristic over training wall time, each trainer from scratch."""
    runs = []
    makers: list[Callable[[], _Trainer]] = [
        partial(_Sb3, ENV, "heuristic", False, _settings(SB3_SHAPE), SB3_SHAPE["num_envs"], seed),
        partial(_Masked, ENV, "heuristic", "bf16", _settings(MASKED_SHAPE), MASKED_SHAPE["num_envs"], seed),
    ]
    for make in makers:
        trainer, clock, points = make(), 0.0, []
        rate, ci = _win_rate(trainer.policy, games, seed + 1)
        points.append({"minutes": 0.0, "steps": 0, "win_rate": rate, "ci95": ci})
        while clock < minutes * 60:
            mark = clock + every
            while clock < mark:
                start = time.perf_counter()
                trainer.rollout()
                clock += time.perf_counter() - start
            rate, ci = _win_rate(trainer.policy, games, seed + 1 + len(points))
            points.append({"minutes": clock / 60, "steps": trainer.steps, "win_rate": rate, "ci95": ci})
            print(f"{trainer.name:36s} {clock / 60:5.1f} min {trainer.steps:9,d} steps  win rate vs heuristic "
                  f"{rate:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]", flush=True)
        runs.append({"trainer": trainer.name, "points": points})
    return {"kind": "curves", "minutes": minutes, "games_per_point": games, "runs": runs}


def check(steps: int, seeds: int) -> dict[str, Any]:
    """Both trainers on one-hand episodes against random, same hyperparameters and games."""
    env = EnvSettings(episode="hand", features="planning")
    shape = {"num_envs": 64, "n_steps": 64, "batch_size": 1024}
    settings = _settings(shape, learning_rate=3e-4, ent_coef=0.01)
    rows: list[dict[str, Any]] = []
    for seed in range(seeds):
        makers: list[Callable[[], _Trainer]] = [
            partial(_Sb3, env, "random", True, settings, shape["num_envs"], seed),
            partial(_Masked, env, "random", "fp32", settings, shape["num_envs"], seed),
            partial(_Masked, env, "random", "bf16", settings, shape["num_envs"], seed),
        ]
        for make in makers:
            trainer = make()
            trainer.rollout()
            first = trainer.recent_return(2000)
            while trainer.steps < steps:
                trainer.rollout()
            rows.append({"seed": seed, "trainer": trainer.name, "steps": trainer.steps, "first_return": first,
                         "final_return": trainer.recent_return(2000)})
            print(f"seed {seed} {trainer.name:36s} {trainer.steps:8,d} steps: mean return {first:.3f} -> "
                  f"{rows[-1]['final_return']:.3f}", flush=True)
    summary = {}
    for name in dict.fromkeys(r["trainer"] for r in rows):
        finals = [r["final_return"] for r in rows if r["trainer"] == name]
        summary[name] = {"mean": float(np.mean(finals)), "sd": float(np.std(finals))}
        print(f"{name:36s} final mean return {summary[name]['mean']:.3f} (sd {summary[name]['sd']:.3f} over {seeds} seeds)")
    return {"kind": "check", "env": "one hand against random", "steps": steps, "settings": settings.__dict__,
            "rows": rows, "summary": summary}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("speed", "curves", "check"))
    parser.add_argument("--seconds", type=float, default=60.0, help="speed: seconds per trainer and opponent")
    parser.add_argument("--minutes", type=float, default=5.0, help="curves: training minutes per trainer")
    parser.add_argument("--every", type=float, default=60.0, help="curves: training seconds between points")
    parser.add_argument("--steps", type=int, default=200_000, help="check: learner steps per trainer and seed")
    parser.add_argument("--seeds", type=int, default=3, help="check: seeds")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--out", help="write the figures as JSON here")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    load = os.getloadavg()
    if args.what == "speed":
        result = speed(args.seconds)
        print("\n".join(_speed_line(r) for r in result["rows"]))
    elif args.what == "curves":
        result = curves(args.minutes, args.every)
    else:
        result = check(args.steps, args.seeds)
    result["load_average"] = {"before": load, "after": os.getloadavg()}
    print(f"load average (1, 5, 15 min): before {load}, after {os.getloadavg()}")
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
