"""Phase 10 as a PettingZoo AEC environment (``raw_env``; ``env()`` builds one).

Agents are ``player_0`` .. ``player_{n-1}`` in seat order; with the default first dealer
(the last seat) ``player_0`` acts first. One agent acts at a time, several actions in a row
within its turn (draw, lay-down and hit actions, discard). Turns lost to a Skip pass without an
action.

* Action space: ``Discrete(350)`` for every phase and player count; see
  :mod:`phase10_env.actions` for the table.
* Observation space: ``Dict(observation=Box(731,), action_mask=Box(0, 1, (350,), int8))``; see
  :mod:`phase10_env.observation` for the layout. The mask is also in
  ``infos[agent]["action_mask"]``; a non-acting agent's mask is all zeros. Masks are read-only
  arrays (states share them); copy one to change it.
* Rewards: :mod:`phase10_env.rewards` (default +1 to the winner, -1 to the others at game end).
* ``terminations`` are all set when the game ends (or, with ``episode="hand"``, when the first
  hand ends); ``truncations`` when ``max_steps`` actions have been taken.
* An illegal or out-of-range action raises ``ValueError`` naming it and why; nothing changes.
  With ``illegal_action="terminate"`` (for clients that may send unmasked actions, as
  PettingZoo's ``TerminateIllegalWrapper`` does) an illegal integer action instead ends the
  episode: the offender gets ``illegal_reward`` (default -1), the others 0, every agent is
  terminated and the offender's ``infos`` say ``"illegal_action": True``.

Options: ``num_players`` (2-6), ``rules`` (a ``RulesConfig``, a mapping, a YAML path or the
name of a file in ``configs/rules``) and/or rule options as keywords (``skip_rule=...``),
``rewards`` (preset name, mapping or ``RewardConfig``), ``episode`` (``"game"`` or ``"hand"``),
``start_phases`` (``"first"``, or ``"random"``: each seat starts at a random phase, which makes
hand episodes cover every phase), ``features`` (``"standard"``, or ``"planning"`` to append
the features of :mod:`phase10_env.planning`), ``max_steps`` (actions in all before truncation) or
PettingZoo's ``max_cycles`` (cycles of one action per player: ``max_steps = max_cycles *
num_players``), ``illegal_action`` (``"raise"`` or ``"terminate"``) and ``illegal_reward``,
``render_mode`` (``"ansi"`` or ``"human"``).

>>> game = env(num_players=2)
>>> game.reset(seed=7)
>>> obs, reward, terminated, truncated, info = game.last()
>>> game.agent_selection, obs["observation"].shape, obs["action_mask"].nonzero()[0]  # draw or take the discard
('player_0', (731,), array([0, 1]))
>>> game.step(0)
>>> game.step(0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
phase10_env.actions.IllegalActionError: illegal action 0 (draw from the deck) for player_0: this player has already drawn...
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from .actions import ACTIONS, NUM_ACTIONS, IllegalActionError, check_action_id, describe
from .codec import decode, move_of, step_of
from .engine.config import RulesSpec, load_rules
from .engine.game import GAME_OVER, PLAY_STAGE, Game
from .engine.moves import Event, GameEnded, HandEnded
from .engine.partial import PartialHit, PartialLayDown, PartialMove, step_problem
from .engine.seats import check_num_players
from .engine.view import SeatView
from .masks import NO_ACTIONS, legal_mask
from .observation import ObservationEncoder, observation_bounds
from .policy import PlayerObservation
from .render import pending_text, render_text
from .rewards import RewardsSpec, load_rewards

EPISODES = ("game", "hand")
START_PHASES = ("first", "random")
ILLEGAL_ACTIONS = ("raise", "terminate")
ENV_STATE_FORMAT = "phase10-env-state"


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def env(**kwargs: Any) -> raw_env:
    """A Phase 10 AEC environment. Unlike most PettingZoo classic envs this adds no stock
    wrappers: the order, bounds and legality checks they provide are done inside ``raw_env`` at
    a fraction of their cost (about 30 us per wrapper per step)."""
    return raw_env(**kwargs)


class raw_env(AECEnv, EzPickle):
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "phase10_v0", "is_parallelizable": False,
                                "render_fps": 1}

    def __init__(self, num_players: int = 2, render_mode: str | None = None,
                 rules: RulesSpec = None,
                 rewards: RewardsSpec = None, episode: str = "game",
                 max_steps: int | None = None, start_phases: str = "first", features: str = "standard",
                 illegal_action: str = "raise", illegal_reward: float = -1.0, max_cycles: int | None = None,
                 **rule_options: Any) -> None:
        EzPickle.__init__(self, num_players, render_mode, rules, rewards, episode, max_steps, start_phases, features,
                          illegal_action, illegal_reward, max_cycles, **rule_options)
        super().__init__()
        self.num_players = check_num_players(num_players)
        self.rules = load_rules(rules, **rule_options)
        self.reward_config = load_rewards(rewards)
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {list(EPISODES)}, not {episode!r}")
        self.episode = episode
        if start_phases not in START_PHASES:
            raise ValueError(f"start_phases must be one of {list(START_PHASES)}, not {start_phases!r}")
        self.start_phases = start_phases
        for name, value in (("max_steps", max_steps), ("max_cycles", max_cycles)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a positive integer or None, not {value!r}")
        if max_steps is not None and max_cycles is not None:
            raise ValueError("give max_steps (actions in all) or max_cycles (actions per player), not both")
        self.max_steps = max_steps if max_cycles is None else max_cycles * self.num_players
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {list(ILLEGAL_ACTIONS)}, not {illegal_action!r}")
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)):
            raise ValueError(f"illegal_reward must be a number, not {illegal_reward!r}")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.num_players)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        low, high = observation_bounds(features)
        self.features = features
        obs_space = spaces.Dict({
            "observation": spaces.Box(low, high, low.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seeder = np.random.default_rng()
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        """The game under way (its state is the engine's: read it, never change it)."""
        return self._started("reading env.game")

    @property
    def started(self) -> bool:
        """Whether :meth:`reset` has begun a game."""
        return self._game is not None

    def _started(self, what: str) -> Game:
        """The game, or a ``RuntimeError`` saying ``what`` needs a reset first."""
        if self._game is None:
            raise RuntimeError(f"call reset() before {what}")
        return self._game

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode control

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` fixes this game and the seeds of the games after it.
        ``options``: ``{"first_dealer": seat}`` or ``{"state": Game.to_json() data}`` to start
        from a saved position (for everything the env keeps besides the game, a lay-down in
        progress and rewards not yet delivered, see :meth:`save_state`). A reset that fails
        raises ``ValueError`` and changes nothing, the seed stream included."""
        seeder = np.random.default_rng(seed) if seed is not None else copy.deepcopy(self._seeder)
        options = dict(options or {})
        state = options.pop("state", None)
        first_dealer = options.pop("first_dealer", None)
        if options:
            import gymnasium

            gymnasium.logger.warn(f"ignoring unknown reset option(s) {sorted(options)}; known: ['first_dealer', 'state']")
        game_seed = int(seeder.integers(2**63))
        if state is not None:
            game = Game.from_json(state)
            if game.num_players != self.num_players:
                raise ValueError(f"the state is for {game.num_players} players; this env has {self.num_players}")
        else:
            phases = None
            if self.start_phases == "random":
                phases = seeder.integers(self.rules.phases_to_win, size=self.num_players).tolist()
            game = Game(self.num_players, self.rules, seed=game_seed, first_dealer=first_dealer, start_phases=phases)
        self._seeder = seeder
        self._start(game)

    def _start(self, game: Game) -> None:
        """Begin an episode on ``game`` (a new or loaded one), nothing in progress."""
        self._game = game
        self._encoder = ObservationEncoder(game, planning=self.features == "planning")
        self._pending: PartialMove | None = None
        self._move_actions: list[int] = []
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self._rewards_dirty = False
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {"action_mask": NO_ACTIONS} for a in self.agents}
        self._mask = NO_ACTIONS
        self._ended = (False, False)
        self.agent_selection = self.agents[game.current]
        if game.is_over:
            self._finish()
        else:
            self._mask = legal_mask(game, None)
            self.infos[self.agent_selection] = {"action_mask": self._mask}

    def save_state(self) -> dict[str, Any]:
        """Everything needed to go on from here, as JSON-ready data: the game, the actions of a
        move in progress (a lay-down or hit waiting for more actions), rewards not yet
        delivered, the step count and the seed stream. :meth:`restore_state` loads it."""
        game = self._started("save_state()")
        return {"format": ENV_STATE_FORMAT, "version": 1, "game": game.to_json(),
                "move_actions": list(self._move_actions), "steps": self._steps,
                "rewards": dict(self.rewards), "cumulative_rewards": dict(self._cumulative_rewards),
                "rewards_pending": self._rewards_dirty, "agents": list(self.agents),
                "terminations": dict(self.terminations), "truncations": dict(self.truncations),
                "seeder": self._seeder.bit_generator.state}

    def restore_state(self, data: Mapping[str, Any]) -> None:
        """Go on from data written by :meth:`save_state` (same number of players; the game
        brings its own rules). Raises ``ValueError`` naming what is wrong and changes nothing."""
        keys = {"format", "version", "game", "move_actions", "steps", "rewards", "cumulative_rewards",
                "rewards_pending", "agents", "terminations", "truncations", "seeder"}
        if not isinstance(data, Mapping) or data.get("format") != ENV_STATE_FORMAT or data.get("version") != 1:
            raise ValueError(f"malformed env state: expected an object with format {ENV_STATE_FORMAT!r} version 1")
        if set(data) != keys:
            raise ValueError(f"malformed env state: lacks {sorted(keys - set(data))}, has unknown {sorted(set(data) - keys)}")
        agents = data["agents"]
        if not isinstance(agents, list) or not set(agents) <= set(self.possible_agents) or len(set(agents)) != len(agents):
            raise ValueError(f"malformed env state: agents must be a list of distinct agents of {self.possible_agents}")
        values: dict[str, dict[str, Any]] = {}
        for name, numbers in (("rewards", True), ("cumulative_rewards", True), ("terminations", False), ("truncations", False)):
            d = data[name]
            if not isinstance(d, Mapping) or set(d) != set(agents) or not all(
                    (_is_number(v) if numbers else isinstance(v, bool)) for v in d.values()):
                what = "a finite number" if numbers else "true or false"
                raise ValueError(f"malformed env state: {name} must map each agent in agents to {what}")
            values[name] = {a: float(d[a]) if numbers else d[a] for a in agents}
        steps, moves, pending_flag = data["steps"], data["move_actions"], data["rewards_pending"]
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
            raise ValueError(f"malformed env state: steps must be a non-negative integer, not {steps!r}")
        if not isinstance(pending_flag, bool):
            raise ValueError(f"malformed env state: rewards_pending must be true or false, not {pending_flag!r}")
        if not isinstance(moves, list) or not all(type(a) is int for a in moves):
            raise ValueError("malformed env state: move_actions must be a list of action ids")
        try:
            seeder = np.random.default_rng()
            seeder.bit_generator.state = data["seeder"]
        except (TypeError, ValueError, KeyError, OverflowError) as e:
            raise ValueError(f"malformed env state: seeder is not a numpy PCG64 state ({e})") from None
        game = Game.from_json(data["game"])
        if game.num_players != self.num_players:
            raise ValueError(f"the state is for {game.num_players} players; this env has {self.num_players}")
        pending = None
        for a in moves:
            if game.stage != PLAY_STAGE or not 0 <= a < NUM_ACTIONS or not legal_mask(game, pending)[a]:
                raise ValueError(f"malformed env state: move_actions {moves} are not a move in progress here")
            result = decode(game, a, pending)
            if not isinstance(result, (PartialLayDown, PartialHit)):
                raise ValueError(f"malformed env state: move_actions {moves} complete a move; it would have been made")
            pending = result
        self._start(game)
        self._seeder = seeder
        self._move_actions = list(moves)
        self._pending = pending
        self._encoder.set_pending(pending)
        self._steps = steps
        self.agents = list(agents)
        self.rewards, self._cumulative_rewards = values["rewards"], values["cumulative_rewards"]
        self.terminations, self.truncations = values["terminations"], values["truncations"]
        self._rewards_dirty = pending_flag
        if any(self.terminations.values()) or any(self.truncations.values()) or not agents:
            self._ended = (any(self.terminations.values()) or game.is_over, any(self.truncations.values()))
            self._mask = NO_ACTIONS
            self.infos = {a: {"action_mask": NO_ACTIONS} for a in self.agents}
        else:
            self._mask = legal_mask(game, pending)
            self.infos = {a: {"action_mask": NO_ACTIONS} for a in self.agents}
            self.infos[self.agent_selection]["action_mask"] = self._mask

    def step(self, action: int | None) -> None:
        game = self._game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:  # as PettingZoo's OrderEnforcingWrapper: a warning, nothing happens
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not (type(action) is int and 0 <= action < NUM_ACTIONS and self._mask[action]):
            try:
                action = self._check_action(agent, action)
            except IllegalActionError:
                if self.illegal_action == "raise":
                    raise
                self._terminate_illegal(agent)
                return
        if self._rewards_dirty:
            self._clear_rewards()
            self._rewards_dirty = False
        self._cumulative_rewards[agent] = 0.0
        mover, pending = game.current, self._pending
        move = decode(game, action, pending)
        self._steps += 1
        if type(move) is PartialLayDown or type(move) is PartialHit:
            self._pending = move
            self._move_actions.append(action)
            self._encoder.set_pending(move)
        else:
            if pending is not None:
                self._pending = None
                self._move_actions.clear()
                self._encoder.set_pending(None)
            events = game.unsafe_apply(move)  # the mask, exact by construction, was the check
            self._encoder.after_move(mover, move, events)
            if events:
                self._score_events(events)
                if game.stage == GAME_OVER or (self.episode == "hand" and any(type(e) is HandEnded for e in events)):
                    self._finish()
        if self.max_steps is not None and self._steps >= self.max_steps and not self.terminations[agent]:
            self._finish(truncated=True)
        if not (self.terminations[agent] or self.truncations[agent]):
            new = self.possible_agents[game.current]
            self._mask = mask = legal_mask(game, self._pending)
            infos = self.infos
            if new != agent:
                infos[agent]["action_mask"] = NO_ACTIONS
                self.agent_selection = new
            infos[new]["action_mask"] = mask
        if self._rewards_dirty:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _check_action(self, agent: str, action: Any) -> int:
        """The action as an int, or a ``ValueError`` saying what is wrong with it (step's fast
        path has already let plain legal ints through): :class:`IllegalActionError` for an
        integer that is not a legal action now."""
        if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
            action = action.reshape(()).item()
        a = check_action_id(action)
        if not self._mask[a]:
            raise IllegalActionError(f"illegal action {a} ({describe(a)}) for {agent}: {self._why_illegal(a)}")
        return a

    def _terminate_illegal(self, agent: str) -> None:
        """``illegal_action="terminate"``: the episode ends, the offender gets ``illegal_reward``."""
        self._clear_rewards()
        self._finish()
        self.rewards[agent] = self.illegal_reward
        self.infos[agent]["illegal_action"] = True
        self._cumulative_rewards[agent] = 0.0  # what the others had not yet collected stays theirs
        self._accumulate_rewards()
        self._rewards_dirty = True

    def _why_illegal(self, a: int) -> str:
        """Why the masked action ``a`` is illegal, in the engine's words."""
        game, partial = self.game, self._pending
        action, n = ACTIONS[a], game.num_players
        offset = action.skip_offset if action.kind == "skip" else action.seat_offset
        if offset is not None and offset >= n:
            return f"there is no seat at offset {offset} in a {n}-player game"
        step, move = step_of(game, a), move_of(game, a)
        if step is not None:
            reason = step_problem(game, partial, step)
        elif partial is not None:
            reason = f"{pending_text(partial)}: finish it first"
        elif move is not None:
            reason = game.illegal_reason(move)
        return reason or "the engine finds it legal, yet the mask refuses it: a bug in the masks"

    def _score_events(self, events: tuple[Event, ...]) -> None:
        cfg, n = self.reward_config, self.num_players
        for e in events:
            if type(e) is HandEnded and cfg.per_hand:
                self._add_rewards(cfg.hand_rewards(e.result, n))
            elif type(e) is GameEnded:
                self._add_rewards(cfg.game_rewards(e.winners, n))

    def _add_rewards(self, values: list[float]) -> None:
        for agent, value in zip(self.possible_agents, values):
            self.rewards[agent] += value
        self._rewards_dirty = True

    def _finish(self, truncated: bool = False) -> None:
        self._ended = (not truncated, truncated)
        done = self.truncations if truncated else self.terminations
        for a in self.agents:
            done[a] = True
            self.infos[a] = {"action_mask": NO_ACTIONS}
        self._mask = NO_ACTIONS

    # ------------------------------------------------------------------ what agents see

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``; once every agent has been removed, the last one's final
        values (with a warning, as stepping then does) instead of a ``KeyError``."""
        self._started("last()")
        if self.agents:
            seen: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
            return seen
        EnvLogger.warn_step_after_terminated_truncated()
        terminated, truncated = self._ended
        return (self.observe(self.agent_selection) if observe else None, 0.0, terminated, truncated,
                {"action_mask": NO_ACTIONS})

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self._game is None:  # _started(), spelled out: every step observes
            raise RuntimeError("call reset() before observe()")
        # Once the episode is over ``_mask`` is the zero mask, so the acting agent's is right too.
        mask = self._mask if agent == self.agent_selection else NO_ACTIONS
        return {"observation": self._encoder.observe(self._seat_of[agent]), "action_mask": mask}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The legal-action mask of ``agent`` (default: the agent to act)."""
        return self.observe(agent or self.agent_selection)["action_mask"]

    def observation_vector(self, agent: str) -> np.ndarray:
        """``observe(agent)["observation"]`` alone."""
        self._started("observation_vector()")
        return self._encoder.observe(self._seat_of[agent])

    def cumulative_reward(self, agent: str) -> float:
        """What ``agent`` has received since it last acted (``last()``'s reward, for any agent)."""
        return self._cumulative_rewards[agent]

    def seat_view(self, agent: str) -> SeatView:
        """The readable form of what ``agent`` may see (for rule-based agents and humans)."""
        return self._started("seat_view()").view(self._seat_of[agent])

    def player_observation(self, agent: str | None = None, with_view: bool = True) -> PlayerObservation:
        """Everything ``agent`` (default: the agent to act) may know now, as agents take it;
        ``with_view=False`` leaves out the readable view (see :func:`~phase10_env.policy.needs_view`)."""
        agent = agent or self.agent_selection
        obs = self.observe(agent)
        view = self.seat_view(agent) if with_view else None
        return PlayerObservation(agent, self._seat_of[agent], obs["observation"], obs["action_mask"], self._pending, view)

    @property
    def pending(self) -> PartialMove | None:
        """The move the acting agent has started and finishes with its next actions, if any
        (a lay-down group by group, or the choice of cards for a group or a hit: an engine
        :data:`~phase10_env.engine.partial.PartialMove`)."""
        return self._pending

    def render(self) -> str | None:
        self._started("render()")
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        game = self.game
        viewer = None if game.is_over else game.current
        text = render_text(game, viewer, self.possible_agents)
        pending = pending_text(self._pending)
        if pending is not None:
            text += f"\n  ({pending})"
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        pass
