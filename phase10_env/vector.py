"""Many Phase 10 games in one object: a Gymnasium ``VectorEnv`` stepped in one call.

``Phase10VectorEnv(num_envs, ...)`` holds ``num_envs`` games. Each ``step(actions)`` takes one
action per game and returns the batch: observations ``(N, D)`` float32, rewards, terminations,
truncations, and ``infos["action_mask"]`` ``(N, 350)`` bool (also :meth:`action_masks`, the name
sb3-contrib's ``MaskablePPO`` looks for). Games reset themselves when they end
(``autoreset_mode``: Gymnasium's ``NEXT_STEP`` by default, or ``SAME_STEP``, which puts the last
observation in ``infos["final_obs"]``).

Two modes:

* ``mode="single"`` (default): one learner seat per game (``learner_seat``: a seat, or
  ``"random"`` each episode) against ``opponents``: ``"random"``, ``"heuristic"``, a batched
  policy (any callable ``policy(observations, masks) -> actions`` over arrays of rows), or a list
  of those, one per seat offset after the learner. A game is exactly
  :class:`~phase10_env.single_agent.Phase10Env` with the same options: same seed, same game,
  same observations, rewards and masks.
* ``mode="selfplay"``: every seat's decisions come back to the caller. Each row is the seat to
  act in that game (``infos["seat"]``); rewards have shape ``(N, num_players)``: what each seat
  received from the action just taken (as the AEC env's ``rewards``).

``backend="native"`` steps the games in the compiled core (:mod:`phase10_env.core`), the fast
path; ``backend="python"`` steps :class:`~phase10_env.single_agent.Phase10Env` objects (or AEC
envs, in self-play), the readable reference; ``"auto"`` (default) takes the core when it is
built. Both give the same results for the same seeds (``tests/core/test_vector.py``).

Seeds: ``reset(seed=s)`` seeds game ``i`` with ``s + i``, as Gymnasium's ``SyncVectorEnv`` does.
An illegal or out-of-range action is a ``ValueError`` naming the game and the action, and no
game of the batch changes. Registered so that
``gymnasium.make_vec("phase10_env/Phase10-v0", num_envs=N, vectorization_mode="vector_entry_point")``
builds one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from .actions import NUM_ACTIONS, describe
from .core import available, native
from .engine.config import RulesConfig, load_rules
from .engine.seats import check_num_players
from .heuristic import HeuristicAgent
from .observation import observation_bounds
from .random_agent import RandomAgent
from .rewards import RewardConfig, load_rewards

BatchPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]
Opponent = str | BatchPolicy
MODES = ("single", "selfplay")
BACKENDS = ("auto", "native", "python")
BUILT_IN = ("random", "heuristic")
_CONTROLLER = {"learner": 0, "random": 1, "heuristic": 2, "external": 3}
_LEARNER, _EXTERNAL, _DONE = 0, 1, 2


class Phase10VectorEnv(VectorEnv):
    """``num_envs`` games of Phase 10 (see the module docstring). Other options are those of
    :class:`~phase10_env.single_agent.Phase10Env`: ``num_players``, ``rules`` and rule options
    as keywords, ``rewards``, ``episode``, ``start_phases``, ``features``, ``max_steps``."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, num_players: int = 2, opponents: Opponent | Sequence[Opponent] = "random",
                 mode: str = "single", learner_seat: int | str = "random",
                 rules: RulesConfig | Mapping[str, Any] | str | Path | None = None,
                 rewards: RewardConfig | Mapping[str, float] | str | None = None, episode: str = "game",
                 start_phases: str = "first", features: str = "standard", max_steps: int | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, backend: str = "auto",
                 **rule_options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        n = check_num_players(num_players)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {list(MODES)}, not {mode!r}")
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {list(BACKENDS)}, not {backend!r}")
        if backend == "native" or (backend == "auto" and available()):
            native()  # a clear ImportError if it was asked for and is not built
            self.backend = "native"
        else:
            self.backend = "python"
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        if self.autoreset_mode == AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode must be NEXT_STEP or SAME_STEP")
        self.metadata = {"autoreset_mode": self.autoreset_mode}
        self.num_envs, self.num_players, self.mode = num_envs, n, mode
        self.rules = load_rules(rules, **rule_options)
        self.reward_config = load_rewards(rewards)
        self.options: dict[str, Any] = {"num_players": n, "rules": self.rules, "rewards": self.reward_config, "episode": episode,
                        "start_phases": start_phases, "features": features, "max_steps": max_steps}
        if mode == "single":
            if not (learner_seat == "random" or (isinstance(learner_seat, int) and not isinstance(learner_seat, bool)
                                                 and 0 <= learner_seat < n)):
                raise ValueError(f"learner_seat must be 'random' or a seat 0-{n - 1}, not {learner_seat!r}")
            self.opponents, self.shared = _opponent_list(opponents, n)
        else:
            self.opponents, self.shared = [], False
        self.learner_seat = learner_seat
        low, high = observation_bounds(features)
        self.obs_size = low.shape[0]
        self.single_observation_space = spaces.Box(low, high, low.shape, np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(np.tile(low, (num_envs, 1)), np.tile(high, (num_envs, 1)),
                                            (num_envs, low.shape[0]), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, NUM_ACTIONS))
        games_class = _NativeGames if self.backend == "native" else _PythonGames
        self._games: _NativeGames | _PythonGames = games_class(self)
        self._autoreset = np.zeros(num_envs, dtype=bool)
        self._masks = np.zeros((num_envs, NUM_ACTIONS), dtype=bool)
        self._started = False

    # ------------------------------------------------------------------ the Gymnasium API

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game. ``seed``: an int (game ``i`` gets ``seed + i``), a list of one
        seed (or None) per game, or None (fresh entropy the first time, else the games' own
        generators go on)."""
        if options:
            raise ValueError(f"Phase10VectorEnv.reset takes no options, not {sorted(options)}")
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs if self._started else list(
                np.random.SeedSequence().generate_state(self.num_envs, np.uint64).astype(object) % 2**63)
        elif isinstance(seed, bool):
            raise ValueError(f"seed must be an int, None or a list of {self.num_envs} non-negative ints or None, not {seed}")
        elif isinstance(seed, (int, np.integer)):
            if seed < 0:
                raise ValueError(f"seed must be a non-negative integer, not {seed}")
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs or any(s is not None and (not isinstance(s, (int, np.integer)) or s < 0)
                                                  for s in seeds):
                raise ValueError(f"seed must be an int, None or a list of {self.num_envs} non-negative ints or None")
        self._started = True
        rows = np.arange(self.num_envs)
        obs = self._games.reset(rows, seeds)
        self._autoreset[:] = False
        return obs, self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integers (one per game), not {actions!r}")
        acts = acts.astype(np.int64)
        n = self.num_envs
        stepping = np.flatnonzero(~self._autoreset) if self.autoreset_mode == AutoresetMode.NEXT_STEP else np.arange(n)
        self._check(stepping, acts[stepping])
        rewards = np.zeros((n, self.num_players) if self.mode == "selfplay" else n, dtype=np.float64)
        terminated, truncated = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
        infos: dict[str, Any] = {}
        obs = np.empty((n, self.obs_size), dtype=np.float32)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            resetting = np.flatnonzero(self._autoreset)
            if len(resetting):
                obs[resetting] = self._games.reset(resetting, [None] * len(resetting))
        if len(stepping):
            stepped = self._games.step(stepping, acts[stepping])
            obs[stepping], rewards[stepping], terminated[stepping], truncated[stepping] = stepped
        done = np.flatnonzero(terminated | truncated)
        if self.autoreset_mode == AutoresetMode.SAME_STEP and len(done):
            final_obs = np.empty(n, dtype=object)
            final_obs[done] = list(obs[done])
            infos["final_obs"], infos["_final_obs"] = final_obs, terminated | truncated
            obs[done] = self._games.reset(done, [None] * len(done))
        else:
            self._autoreset = terminated | truncated
        infos.update(self._infos())
        return obs, rewards, terminated, truncated, infos

    def _check(self, rows: np.ndarray, actions: np.ndarray) -> None:
        inside = (actions >= 0) & (actions < NUM_ACTIONS)
        if inside.all() and self._masks[rows, actions].all():  # the masks of the games' current states
            return
        problem = self._games.check(rows, actions)
        if problem is None:
            raise RuntimeError("the cached masks disagree with the games: a bug in Phase10VectorEnv")
        i, what = problem
        game, action = int(rows[i]), int(actions[i])
        name = describe(action) if 0 <= action < NUM_ACTIONS else "out of range"
        raise ValueError(f"game {game}: action {action} ({name}) {what}; no game of the batch changed")

    def _infos(self) -> dict[str, Any]:
        self._masks = self._games.masks()
        infos = {"action_mask": self._masks}
        key = "seat" if self.mode == "selfplay" else "learner"
        infos[key] = self._games.seats()
        return infos

    def action_masks(self) -> np.ndarray:
        """Each game's legal actions for its seat to act, ``(N, 350)`` bool (no action for a game
        that ended and waits for its reset)."""
        if self.autoreset_mode == AutoresetMode.NEXT_STEP and self._autoreset.any():
            masks: np.ndarray = self._masks.copy()
            masks[self._autoreset] = False
            return masks
        return self._masks

    def heuristic_actions(self) -> np.ndarray:
        """What the heuristic player would do next in each game, for its seat to act (``-1``
        for a game that ended): the teacher's labels for imitation, at the core's speed."""
        return self._games.heuristic()

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """New opponents from the next decision on (single mode), e.g. a fresh self-play snapshot."""
        if self.mode != "single":
            raise ValueError("opponents are set in single mode only")
        new, shared = _opponent_list(opponents, self.num_players)
        if [_kind(o) for o in new] != [_kind(o) for o in self.opponents] or shared != self.shared:
            raise ValueError("set_opponents may swap a batched policy for another, not change the opponents' kinds "
                             f"({[_kind(o) for o in self.opponents]}); make a new env for that")
        self.opponents = new
        self._games.set_opponents(new)


def _kind(opponent: Opponent) -> str:
    return opponent if isinstance(opponent, str) else "external"


def _opponent_list(opponents: Opponent | Sequence[Opponent], n: int) -> tuple[list[Opponent], bool]:
    """One opponent per seat offset after the learner, and whether one opponent was given for
    all (then, as one object in ``Phase10Env``, a random opponent is one generator for all)."""
    shared = isinstance(opponents, str) or callable(opponents)
    if isinstance(opponents, str) or callable(opponents):  # shared, spelled so that the type narrows
        chosen: list[Opponent] = [opponents] * (n - 1)
    else:
        chosen = list(opponents)
        if len(chosen) != n - 1:
            raise ValueError(f"need {n - 1} opponents for {n} players, got {len(chosen)}")
    for o in chosen:
        if isinstance(o, str) and o not in BUILT_IN:
            raise ValueError(f"an opponent is one of {list(BUILT_IN)} or a batched policy "
                             f"(observations, masks) -> actions, not {o!r}")
        if not isinstance(o, str) and not callable(o):
            raise ValueError(f"an opponent is one of {list(BUILT_IN)} or a batched policy, not {o!r}")
    externals = {id(o) for o in chosen if not isinstance(o, str)}
    if len(externals) > 1:
        raise ValueError("at most one batched policy plays the opponents' seats")
    return chosen, shared


_WHAT = {1: "is out of range [0, 350)", 2: "is not legal now (masked)", 3: "comes after the game ended"}


class _NativeGames:
    """The games as slots of the compiled core."""

    def __init__(self, env: Phase10VectorEnv) -> None:
        from .core import SLOT_BYTES
        from .core.convert import rules_tuple

        self.core = native()
        self.env = env
        o = env.options
        self.planning = o["features"] == "planning"
        self.width = env.obs_size
        self.slots = np.zeros((env.num_envs, SLOT_BYTES), dtype=np.uint8)
        self.rows = np.arange(env.num_envs, dtype=np.int64)
        cfg: RewardConfig = o["rewards"]
        n = env.num_players
        if env.mode == "single":
            controllers = [0] + [_CONTROLLER[_kind(x)] for x in env.opponents]
            shared = int(env.shared)
            seat = -1 if env.learner_seat == "random" else int(env.learner_seat)
        else:
            controllers, shared, seat = [0] * n, 0, 0
        episode, start = o["episode"], o["start_phases"]
        if episode not in ("game", "hand"):
            raise ValueError(f"episode must be one of ['game', 'hand'], not {episode!r}")
        if start not in ("first", "random"):
            raise ValueError(f"start_phases must be one of ['first', 'random'], not {start!r}")
        max_steps = o["max_steps"]
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be a positive integer or None, not {max_steps!r}")
        config = (cfg.win, cfg.loss, cfg.phase_made, cfg.went_out, cfg.points, int(cfg.per_hand), int(episode == "hand"),
                  int(start == "random"), seat, shared, max_steps or 0, tuple(controllers))
        self.core.configure(self.slots, self.rows, n, rules_tuple(o["rules"]), config)
        self.external = next((x for x in env.opponents if not isinstance(x, str)), None)
        self.seat_mode = np.full(env.num_envs, -1 if env.mode == "single" else -2, dtype=np.int64)

    def set_opponents(self, opponents: list[Opponent]) -> None:
        self.external = next((x for x in opponents if not isinstance(x, str)), None)

    def check(self, rows: np.ndarray, actions: np.ndarray) -> tuple[int, str] | None:
        problem = self.core.check(self.slots, rows.astype(np.int64), actions)
        return None if problem is None else (problem[0], _WHAT[problem[1]])

    def _play_external(self, rows: np.ndarray, status: np.ndarray) -> None:
        """Let the batched opponent policy play until every game waits for its learner or ended."""
        while True:
            waiting = rows[status == _EXTERNAL]
            if not len(waiting):
                return
            obs = np.empty((len(waiting), self.width), dtype=np.float32)
            masks = np.empty((len(waiting), NUM_ACTIONS), dtype=np.uint8)
            self.core.observe(self.slots, waiting, np.full(len(waiting), -2, np.int64), obs, masks, self.planning)
            assert self.external is not None
            actions = np.asarray(self.external(obs, masks.astype(bool)), dtype=np.int64).reshape(len(waiting))
            problem = self.core.check(self.slots, waiting, actions)
            if problem is not None:
                i, code = problem
                raise ValueError(f"the opponent policy chose action {int(actions[i])} in game {int(waiting[i])}, which "
                                 f"{_WHAT[code]}")
            sub = np.empty(len(waiting), dtype=np.int8)
            self.core.step(self.slots, waiting, actions, sub)
            status[status == _EXTERNAL] = sub

    def _observe(self, rows: np.ndarray) -> np.ndarray:
        obs = np.empty((len(rows), self.width), dtype=np.float32)
        self.core.observe(self.slots, rows, self.seat_mode[rows], obs, None, self.planning)
        return obs

    def reset(self, rows: np.ndarray, seeds: list[int | None]) -> np.ndarray:
        rows = rows.astype(np.int64)
        values = np.array([0 if s is None else s for s in seeds], dtype=np.uint64)
        has = np.array([s is not None for s in seeds], dtype=np.uint8)
        dealing = rows
        while len(dealing):
            self.core.reset(self.slots, dealing, values, has)
            status = np.empty(len(dealing), dtype=np.int8)
            self.core.advance(self.slots, dealing, None, status)
            self._play_external(dealing, status)
            # Over before the learner's first action: the next game of the row's seed stream, as Phase10Env.reset deals.
            over = status == _DONE
            dealing, values, has = dealing[over], values[over], np.zeros(int(over.sum()), dtype=np.uint8)
        return self._observe(rows)

    def step(self, rows: np.ndarray, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        rows = rows.astype(np.int64)
        status = np.empty(len(rows), dtype=np.int8)
        self.core.step(self.slots, rows, actions, status)
        self._play_external(rows, status)
        m, selfplay = len(rows), self.env.mode == "selfplay"
        rewards = np.empty((m, self.env.num_players) if selfplay else m, dtype=np.float64)
        terminated, truncated = np.empty(m, dtype=bool), np.empty(m, dtype=bool)
        self.core.collect(self.slots, rows, selfplay, rewards, terminated, truncated, np.empty(m, dtype=np.int64))
        return self._observe(rows), rewards, terminated, truncated

    def heuristic(self) -> np.ndarray:
        out = np.empty(self.env.num_envs, dtype=np.int64)
        self.core.heuristic(self.slots, self.rows, out)
        return out

    def masks(self) -> np.ndarray:
        masks = np.empty((self.env.num_envs, NUM_ACTIONS), dtype=np.uint8)
        self.core.observe(self.slots, self.rows, self.seat_mode, None, masks, self.planning)
        return masks.view(bool)

    def seats(self) -> np.ndarray:
        n, selfplay = self.env.num_envs, self.env.mode == "selfplay"
        seats = np.empty(n, dtype=np.int64)
        rewards = np.empty((n, self.env.num_players) if selfplay else n, dtype=np.float64)
        self.core.collect(self.slots, self.rows, selfplay, rewards, np.empty(n, dtype=bool), np.empty(n, dtype=bool), seats)
        return seats


class _RowPolicy:
    """A batched policy as the per-decision ``Policy`` a Python env asks (one row at a time)."""

    needs_view = False

    def __init__(self, policy: BatchPolicy) -> None:
        self.policy = policy

    def act(self, obs: Any) -> int:
        return int(np.asarray(self.policy(obs.observation[None, :], obs.action_mask[None, :].astype(bool))).reshape(-1)[0])


class _PythonGames:
    """The games as Python envs: the reference the native games follow."""

    def __init__(self, env: Phase10VectorEnv) -> None:
        from .env import raw_env
        from .single_agent import Phase10Env

        self.env = env
        o = dict(env.options)
        if env.mode == "single":
            self.games: list[Any] = [Phase10Env(opponents=self._policies(env.opponents, env.shared),
                                                learner_seat=env.learner_seat, **o) for _ in range(env.num_envs)]
        else:
            self.games = [raw_env(**o) for _ in range(env.num_envs)]
            self.seeders = [np.random.default_rng() for _ in range(env.num_envs)]

    @staticmethod
    def _policies(opponents: list[Opponent], shared: bool) -> Any:
        """The Phase10Env opponents the native core's are: one object for all, or one each."""
        def policy(o: Opponent) -> Any:
            return RandomAgent() if o == "random" else HeuristicAgent() if o == "heuristic" else _RowPolicy(o)  # type: ignore[arg-type]

        return policy(opponents[0]) if shared else [policy(o) for o in opponents]

    def set_opponents(self, opponents: list[Opponent]) -> None:
        for game in self.games:
            game.set_opponents(self._policies(opponents, self.env.shared))

    def check(self, rows: np.ndarray, actions: np.ndarray) -> tuple[int, str] | None:
        for i, (row, action) in enumerate(zip(rows, actions)):
            game = self.games[row]
            aec = game.aec if self.env.mode == "single" else game
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                return i, _WHAT[3]
            if not 0 <= action < NUM_ACTIONS:
                return i, _WHAT[1]
            if not aec.action_mask(agent)[action]:
                return i, _WHAT[2]
        return None

    def _observation(self, row: int) -> np.ndarray:
        game = self.games[row]
        if self.env.mode == "single":
            return np.asarray(game._observation())
        return np.asarray(game.observation_vector(game.agent_selection))

    def reset(self, rows: np.ndarray, seeds: list[int | None]) -> np.ndarray:
        for row, seed in zip(rows, seeds):
            if self.env.mode == "single":
                self.games[row].reset(seed=seed)
            else:  # as Phase10Env seeds its AEC env: a game seed from the env's own generator
                if seed is not None:
                    self.seeders[row] = np.random.default_rng(seed)
                self.games[row].reset(seed=int(self.seeders[row].integers(2**63)))
        return np.stack([self._observation(int(r)) for r in rows])

    def step(self, rows: np.ndarray, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        n = len(rows)
        rewards = np.zeros((n, self.env.num_players) if self.env.mode == "selfplay" else n)
        terminated, truncated = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
        for i, (row, action) in enumerate(zip(rows, actions)):
            game = self.games[row]
            if self.env.mode == "single":
                _, rewards[i], terminated[i], truncated[i], _ = game.step(int(action))
            else:
                agent = game.agent_selection
                game.step(int(action))
                rewards[i] = [game.rewards[a] for a in game.possible_agents]
                terminated[i], truncated[i] = game.terminations[agent], game.truncations[agent]
        return np.stack([self._observation(int(r)) for r in rows]), rewards, terminated, truncated

    def heuristic(self) -> np.ndarray:
        teacher, out = HeuristicAgent(), np.full(self.env.num_envs, -1, dtype=np.int64)
        for i, game in enumerate(self.games):
            aec = game.aec if self.env.mode == "single" else game
            if not (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
                out[i] = teacher.act(aec.player_observation())
        return out

    def masks(self) -> np.ndarray:
        if self.env.mode == "single":
            return np.stack([g.action_masks() for g in self.games])
        return np.stack([g.action_mask(g.agent_selection).astype(bool) for g in self.games])

    def seats(self) -> np.ndarray:
        if self.env.mode == "single":
            return np.array([g.aec.possible_agents.index(g.learner) for g in self.games], dtype=np.int64)
        return np.array([g.possible_agents.index(g.agent_selection) for g in self.games], dtype=np.int64)
