"""The protocol's fixed evaluation: ``games`` episodes of a task, the learner's seat rotating
(episode ``g``: seat ``g % n``, first dealer ``(g // n) % n``), every other seat the task's
evaluation opponent, each episode's seed derived from the split's seed and ``g`` alone. So
every agent, trained or not, is scored on the same deals from the same seats, and any score
can be recomputed from the :class:`Episode` records a results JSON keeps."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from phase10_env import Phase10Env
from phase10_env.policy import Policy, needs_view

from ..evaluation.tournament import game_seed
from ..policies.registry import make_agent
from .tasks import Task


@dataclass(frozen=True)
class Episode:
    """How one evaluation episode ended, seat by seat. ``phases``: phases completed; ``points``:
    penalty points (R17, lower is better; after one hand, that hand's points); ``winners``: the
    game's winners, or in a one-hand episode the seat that went out (none if the episode was
    cut at the task's step limit)."""

    deal: int
    seat: int
    first_dealer: int
    phases: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    hands: int
    learner_steps: int
    truncated: bool

    @property
    def win(self) -> float:
        """The learner's share of the win (tied winners share it)."""
        return 1.0 / len(self.winners) if self.seat in self.winners else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "seat": self.seat, "first_dealer": self.first_dealer, "phases": list(self.phases),
                "points": list(self.points), "winners": list(self.winners), "hands": self.hands,
                "learner_steps": self.learner_steps, "truncated": self.truncated}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Episode:
        return cls(deal=int(data["deal"]), seat=int(data["seat"]), first_dealer=int(data["first_dealer"]),
                   phases=tuple(int(p) for p in data["phases"]), points=tuple(int(p) for p in data["points"]),
                   winners=tuple(int(w) for w in data["winners"]), hands=int(data["hands"]),
                   learner_steps=int(data["learner_steps"]), truncated=bool(data["truncated"]))


@dataclass(frozen=True)
class Evaluation:
    """The episodes of one evaluation and the wall time they took."""

    episodes: tuple[Episode, ...]
    seconds: float

    @property
    def learner_steps(self) -> int:
        return sum(e.learner_steps for e in self.episodes)


def deal_layout(task: Task, deal: int) -> tuple[int, int]:
    """The learner's seat and the first dealer of episode ``deal``."""
    n = task.num_players
    return deal % n, (deal // n) % n


def evaluate(task: Task, agent: Policy, games: int, seed: int) -> Evaluation:
    """Play ``agent`` in the learner's seat for ``games`` episodes (see the module docstring)."""
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    n = task.num_players
    envs = [Phase10Env(opponents=[make_agent(task.eval_opponents) for _ in range(n - 1)], learner_seat=s,
                       **task.env_kwargs(score=True)) for s in range(n)]
    view = needs_view(agent)
    seeded = getattr(agent, "seed", None)
    episodes, start = [], time.perf_counter()
    for g in range(games):
        seat, dealer = deal_layout(task, g)
        env = envs[seat]
        if callable(seeded):
            seeded(game_seed(seed, g, 0))
        env.reset(seed=game_seed(seed, g), options={"first_dealer": dealer})
        steps, terminated, truncated = 0, False, False
        while not (terminated or truncated):
            action = agent.act(env.aec.player_observation(env.learner, with_view=view))
            _, _, terminated, truncated, _ = env.step(action)
            steps += 1
        episodes.append(_episode(env, g, seat, dealer, steps, truncated))
    return Evaluation(tuple(episodes), time.perf_counter() - start)


def _episode(env: Phase10Env, deal: int, seat: int, dealer: int, steps: int, truncated: bool) -> Episode:
    game = env.game
    if game.winners:
        winners = tuple(sorted(game.winners))
    elif env.aec.episode == "hand" and game.history and game.history[-1].went_out is not None:
        winners = (game.history[-1].went_out,)
    else:
        winners = ()
    return Episode(deal=deal, seat=seat, first_dealer=dealer, phases=tuple(game.phases_completed),
                   points=tuple(game.scores), winners=winners, hands=len(game.history), learner_steps=steps,
                   truncated=truncated)
