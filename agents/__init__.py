"""Agents that play Phase 10 (random, heuristic, trained policies, a human) and the tools that
compare them (tournaments) or train them (self-play)."""

from .heuristic import HeuristicAgent, HeuristicConfig
from .random_agent import RandomAgent
from .registry import make_agent

__all__ = ["HeuristicAgent", "HeuristicConfig", "RandomAgent", "make_agent"]
