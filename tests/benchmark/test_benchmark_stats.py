"""The benchmark's statistics against hand-computed cases, an exact enumeration of the two-level
bootstrap, and SciPy's Mann-Whitney U (rliable's probability of improvement is its U over n m)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from scipy.stats import mannwhitneyu

from agents.benchmark import stats
from agents.benchmark.stats import Resampler


def test_iqm_is_the_mean_of_the_middle_half() -> None:
    assert stats.iqm([1, 2, 3, 4, 100]) == 3.0  # floor(5/4) = 1 cut at each end: mean(2, 3, 4)
    assert stats.iqm([4, 1, 3, 2, 8, 7, 6, 5]) == 4.5  # 2 cut at each end: mean(3, 4, 5, 6)
    assert stats.iqm([0.25]) == 0.25
    assert stats.iqm_rows(np.array([[1, 2, 3, 4, 100], [4, 1, 3, 2, 8]], dtype=float)).tolist() == [3.0, 3.0]
    with pytest.raises(ValueError, match="no scores"):
        stats.iqm([])


def test_probability_of_improvement_counts_pairs_and_half_ties() -> None:
    # Pairs of (x, y): 1 loses to both 2s, 2 ties both (one half each), 3 beats both: 3 of 6.
    assert stats.probability_of_improvement([1, 2, 3], [2, 2]) == 0.5
    assert stats.probability_of_improvement([3, 4], [1, 2]) == 1.0
    assert stats.probability_of_improvement([1, 2], [3, 4]) == 0.0
    rng = np.random.default_rng(7)
    for _ in range(20):
        x, y = rng.integers(0, 4, size=5), rng.integers(0, 4, size=3)  # small integers: many ties
        u = mannwhitneyu(x, y, alternative="greater").statistic
        assert stats.probability_of_improvement(x, y) == pytest.approx(u / 15)


def test_one_deal_column_is_the_seeds_bootstrap() -> None:
    # Two runs scoring 0 and 1: resampling two runs gives means 0, 0.5, 1 with chances 1/4, 1/2, 1/4.
    boot = stats.iqm_rows(Resampler({"a": [[0.0], [1.0]]}, reps=20_000).replicates("a"))
    shares = {v: (boot == v).mean() for v in (0.0, 0.5, 1.0)}
    assert set(np.unique(boot)) == {0.0, 0.5, 1.0}
    assert shares[0.5] == pytest.approx(0.5, abs=0.02) and shares[0.0] == pytest.approx(0.25, abs=0.02)


def test_one_seed_is_the_deals_bootstrap() -> None:
    # One run over two deals scoring 0 and 1: resampling the deals gives the same three means.
    est = Resampler({"a": [[0.0, 1.0]]}, reps=20_000).estimate("a")
    assert (est.point, est.lo, est.hi) == (0.5, 0.0, 1.0)


def _exact(matrix: np.ndarray) -> Counter[float]:
    """The exact two-level bootstrap distribution of the IQM: every choice of deals and of seeds."""
    seeds, deals = matrix.shape
    out: Counter[float] = Counter()
    for d in itertools.product(range(deals), repeat=deals):
        means = matrix[:, d].mean(axis=1)
        for s in itertools.product(range(seeds), repeat=seeds):
            out[round(stats.iqm(means[list(s)]), 9)] += 1
    return out


def test_two_level_bootstrap_matches_exact_enumeration() -> None:
    matrix = np.array([[0.0, 1.0, 0.5], [1.0, 1.0, 0.0]])
    exact = _exact(matrix)
    total = sum(exact.values())
    boot = np.round(stats.iqm_rows(Resampler({"a": matrix}, reps=50_000).replicates("a")), 9)
    assert set(np.unique(boot)) <= set(exact)
    values = np.array(sorted(exact))
    weights = np.array([exact[v] / total for v in values])
    assert boot.mean() == pytest.approx(float(values @ weights), abs=0.005)
    assert boot.var() == pytest.approx(float(((values - values @ weights) ** 2) @ weights), rel=0.03)


def test_shared_deals_pair_a_comparison() -> None:
    # Two agents on the same deals, the second 0.1 better on every one: whatever the deals'
    # luck, the difference is 0.1 in every replicate, and the better one always wins.
    rng = np.random.default_rng(0)
    base = rng.normal(0, 1, size=(1, 200))
    pair = Resampler({"worse": base, "better": base + 0.1}, reps=2_000)
    diff = pair.difference("better", "worse")
    assert diff.point == pytest.approx(0.1) and diff.lo == pytest.approx(0.1) and diff.hi == pytest.approx(0.1)
    poi = pair.improvement("better", "worse")
    assert (poi.point, poi.lo, poi.hi) == (1.0, 1.0, 1.0)
    # Alone, each has an interval as wide as the deals' spread.
    alone = Resampler({"worse": base}, reps=2_000).estimate("worse")
    assert alone.hi - alone.lo > 0.2


def test_a_rows_interval_does_not_depend_on_the_rows_beside_it() -> None:
    rng = np.random.default_rng(1)
    a, b = rng.normal(0, 1, size=(5, 40)), rng.normal(0, 1, size=(3, 40))
    assert Resampler({"a": a}, reps=3_000).estimate("a") == Resampler({"b": b, "a": a}, reps=3_000).estimate("a")


def test_resampler_refuses_rows_over_different_deals() -> None:
    with pytest.raises(ValueError, match="same deals"):
        Resampler({"a": np.zeros((2, 3)), "b": np.zeros((2, 4))}, reps=10)
    with pytest.raises(ValueError, match="same deals"):
        Resampler({"a": np.zeros((0, 3))}, reps=10)


def test_performance_profile_counts_runs_above_each_threshold() -> None:
    profile = stats.performance_profile(np.array([[0.2, 0.6], [0.4, 0.8]]), [0.0, 0.3, 0.7, 1.0])
    assert profile.tolist() == [1.0, 0.75, 0.25, 0.0]
