"""The protocol's fixed evaluation: ``games`` episodes of a task, the learner's seat rotating
(episode ``g``: seat ``g % n``, first dealer ``(g // n) % n``), every other seat the task's
evaluation opponent, each episode's seed derived from the evaluation seed and ``g`` alone. So
every agent, trained or not, is scored on the same deals from the same seats."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from phase10_env import Phase10Env
from phase10_env.policy import Policy, needs_view

from ..evaluation.tournament import game_seed, wilson_interval
from ..policies.registry import make_agent
from .tasks import Task


@dataclass
class Evaluation:
    """Per-episode scores (each in [0, 1]) and the wall time they took."""

    scores: list[float]
    learner_steps: int
    seconds: float

    @property
    def score(self) -> float:
        return float(np.mean(self.scores)) if self.scores else 0.0

    def ci95(self) -> tuple[float, float]:
        """Wilson interval of the score over these episodes (one run's own uncertainty)."""
        return wilson_interval(sum(self.scores), len(self.scores))


def evaluate(task: Task, agent: Policy, games: int, seed: int) -> Evaluation:
    """Score ``agent`` in the learner's seat over ``games`` episodes (see the module docstring)."""
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    n = task.num_players
    envs = [Phase10Env(opponents=[make_agent(task.eval_opponents) for _ in range(n - 1)], learner_seat=s,
                       **task.env_kwargs(score=True)) for s in range(n)]
    view = needs_view(agent)
    scores, steps, start = [], 0, time.perf_counter()
    for g in range(games):
        env = envs[g % n]
        if hasattr(agent, "seed"):
            agent.seed(game_seed(seed, g, 0))
        env.reset(seed=game_seed(seed, g), options={"first_dealer": (g // n) % n})
        total, done = 0.0, False
        while not done:
            action = agent.act(env.aec.player_observation(env.learner, with_view=view))
            _, reward, terminated, truncated, _ = env.step(action)
            total, done, steps = total + reward, terminated or truncated, steps + 1
        scores.append(total)
    return Evaluation(scores, steps, time.perf_counter() - start)
