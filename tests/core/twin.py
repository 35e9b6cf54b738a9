"""A game played twice, by the Python engine and env (the reference) and by the native core,
action for action, with every difference reported in game terms."""

from __future__ import annotations

from typing import Any

import numpy as np

from phase10_env.core import SLOT, SLOT_BYTES, native
from phase10_env.core.convert import rules_tuple, state_json
from phase10_env.engine.config import load_rules
from phase10_env.env import raw_env
from phase10_env.heuristic import HeuristicAgent

_HEURISTIC = HeuristicAgent()


class Twin:
    """One game in both implementations, every seat played by the caller (self-play), seeded
    as ``Phase10Env`` seeds its AEC env."""

    def __init__(self, seed: int, num_players: int, rules: Any = None, start_phases: str = "first",
                 episode: str = "game", rewards: str = "shaped") -> None:
        self.core = native()
        self.rules = load_rules(rules)
        cfg = self._config(rewards, episode, start_phases, num_players)
        self.slots = np.zeros((1, SLOT_BYTES), np.uint8)
        self.idx = np.zeros(1, np.int64)
        self.core.configure(self.slots, self.idx, num_players, rules_tuple(self.rules), cfg)
        self.core.reset(self.slots, self.idx, np.array([seed], np.uint64), np.ones(1, np.uint8))
        self.slot = self.slots.view(SLOT)[0, 0]
        game_seed = int(np.random.default_rng(seed).integers(2**63))
        self.env = raw_env(num_players=num_players, rules=self.rules, rewards=rewards, episode=episode,
                           start_phases=start_phases, features="planning")
        self.env.reset(seed=game_seed)
        self.n = num_players
        self.width = self.env.observation_space("player_0")["observation"].shape[0]

    @staticmethod
    def _config(rewards: str, episode: str, start: str, n: int) -> tuple[Any, ...]:
        from phase10_env.rewards import load_rewards

        r = load_rewards(rewards)
        return (r.win, r.loss, r.phase_made, r.went_out, r.points, int(r.per_hand), int(episode == "hand"),
                int(start == "random"), 0, 0, 0, (0,) * n)

    @property
    def over(self) -> bool:
        agent = self.env.agent_selection
        return bool(self.env.terminations[agent] or self.env.truncations[agent])

    def state_difference(self) -> str | None:
        ours = self.env.game.to_json()
        ours.pop("history")
        theirs = state_json(self.slot["g"], self.rules)
        for key in ours:
            if ours[key] != theirs.get(key):
                return f"{key}: engine {ours[key]!r}, core {theirs.get(key)!r}"
        return None

    def decision_difference(self) -> str | None:
        """Masks, observations and the heuristic's choice for the seat to act."""
        obs = np.zeros((1, self.width), np.float32)
        mask = np.zeros((1, 350), np.uint8)
        self.core.observe(self.slots, self.idx, np.array([-2], np.int64), obs, mask, True)
        seen = self.env.observe(self.env.agent_selection)
        if not np.array_equal(seen["action_mask"], mask[0]):
            return (f"mask: engine {np.flatnonzero(seen['action_mask']).tolist()}, "
                    f"core {np.flatnonzero(mask[0]).tolist()}")
        if not np.array_equal(seen["observation"], obs[0]):
            where = np.flatnonzero(seen["observation"] != obs[0])
            return f"observation values {where.tolist()}: engine {seen['observation'][where]}, core {obs[0][where]}"
        ours = _HEURISTIC.act(self.env.player_observation())
        theirs = np.zeros(1, np.int64)
        self.core.heuristic(self.slots, self.idx, theirs)
        if ours != theirs[0]:
            return f"heuristic: engine plays {ours}, core {theirs[0]}"
        return None

    def heuristic_action(self) -> int:
        return int(_HEURISTIC.act(self.env.player_observation()))

    def legal(self) -> np.ndarray:
        return np.flatnonzero(self.env.observe(self.env.agent_selection)["action_mask"])

    def play(self, action: int) -> str | None:
        """Play ``action`` in both; the difference in rewards, events or episode end, if any."""
        self.env.step(action)
        status = np.zeros(1, np.int8)
        self.core.act(self.slots, self.idx, np.array([action], np.int64), status)
        for s, agent in enumerate(self.env.possible_agents):
            if self.env._cumulative_rewards[agent] != self.slot["cumulative"][s]:
                return f"reward of seat {s}: engine {self.env._cumulative_rewards[agent]}, core {self.slot['cumulative'][s]}"
        if self.over != bool(self.slot["terminated"] or self.slot["truncated"]):
            return f"episode over: engine {self.over}, core {bool(self.slot['terminated'])}"
        return None


def play_twin(twin: Twin, rng: np.random.Generator, heuristic_share: float, state_every: int = 25) -> int:
    """Play a whole episode in both, comparing every decision; returns the number of actions
    (a difference is an AssertionError naming the action and what differed)."""
    step = 0
    while True:
        if step % state_every == 0 or twin.over:
            assert (diff := twin.state_difference()) is None, f"action {step}: state differs: {diff}"
        if twin.over:
            return step
        assert (diff := twin.decision_difference()) is None, f"action {step}: {diff}"
        action = twin.heuristic_action() if rng.random() < heuristic_share else int(rng.choice(twin.legal()))
        hand = twin.env.game.hand_number
        assert (diff := twin.play(action)) is None, f"action {step} ({action}): {diff}"
        step += 1
        if twin.env.game.hand_number != hand:
            assert (diff := twin.state_difference()) is None, f"after the hand ended at action {step}: {diff}"
