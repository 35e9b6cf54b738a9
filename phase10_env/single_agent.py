"""A Gymnasium single-agent view of Phase 10: one learner seat against opponent policies that
the environment steps internally.

Observations are the learner's observation vector (``Box(731,)``), and rewards are the
learner's: everything that reached it since its previous action, including what arrives on an
opponent's move (the hand or game ending). ``action_masks()`` gives the legal actions for
sb3-contrib's ``MaskablePPO``. Opponents are :class:`~phase10_env.policy.Policy` objects (the
agents in ``agents/``, or your own) and can be swapped at run time with
:meth:`Phase10Env.set_opponents` (for self-play, also through ``VecEnv.env_method``); without
them, opponents play uniformly random legal actions drawn from the environment's own generator.
Registered as ``"phase10_env/Phase10-v0"``.

>>> env = Phase10Env(num_players=2, learner_seat=0)
>>> obs, info = env.reset(seed=7)
>>> obs.shape, info["learner"], env.action_masks().nonzero()[0]
((731,), 'player_0', array([0, 1]))
>>> obs, reward, terminated, truncated, info = env.step(0)  # draw; the learner plays on
>>> info["learner"], reward, terminated
('player_0', 0.0, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from .actions import NUM_ACTIONS
from .engine.config import RulesSpec
from .engine.game import Game
from .engine.view import SeatView
from .env import raw_env
from .play import play, policy_chooser
from .policy import Policy
from .rewards import RewardsSpec

ILLEGAL_ACTION_MODES = ("raise", "penalize")


class Phase10Env(gymnasium.Env):
    """``learner_seat``: a seat number, or ``"random"`` (a new seat each episode).
    ``opponents``: one policy for all other seats or a list with one per other seat (in seat
    order after the learner); default (``None``): uniformly random legal actions.
    ``illegal_action``: what an illegal action does: ``"raise"`` (default: a ``ValueError``, as
    in the AEC env) or ``"penalize"`` (for learners without masks: nothing happens, the reward
    is ``illegal_reward``, default -0.1, and ``info["illegal_action"]`` is True; the AEC env's
    ``"terminate"`` ends the episode instead, its ``illegal_reward`` the offender's reward).
    Other options as for ``raw_env``."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, num_players: int = 2, opponents: Policy | Sequence[Policy] | None = None,
                 learner_seat: int | str = "random", render_mode: str | None = None,
                 rules: RulesSpec = None,
                 rewards: RewardsSpec = None, episode: str = "game",
                 max_steps: int | None = None, start_phases: str = "first", features: str = "standard",
                 illegal_action: str = "raise", illegal_reward: float = -0.1, **rule_options: Any) -> None:
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {list(ILLEGAL_ACTION_MODES)}, not {illegal_action!r}")
        self.illegal_action = illegal_action
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)):
            raise ValueError(f"illegal_reward must be a number, not {illegal_reward!r}")
        self.illegal_reward = float(illegal_reward)
        self.aec = raw_env(num_players=num_players, render_mode=render_mode, rules=rules, rewards=rewards,
                           episode=episode, max_steps=max_steps, start_phases=start_phases, features=features,
                           **rule_options)
        self.num_players = self.aec.num_players
        if not (learner_seat == "random" or (isinstance(learner_seat, int) and 0 <= learner_seat < self.num_players)):
            raise ValueError(f"learner_seat must be 'random' or a seat 0-{self.num_players - 1}, not {learner_seat!r}")
        self.learner_seat_option = learner_seat
        self.render_mode = render_mode
        agent0 = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(agent0)["observation"]
        self.action_space = self.aec.action_space(agent0)
        self.set_opponents(opponents)
        self.learner = agent0

    def set_opponents(self, opponents: Policy | Sequence[Policy | None] | None) -> None:
        """Policies for the other seats: one for all, or one per other seat (in play order
        after the learner); ``None`` plays uniformly random legal actions. Takes effect at
        once, mid-episode included."""
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != self.num_players - 1:
                raise ValueError(f"need {self.num_players - 1} opponents for {self.num_players} players, got {len(opponents)}")
            self.opponents: list[Policy | None] = list(opponents)
        else:
            self.opponents = [opponents] * (self.num_players - 1)
        for p in self.opponents:
            if p is not None and not isinstance(p, Policy):
                raise ValueError(f"an opponent must have an act(observation) method, not {p!r}")
        if self.aec.started:
            self._assign_seats()

    def _assign_seats(self) -> None:
        seat = self.aec.possible_agents.index(self.learner)
        self._by_agent = {a: self.opponents[(s - seat) % self.num_players - 1]
                          for s, a in enumerate(self.aec.possible_agents) if s != seat}
        self._ask_policies = policy_chooser(self.aec, {a: p for a, p in self._by_agent.items() if p is not None})

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode. One that is over before the learner's first action (in a one-hand
        episode, an opponent going out on its very first turn) is not handed out, as nothing
        could be done with it: the next game of the seed stream is dealt instead (a saved
        ``state`` that ends so is a ``ValueError``)."""
        super().reset(seed=seed)
        while True:
            game_seed = int(self.np_random.integers(2**63))
            for i, p in enumerate(self.opponents):
                if p is not None and hasattr(p, "seed"):
                    p.seed(game_seed + i + 1)
            option = self.learner_seat_option
            seat = int(self.np_random.integers(self.num_players)) if isinstance(option, str) else option
            self.learner = self.aec.possible_agents[seat]
            self._assign_seats()
            self.aec.reset(seed=game_seed, options=options)
            self._play_opponents()
            if not self._done():
                return self._observation(), self._info()
            if options and "state" in options:
                raise ValueError("the saved state's episode is over before the learner's first action")

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if aec.agent_selection != self.learner or self._done():
            raise RuntimeError("step() called after the episode ended; call reset()")
        if self.illegal_action == "penalize" and not self._is_legal(action):
            return self._observation(), self.illegal_reward, False, False, {**self._info(), "illegal_action": True}
        aec.step(action)
        self._play_opponents()
        reward = aec.cumulative_reward(self.learner)  # all it got since this action
        return (self._observation(), reward, bool(aec.terminations[self.learner]),
                bool(aec.truncations[self.learner]), self._info())

    def _is_legal(self, action: Any) -> bool:
        try:
            a = int(action)
        except (TypeError, ValueError):
            return False
        return 0 <= a < NUM_ACTIONS and bool(self.aec.action_mask(self.learner)[a])

    def _done(self) -> bool:
        return self.aec.terminations[self.learner] or self.aec.truncations[self.learner]

    def _play_opponents(self) -> None:
        """The opponents act (through the one play loop) until the learner is to act or done."""
        play(self.aec, self._opponent_action, until=lambda agent: agent == self.learner or self._done())

    def _opponent_action(self, agent: str) -> int:
        if self._by_agent[agent] is None:
            legal = self.aec.action_mask(agent).nonzero()[0]
            return int(legal[self.np_random.integers(len(legal))])
        return self._ask_policies(agent)

    def _observation(self) -> np.ndarray:
        return self.aec.observation_vector(self.learner)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "learner": self.learner}

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (all False once the episode is over)."""
        if self._done() or self.aec.agent_selection != self.learner:
            return np.zeros(NUM_ACTIONS, dtype=bool)
        return self.aec.action_mask(self.learner).astype(bool)

    def seat_view(self) -> SeatView:
        """The learner's readable view (for humans and rule-based agents)."""
        return self.aec.seat_view(self.learner)

    @property
    def game(self) -> Game:
        """The game under way (a ``RuntimeError`` before the first reset)."""
        return self.aec.game

    def render(self) -> str | None:
        return self.aec.render()
