"""Ray for the worker pool and RLlib: joining a Ray cluster (:func:`connect_ray`) and running
jobs on it in order (:func:`ray_map`). Ray itself (the ``rllib`` extra) is imported only when a
Ray backend is asked for."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tqdm import tqdm

J = TypeVar("J")
R = TypeVar("R")


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


def _run_chunk(fn: Callable[[J], R], chunk: Sequence[J], worker_init: Callable[[], None]) -> list[R]:
    worker_init()
    return [fn(job) for job in chunk]


def ray_map(fn: Callable[[J], R], jobs: Sequence[J], workers: int | None, address: str | None,
            bar: tqdm[Any], worker_init: Callable[[], None]) -> list[R]:
    """``[fn(job) for job in jobs]`` as Ray tasks on the cluster at ``address`` (see
    :func:`connect_ray`), at most ``workers`` chunks in flight (default: the cluster's CPUs),
    each task calling ``worker_init`` first; results in job order, ``bar`` told of each."""
    ray = connect_ray(address)
    slots = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = max(1, min(8, len(jobs) // (8 * slots)))
    chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    task = ray.remote(num_cpus=1)(_run_chunk)
    fn_ref = ray.put(fn)
    results: list[list[R]] = [[] for _ in chunks]
    pending: dict[Any, int] = {}
    following = iter(range(len(chunks)))

    def submit_next() -> None:
        i = next(following, None)
        if i is not None:
            pending[task.remote(fn_ref, chunks[i], worker_init)] = i

    for _ in range(slots):  # at most ``slots`` chunks in flight
        submit_next()
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        i = pending.pop(done[0])
        results[i] = ray.get(done[0])
        bar.update(len(chunks[i]))
        submit_next()
    return [r for chunk in results for r in chunk]
