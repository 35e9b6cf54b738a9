"""The one AEC play loop and the one worker pool. Tournaments, imitation, the terminal game, the
web app and the benchmarks all play through :func:`play`; whatever plays many independent games
spreads them with :func:`parallel_map`, on local processes or, with the ``"ray"`` backend, on
Ray workers (this machine or a cluster; needs the ``rllib`` extra)."""

from __future__ import annotations

import multiprocessing as mp
import os
import time
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
                   watch: Callable[[str, PlayerObservation, int], None] | None = None,
                   clock: dict[str, float] | None = None) -> Callable[[str], int]:
    """``choose`` for :func:`play`: each agent's policy acts on what its seat may know
    (``env.player_observation``); ``watch(agent, observation, action)`` sees every choice;
    ``clock[agent]`` adds up the CPU seconds its policy spends choosing (CPU time, not wall
    time: it does not grow with the machine's load)."""

    def choose(agent: str) -> int:
        policy = policies[agent]
        seen = env.player_observation(agent, with_view=needs_view(policy))
        if clock is None:
            action = policy.act(seen)
        else:
            start = time.process_time()
            action = policy.act(seen)
            clock[agent] += time.process_time() - start
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


BACKENDS = ("processes", "ray")


def parallel_map(fn: Callable[[J], R], jobs: Sequence[J], workers: int | None = None, desc: str = "",
                 unit: str = "game", progress: bool = True, backend: str = "processes",
                 address: str | None = None) -> list[R]:
    """``[fn(job) for job in jobs]`` on ``workers`` processes (default: all cores; 1 runs in
    this process), with a progress bar. Results come back in job order, so callers whose jobs
    carry their own seeds get the same results whatever the number of processes.

    ``backend="ray"`` runs the jobs as Ray tasks instead (``workers``: tasks in flight, default
    the cluster's CPUs), joining the cluster at ``address`` (default ``RAY_ADDRESS``, else a
    Ray started on this machine); ``fn`` and the jobs must pickle, and whatever they load from
    disk must be at the same path on every node."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {list(BACKENDS)}, not {backend!r}")
    bar = tqdm(total=len(jobs), desc=desc, unit=unit, disable=not progress)
    try:
        if backend == "ray":
            return _ray_map(fn, jobs, workers, address, bar)
        return _process_map(fn, jobs, workers or os.cpu_count() or 1, bar)
    finally:
        bar.close()


def _process_map(fn: Callable[[J], R], jobs: Sequence[J], workers: int, bar: tqdm) -> list[R]:
    results: list[R] = []
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
    return results


def connect_ray(address: str | None = None) -> Any:
    """The ``ray`` module, connected: to the running session if there is one, else to the
    cluster at ``address`` (or ``RAY_ADDRESS``; ``auto``: the one ``ray start`` last started
    here), else to a Ray started here, even where a ``ray start`` cluster runs (so that a stale
    record of one cannot get in the way). A cluster that cannot be reached is a ``ValueError``
    naming the address."""
    try:
        import ray
    except ImportError:
        raise ValueError("the Ray backend needs Ray: pip install -e \".[rllib]\"") from None
    if not ray.is_initialized():
        target = address or os.environ.get("RAY_ADDRESS")
        if target and target not in ("auto", "local"):
            _check_reachable(target)
        try:
            ray.init(address=target or "local", logging_level="ERROR", log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            hint = ""
            if target and os.environ.get("RAY_AUTH_MODE") != "token":
                hint = ("; a cluster with token authentication (Ray's default) also needs RAY_AUTH_MODE=token and "
                        "RAY_AUTH_TOKEN=<the output of `ray get-auth-token` on its head node>")
            raise ValueError(f"cannot join the Ray cluster at {target!r}: {e}{hint}") from None
    return ray


def _check_reachable(address: str) -> None:
    """Fail at once on a ``HOST:PORT`` where nothing listens (Ray itself retries for minutes)."""
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"a Ray address is HOST:PORT (or auto), not {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as e:
        raise ValueError(f"cannot join the Ray cluster at {address!r}: nothing answers there ({e})") from None


def _run_chunk(fn: Callable[[J], R], chunk: Sequence[J]) -> list[R]:
    _worker_init()
    return [fn(job) for job in chunk]


def _ray_map(fn: Callable[[J], R], jobs: Sequence[J], workers: int | None, address: str | None,
             bar: tqdm) -> list[R]:
    ray = connect_ray(address)
    slots = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = max(1, min(8, len(jobs) // (8 * slots)))
    chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    task = ray.remote(num_cpus=1)(_run_chunk)
    fn_ref = ray.put(fn)
    results: list[list[R] | None] = [None] * len(chunks)
    pending: dict[Any, int] = {}
    following = iter(range(len(chunks)))

    def submit_next() -> None:
        i = next(following, None)
        if i is not None:
            pending[task.remote(fn_ref, chunks[i])] = i

    for _ in range(slots):  # at most ``slots`` chunks in flight
        submit_next()
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        i = pending.pop(done[0])
        results[i] = ray.get(done[0])
        bar.update(len(chunks[i]))
        submit_next()
    return [r for chunk in results for r in chunk]
