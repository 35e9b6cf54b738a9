"""Everything that chooses Phase 10 moves or compares those that do, by job:

* ``agents.policies``: the players (random, heuristic, trained networks, a human) and
  :func:`make_agent`, which builds one from a spec such as ``"heuristic"`` or ``"ppo:PATH"``;
* ``agents.pool``: the one worker pool (local processes, or Ray through ``agents.ray_cluster``);
* ``agents.evaluation``: tournaments with confidence intervals, and the speed benchmark;
* ``agents.training``: self-play MaskablePPO, imitation, opponent pools, run configs;
* ``agents.cli``: the ``phase10`` command.
"""

from phase10_env.heuristic import HeuristicAgent, HeuristicConfig
from phase10_env.random_agent import RandomAgent

from .policies.registry import make_agent

__all__ = ["HeuristicAgent", "HeuristicConfig", "RandomAgent", "make_agent"]
