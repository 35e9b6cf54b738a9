"""Tournament games between built-in agents (``random``, ``heuristic``) and saved models played
deterministically (``ppo:PATH``) in the native core, many at once: the same games, move for
move, as :func:`~.tournament.play_game` plays with the Python agents (same seeds, same seats and
dealers), a few hundred times faster. A model plays as a batched policy
(:class:`~agents.policies.batched.BatchedPolicy`): one network call for every game waiting for
it, choosing what :class:`~agents.policies.network.PolicyNetAgent` would choose.

As in the Python tournament, every entry named ``random`` is one agent object (the registry
builds each spec once per process), so their seats share one generator, seeded for each game
with the seed of the last of them."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from phase10_env import core
from phase10_env.engine.config import RulesConfig
from phase10_env.observation import OBS_SIZE

from ..policies.batched import BatchedPolicy
from ..policies.network import PolicyNetAgent
from ..policies.registry import cached_agent
from .tournament import GameOutcome, MatchSetup, game_seed

NATIVE_AGENTS = ("random", "heuristic")
_CONTROLLER = {"random": 1, "heuristic": 2}
_EXTERNAL, _WAITING = 3, 1  # a seat the caller plays, and the status of a game waiting for it


def plays_natively(agents: Sequence[str]) -> bool:
    """Whether these agents' games can be played in the core (it is built, and every agent is
    a built-in one without options or a saved model played deterministically, ``ppo:PATH``)."""
    return core.available() and all(spec in NATIVE_AGENTS or _is_model(spec) for spec in agents)


def _is_model(spec: str) -> bool:
    kind, _, path = spec.partition(":")
    return kind == "ppo" and bool(path)


def _batched(spec: str) -> BatchedPolicy:
    """The model a ``ppo:PATH`` entry names, as a batched policy (loaded once per process)."""
    network: PolicyNetAgent = cached_agent(spec)  # type: ignore[assignment]
    return BatchedPolicy(network.policy, deterministic=True)


def play_games(setup: MatchSetup, indices: Sequence[int]) -> list[GameOutcome]:
    """Games ``indices`` of a tournament, as :func:`~.tournament.play_game` would play them.
    Their thinking time is the batch's CPU time shared out by turns played (the core plays every
    seat in one loop)."""
    from phase10_env.core.convert import rules_tuple

    native = core.native()
    n, count = setup.num_players, len(indices)
    rules = RulesConfig.from_dict(setup.rules)
    slots = np.zeros((count, core.SLOT_BYTES), dtype=np.uint8)
    rows = np.arange(count, dtype=np.int64)
    aec_seeds = np.zeros(count, dtype=np.uint64)
    dealers = np.zeros(count, dtype=np.int64)
    agent_seeds = np.zeros((count, 6), dtype=np.uint64)
    seats_of: list[tuple[int, ...]] = []
    shared = int("random" in setup.agents)
    for r, index in enumerate(indices):
        rotation, dealer = index % n, (index // n) % n
        seats = tuple((i + rotation) % n for i in range(n))
        seats_of.append(seats)
        controllers = [0] * n
        for i, spec in enumerate(setup.agents):
            controllers[seats[i]] = _EXTERNAL if _is_model(spec) else _CONTROLLER[spec]
            if spec == "random":
                agent_seeds[r, 1] = game_seed(setup.seed, index, i)  # the last random entry's seed wins
        config = (0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, shared, setup.max_steps, tuple(controllers))
        native.configure(slots, rows[r:r + 1], n, rules_tuple(rules), config)
        aec_seeds[r], dealers[r] = game_seed(setup.seed, index), dealer
    native.reset_games(slots, rows, aec_seeds, dealers, agent_seeds)
    status = np.empty(count, dtype=np.int8)
    start = time.process_time()
    native.advance(slots, rows, None, status)
    slot = slots.view(core.SLOT)[:, 0]
    models = {spec: _batched(spec) for spec in setup.agents if _is_model(spec)}
    if models:
        entry_at = np.array([[setup.agents[seats.index(seat)] for seat in range(n)] for seats in seats_of])
        _play_models(native, slots, rows, status, models, entry_at)
    seconds = time.process_time() - start
    total_turns = max(1, int(slot["turns"].sum()))
    outcomes = []
    for r, index in enumerate(indices):
        seats, s = seats_of[r], slot[r]
        g = s["g"]
        by_seat = {seat: i for i, seat in enumerate(seats)}
        winners = tuple(sorted(by_seat[w] for w in range(n) if int(g["winners"]) >> w & 1))
        turns = tuple(int(s["turns"][seats[i]]) for i in range(n))
        outcomes.append(GameOutcome(
            index=index, seats=seats, first_dealer=int(dealers[r]), winners=winners,
            scores=tuple(int(g["scores"][seats[i]]) for i in range(n)),
            phases=tuple(int(g["completed"][seats[i]]) for i in range(n)),
            hands=int(g["hand_number"]), steps=int(s["steps"]), truncated=not bool(s["terminated"]),
            thinking=tuple(seconds * t / total_turns for t in turns), turns=turns))
    return outcomes


def _play_models(native: object, slots: np.ndarray, rows: np.ndarray, status: np.ndarray,
                 models: dict[str, BatchedPolicy], entry_at: np.ndarray) -> None:
    """Play the models' seats until every game is over: each round, every model chooses for
    all the games waiting for one of its seats at once (the core plays the built-in seats)."""
    from phase10_env.actions import NUM_ACTIONS

    core_: Any = native
    current = slots.view(core.SLOT)[:, 0]["g"]["current"]
    while True:
        waiting = rows[status == _WAITING]
        if not len(waiting):
            return
        whose = entry_at[waiting, current[waiting].astype(np.int64)]
        for spec, policy in models.items():
            mine = waiting[whose == spec]
            if not len(mine):
                continue
            obs = np.empty((len(mine), policy.input_size), dtype=np.float32)
            masks = np.empty((len(mine), NUM_ACTIONS), dtype=np.uint8)
            planning = policy.input_size != OBS_SIZE
            core_.observe(slots, mine, np.full(len(mine), -2, np.int64), obs, masks, planning)
            actions = policy(obs, masks.view(bool))
            sub = np.empty(len(mine), dtype=np.int8)
            core_.step(slots, mine, actions, sub)
            status[mine] = sub
