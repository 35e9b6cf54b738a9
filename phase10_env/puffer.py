"""Phase 10 as a PufferLib 3 native environment (``pufferlib.PufferEnv``): the vector env's
games as PufferLib's agents, written in place into the buffers PufferLib hands over.

PufferLib's native API wants an env that owns ``num_agents`` rows of flat observations and
steps them all in one call, resetting finished rows itself: the vector env already is that
(``autoreset_mode=SAME_STEP``), so this is a thin adapter. PufferLib's trainers know no action
masks: :meth:`action_masks` gives them for a trainer that does (and the heuristic's choices go
into PufferLib's ``teacher_actions`` buffer, for imitation). Needs ``pufferlib`` (3.0) or
``pufferlib-core``, installed without its torch pin (see pyproject.toml);
``make_puffer_env(num_envs, **options)`` takes the options of
:class:`~phase10_env.vector.Phase10VectorEnv`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from .vector import Phase10VectorEnv


def make_puffer_env(num_envs: int, buf: Any = None, seed: int | None = None, **options: Any) -> Any:
    """A ``pufferlib.PufferEnv`` of ``num_envs`` games (``buf``: PufferLib's shared buffers;
    ``seed``: what a reset without a seed uses first, as ``pufferlib.vector.make`` passes it)."""
    try:
        import pufferlib
    except ImportError:
        raise ImportError("the PufferLib adapter needs pufferlib: pip install --no-deps pufferlib-core==3.0.23 psutil rich "
                          "rich-argparse (its torch==2.9.0 pin would replace your torch)") from None

    class Phase10PufferEnv(pufferlib.PufferEnv):  # type: ignore[misc]  # pufferlib is untyped
        def __init__(self) -> None:
            self.games = Phase10VectorEnv(num_envs, autoreset_mode=AutoresetMode.SAME_STEP, **options)
            self.single_observation_space = self.games.single_observation_space
            self.single_action_space = self.games.single_action_space
            self.num_agents = num_envs
            super().__init__(buf)

        def _write(self, obs: np.ndarray) -> None:
            self.observations[:] = obs
            self.teacher_actions[:] = self.games.heuristic_actions().clip(min=0)

        def reset(self, seed: int | None = seed) -> tuple[np.ndarray, list[dict[str, Any]]]:
            obs, _ = self.games.reset(seed=seed)
            self._write(obs)
            return self.observations, []

        def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
            obs, rewards, terminated, truncated, _ = self.games.step(np.asarray(actions, dtype=np.int64))
            self._write(obs)
            self.rewards[:], self.terminals[:], self.truncations[:] = rewards, terminated, truncated
            return self.observations, self.rewards, self.terminals, self.truncations, []

        def action_masks(self) -> np.ndarray:
            return self.games.action_masks()

        def close(self) -> None:
            pass

    return Phase10PufferEnv()
