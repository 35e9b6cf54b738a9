"""The statistics of rliable (Agarwal et al., "Deep Reinforcement Learning at the Edge of the
Statistical Precipice", NeurIPS 2021), written out with numpy alone (the ``rliable`` package
pulls in arch, statsmodels, pandas and seaborn): the interquartile mean, the probability of
improvement, percentile bootstrap intervals and performance profiles; and a second level of
resampling that rliable leaves out: the evaluation deals.

A row of results is a ``seeds x deals`` array: one training seed's score on every deal of the
evaluation, the same deals for every row of a task (the protocol fixes them). A run's score is
its mean over the deals; a row's score is the IQM of its runs' scores. Both the seeds and the
deals are a sample: the bootstrap resamples the seeds of each row independently and the deals
once per replicate, shared by every row of the task (the pigeonhole bootstrap of a crossed
design, Owen 2007). Sharing the deals is what pairs a comparison: luck of the deal that helps
every agent alike cancels out of a difference.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]
CHUNK = 5_000  # replicates drawn at a time (a 5,000 x deals weight matrix)


def iqm(scores: npt.ArrayLike) -> float:
    """Interquartile mean of all values: the mean of what remains once the lowest and highest
    ``floor(n / 4)`` are cut (``scipy.stats.trim_mean(x, 0.25)``, rliable's IQM)."""
    x = np.sort(np.asarray(scores, dtype=float).ravel())
    if x.size == 0:
        raise ValueError("IQM of no scores")
    cut = int(0.25 * x.size)
    return float(x[cut:x.size - cut].mean())


def iqm_rows(x: Array) -> Array:
    """:func:`iqm` of each row of ``x`` (replicates x runs)."""
    cut = int(0.25 * x.shape[1])
    middle: Array = np.sort(x, axis=1)[:, cut:x.shape[1] - cut].mean(axis=1)
    return middle


def probability_of_improvement(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """rliable's P(X > Y) on one task: the share of pairs (run of X, run of Y) in which X's run
    scores higher, ties counting one half (the Mann-Whitney U statistic over ``n * m``)."""
    a, b = np.asarray(x, dtype=float).ravel(), np.asarray(y, dtype=float).ravel()
    if a.size == 0 or b.size == 0:
        raise ValueError("probability of improvement needs runs on both sides")
    return float(_poi_rows(a[None, :], b[None, :])[0])


def _poi_rows(x: Array, y: Array) -> Array:
    """:func:`probability_of_improvement` of each row pair (replicates x runs each)."""
    gt: Array = (x[:, :, None] > y[:, None, :]).mean(axis=(1, 2))
    eq: Array = (x[:, :, None] == y[:, None, :]).mean(axis=(1, 2))
    return gt + 0.5 * eq


def percentile_interval(boot: Array, size: float = 0.95) -> tuple[float, float]:
    """The percentile interval of bootstrap replicates (rliable's default)."""
    tail = 100 * (1 - size) / 2
    lo, hi = np.percentile(boot, [tail, 100 - tail])
    return float(lo), float(hi)


@dataclass(frozen=True)
class Estimate:
    """A point estimate and its 95% percentile bootstrap interval."""

    point: float
    lo: float
    hi: float

    @property
    def ci95(self) -> list[float]:
        return [self.lo, self.hi]


class Resampler:
    """Bootstrap replicates of the run scores of the rows of one task (``seeds x deals`` arrays
    over the same deals, by name): replicate ``r`` weighs the deals by one multinomial draw
    shared by every row, then resamples each row's seeds on its own. The deal weights depend
    only on ``seed`` and the number of deals, and a row's seed draws only on ``seed`` and its
    name, so a row's interval is the same whatever other rows it is reported with."""

    def __init__(self, rows: Mapping[str, npt.ArrayLike], reps: int, seed: int = 0) -> None:
        self.arrays = {name: np.asarray(r, dtype=float) for name, r in rows.items()}
        shapes = {name: a.shape for name, a in self.arrays.items()}
        if not self.arrays or any(a.ndim != 2 or 0 in a.shape for a in self.arrays.values()) \
                or len({a.shape[1] for a in self.arrays.values()}) != 1:
            raise ValueError(f"rows must be seeds x deals arrays over the same deals, not shapes {shapes}")
        if reps < 1:
            raise ValueError(f"reps must be at least 1, not {reps}")
        deals = next(iter(self.arrays.values())).shape[1]
        rng = np.random.default_rng([seed, deals])
        means = {name: np.empty((reps, a.shape[0])) for name, a in self.arrays.items()}
        for start in range(0, reps, CHUNK):
            n = min(CHUNK, reps - start)
            weights = rng.multinomial(deals, np.full(deals, 1.0 / deals), size=n) / deals
            for name, a in self.arrays.items():
                means[name][start:start + n] = weights @ a.T
        self._runs = {}
        for name, m in means.items():
            pick = np.random.default_rng([seed, deals, zlib.crc32(name.encode())]).integers(m.shape[1], size=m.shape)
            self._runs[name] = np.take_along_axis(m, pick, axis=1)

    def scores(self, name: str) -> Array:
        """The row's run scores: each seed's mean over the deals."""
        return np.asarray(self.arrays[name].mean(axis=1), dtype=float)

    def replicates(self, name: str) -> Array:
        """The row's resampled run scores, ``reps x seeds``."""
        return self._runs[name]

    def estimate(self, name: str) -> Estimate:
        """The row's IQM over its seeds, with its two-level bootstrap interval."""
        return Estimate(iqm(self.scores(name)), *percentile_interval(iqm_rows(self.replicates(name))))

    def difference(self, x: str, y: str) -> Estimate:
        """IQM of row ``x`` minus IQM of row ``y``, paired by the shared deals."""
        boot = iqm_rows(self.replicates(x)) - iqm_rows(self.replicates(y))
        return Estimate(iqm(self.scores(x)) - iqm(self.scores(y)), *percentile_interval(boot))

    def improvement(self, x: str, y: str) -> Estimate:
        """rliable's probability that a run of row ``x`` beats a run of row ``y``, with its
        two-level bootstrap interval."""
        boot = _poi_rows(self.replicates(x), self.replicates(y))
        return Estimate(probability_of_improvement(self.scores(x), self.scores(y)), *percentile_interval(boot))


def performance_profile(scores: npt.ArrayLike, taus: npt.ArrayLike) -> Array:
    """The share of runs (over all tasks) whose score is above each threshold ``tau``."""
    x = np.asarray(scores, dtype=float).ravel()
    return np.array([(x > t).mean() for t in np.asarray(taus, dtype=float)])


def profile_band(scores: npt.ArrayLike, taus: npt.ArrayLike, reps: int = 500, size: float = 0.95,
                 seed: int = 0) -> tuple[Array, Array]:
    """A stratified bootstrap percentile band around :func:`performance_profile` (``scores``:
    runs x tasks; the runs of each task resampled on their own)."""
    x = np.asarray(scores, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    rng = np.random.default_rng(seed)
    boot = np.stack([performance_profile(np.take_along_axis(x, rng.integers(x.shape[0], size=x.shape), axis=0), taus)
                     for _ in range(reps)])
    tail = 100 * (1 - size) / 2
    return np.percentile(boot, tail, axis=0), np.percentile(boot, 100 - tail, axis=0)
