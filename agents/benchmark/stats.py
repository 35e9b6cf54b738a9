"""The statistics of rliable (Agarwal et al., "Deep Reinforcement Learning at the Edge of the
Statistical Precipice", NeurIPS 2021), written out with numpy alone (the ``rliable`` package
pulls in arch, statsmodels, pandas and seaborn): the interquartile mean, stratified bootstrap
confidence intervals and performance profiles.

Scores are a ``runs x tasks`` array (one row per training seed). The stratified bootstrap
resamples runs with replacement within each task independently (every task keeps its
number of runs) and takes the percentile interval of the statistic, as
``rliable.library.get_interval_estimates`` does by default.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def iqm(scores: np.ndarray) -> float:
    """Interquartile mean of all values: the mean of what remains once the lowest and highest
    ``floor(n / 4)`` are cut (``scipy.stats.trim_mean(x, 0.25)``, rliable's IQM)."""
    x = np.sort(np.asarray(scores, dtype=float).ravel())
    if x.size == 0:
        raise ValueError("IQM of no scores")
    cut = int(0.25 * x.size)
    return float(x[cut:x.size - cut].mean())


def mean(scores: np.ndarray) -> float:
    return float(np.mean(scores))


def stratified_bootstrap(scores: np.ndarray, statistic: Callable[[np.ndarray], float] = iqm, reps: int = 2000,
                         seed: int = 0) -> np.ndarray:
    """``reps`` bootstrap values of ``statistic`` over ``scores`` (runs x tasks, or a 1-D array
    of runs): each rep resamples the runs of every task with replacement, task by task."""
    x = np.asarray(scores, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2 or x.shape[0] == 0:
        raise ValueError(f"scores must be runs x tasks with at least one run, not shape {x.shape}")
    rng = np.random.default_rng(seed)
    runs, tasks = x.shape
    out = np.empty(reps)
    for r in range(reps):
        idx = rng.integers(runs, size=(runs, tasks))
        out[r] = statistic(np.take_along_axis(x, idx, axis=0))
    return out


def interval(scores: np.ndarray, statistic: Callable[[np.ndarray], float] = iqm, reps: int = 2000,
             size: float = 0.95, seed: int = 0) -> tuple[float, float, float]:
    """The point estimate of ``statistic`` and its stratified bootstrap percentile interval."""
    boot = stratified_bootstrap(scores, statistic, reps, seed)
    tail = 100 * (1 - size) / 2
    return statistic(np.asarray(scores, dtype=float)), float(np.percentile(boot, tail)), float(np.percentile(boot, 100 - tail))


def performance_profile(scores: np.ndarray, taus: np.ndarray) -> np.ndarray:
    """The share of runs (over all tasks) whose score is above each threshold ``tau``."""
    x = np.asarray(scores, dtype=float).ravel()
    return np.array([(x > t).mean() for t in np.asarray(taus, dtype=float)])


def profile_band(scores: np.ndarray, taus: np.ndarray, reps: int = 500, size: float = 0.95,
                 seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A stratified bootstrap percentile band around :func:`performance_profile`."""
    x = np.asarray(scores, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    rng = np.random.default_rng(seed)
    boot = np.stack([performance_profile(np.take_along_axis(x, rng.integers(x.shape[0], size=x.shape), axis=0), taus)
                     for _ in range(reps)])
    tail = 100 * (1 - size) / 2
    return np.percentile(boot, tail, axis=0), np.percentile(boot, 100 - tail, axis=0)
