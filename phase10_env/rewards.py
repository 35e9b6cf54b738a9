"""Reward options. The engine reports facts (a hand ended, the game ended); this turns them into
rewards for each seat.

* ``win`` / ``loss``: at the end of the game, to each winner (tied winners split ``win``) and to
  every other player.
* ``phase_made``: at the end of each hand, to each player who laid their phase in it.
* ``went_out``: at the end of each hand, to the player who went out.
* ``points``: at the end of each hand, times the points left in each player's hand (R17); use a
  negative weight to penalise them.

Presets: ``"outcome"`` (the default: +1 winner, -1 others) and ``"shaped"`` (outcome plus
per-hand terms, for training).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TypeAlias

from .engine.moves import HandResult


@dataclass(frozen=True)
class RewardConfig:
    win: float = 1.0
    loss: float = -1.0
    phase_made: float = 0.0
    went_out: float = 0.0
    points: float = 0.0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ValueError(f"reward option {f.name!r} must be a number, not {v!r}")

    @property
    def per_hand(self) -> bool:
        return bool(self.phase_made or self.went_out or self.points)

    def hand_rewards(self, result: HandResult, seats: int) -> list[float]:
        return [self.phase_made * result.made_phase[s] + self.went_out * (result.went_out == s) + self.points * result.points[s]
                for s in range(seats)]

    def game_rewards(self, winners: tuple[int, ...], seats: int) -> list[float]:
        return [self.win / len(winners) if s in winners else self.loss for s in range(seats)]


REWARD_PRESETS: dict[str, RewardConfig] = {
    "outcome": RewardConfig(),
    "shaped": RewardConfig(phase_made=0.3, went_out=0.1, points=-0.002),
}


RewardsSpec: TypeAlias = "RewardConfig | Mapping[str, float] | str | None"
"""Rewards as :func:`load_rewards` takes them: a config, a mapping of its options, a preset's
name, or None (``"outcome"``)."""


def load_rewards(rewards: RewardsSpec) -> RewardConfig:
    if rewards is None:
        return REWARD_PRESETS["outcome"]
    if isinstance(rewards, RewardConfig):
        return rewards
    if isinstance(rewards, str):
        if rewards not in REWARD_PRESETS:
            raise ValueError(f"unknown reward preset {rewards!r}; use one of {sorted(REWARD_PRESETS)} or a mapping")
        return REWARD_PRESETS[rewards]
    if isinstance(rewards, Mapping):
        names = [f.name for f in fields(RewardConfig)]
        unknown = sorted(set(rewards) - set(names))
        if unknown:
            raise ValueError(f"unknown reward option(s) {unknown}; valid options are {names}")
        return RewardConfig(**rewards)
    raise ValueError(f"rewards must be a preset name, a mapping or a RewardConfig, not {rewards!r}")
