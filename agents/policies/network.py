"""Trained policies as agents: a policy network picks the legal action it scores highest (or
samples one). ``ppo:PATH`` loads any saved stable-baselines3 / sb3-contrib model whose policy
scores actions: actor-critic ones (MaskablePPO, PPO, A2C, TRPO) by their logits, Q-networks
(DQN, QR-DQN) by their action values. Self-play uses frozen copies of the learner's network the
same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from phase10_env.observation import OBS_SIZE
from phase10_env.policy import PlayerObservation

#: A policy network of any saved sb3 / sb3-contrib algorithm (an ``ActorCriticPolicy``, a DQN or
#: QR-DQN policy, ...): their parts differ, and are looked up by name.
Sb3Policy = Any


def frozen_copy(policy: Sb3Policy) -> Sb3Policy:
    """An inference-only copy of ``policy`` on the CPU, rebuilt from its constructor's arguments
    and weights rather than deep-copied: a policy that has trained keeps its last forward pass's
    action distribution, whose tensors refuse to be deep-copied."""
    clone = type(policy)(**policy._get_constructor_parameters())
    clone.load_state_dict(policy.state_dict())
    clone = clone.to("cpu").eval()
    for p in clone.parameters():
        p.requires_grad_(False)
    return clone


class PolicyNetAgent:
    """Acts with an sb3 actor-critic policy network: masked logits, then argmax or a sample.
    It runs the network directly (no ``predict`` preprocessing), on a private frozen copy."""

    def __init__(self, policy: Sb3Policy, name: str = "ppo", deterministic: bool = True) -> None:
        import torch

        self.policy = frozen_copy(policy)
        self.name = name
        self.deterministic = deterministic
        self.rng = np.random.default_rng()
        self._torch = torch
        self.input_size = int(self.policy.observation_space.shape[0])
        # The view is needed only to compute planning features the env does not provide.
        self.needs_view = self.input_size != OBS_SIZE

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The network's score of every action: actor logits, or Q-values for a Q-network."""
        policy, torch = self.policy, self._torch
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
            if hasattr(policy, "q_net"):  # DQN
                scores = policy.q_net(obs)[0]
            elif hasattr(policy, "quantile_net"):  # QR-DQN: the mean over quantiles
                scores = policy.quantile_net(obs)[0].mean(dim=0)
            else:
                features = policy.extract_features(obs, policy.pi_features_extractor)
                scores = policy.action_net(policy.mlp_extractor.forward_actor(features))[0]
            return np.asarray(scores.numpy(), dtype=np.float64)

    def act(self, obs: PlayerObservation) -> int:
        legal = obs.legal_actions
        scores = self.logits(obs.observation_of_size(self.input_size))[legal]
        if self.deterministic:
            return int(legal[np.argmax(scores)])
        p = np.exp(scores - scores.max())
        return int(legal[self.rng.choice(len(legal), p=p / p.sum())])


def _model_path(path: str | Path) -> Path:
    path = Path(path)
    if not path.exists() and path.with_suffix(".zip").exists():
        path = path.with_suffix(".zip")
    if not path.exists():
        raise ValueError(f"no saved model at {str(path)!r}")
    return path


def load_policy(path: str | Path, unpickle: bool = True) -> Sb3Policy:
    """The policy network of any saved sb3 / sb3-contrib model, rebuilt from the zip alone
    (no algorithm object, so it does not matter which algorithm trained it). The weights are
    read without unpickling where the zip allows it (:mod:`.model_zip`: every model this project
    makes); a model with a policy class or options of its own is unpickled by SB3's loader, which
    runs code from the file, unless ``unpickle`` is False (then it is refused)."""
    import torch

    from .model_zip import NeedsUnpickling, read_policy

    torch.set_num_threads(1)
    path = _model_path(path)
    try:
        return read_policy(path)
    except NeedsUnpickling:
        if not unpickle:
            raise
    return _unpickle_policy(path)


def _unpickle_policy(path: Path) -> Sb3Policy:
    """SB3's own loader: unpickles the zip's data, running any code it names."""
    from stable_baselines3.common.save_util import load_from_zip_file

    data, params, _ = load_from_zip_file(path, device="cpu")
    if not data or "policy_class" not in data or "policy" not in params:
        raise ValueError(f"{str(path)!r} is not a saved stable-baselines3 model")
    policy_class = data["policy_class"]
    if "Recurrent" in policy_class.__name__:  # needs its hidden state carried between steps
        raise ValueError(f"{str(path)!r}: recurrent policies ({policy_class.__name__}) are not supported")
    policy = policy_class(data["observation_space"], data["action_space"], lambda _: 0.0, **data.get("policy_kwargs", {}))
    policy.load_state_dict(params["policy"])
    return policy


def save_policy(policy: Sb3Policy, path: str | Path, half: bool = True) -> Path:
    """Write ``policy``'s weights alone (no optimizer state; float16 with ``half``, which
    halves the file) as a zip that :func:`load_policy` and ``ppo:PATH`` read like any saved
    model."""
    from stable_baselines3.common.save_util import save_to_zip_file

    state = {k: v.half() if half and v.is_floating_point() else v for k, v in policy.state_dict().items()}
    data = {"policy_class": type(policy), "observation_space": policy.observation_space,
            "action_space": policy.action_space, "policy_kwargs": {"net_arch": policy.net_arch}}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_to_zip_file(path, data=data, params={"policy": state}, pytorch_variables={})
    return path


class PPOAgent(PolicyNetAgent):
    """A saved sb3 / sb3-contrib model (``ppo:PATH``); deterministic by default."""

    def __init__(self, path: str | Path, deterministic: bool = True) -> None:
        super().__init__(load_policy(path), name=f"ppo:{path}", deterministic=deterministic)
