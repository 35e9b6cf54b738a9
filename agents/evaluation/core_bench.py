"""What the native core buys, measured side by side in one process (``phase10 bench --core``):

* **vector env**: steps per second of :class:`~phase10_env.vector.Phase10VectorEnv` (native)
  against Gymnasium's ``SyncVectorEnv`` of today's single-agent env, ``Phase10Env``, with the
  same opponents (one random agent), the same seeds and the same batched random play: each
  step, every game takes a uniformly random legal action from the batch's masks (the same
  numpy code for both, its cost included in both);
* **heuristic decisions**: the heuristic's choices in the same heuristic-vs-heuristic games,
  timed alone: Python (``HeuristicAgent.act`` on each decision's observation, the view built as
  the env loop builds it) against the core (``heuristic_actions`` over the batch);
* **search play-outs**: from the same positions (early in a hand), the heuristic playing every
  seat to the end of the hand: the engine (``Game.copy`` and ``choose_move`` in a loop, as
  ``mcts`` did) against the core (a slot copy and ``playout``);
* **memory** per game of the vector env: the slot and the observation and mask rows.

Each pair runs in interleaved slices of time, so a change in the machine's load hits both
alike; the ratios are the figures to quote.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``masks`` (N, A) bool (0 for a row with none)."""
    counts = np.cumsum(masks, axis=1, dtype=np.int16)
    pick = (rng.random(len(masks)) * counts[:, -1]).astype(np.int16)
    actions: np.ndarray = (counts <= pick[:, None]).sum(axis=1).clip(max=masks.shape[1] - 1)
    return actions


class _Stepper:
    """Batched random play on one vector env, run in slices of time."""

    def __init__(self, env: Any, seed: int) -> None:
        self.env, self.rng = env, np.random.default_rng(seed)
        env.reset(seed=seed)
        self.steps, self.seconds = 0, 0.0
        self.masks: Callable[[], np.ndarray] = (env.action_masks if hasattr(env, "action_masks")
                                                 else lambda: np.stack(env.call("action_masks")))

    def run(self, seconds: float) -> None:
        env, n = self.env, self.env.num_envs
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            env.step(random_legal(self.masks(), self.rng))
            self.steps += n
        self.seconds += time.perf_counter() - start


def vector_env_rates(seconds: float, players: tuple[int, ...] = (2, 4), sizes: tuple[int, ...] = (64, 256),
                     rounds: int = 5, seed: int = 0) -> list[dict[str, Any]]:
    """Steps/s of the native vector env and of SyncVectorEnv over Phase10Env, per player count
    and batch size; ``seconds`` per env."""
    import gymnasium

    from phase10_env.random_agent import RandomAgent
    from phase10_env.single_agent import Phase10Env
    from phase10_env.vector import Phase10VectorEnv

    rows = []
    for n in players:
        for size in sizes:
            native = _Stepper(Phase10VectorEnv(size, num_players=n, opponents="random", backend="native"), seed)
            def make_env(players: int = n) -> Phase10Env:
                return Phase10Env(num_players=players, opponents=RandomAgent())

            sync = _Stepper(gymnasium.vector.SyncVectorEnv([make_env] * size), seed)
            for _ in range(rounds):
                native.run(seconds / rounds)
                sync.run(seconds / rounds)
            ours, theirs = native.steps / native.seconds, sync.steps / sync.seconds
            rows.append({"players": n, "num_envs": size, "native_steps_per_second": ours,
                         "sync_steps_per_second": theirs, "speedup": ours / theirs})
    return rows


def heuristic_rates(games: int = 8, players: int = 2, seed: int = 0) -> dict[str, Any]:
    """Decisions/s of the Python heuristic and of the core's, over the same games."""
    from phase10_env.env import raw_env
    from phase10_env.heuristic import HeuristicAgent
    from phase10_env.vector import Phase10VectorEnv

    teacher, python_time, python_decisions = HeuristicAgent(), 0.0, 0
    for g in range(games):
        env = raw_env(num_players=players)
        env.reset(seed=int(np.random.default_rng(seed + g).integers(2**63)))
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            start = time.process_time()
            action = teacher.act(env.player_observation())
            python_time += time.process_time() - start
            python_decisions += 1
            env.step(action)
    batch = Phase10VectorEnv(games, num_players=players, mode="selfplay", backend="native", max_steps=None)
    batch.reset(seed=seed)
    core_time, core_decisions, done = 0.0, 0, np.zeros(games, dtype=bool)
    while not done.all():
        start = time.process_time()
        actions = batch.heuristic_actions()
        core_time += time.process_time() - start
        core_decisions += int((actions >= 0).sum())
        _, _, terminated, truncated, _ = batch.step(np.where(actions < 0, 0, actions))
        done |= terminated | truncated
    return {"players": players, "python_decisions_per_second": python_decisions / python_time,
            "core_decisions_per_second": core_decisions / core_time,
            "speedup": (core_decisions / core_time) / (python_decisions / python_time)}


def playout_rates(positions: int = 20, repeats: int = 5, core_repeats: int = 200, players: int = 2,
                  seed: int = 0) -> dict[str, Any]:
    """Milliseconds per play-out to the end of the hand, engine against core, same positions."""
    from phase10_env import core
    from phase10_env.core.convert import load_game
    from phase10_env.engine import Game
    from phase10_env.heuristic import HeuristicAgent

    teacher, start_positions = HeuristicAgent(), []
    for p in range(positions):
        game = Game(players, seed=seed + p)
        for _ in range(3):  # a few actions into the first hand, where a search starts
            game.apply(teacher.choose_move(game.view(game.current)))
        start_positions.append(game)
    started = time.process_time()
    for game in start_positions:
        for _ in range(repeats):
            world, hand = game.copy(), game.hand_number
            while world.hand_number == hand and not world.is_over:
                world.unsafe_apply(teacher.choose_move(world.view(world.current)))
    python_ms = (time.process_time() - started) / (positions * repeats) * 1e3
    base = np.zeros((positions, core.SLOT_BYTES), dtype=np.uint8)
    for i, game in enumerate(start_positions):
        load_game(base, i, game)
    native = core.native()
    started = time.process_time()
    work = np.repeat(base, core_repeats, axis=0)
    rows = np.arange(len(work), dtype=np.int64)
    native.playout(work, rows, True, False, np.zeros(len(work), dtype=np.uint64))
    core_ms = (time.process_time() - started) / len(work) * 1e3
    return {"players": players, "python_ms": python_ms, "core_ms": core_ms, "speedup": python_ms / core_ms}


def memory_per_game(features: str = "standard") -> dict[str, int]:
    """Bytes the vector env holds per game: its slot, its observation row and its mask row."""
    from phase10_env import core
    from phase10_env.observation import observation_bounds

    obs = observation_bounds(features)[0].shape[0] * 4
    return {"slot": core.SLOT_BYTES, "observation": obs, "mask": 350, "total": core.SLOT_BYTES + obs + 350}


def core_benchmark(seconds: float = 40.0, seed: int = 0) -> dict[str, Any]:
    """Everything above; ``seconds`` split over the vector-env pairs (the other parts run a
    fixed amount of work)."""
    vector = vector_env_rates(seconds / 8, seed=seed)
    return {"vector_env": vector, "heuristic": [heuristic_rates(players=n, seed=seed) for n in (2, 4)],
            "playout": [playout_rates(players=n, seed=seed) for n in (2, 4)], "memory": memory_per_game()}


def core_table(result: dict[str, Any]) -> str:
    lines = [f"{'vector env (random play)':30s} {'native steps/s':>15s} {'SyncVectorEnv':>14s} {'ratio':>7s}"]
    for r in result["vector_env"]:
        lines.append(f"{r['players']} players, {r['num_envs']:4d} games{'':11s} {r['native_steps_per_second']:15,.0f} "
                     f"{r['sync_steps_per_second']:14,.0f} {r['speedup']:7.1f}")
    for r in result["heuristic"]:
        lines.append(f"heuristic, {r['players']} players: {r['core_decisions_per_second']:,.0f} decisions/s in the core, "
                     f"{r['python_decisions_per_second']:,.0f} in Python ({r['speedup']:.0f}x)")
    for r in result["playout"]:
        lines.append(f"play-out to the end of the hand, {r['players']} players: {r['core_ms'] * 1e3:.1f} us in the core, "
                     f"{r['python_ms']:.2f} ms in Python ({r['speedup']:.0f}x)")
    m = result["memory"]
    lines.append(f"memory per game: {m['total']:,} bytes (slot {m['slot']:,}, observation {m['observation']:,}, "
                 f"mask {m['mask']})")
    return "\n".join(lines)
