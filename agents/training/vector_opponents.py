"""The learner's games in the native core, split among its opponents.

``opponents.pool`` weights become shares of the games: each member gets its own
:class:`~phase10_env.vector.Phase10VectorEnv` with a number of games in proportion to its
weight (at least one). ``random`` and ``heuristic`` are the core's own players; ``ppo:PATH``
(``ppo-sample:PATH``) is a saved model played as a batched policy. With self-play
(``opponents.snapshot_every``), a further share (``snapshot_weight``) plays frozen copies of
the learner: the pool of copies is drawn from once per rollout (:meth:`LearnerEnvs.draw_snapshot`),
where the SB3 backend's Python games draw once per game; before the first copy is taken they
play the policy the run started with.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from phase10_env.vector import BatchPolicy, Opponent, Phase10VectorEnv

from ..policies.batched import BatchedPolicy
from ..policies.network import Sb3Policy, load_policy
from .config import EnvSettings

BUILT_IN = ("random", "heuristic")


def opponent_for(spec: str) -> Opponent:
    """A pool member as the vector env's opponent (a clear error for agents it cannot batch)."""
    kind, _, path = spec.partition(":")
    if spec in BUILT_IN:
        return spec
    if kind in ("ppo", "ppo-sample") and path:
        return BatchedPolicy(load_policy(path), deterministic=kind == "ppo")
    raise ValueError(f"backend masked_ppo plays opponents {list(BUILT_IN)}, ppo:PATH and ppo-sample:PATH in the native "
                     f"core, not {spec!r}")


def shares(weights: dict[str, float], num_envs: int) -> dict[str, int]:
    """Games per member, in proportion to the weights (largest remainders; each at least one)."""
    named = {k: w for k, w in weights.items() if w > 0}
    if not named:
        raise ValueError("the opponent pool has no member with a positive weight")
    if num_envs < len(named):
        raise ValueError(f"vec_env.num_envs ({num_envs}) is fewer than the opponents to share the games among "
                         f"({sorted(named)})")
    total = sum(named.values())
    exact = {k: num_envs * w / total for k, w in named.items()}
    counts = {k: max(1, int(v)) for k, v in exact.items()}
    for k in sorted(exact, key=lambda k: exact[k] - int(exact[k]), reverse=True):
        if sum(counts.values()) >= num_envs:
            break
        counts[k] += 1
    while sum(counts.values()) > num_envs:  # the minimum of one each overshot: take from the largest
        counts[max(counts, key=lambda k: counts[k])] -= 1
    return counts


class _Snapshots:
    """The self-play share's opponent: one frozen copy of the learner, drawn per rollout."""

    def __init__(self) -> None:
        self.current: BatchPolicy | None = None

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if self.current is None:
            raise RuntimeError("self-play games started before LearnerEnvs.set_snapshots gave them an opponent")
        return self.current(observations, masks)


@dataclass
class Step:
    obs: np.ndarray
    masks: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    final_obs: np.ndarray  # the last observation of a game that ended this step (else the row of obs)


class LearnerEnvs:
    """All of the learner's games as one batch (rows grouped by opponent)."""

    SNAPSHOTS = "self-play"

    def __init__(self, env: EnvSettings, num_envs: int, pool: dict[str, float], snapshot_weight: float,
                 self_play: bool, seed: int) -> None:
        weights = dict(pool)
        self.snapshots: _Snapshots | None = None
        if self_play:
            weights[self.SNAPSHOTS] = snapshot_weight
        self.counts = shares(weights, num_envs)
        self.rng = np.random.default_rng(seed)
        self.pool: list[BatchedPolicy] = []
        self.groups: list[Phase10VectorEnv] = []
        for name, count in self.counts.items():
            if name == self.SNAPSHOTS:
                self.snapshots = _Snapshots()
                opponent: Opponent = self.snapshots
            else:
                opponent = opponent_for(name)
            self.groups.append(Phase10VectorEnv(count, num_players=env.num_players, opponents=opponent,
                                                rules=env.rules, rewards=env.rewards, episode=env.episode,
                                                start_phases=env.start_phases, features=env.features,
                                                max_steps=env.max_steps, autoreset_mode="SameStep", backend="native"))
        self.num_envs = num_envs
        self.seed = seed
        self.bounds = np.cumsum([0] + [g.num_envs for g in self.groups])
        self.env_seconds = 0.0  # wall time in the games (the opponents' batched policies included)

    def set_snapshots(self, policies: list[Sb3Policy]) -> None:
        """The frozen copies the self-play share draws from (before the first snapshot: the
        policy the run starts with)."""
        self.pool = [BatchedPolicy(p, deterministic=False, seed=int(self.rng.integers(2**31))) for p in policies]
        self.draw_snapshot()

    def draw_snapshot(self) -> None:
        if self.snapshots is not None and self.pool:
            self.snapshots.current = self.pool[int(self.rng.integers(len(self.pool)))]

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        parts = [g.reset(seed=self.seed + int(lo)) for g, lo in zip(self.groups, self.bounds)]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1]["action_mask"] for p in parts])

    def step(self, actions: np.ndarray) -> Step:
        start = time.perf_counter()
        parts = []
        for g, lo, hi in zip(self.groups, self.bounds[:-1], self.bounds[1:]):
            obs, rewards, terminated, truncated, infos = g.step(actions[lo:hi])
            final = obs.copy()
            if "final_obs" in infos:
                ended = np.flatnonzero(infos["_final_obs"])
                if len(ended):
                    final[ended] = np.stack(list(infos["final_obs"][ended]))
            parts.append((obs, infos["action_mask"], rewards, terminated, truncated, final))
        obs_, masks, rewards_, terminated_, truncated_, final_ = (np.concatenate(x) for x in zip(*parts))
        self.env_seconds += time.perf_counter() - start
        return Step(obs_, masks, rewards_, terminated_, truncated_, final_)
