"""A trained stable-baselines3 / sb3-contrib policy as an agent (``ppo:PATH``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from phase10_env.policy import PlayerObservation


def load_model(path: str | Path):
    """Load a saved MaskablePPO (or any sb3 algorithm's) model on the CPU."""
    path = Path(path)
    if not path.exists() and path.with_suffix(".zip").exists():
        path = path.with_suffix(".zip")
    if not path.exists():
        raise ValueError(f"no saved model at {str(path)!r}")
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    try:
        return MaskablePPO.load(path, device="cpu")
    except (KeyError, ValueError, AttributeError):
        from stable_baselines3 import PPO

        return PPO.load(path, device="cpu")


class PPOAgent:
    """Acts with a trained policy, masking illegal actions; ``deterministic`` picks the most
    likely action, otherwise it samples."""

    def __init__(self, path: str | Path | None = None, deterministic: bool = True, model=None) -> None:
        self.model = model if model is not None else load_model(path)
        self.deterministic = deterministic
        self.name = f"ppo:{path}" if path is not None else "ppo"
        self._masked = hasattr(self.model.policy, "get_distribution") and "Maskable" in type(self.model).__name__

    def seed(self, seed: int | None) -> None:
        if seed is not None:
            import torch

            torch.manual_seed(seed)

    def act(self, obs: PlayerObservation) -> int:
        if self._masked:
            action, _ = self.model.predict(obs.observation, action_masks=obs.action_mask.astype(bool),
                                           deterministic=self.deterministic)
        else:
            action, _ = self.model.predict(obs.observation, deterministic=self.deterministic)
        action = int(np.asarray(action).reshape(()))
        if not obs.action_mask[action]:
            raise ValueError(f"{self.name} chose illegal action {action}; is it a masked (sb3-contrib) model?")
        return action
