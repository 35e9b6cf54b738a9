"""The benchmark's tasks: one learner seat of the single-agent view, with fixed options,
training opponents, evaluation opponents and a score. Each is registered with Gymnasium under
a versioned id when this module is imported (``import agents.benchmark``, then
``gymnasium.make("phase10_env/OneHand-2p-Heuristic-v0")``, or in one step
``gymnasium.make("agents.benchmark:phase10_env/OneHand-2p-Heuristic-v0")``); a change of
rules, encoding, reward or opponents that could move a score must come with a new version, and
:func:`fingerprint` (checked by the tests against :data:`FINGERPRINTS`) catches the ones made
by accident.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import gymnasium

from phase10_env import NUM_ACTIONS, OBS_SIZE, Phase10Env
from phase10_env.actions import ACTIONS
from phase10_env.engine.config import RulesConfig, load_rules
from phase10_env.policy import Policy

from ..policies.registry import make_agent

SELF_PLAY = "self-play"  # training opponents chosen by the algorithm: copies of the learner


@dataclass(frozen=True)
class Task:
    """A benchmark task. ``train_opponents``: an agent spec for every other seat, or
    :data:`SELF_PLAY`; ``eval_opponents``: the agent spec every other seat holds in the
    evaluation; ``rewards``: what the env gives the learner in training; ``score_rewards``: the
    reward config whose episode total is the evaluation score (in [0, 1]); ``even_share``: the
    score the heuristic gets in the evaluation by symmetry (the line to beat)."""

    id: str
    summary: str
    num_players: int
    episode: str
    train_opponents: str
    eval_opponents: str
    rewards: Mapping[str, float]
    score_rewards: Mapping[str, float]
    score_name: str
    max_steps: int
    solved: str
    start_phases: str = "first"
    rules: str = "default"
    env_options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def short(self) -> str:
        """The id without the namespace: ``OneHand-2p-Heuristic-v0``."""
        return self.id.split("/")[-1]

    @property
    def even_share(self) -> float:
        return 1.0 / self.num_players

    def rules_config(self) -> RulesConfig:
        """The rules the task is played under: its named rules with the rule options among
        ``env_options`` on top."""
        names = {f.name for f in fields(RulesConfig)}
        return load_rules(self.rules, **{k: v for k, v in self.env_options.items() if k in names})

    def env_kwargs(self, score: bool = False) -> dict[str, Any]:
        """``Phase10Env`` options (``score``: with the scoring rewards instead of the training ones)."""
        return {"num_players": self.num_players, "episode": self.episode, "start_phases": self.start_phases,
                "rules": self.rules, "max_steps": self.max_steps,
                "rewards": dict(self.score_rewards if score else self.rewards), **self.env_options}


SHAPED_GAME = {"win": 1.0, "loss": -1.0, "phase_made": 0.3, "went_out": 0.1, "points": -0.002}
GAME_WON = {"win": 1.0, "loss": 0.0}

TASKS: dict[str, Task] = {t.id: t for t in (
    Task(id="phase10_env/OneHand-2p-Heuristic-v0",
         summary="one hand from phase 1: make your phase and go out before the heuristic does",
         num_players=2, episode="hand", train_opponents="heuristic", eval_opponents="heuristic",
         rewards={"win": 0.0, "loss": 0.0, "went_out": 1.0, "phase_made": 0.3, "points": -0.002},
         score_rewards={"win": 0.0, "loss": 0.0, "went_out": 1.0}, score_name="hands won (went out first)",
         max_steps=400, solved="IQM 95% interval above 0.5 (the heuristic's own share of hands)"),
    Task(id="phase10_env/ShortGame-2p-Heuristic-v0",
         summary="a short 2-player game against the heuristic: the first to complete phases 1-3 ends it",
         num_players=2, episode="game", train_opponents="heuristic", eval_opponents="heuristic",
         rewards=SHAPED_GAME, score_rewards=GAME_WON, score_name="games won", max_steps=6_000,
         solved="IQM 95% interval above 1 (the heuristic's level)", env_options={"phases_to_win": 3}),
    Task(id="phase10_env/FullGame-2p-Random-v0",
         summary="the full 2-player game against an opponent playing uniformly random legal moves",
         num_players=2, episode="game", train_opponents="random", eval_opponents="random",
         rewards=SHAPED_GAME, score_rewards=GAME_WON, score_name="games won", max_steps=20_000,
         solved="IQM 95% interval above 1 (the heuristic's level against random play)"),
    Task(id="phase10_env/FullGame-2p-Heuristic-v0",
         summary="the full 2-player game (all 10 phases) against the heuristic",
         num_players=2, episode="game", train_opponents="heuristic", eval_opponents="heuristic",
         rewards=SHAPED_GAME, score_rewards=GAME_WON, score_name="games won", max_steps=20_000,
         solved="IQM 95% interval above 0.5 (the heuristic's own share of games)"),
    Task(id="phase10_env/SelfPlay-4p-v0",
         summary="the full 4-player game, trained by self-play, evaluated against 3 heuristics",
         num_players=4, episode="game", train_opponents=SELF_PLAY, eval_opponents="heuristic",
         rewards=SHAPED_GAME, score_rewards=GAME_WON, score_name="games won", max_steps=40_000,
         solved="IQM 95% interval above 0.25 (a heuristic's share of 4-player games)"),
)}

for _id in TASKS:  # the tasks need agents (the heuristic), so agents/ registers them, not phase10_env
    gymnasium.register(id=_id, entry_point="agents.benchmark.tasks:make_env", kwargs={"task": _id})

# The fingerprint of each task version as released: see fingerprint().
FINGERPRINTS: dict[str, str] = {
    "phase10_env/OneHand-2p-Heuristic-v0": "69a1c3c5146c071f",
    "phase10_env/FullGame-2p-Heuristic-v0": "53bea2b71931367a",
    "phase10_env/ShortGame-2p-Heuristic-v0": "00fdc925538b3fb7",
    "phase10_env/FullGame-2p-Random-v0": "0857bc6f5c6fa4a5",
    "phase10_env/SelfPlay-4p-v0": "d88c8296534e7ebb",
}


def get_task(name: str) -> Task:
    """The task with this id, with or without its ``phase10_env/`` namespace."""
    for task in TASKS.values():
        if name in (task.id, task.short):
            return task
    raise ValueError(f"unknown task {name!r}; tasks are {[t.short for t in TASKS.values()]}")


def make_env(task: str, opponents: Policy | list[Policy] | None = None, score: bool = False,
             **overrides: Any) -> Phase10Env:
    """The task's single-agent env (Gymnasium's entry point for the registered ids). Default
    opponents: the training opponents (random legal moves for a self-play task until the
    trainer sets copies of the learner with ``set_opponents``); ``score``: rewards are the
    evaluation score."""
    t = get_task(task)
    if opponents is None and t.train_opponents != SELF_PLAY:
        opponents = make_agent(t.train_opponents)
    return Phase10Env(opponents=opponents, **{**t.env_kwargs(score), **overrides})


def _reference_rollout(task: Task) -> list[int]:
    """The actions of one episode of ``task`` with the heuristic in every seat (seed 0): it
    moves if the engine's rules or the heuristic opponent do."""
    env = Phase10Env(opponents=make_agent(task.eval_opponents), learner_seat=0, **task.env_kwargs(score=True))
    learner = make_agent("heuristic")
    env.reset(seed=0)
    actions: list[int] = []
    done = False
    while not done and len(actions) < 400:
        action = learner.act(env.aec.player_observation(env.learner))
        actions.append(action)
        _, _, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
    return actions


def fingerprint(task: Task) -> str:
    """A short hash of what a task's scores depend on: its options, the rules they name, the
    observation and action encodings and a reference episode of play."""
    data = {"task": asdict(task), "rules": task.rules_config().to_dict(), "obs_size": OBS_SIZE,
            "num_actions": NUM_ACTIONS, "actions": [repr(a) for a in ACTIONS], "rollout": _reference_rollout(task)}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]
