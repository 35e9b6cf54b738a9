"""A development tool: steps per second of uniformly random masked play, for Phase 10 and, in
the same run, PettingZoo's ``connect_four_v3`` (needs ``pygame``, a ``dev`` extra), raw and
with ``env()``; and the bare rules engine's moves per second.

Every environment runs the same loop, :func:`phase10_env.play.play` with a uniform choice among the
unmasked actions of ``observe(agent)["action_mask"]``, resetting at each game end, for a fixed
time. The choice keeps its own cost small, as it is paid by every environment alike and would
hide their differences: ``mask.nonzero()[0]`` finds the unmasked actions (``np.flatnonzero``'s
Python wrapper costs about 2.5 us more per step, which is more than computing a Phase 10 mask).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from tqdm import tqdm

from phase10_env.play import play


@dataclass
class BenchResult:
    name: str
    steps: int
    games: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds


class RandomPlay:
    """Uniformly random masked play on one environment, run in slices of time."""

    def __init__(self, make_env: Callable[[], Any], seed: int = 0) -> None:
        """``make_env`` builds any PettingZoo AEC env (Phase 10's or another game's)."""
        self.env = make_env()
        self.rng = np.random.default_rng(seed)
        self.env.reset(seed=seed)
        self.steps = self.games = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        env = self.env
        choose = _uniform_chooser(env, self.rng)
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            self.steps += play(env, choose, limit=256)
            if not env.agents:
                self.games += 1
                env.reset()
        self.seconds += time.perf_counter() - start


def benchmark_targets(players: tuple[int, ...] = (2, 6), include_connect_four: bool = True) -> dict[str, Callable[[], Any]]:
    from phase10_env import env, raw_env

    targets: dict[str, Callable[[], Any]] = {}
    for n in players:
        targets[f"phase10 raw_env {n}p"] = partial(raw_env, num_players=n)
        targets[f"phase10 env() {n}p"] = partial(env, num_players=n)
    if include_connect_four:
        try:
            from pettingzoo.classic import connect_four_v3
        except ImportError:  # connect_four needs pygame
            return targets
        targets["connect_four_v3 raw_env"] = connect_four_v3.raw_env
        targets["connect_four_v3 env()"] = connect_four_v3.env
    return targets


def run_benchmark(seconds: float = 5.0, players: tuple[int, ...] = (2, 6), seed: int = 0,
                  include_connect_four: bool = True, rounds: int = 10) -> list[BenchResult]:
    """Each environment plays for ``seconds`` in all, in ``rounds`` interleaved slices, so a
    change in machine load affects all of them alike."""
    players_by_name = {name: RandomPlay(make, seed) for name, make in benchmark_targets(players, include_connect_four).items()}
    with tqdm(total=rounds * len(players_by_name), desc="benchmark", unit="slice") as bar:
        for _ in range(rounds):
            for play in players_by_name.values():
                play.run(seconds / rounds)
                bar.update()
    return [BenchResult(name, p.steps, p.games, p.seconds) for name, p in players_by_name.items()]


def full_benchmark(total_seconds: float, players: tuple[int, ...] = (2, 6), seed: int = 0,
                   include_connect_four: bool = True) -> tuple[list[BenchResult], list[dict[str, Any]]]:
    """:func:`run_benchmark` and :func:`engine_benchmark` in about ``total_seconds`` in all,
    shared equally by each environment and each engine setting (8 parts for players 2 and 6
    with connect_four_v3: ``total_seconds=80`` gives each 10 s)."""
    share = total_seconds / (len(benchmark_targets(players, include_connect_four)) + len(players))
    return (run_benchmark(share, players, seed, include_connect_four),
            engine_benchmark(share, players, seed))


def summary_table(results: list[BenchResult]) -> str:
    by_name = {r.name: r for r in results}
    c4 = {kind: by_name.get(f"connect_four_v3 {kind}") for kind in ("raw_env", "env()")}
    lines = [f"{'environment':28s} {'steps/s':>10s} {'games':>7s} {'x connect_four':>15s}"]
    for r in results:
        kind = "raw_env" if "raw_env" in r.name else "env()"
        ref = c4[kind]
        ratio = f"{r.steps_per_second / ref.steps_per_second:.2f}" if ref and not r.name.startswith("connect_four") else ""
        lines.append(f"{r.name:28s} {r.steps_per_second:10,.0f} {r.games:7d} {ratio:>15s}")
    return "\n".join(lines)


def engine_benchmark(seconds: float = 5.0, players: tuple[int, ...] = (2, 6), seed: int = 0) -> list[dict[str, Any]]:
    """Moves/s and full games/s of the bare rules engine under uniformly random legal play
    (uniform over ``Game.legal_moves()``), for about ``seconds`` per player count."""
    from phase10_env.engine import Game

    rows = []
    for n in tqdm(players, desc="engine benchmark", unit="setting"):
        rng = np.random.default_rng(seed)
        moves = games = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            game = Game(n, seed=seed + games)
            while not game.is_over:
                legal = game.legal_moves()
                game.apply(legal[int(rng.random() * len(legal))])
                moves += 1
            games += 1
        elapsed = time.perf_counter() - start
        rows.append({"players": n, "moves": moves, "games": games, "seconds": elapsed,
                     "moves_per_second": moves / elapsed, "games_per_second": games / elapsed})
    return rows


def _uniform_chooser(env: Any, rng: np.random.Generator) -> Callable[[str], int]:
    """``choose`` for :func:`phase10_env.play.play`: a uniform choice among the unmasked actions."""

    def choose(agent: str) -> int:
        legal = env.observe(agent)["action_mask"].nonzero()[0]
        return int(legal[int(rng.random() * len(legal))])

    return choose


def search_costs(players: tuple[int, ...] = (2, 6), seed: int = 0, repeats: int = 300) -> list[dict[str, Any]]:
    """Microseconds of ``Game.copy()``, ``Game.determinize()`` and one random env step, side by
    side, early (20 actions in) and late (400 actions in) in a game, per player count: what a
    search agent pays per simulated position."""
    from phase10_env import raw_env

    rows = []
    for n in players:
        for upto in (20, 400):
            env = raw_env(num_players=n)
            env.reset(seed=seed)
            choose = _uniform_chooser(env, np.random.default_rng(seed))
            play(env, choose, limit=upto)
            game = env.game
            start = time.perf_counter()
            for _ in range(repeats):
                game.copy()
            copy_us = (time.perf_counter() - start) / repeats * 1e6
            sampler = np.random.default_rng(seed)
            start = time.perf_counter()
            for _ in range(repeats):
                game.determinize(game.current, sampler)
            determinize_us = (time.perf_counter() - start) / repeats * 1e6
            steps = 0
            start = time.perf_counter()
            while steps < 20 * repeats:
                steps += play(env, choose, limit=20 * repeats - steps)
                if not env.agents:
                    env.reset()
            step_us = (time.perf_counter() - start) / steps * 1e6
            rows.append({"players": n, "actions_in": upto, "copy_us": copy_us, "determinize_us": determinize_us,
                         "env_step_us": step_us, "copy_in_steps": copy_us / step_us})
    return rows
