"""The scores of an evaluation episode, recomputed from its :class:`~.evaluate.Episode` record.

The primary score of every task is a dense measure normalized the way Atari-100k and Procgen
do, ``(x - random) / (heuristic - random)``: 0 is uniformly random legal play, 1 the
heuristic, on the task's own evaluation deals; above 1 is better than the heuristic. The
measure is the **point margin** over the best opponent (that opponent's penalty points minus
the learner's; docs/BENCHMARK.md shows the measurements it was chosen from). The win rate
(ties shared) stays beside it as a secondary score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .evaluate import Episode


def _others(e: Episode) -> list[int]:
    return [s for s in range(len(e.phases)) if s != e.seat]


def point_margin(e: Episode) -> float:
    """The best opponent's penalty points minus the learner's (positive: the learner is ahead)."""
    return float(min(e.points[s] for s in _others(e)) - e.points[e.seat])


def phase_lead(e: Episode) -> float:
    """The learner's phases completed minus the best opponent's."""
    return float(e.phases[e.seat] - max(e.phases[s] for s in _others(e)))


def phases(e: Episode) -> float:
    """The learner's phases completed."""
    return float(e.phases[e.seat])


def win(e: Episode) -> float:
    """The learner's share of the win."""
    return e.win


MEASURES: dict[str, Callable[[Episode], float]] = {
    "point_margin": point_margin, "phase_lead": phase_lead, "phases": phases, "win": win}
DESCRIPTIONS = {"point_margin": "point margin over the best opponent", "phase_lead": "phase lead over the best opponent",
                "phases": "phases completed", "win": "win share"}


@dataclass(frozen=True)
class Scale:
    """A task's primary score: ``measure`` of each episode, normalized so that the random and
    the heuristic reference agents' means over the task's test deals are 0 and 1."""

    measure: str
    random: float
    heuristic: float

    def __post_init__(self) -> None:
        if self.measure not in MEASURES:
            raise ValueError(f"unknown measure {self.measure!r}; measures are {list(MEASURES)}")
        if self.heuristic == self.random:
            raise ValueError(f"{self.measure}: the heuristic and random anchors are equal ({self.random}); "
                             "nothing to normalize by")

    def raw(self, e: Episode) -> float:
        return MEASURES[self.measure](e)

    def score(self, e: Episode) -> float:
        return (self.raw(e) - self.random) / (self.heuristic - self.random)

    def scores(self, episodes: Sequence[Episode]) -> list[float]:
        return [self.score(e) for e in episodes]

    def to_json(self) -> dict[str, Any]:
        return {"measure": self.measure, "random": self.random, "heuristic": self.heuristic}

    @classmethod
    def from_json(cls, data: object, where: str) -> Scale:
        if not isinstance(data, dict) or set(data) != {"measure", "random", "heuristic"}:
            raise ValueError(f"{where}: score must be {{measure, random, heuristic}}, not {data!r}")
        anchors = [data["random"], data["heuristic"]]
        if any(isinstance(a, bool) or not isinstance(a, (int, float)) for a in anchors):
            raise ValueError(f"{where}: score.random and score.heuristic must be numbers, not {anchors}")
        try:
            return cls(str(data["measure"]), float(data["random"]), float(data["heuristic"]))
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None


def win_rates(episodes: Sequence[Episode]) -> list[float]:
    return [e.win for e in episodes]


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
