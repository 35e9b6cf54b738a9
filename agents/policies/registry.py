"""Agents by name, as the command line and configs write them.

* ``random``; ``heuristic`` (options: ``heuristic:take_for_ways=true,skip_target=next``; each
  of ``take_for_ways``, ``avoid_feeding``, ``feed_first``, ``count_layouts``, ``read_pile`` and
  ``plan_hits`` takes ``true`` or ``false``, ``skip_target`` takes ``leader`` or ``next``);
* ``ppo:PATH`` (a saved sb3 / sb3-contrib model, deterministic) and ``ppo-sample:PATH``
  (sampling from the policy);
* ``rllib:PATH`` (a policy trained with Ray RLlib, exported as ``runs/NAME/policy.pt``; played
  with torch alone, deterministic);
* ``mcts`` (the search agent; options: ``mcts:sims=32,width=4``, each within the range
  :data:`~agents.policies.mcts.OPTION_RANGES` gives);
* ``champion`` (search in the native core over deals a learned belief model draws, with the
  shipped ``models/champion.npz``; options: ``champion:samples=512``, each within
  :data:`~agents.policies.champion.OPTION_RANGES`);
* ``human`` (plays at the terminal).

An option outside its range or of the wrong kind is a ``ValueError`` saying what it takes.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from phase10_env.heuristic import HeuristicAgent, HeuristicConfig
from phase10_env.policy import Policy
from phase10_env.random_agent import RandomAgent

AGENT_KINDS = ("random", "heuristic", "mcts", "champion", "ppo", "ppo-sample", "rllib", "human")
#: The values a heuristic option that is not true/false takes.
HEURISTIC_CHOICES = {"skip_target": ("leader", "next")}


def _parse_options(text: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    valid = {f.name: f.type for f in fields(HeuristicConfig)}
    for item in filter(None, text.split(",")):
        key, sep, value = item.partition("=")
        if not sep or key not in valid:
            raise ValueError(f"bad heuristic option {item!r}; options are {sorted(valid)} as key=value")
        if valid[key] in (bool, "bool"):
            if value.lower() not in ("true", "false"):
                raise ValueError(f"heuristic option {key} takes true or false, not {value!r}")
            options[key] = value.lower() == "true"
        elif value not in HEURISTIC_CHOICES[key]:
            raise ValueError(f"heuristic option {key} takes one of {list(HEURISTIC_CHOICES[key])}, not {value!r}")
        else:
            options[key] = value
    return options


def make_agent(spec: str, seed: int | None = None) -> Policy:
    """Build the agent ``spec`` names (see the module docstring)."""
    kind, _, arg = spec.partition(":")
    if kind in ("random", "human") and arg:
        raise ValueError(f"{kind} takes no options, not {arg!r}")
    if kind == "random":
        return RandomAgent(seed)
    if kind == "heuristic":
        heuristic = HeuristicAgent(**_parse_options(arg))
        heuristic.name = spec
        return heuristic
    if kind == "mcts":
        from .mcts import SearchAgent, parse_search_options

        search = SearchAgent(parse_search_options(arg), seed)
        search.name = spec
        return search
    if kind == "champion":
        from .champion import ChampionAgent, parse_champion_options

        champion = ChampionAgent(parse_champion_options(arg), seed)
        champion.name = spec
        return champion
    if kind in ("ppo", "ppo-sample"):
        if not arg:
            raise ValueError(f"{kind} needs a model path: {kind}:runs/NAME/model.zip")
        from .network import PPOAgent

        network = PPOAgent(arg, deterministic=kind == "ppo")
        network.seed(seed)
        return network
    if kind == "rllib":
        if not arg:
            raise ValueError("rllib needs an exported policy: rllib:runs/NAME/policy.pt")
        from .rllib_policy import RLlibAgent

        exported = RLlibAgent(arg)
        exported.seed(seed)
        return exported
    if kind == "human":
        from .human import HumanAgent

        return HumanAgent()
    raise ValueError(f"unknown agent {spec!r}; agents are {list(AGENT_KINDS)} (ppo, ppo-sample and rllib take :PATH)")


_AGENTS: dict[str, Policy] = {}  # built once per process


def cached_agent(spec: str) -> Policy:
    """The agent ``spec`` names, built once per process (call :func:`forget_agents` when a
    saved model behind a spec may have changed)."""
    if spec not in _AGENTS:
        _AGENTS[spec] = make_agent(spec)
    return _AGENTS[spec]


def forget_agents() -> None:
    _AGENTS.clear()
