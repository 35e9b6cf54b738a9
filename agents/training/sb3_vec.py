"""sb3-contrib's MaskablePPO on the native core's batched games (``vec_env.kind: native`` with
``backend: sb3``): an SB3 ``VecEnv`` over :class:`~.vector_opponents.LearnerEnvs` (the same
games, opponents and self-play share as the masked PPO backend's). It serves ``action_masks``
from the masks each step returns, and, as SB3's own vector envs do, a finished game's last
observation as ``terminal_observation`` and a game cut short as ``TimeLimit.truncated``."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

from phase10_env.actions import NUM_ACTIONS
from phase10_env.observation import observation_bounds

from .vector_opponents import LearnerEnvs


class NativeVecEnv(VecEnv):
    """The learner's games of ``envs`` as an SB3 vector env."""

    def __init__(self, envs: LearnerEnvs, features: str) -> None:
        low, high = observation_bounds(features)
        super().__init__(envs.num_envs, spaces.Box(low, high, low.shape, np.float32), spaces.Discrete(NUM_ACTIONS))
        self.envs = envs
        self._masks = np.zeros((envs.num_envs, NUM_ACTIONS), dtype=bool)
        self._actions = np.zeros(envs.num_envs, dtype=np.int64)

    @property
    def env_seconds(self) -> float:
        return self.envs.env_seconds

    def reset(self) -> VecEnvObs:
        obs, self._masks = self.envs.reset()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self) -> VecEnvStepReturn:
        step = self.envs.step(self._actions)
        self._masks = step.masks
        dones = step.terminated | step.truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = step.final_obs[i]
            infos[i]["TimeLimit.truncated"] = bool(step.truncated[i] and not step.terminated[i])
        return step.obs, step.rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        return self._masks

    def close(self) -> None:
        """Nothing to release: the games are arrays of this process."""

    def env_method(self, method_name: str, *args: Any, indices: VecEnvIndices = None, **kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"the native games answer action_masks only, not {method_name}")
        return list(self._masks[list(self._get_indices(indices))])

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        raise AttributeError(f"the native games have no per-game attribute {attr_name}")

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"the native games have no per-game attribute {attr_name}")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))
