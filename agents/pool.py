"""The one worker pool: :func:`parallel_map` spreads independent jobs (games, tournaments'
pairings, imitation data) over local processes or, with the ``"ray"`` backend, over Ray workers
on this machine or a cluster (:mod:`agents.ray_cluster`, the ``rllib`` extra)."""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from tqdm import tqdm

from .ray_cluster import ray_map

J = TypeVar("J")
R = TypeVar("R")


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
            return ray_map(fn, jobs, workers, address, bar, _worker_init)
        return _process_map(fn, jobs, workers or os.cpu_count() or 1, bar)
    finally:
        bar.close()


def _process_map(fn: Callable[[J], R], jobs: Sequence[J], workers: int, bar: tqdm[Any]) -> list[R]:
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
