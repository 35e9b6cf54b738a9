"""A policy trained with Ray RLlib, played with torch alone (``rllib:PATH``).

Training (:mod:`agents.training.rllib`) builds its RLModule around :class:`MaskedActorCritic`
and exports the network's weights with :func:`save_policy` as ``policy.pt``: a plain torch file
holding the layer sizes and the state dict. Playing one needs neither Ray nor RLlib.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from phase10_env.policy import PlayerObservation

FORMAT = "phase10-rllib-policy/1"


class MaskedActorCritic(nn.Module):
    """A shared MLP trunk (tanh), an action-logit head and a value head over the observation
    vector; masking is the caller's (it has the mask)."""

    def __init__(self, obs_size: int, num_actions: int, hiddens: list[int]) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        size = obs_size
        for width in hiddens:
            layers += [nn.Linear(size, width), nn.Tanh()]
            size = width
        self.trunk = nn.Sequential(*layers)
        self.pi = nn.Linear(size, num_actions)
        self.vf = nn.Linear(size, 1)

    def forward(self, observation: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.trunk(observation)
        return self.pi(features), self.vf(features).squeeze(-1)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with every illegal action pushed to the float minimum (never sampled, never argmax)."""
    return torch.where(mask.bool(), logits, torch.full_like(logits, torch.finfo(logits.dtype).min))


def policy_data(network: nn.Module, obs_size: int, num_actions: int, hiddens: list[int]) -> dict[str, Any]:
    """The network's weights and shape as plain data (what ``policy.pt`` holds), to save or send."""
    state = {k: v.detach().cpu() for k, v in network.state_dict().items()}
    return {"format": FORMAT, "obs_size": int(obs_size), "num_actions": int(num_actions),
            "hiddens": [int(h) for h in hiddens], "state_dict": state}


def save_policy(network: nn.Module, obs_size: int, num_actions: int, hiddens: list[int], path: str | Path) -> Path:
    """Write the network's weights and shape as a torch file that :class:`RLlibAgent` loads."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(policy_data(network, obs_size, num_actions, hiddens), path)
    return path


def load_network(source: str | Path | Mapping[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The network saved at ``source`` (a ``policy.pt``, a run directory holding one, or the data
    :func:`policy_data` returns) and its header."""
    if isinstance(source, Mapping):
        data: Any = dict(source)
        where = "the policy data given"
    else:
        path = Path(source)
        if path.is_dir():
            path = path / "policy.pt"
        if not path.is_file():
            raise ValueError(f"no exported RLlib policy at {str(path)!r} (train.py writes runs/NAME/policy.pt)")
        try:
            data = torch.load(path, map_location="cpu", weights_only=True)
        except Exception as e:  # torch raises several kinds for a file that is not its own
            raise ValueError(f"{str(path)!r} is not an exported RLlib policy: {e}") from None
        where = repr(str(path))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{where} is not an exported RLlib policy (format {FORMAT})")
    network = MaskedActorCritic(data["obs_size"], data["num_actions"], data["hiddens"])
    network.load_state_dict(data["state_dict"])
    network.eval()
    for p in network.parameters():
        p.requires_grad_(False)
    return network, data


class RLlibAgent:
    """``rllib:PATH``: the legal action the exported network scores highest (or, with
    ``deterministic=False``, one sampled from its masked distribution)."""

    needs_view = False

    def __init__(self, source: str | Path | Mapping[str, Any], deterministic: bool = True, name: str | None = None) -> None:
        torch.set_num_threads(1)
        self.network, header = load_network(source)
        self.obs_size = int(header["obs_size"])
        self.name = name or f"rllib:{source}"
        self.deterministic = deterministic
        self.rng = np.random.default_rng()

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: PlayerObservation) -> int:
        if len(obs.observation) != self.obs_size:
            raise ValueError(f"{self.name} was trained on observations of {self.obs_size} values, "
                             f"this game gives {len(obs.observation)}")
        legal = obs.legal_actions
        with torch.no_grad():
            logits, _ = self.network(torch.as_tensor(obs.observation, dtype=torch.float32).unsqueeze(0))
        scores = logits[0].numpy().astype(np.float64)[legal]
        if self.deterministic:
            return int(legal[np.argmax(scores)])
        p = np.exp(scores - scores.max())
        return int(legal[self.rng.choice(len(legal), p=p / p.sum())])
