"""The agents a web client may seat, chosen by name and never by a path.

A request names agents as the command line does (``heuristic``, ``mcts:sims=16``), but a trained
model only by the name the server gave it: the shipped models (``models/NAME.zip`` of the
checkout: ``ppo:default``, ``ppo:strong``) and the ones ``phase10 serve --model NAME=PATH`` adds.
The server loads each model once, from its own list, without unpickling (a zip that needs it is
refused at start), and shares its network between games. Whatever else a client names is refused
with the list of choices: the server never opens a file a request names, so a request can
neither run code from a file nor learn which files exist.

Search is held to a thinking budget: an ``mcts`` seat stops searching a decision after
``think_seconds`` (its ``seconds`` option, lowered to the budget when it asks for more). A
``champion`` seat's work is bounded by its options' ranges (at most 4,096 deals a decision,
each dealt again at most 64 times: about a second here); it is offered when the checkout ships
its model.
"""

from __future__ import annotations

import copy
import re
import threading
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..policies.mcts import SearchAgent
from ..policies.registry import make_agent

HUMAN = "human"
def built_in() -> tuple[str, ...]:
    """The built-in agents a page may seat (``champion`` where its model is shipped)."""
    from ..policies.champion import MODEL

    return ("random", "heuristic", "mcts", *(("champion",) if MODEL.is_file() else ()))
THINK_SECONDS = 2.0
SHIPPED = Path(__file__).resolve().parents[2] / "models"
MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


def shipped_models() -> dict[str, Path]:
    """The trained models of the checkout, by file name (none in an installed wheel)."""
    return {p.stem: p for p in sorted(SHIPPED.glob("*.zip"))} if SHIPPED.is_dir() else {}


def parse_model_option(text: str) -> tuple[str, Path]:
    """``NAME=PATH`` (``phase10 serve --model``): a name for the page, and an SB3 model zip or
    an exported RLlib ``policy.pt``."""
    name, sep, path = text.partition("=")
    if not sep or not MODEL_NAME.fullmatch(name) or not path:
        raise ValueError(f"--model takes NAME=PATH, NAME of letters, digits, - and _ (at most 40), not {text!r}")
    return name, Path(path)


class AgentMenu:
    """What the page may seat: ``human``, the built-in agents with their options, and the
    models in ``models`` (name -> path) besides the shipped ones, as ``ppo:NAME`` and
    ``ppo-sample:NAME`` (SB3 zips) or ``rllib:NAME`` (``.pt`` files)."""

    def __init__(self, models: Mapping[str, str | Path] | None = None, think_seconds: float = THINK_SECONDS,
                 shipped: bool = True) -> None:
        self.paths = {**(shipped_models() if shipped else {}), **{name: Path(p) for name, p in (models or {}).items()}}
        self.named = set(models or {})
        self.think_seconds = think_seconds
        self._loaded: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _kinds(self, name: str) -> tuple[str, ...]:
        return ("rllib",) if self.paths[name].suffix == ".pt" else ("ppo", "ppo-sample")

    def choices(self) -> list[str]:
        """Every agent a seat may name (the built-in ones take options too: ``mcts:sims=16``)."""
        return [HUMAN, *built_in(), *(f"{kind}:{name}" for name in self.paths for kind in self._kinds(name))]

    def load_named(self) -> None:
        """Load every model named at start (``--model``), so a bad one stops the server at once."""
        for name in sorted(self.named):
            self._model(name)

    def _model(self, name: str) -> Any:
        with self._lock:
            if name not in self._loaded:
                path = self.paths[name]
                if path.suffix == ".pt":
                    from ..policies.rllib_policy import RLlibAgent

                    self._loaded[name] = RLlibAgent(path)
                else:
                    from ..policies.network import PolicyNetAgent, load_policy

                    self._loaded[name] = PolicyNetAgent(load_policy(path, unpickle=False), name=f"ppo:{name}")
            return self._loaded[name]

    def build(self, spec: str, seed: int | None) -> Any:
        """A fresh agent for one seat (a ``ValueError`` naming the choices for anything else)."""
        kind, _, arg = spec.partition(":")
        if kind in built_in():
            agent = make_agent(spec, seed=seed)
            if isinstance(agent, SearchAgent):
                budget = min(agent.config.seconds or self.think_seconds, self.think_seconds)
                agent.config = replace(agent.config, seconds=budget)
            return agent
        if arg in self.paths and kind in self._kinds(arg):
            agent = copy.copy(self._model(arg))  # its own generator and name; the network is shared, frozen
            agent.name = spec
            if kind != "rllib":
                agent.deterministic = kind == "ppo"
            agent.seed(seed)
            return agent
        raise ValueError(f"{spec!r} is not an agent this server offers; choose from {', '.join(self.choices())} "
                         "(heuristic, mcts and champion take options, e.g. mcts:sims=16; phase10 serve --model NAME=PATH "
                         "adds a trained model)")
