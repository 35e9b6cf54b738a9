"""The one AEC play loop and the one worker pool. Tournaments, imitation, the terminal game, the
web app and the benchmarks all play through :func:`play`; whatever plays many independent games
spreads them with :func:`parallel_map`."""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from tqdm import tqdm

from phase10_env.policy import PlayerObservation, Policy, needs_view

J = TypeVar("J")
R = TypeVar("R")


def play(env: Any, choose: Callable[[str], int], limit: int | None = None,
         on_done: Callable[[str], None] | None = None) -> int:
    """Step a reset PettingZoo AEC ``env`` until its episode ends, asking ``choose(agent)`` for
    the action of each agent to act. A finished agent is stepped with ``None``, as PettingZoo
    asks, after ``on_done(agent)`` if given. With ``limit``, stop after that many actions
    (``env.agents`` is then not yet empty; call again to go on). Returns the actions taken."""
    steps = 0
    for agent in env.agent_iter():
        if env.terminations[agent] or env.truncations[agent]:
            if on_done is not None:
                on_done(agent)
            env.step(None)
            continue
        if limit is not None and steps >= limit:
            break
        env.step(choose(agent))
        steps += 1
    return steps


def policy_chooser(env: Any, policies: dict[str, Policy],
                   watch: Callable[[str, PlayerObservation, int], None] | None = None) -> Callable[[str], int]:
    """``choose`` for :func:`play`: each agent's policy acts on what its seat may know
    (``env.player_observation``); ``watch(agent, observation, action)`` sees every choice."""

    def choose(agent: str) -> int:
        policy = policies[agent]
        seen = env.player_observation(agent, with_view=needs_view(policy))
        action = policy.act(seen)
        if watch is not None:
            watch(agent, seen, action)
        return action

    return choose


def _worker_init() -> None:
    """One torch thread per worker: the processes already use every core."""
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass


def parallel_map(fn: Callable[[J], R], jobs: Sequence[J], workers: int | None = None, desc: str = "",
                 unit: str = "game", progress: bool = True) -> list[R]:
    """``[fn(job) for job in jobs]`` on ``workers`` processes (default: all cores; 1 runs in
    this process), with a progress bar. Results come back in job order, so callers whose jobs
    carry their own seeds get the same results whatever the number of processes."""
    workers = workers or os.cpu_count() or 1
    bar = tqdm(total=len(jobs), desc=desc, unit=unit, disable=not progress)
    results: list[R] = []
    try:
        if workers == 1 or len(jobs) <= 1:
            for job in jobs:
                results.append(fn(job))
                bar.update()
        else:
            ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
            chunk = max(1, min(8, len(jobs) // (8 * workers)))
            with ctx.Pool(workers, _worker_init) as pool:
                results_iter: Iterable[R] = pool.imap(fn, jobs, chunksize=chunk)
                for result in results_iter:
                    results.append(result)
                    bar.update()
    finally:
        bar.close()
    return results
