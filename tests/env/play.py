"""Helpers for tests: random play through the AEC env, uniform or eager (prefers laying down and
hitting, so games reach later phases and crowded tables); a game with its hidden cards dealt
out again."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from phase10_env import raw_env
from phase10_env.actions import DISCARD_FIRST, LAY_FIRST
from phase10_env.engine import Game

VARIANTS = ["default", "even_phases", "advance_all", "short_game", "strict_naturals", "skip_once_per_hand",
            "skip_pending_only"]


def choose(mask: np.ndarray, rng: np.random.Generator, eager: bool) -> int:
    legal = np.flatnonzero(mask)
    if eager:
        building = legal[(legal >= LAY_FIRST) & (legal < DISCARD_FIRST)]
        if len(building) and rng.random() < 0.8:
            legal = building
    return int(legal[rng.integers(len(legal))])


def random_steps(env: raw_env, rng: np.random.Generator, max_steps: int, eager: bool = False,
                 on_state: Callable[[raw_env], None] | None = None) -> Iterator[int]:
    """Play up to ``max_steps`` actions (until the game ends); call ``on_state`` before each."""
    for _ in range(max_steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            return
        if on_state is not None:
            on_state(env)
        action = choose(env.action_mask(agent), rng, eager)
        env.step(action)
        yield action


def hidden_cards_shuffled(game: Game, viewer: int, rng: np.random.Generator) -> Game:
    """The same game with the cards ``viewer`` cannot see (other hands, except cards seen taken
    from the discard pile, and the draw pile) dealt out again at random, sizes unchanged."""
    state = game.to_json()
    pools, sizes = [], []
    for s, p in enumerate(state["players"]):
        if s == viewer:
            continue
        known = list(p["taken_from_discard"])
        secret = list(p["hand"])
        for c in known:
            secret.remove(c)
        pools += secret
        sizes.append((s, known, len(secret)))
    pools += state["draw_pile"]
    rng.shuffle(pools)
    for s, known, n in sizes:
        state["players"][s]["hand"] = known + pools[:n]
        pools = pools[n:]
    state["draw_pile"] = pools
    return Game.from_json(state)
