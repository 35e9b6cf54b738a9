"""What the Deep Monte Carlo experiments (models/champion.md, "Deep Monte Carlo for the draws and
discards, tried") share: the choices a network makes (the draws and discards; the heuristic makes
every other move), how a choice is described to a network that reads it beside the observation,
the networks as numpy arrays, and what a hand's end is worth (the win model's chance to win).
An experiment kept to reproduce its figures, not part of the package.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from agents.policies.champion import WIN_MODEL, load_win_model
from agents.training.win_model import GAME_OVER, OUT_OF_PLAY, chances
from phase10_env import core
from phase10_env.actions import DISCARD_FIRST
from phase10_env.engine.cards import COLOUR_OF, NUMBER_OF, WILD
from phase10_env.observation import OBS_SIZE, OBS_SLICES
from phase10_env.planning import PLANNING

PLAYERS = 4
DRAWS = 2
CHOICES = DRAWS + 55  # draw deck, take discard; discards 246-300 (cards, Wild, Skips)
FEATURES = "planning"


def choice_actions() -> np.ndarray:
    """The action id of each network output."""
    return np.concatenate([np.arange(DRAWS), np.arange(DISCARD_FIRST, DISCARD_FIRST + CHOICES - DRAWS)])


ACTIONS = choice_actions()


def _choice_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each choice: the card kind it discards (-1 for a draw), the number of that card (0
    if none) and its constant features: one-hots of the number, colour, Wild, Skip, the Skip's
    target offset (1-5, none) and the two draws."""
    kinds = np.full(CHOICES, -1, dtype=np.int64)
    numbers = np.zeros(CHOICES, dtype=np.int64)
    const = np.zeros((CHOICES, 26), dtype=np.float32)
    const[0, 24], const[1, 25] = 1, 1
    for i in range(DRAWS, CHOICES):
        action = int(ACTIONS[i])
        if action < DISCARD_FIRST + 48:
            kind = action - DISCARD_FIRST
            kinds[i], numbers[i] = kind, NUMBER_OF[kind]
            const[i, NUMBER_OF[kind] - 1] = 1
            const[i, 12 + COLOUR_OF[kind]] = 1
        elif action == DISCARD_FIRST + 48:
            kinds[i], const[i, 16] = WILD, 1
        else:
            kinds[i], const[i, 17] = WILD + 1, 1
            const[i, 18 + action - (DISCARD_FIRST + 49)] = 1
    return kinds, numbers, const


KINDS, NUMBERS, CONSTANT = _choice_tables()
_PER_KIND = [OBS_SLICES["hand"].start, OBS_SLICES["discard_counts"].start, OBS_SLICES["table_counts"].start] + [
    OBS_SIZE + PLANNING.slices[name].start for name in ("missing_without", "ways_without", "discard_below_top",
                                                         "next_player_took")]
_PER_NUMBER = [OBS_SLICES["hand"].start, OBS_SLICES["discard_counts"].start, OBS_SLICES["table_counts"].start,
               OBS_SIZE + PLANNING.slices["next_player_took"].start]
ACTION_FEATURES = len(_PER_KIND) + len(_PER_NUMBER) + CONSTANT.shape[1]


def action_features(obs: np.ndarray, choices: np.ndarray) -> np.ndarray:
    """Each row's choice described from the observation: the discarded kind's count in the hand,
    the piles and the table, and its planning values; its number's counts over the colours; the
    constant one-hots. A network reading these shares what it learns across cards."""
    rows = np.arange(len(obs))
    kind = KINDS[choices]
    has_kind = kind >= 0
    k = np.where(has_kind, kind, 0)
    out = np.zeros((len(obs), ACTION_FEATURES), dtype=np.float32)
    for j, base in enumerate(_PER_KIND):
        out[:, j] = obs[rows, base + k] * has_kind
    number = NUMBERS[choices]
    has_number = number > 0
    n = np.where(has_number, number - 1, 0)
    for j, base in enumerate(_PER_NUMBER):
        by_number = obs[:, base:base + 48].reshape(len(obs), 4, 12).sum(1)
        out[:, len(_PER_KIND) + j] = by_number[rows, n] * has_number
    out[:, len(_PER_KIND) + len(_PER_NUMBER):] = CONSTANT[choices]
    return out


def decision_masks(heuristic: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Rows ``(N, CHOICES)``: the legal draws where the heuristic draws, the legal discards where
    it discards, nothing elsewhere (the heuristic plays those actions)."""
    out = masks[:, ACTIONS].copy()
    drawing = heuristic < DRAWS
    discarding = heuristic >= DISCARD_FIRST
    out[:, :DRAWS] &= drawing[:, None]
    out[:, DRAWS:] &= discarding[:, None]
    return out


class QNet:
    """A network as numpy arrays (``w0, b0, w1, b1, ...`` in an ``.npz`` file, read without
    unpickling; ReLU between layers)."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        self.layers = layers

    @classmethod
    def load(cls, path: str | Path) -> QNet:
        with np.load(path, allow_pickle=False) as data:
            count = sum(1 for name in data.files if name.startswith("w"))
            return cls([(data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)) for i in range(count)])

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        h = obs.astype(np.float32)
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return h


def choice_values(value: Callable[[np.ndarray], np.ndarray], obs: np.ndarray, dmask: np.ndarray) -> np.ndarray:
    """``(rows, CHOICES)``: the value of each legal choice by ``value`` (which reads observation
    and action features side by side), -inf for the rest."""
    rows, choices = np.nonzero(dmask)
    out = np.full(dmask.shape, -np.inf, dtype=np.float32)
    if len(rows):
        x = np.concatenate([obs[rows], action_features(obs[rows], choices)], 1)
        out[rows, choices] = value(x).reshape(len(rows))
    return out


def hand_end_values(slots: np.ndarray, rows: np.ndarray, seats: np.ndarray, players: int,
                    model: np.ndarray, hidden: int) -> np.ndarray:
    """What the hand just ended in ``rows`` is worth to ``seats``: the win model's chance to win
    from the phases and scores now, or 1 (shared among tied winners) or 0 once the game is over."""
    g = slots.view(core.SLOT)[:, 0]["g"]
    phases = g["completed"][rows, :players].astype(np.int64)
    scores = g["scores"][rows, :players].astype(np.int64)
    active = g["active"][rows, :players].astype(bool)
    mine = np.arange(len(rows))
    others = (seats[:, None] + np.arange(1, players)) % players  # in turn order from the next seat
    theirs = np.where(active[mine[:, None], others], phases[mine[:, None], others], OUT_OF_PLAY[0])
    leads = np.where(active[mine[:, None], others], scores[mine[:, None], others] - scores[mine, seats][:, None],
                     OUT_OF_PLAY[1])
    ends = np.concatenate([phases[mine, seats][:, None], theirs, leads], 1)
    out: np.ndarray = chances(model, hidden, ends.astype(np.float64))
    over = g["stage"][rows] == GAME_OVER
    winners = g["winners"][rows]
    won = (winners.astype(np.int64) >> seats) & 1
    count = np.unpackbits(winners[:, None], axis=1).sum(1)
    out[over] = (won / np.maximum(count, 1))[over]
    return out


def save(net: object, out: Path) -> None:
    """A torch MLP's weights as :class:`QNet` reads them, written whole or not at all."""
    import torch

    assert isinstance(net, torch.nn.Sequential)
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    arrays = {}
    for i, m in enumerate(linears):
        arrays[f"w{i}"] = m.weight.detach().numpy().T.copy()
        arrays[f"b{i}"] = m.bias.detach().numpy().copy()
    tmp = out.with_suffix(".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(out)


class Progress:
    """A trainer's updates, log and checkpoints: every ``log_every`` seconds a line (the updates so
    far and the mean loss of the last ``window``) and the network saved to ``out``; every
    ``keep_every`` seconds a copy beside it, named by how far the run has come."""

    def __init__(self, out: Path, window: int, log_every: float = 60.0, keep_every: float = 600.0) -> None:
        self.out, self.window, self.log_every, self.keep_every = out, window, log_every, keep_every
        self.start = self.last = self.last_keep = time.perf_counter()
        self.losses: list[float] = []

    def learn(self, opt: Any, loss: Any) -> None:
        """One update of the network by ``loss``."""
        opt.zero_grad()
        loss.backward()
        opt.step()
        self.losses.append(float(loss.detach()))

    def tick(self, net: object, counted: str, kept_name: str, digits: int = 5, extra: str = "") -> None:
        now = time.perf_counter()
        if now - self.last <= self.log_every:
            return
        self.last = now
        loss = np.mean(self.losses[-self.window:]) if self.losses else float("nan")
        print(f"{now - self.start:7.0f}s {counted} updates {len(self.losses):>7,} loss {loss:.{digits}f}{extra}", flush=True)
        save(net, self.out)
        if now - self.last_keep > self.keep_every:
            self.last_keep = now
            save(net, self.out.with_name(f"{self.out.stem}_{kept_name}.npz"))


def win_model() -> tuple[np.ndarray, int]:
    """The shipped win model for four players and its hidden units."""
    model = load_win_model(WIN_MODEL)
    return model.by_players[PLAYERS], model.hidden


def mlp(sizes: list[int]) -> object:
    """A torch MLP with ReLU between layers (the shape :class:`QNet` reads back)."""
    import torch

    mods: list[torch.nn.Module] = []
    for i in range(len(sizes) - 1):
        mods.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            mods.append(torch.nn.ReLU())
    return torch.nn.Sequential(*mods)
