"""Tournament games between built-in agents (``random``, ``heuristic``) played in the native
core, many at once: the same games, move for move, as :func:`~.tournament.play_game` plays
with the Python agents (same seeds, same seats and dealers), a few hundred times faster.

As in the Python tournament, every entry named ``random`` is one agent object (the registry
builds each spec once per process), so their seats share one generator, seeded for each game
with the seed of the last of them."""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from phase10_env import core
from phase10_env.engine.config import RulesConfig

from .tournament import GameOutcome, MatchSetup, game_seed

NATIVE_AGENTS = ("random", "heuristic")
_CONTROLLER = {"random": 1, "heuristic": 2}


def plays_natively(agents: Sequence[str]) -> bool:
    """Whether these agents' games can be played in the core (it is built, and every agent is
    a built-in one without options)."""
    return core.available() and all(spec in NATIVE_AGENTS for spec in agents)


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
            controllers[seats[i]] = _CONTROLLER[spec]
            if spec == "random":
                agent_seeds[r, 1] = game_seed(setup.seed, index, i)  # the last random entry's seed wins
        config = (0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, shared, setup.max_steps, tuple(controllers))
        native.configure(slots, rows[r:r + 1], n, rules_tuple(rules), config)
        aec_seeds[r], dealers[r] = game_seed(setup.seed, index), dealer
    native.reset_games(slots, rows, aec_seeds, dealers, agent_seeds)
    status = np.empty(count, dtype=np.int8)
    start = time.process_time()
    native.advance(slots, rows, None, status)
    seconds = time.process_time() - start
    slot = slots.view(core.SLOT)[:, 0]
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
