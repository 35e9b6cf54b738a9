"""Training the champion's win model: what a hand's end is worth, as a chance to win the game.

The search judges a candidate move by the hand played on from it. Counting phases made (and a
little of the points) treats a phase as worth the same all game, and points as worth little;
in heuristic games neither holds: two players level on phase 9 are near 0.5 each when their
scores are level, but 0.89 against 0.11 when one has 25-100 points fewer (the lower score wins a
tie on phase 10), and a phase ahead is worth 0.66 early and 0.95 at the end. At a hand's end
nothing is left of the hand but each seat's phases and score (the next deal is random), so a
model of the game's outcome from those is a judge of the whole game under heuristic play.

Data: heuristic games played in the native core, hand by hand; at each hand's end, for each
seat, its phases, the best other seat's (most phases, then fewest points) and its lead in
points over that seat, and whether it went on to win. Model: for each pair of phase counts
(``(11, 11)`` cells), a logistic regression of winning on the lead (per 100 points), with a
unit Gaussian prior on both weights; a cell no game reached says the seat ahead in phases wins
(intercept 3 for it, slope 1). One model per seat
count, stored as ``n2``, ``n4``, ... in one ``.npz`` file (numpy arrays only).

One command, from a config: ``python -m agents.training.win_model configs/belief/champion.yaml``
(its ``wins`` section).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from phase10_env import core
from phase10_env.core.convert import load_game
from phase10_env.engine import Game

from .model_config import load_section, train_command

GAME_OVER = 2


@dataclass(frozen=True)
class WinConfig:
    """``players``: the seat counts to model, from as many heuristic games as ``games`` gives in
    the same place; game ``i`` is seeded ``seed + i``."""

    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    games: tuple[int, ...] = (20_000, 10_000, 10_000, 10_000, 10_000)
    seed: int = 99_000_000
    out: str = "models/champion_wins.npz"

    def __post_init__(self) -> None:
        if len(self.games) != len(self.players) or min(self.games) < 1:
            raise ValueError("wins: give a positive number of games for each seat count in players")


def load_config(path: str | Path) -> WinConfig:
    return load_section(path, "wins", WinConfig)


def hand_ends(num_players: int, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """At every hand's end (the game going on) of ``games`` heuristic games, for every seat:
    ``(phases, best other's phases, lead in points)`` rows and whether that seat won the game."""
    c = core.native()
    slots = np.zeros((games, core.SLOT_BYTES), dtype=np.uint8)
    rows = np.arange(games, dtype=np.int64)
    for row in rows:
        load_game(slots, int(row), Game(num_players, seed=seed + int(row)))
    g = slots.view(core.SLOT)[:, 0]["g"]
    found: list[np.ndarray] = []
    while len(live := rows[g["stage"] != GAME_OVER]):
        c.playout(slots, live, True, False, np.zeros(len(live), dtype=np.uint64))
        going = live[g["stage"][live] != GAME_OVER]
        phases = g["completed"][going, :num_players].astype(np.int64)
        scores = g["scores"][going, :num_players].astype(np.int64)
        for seat in range(num_players):
            others = [s for s in range(num_players) if s != seat]
            # the best other seat: most phases, then fewest points (as the search's value picks it)
            rank = phases[:, others] * 100_000 - scores[:, others]
            best = np.array(others)[rank.argmax(1)]
            pick = np.arange(len(going))
            found.append(np.stack([going, np.full(len(going), seat), phases[:, seat], phases[pick, best],
                                   scores[pick, best] - scores[:, seat]], 1))
    table = np.concatenate(found)
    won = (g["winners"][table[:, 0]].astype(np.int64) >> table[:, 1]) & 1
    return table[:, 2:], won.astype(np.float64)


def fit(ends: np.ndarray, won: np.ndarray) -> np.ndarray:
    """The ``(11, 11, 2)`` model: per (phases, best other's phases), intercept and slope on the
    lead per 100 points of a logistic regression with a unit Gaussian prior (Newton's method)."""
    mine, theirs, lead = np.minimum(ends[:, 0], 10), np.minimum(ends[:, 1], 10), ends[:, 2] / 100
    model = np.zeros((11, 11, 2))
    for a in range(11):
        for b in range(11):
            cell = (mine == a) & (theirs == b)
            if not cell.any():
                model[a, b] = (3.0 * np.sign(a - b), 1.0)
                continue
            x, y, w = lead[cell], won[cell], np.zeros(2)
            for _ in range(30):
                p = 1 / (1 + np.exp(-(w[0] + w[1] * x)))
                s = p * (1 - p)
                gradient = np.array([np.sum(p - y), np.sum((p - y) * x)]) + w
                hessian = np.array([[s.sum(), (s * x).sum()], [(s * x).sum(), (s * x * x).sum()]]) + np.eye(2)
                w = w - np.linalg.solve(hessian, gradient)
            model[a, b] = w
    return model


def win_value(model: np.ndarray, seat: int, phases: Sequence[int], scores: Sequence[int], active: Sequence[bool],
              winners: Sequence[int] | None) -> float:
    """What a position is worth to ``seat`` by ``model`` (the reference for the core's
    ``win_value``): 2 won and -2 lost once the game is over (``winners`` given); else 4p - 2 for
    its chance p to win, by its phases, the best other active seat's (most phases, then fewest
    points) and its lead in points over that seat."""
    if winners is not None:
        return 2.0 if seat in winners else -2.0
    others = [s for s in range(len(phases)) if s != seat and active[s]]
    best = max(others, key=lambda s: (phases[s], -scores[s]))
    a, b = model[min(phases[seat], 10), min(phases[best], 10)]
    return float(4 / (1 + np.exp(-(a + b * (scores[best] - scores[seat]) / 100))) - 2)


def odds(model: np.ndarray) -> str:
    """A few of the model's chances, to read it by: a phase ahead early and late (with 50 points
    fewer, as a seat a phase ahead usually has), and on phase 9 both, 50 points fewer and more."""
    def chance(mine: int, theirs: int, lead: float = 0.0) -> float:
        a, b = model[mine, theirs]
        return float(1 / (1 + np.exp(-(a + b * lead / 100))))
    return (f"a phase ahead and 50 points fewer, on 3 against 2: {chance(3, 2, 50):.2f}, 9 against 8: {chance(9, 8, 50):.2f}; "
            f"9 both, 50 points fewer: {chance(9, 9, 50):.2f}, 50 more: {chance(9, 9, -50):.2f}")


def train(cfg: WinConfig, log: Callable[[str], None] = print) -> dict[int, np.ndarray]:
    """Collect and fit a model per seat count; write them to ``cfg.out``."""
    models = {}
    for n, games in zip(cfg.players, cfg.games):
        started = time.time()
        ends, won = hand_ends(n, games, cfg.seed)
        models[n] = fit(ends, won)
        log(f"{n} players: {len(ends):,} hand ends of {games:,} games, {time.time() - started:.0f} s; {odds(models[n])}")
    Path(cfg.out).parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {f"n{n}": m for n, m in models.items()}
    np.savez(cfg.out, **arrays)
    log(f"wrote {cfg.out}")
    return models


def main(argv: list[str] | None = None) -> None:
    train_command(argv, "Train the champion's win model (configs/belief/champion.yaml, wins).", "wins", WinConfig, train)


if __name__ == "__main__":
    main()
