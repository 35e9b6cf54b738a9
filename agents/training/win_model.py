"""Training the champion's win model: what a hand's end is worth, as a chance to win the game.

The search judges a candidate move by the hand played on from it. Counting phases made (and a
little of the points) treats a phase as worth the same all game, and points as worth little;
in heuristic games neither holds: two players level on phase 9 are near 0.5 each when their
scores are level, but far apart when one has 25-100 points fewer (the lower score wins a tie on
phase 10), and a phase ahead is worth little early and nearly the game at the end. At a hand's
end nothing is left of the hand but each seat's phases and score (the next deal is random), so
a model of the game's outcome from those is a judge of the whole game under heuristic play.

Data: heuristic games played in the native core, hand by hand; at each hand's end, for each
seat, its phases, each other seat's phases and its lead in points over that seat, and whether
it went on to win.

Model: a small network, monotone by construction. Each other seat is read alone, by the same
first layer: from the seat's phases, minus that seat's phases and the lead over it; the second
layer reads those readings' sum and their least (the strongest other seat's; so no seat's place
in the order matters) and gives the chance (a sigmoid out). Every weight is non-negative and
every unit increasing (tanh), so a phase the seat makes or a point it leads by never lowers its
chance, and a phase another seat makes never raises it. The first model was a table of logistic
regressions per pair of phase counts (the seat's and the best other's), each cell fitted alone;
where heuristic games seldom go (a seat phases ahead by hundreds of points) its cells disagreed,
and the search followed them: against a player on 2 phases with 400 points more than it, the
table gave a seat on 4 phases 0.994 and on 7 phases 0.966, so the champion held back its phases
against weak play. One network per seat count, stored as ``n2``, ``n3``, ... (its layers'
weights and biases in one flat array) with ``hidden``, in one ``.npz`` file (numpy arrays only).

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
    the same place (game ``i`` seeded ``seed + i``); the network's ``hidden`` units per layer
    (two layers), fitted by Adam (``epochs``, ``batch``, ``lr``) on one thread."""

    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    games: tuple[int, ...] = (20_000, 10_000, 10_000, 10_000, 10_000)
    seed: int = 99_000_000
    hidden: int = 16
    epochs: int = 40
    batch: int = 4096
    lr: float = 1.0e-2
    out: str = "models/champion_wins.npz"

    def __post_init__(self) -> None:
        if len(self.games) != len(self.players) or min(self.games) < 1:
            raise ValueError("wins: give a positive number of games for each seat count in players")
        if self.hidden < 1 or self.epochs < 1 or self.batch < 1 or self.lr <= 0:
            raise ValueError("wins: hidden, epochs, batch and lr must be positive")


def load_config(path: str | Path) -> WinConfig:
    return load_section(path, "wins", WinConfig)


def hand_ends(num_players: int, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """At every hand's end (the game going on) of ``games`` heuristic games, for every seat: a
    row of its phases, each other seat's phases (in turn order from the next seat) and its lead
    in points over each (``1 + 2 (num_players - 1)`` columns), and whether that seat won."""
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
            others = [(seat + k) % num_players for k in range(1, num_players)]
            found.append(np.concatenate([going[:, None], np.full((len(going), 1), seat), phases[:, [seat]],
                                         phases[:, others], scores[:, others] - scores[:, [seat]]], 1))
    table = np.concatenate(found)
    won = (g["winners"][table[:, 0]].astype(np.int64) >> table[:, 1]) & 1
    return table[:, 2:], won.astype(np.float64)


PHASES, LEAD = 10.0, 300.0  # what a phase and a point are divided by on the way in
OUT_OF_PLAY = (0, 1000)  # the phases and lead an inactive seat (a tie replay's) counts as: the weakest


def features(ends: np.ndarray) -> np.ndarray:
    """The network's inputs for :func:`hand_ends` rows, ``(rows, others, 3)``: for each other seat,
    the row's phases, minus that seat's and the lead over it, each increasing with the chance."""
    others = (ends.shape[1] - 1) // 2
    x = np.stack([np.repeat(ends[:, :1], others, 1) / PHASES, -ends[:, 1:1 + others] / PHASES,
                  ends[:, 1 + others:] / LEAD], 2)
    return x.astype(np.float64)


SIZES = ((3, -1), (-1,), (-2, -1), (-1,), (-1,), (1,))  # the layers' shapes in hidden units (-1) and twice that (-2)


def layers(model: np.ndarray, hidden: int) -> list[np.ndarray]:
    """``model``'s flat array as its layers: the first layer's weights ``(3, hidden)`` (one other
    seat's inputs) and biases, the second's ``(2 hidden, hidden)`` (the first's sum over the
    other seats, then its least) and biases, the output weights ``(hidden,)`` and bias ``(1,)``."""
    shapes = [tuple(-d * hidden if d < 0 else d for d in shape) for shape in SIZES]
    total = sum(int(np.prod(shape)) for shape in shapes)
    if len(model) != total:
        raise ValueError(f"a win model with {hidden} hidden units has {total} numbers, not {len(model)}")
    out, at = [], 0
    for shape in shapes:
        count = int(np.prod(shape))
        out.append(model[at:at + count].reshape(shape))
        at += count
    return out


def chances(model: np.ndarray, hidden: int, ends: np.ndarray) -> np.ndarray:
    """Each :func:`hand_ends` row's chance to win by ``model``."""
    w0, b0, w1, b1, w2, b2 = layers(model, hidden)
    seats = np.tanh(features(ends) @ w0 + b0)
    pooled = np.concatenate([seats.sum(1), seats.min(1)], 1)
    p: np.ndarray = 1 / (1 + np.exp(-(np.tanh(pooled @ w1 + b1) @ w2 + b2[0])))
    return p


def fit(ends: np.ndarray, won: np.ndarray, hidden: int, epochs: int, batch: int, lr: float, seed: int) -> np.ndarray:
    """The flat model fitted to :func:`hand_ends` rows by the logistic likelihood (Adam); the
    weights are softplus of free parameters, so never negative."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    raw = [torch.nn.Parameter(0.1 * torch.randn(3, hidden, dtype=torch.float64)),
           torch.nn.Parameter(torch.zeros(hidden, dtype=torch.float64)),
           torch.nn.Parameter(0.1 * torch.randn(2 * hidden, hidden, dtype=torch.float64)),
           torch.nn.Parameter(torch.zeros(hidden, dtype=torch.float64)),
           torch.nn.Parameter(0.1 * torch.randn(hidden, dtype=torch.float64)),
           torch.nn.Parameter(torch.zeros(1, dtype=torch.float64))]
    positive = torch.nn.functional.softplus

    def weights() -> list[torch.Tensor]:
        w0, b0, w1, b1, w2, b2 = raw
        return [positive(w0), b0, positive(w1), b1, positive(w2), b2]

    x, y = torch.from_numpy(features(ends)), torch.from_numpy(won)
    opt = torch.optim.Adam(raw, lr=lr)
    order = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        perm = torch.randperm(len(x), generator=order)
        for i in range(0, len(x), batch):
            rows = perm[i:i + batch]
            w0, b0, w1, b1, w2, b2 = weights()
            seats = torch.tanh(x[rows] @ w0 + b0)
            logit = torch.tanh(torch.cat([seats.sum(1), seats.min(1).values], 1) @ w1 + b1) @ w2 + b2
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logit, y[rows])
            opt.zero_grad()
            torch.autograd.backward(loss)
            opt.step()
    with torch.no_grad():
        return np.concatenate([w.numpy().ravel() for w in weights()])


def win_value(model: np.ndarray, hidden: int, seat: int, phases: Sequence[int], scores: Sequence[int],
              active: Sequence[bool], winners: Sequence[int] | None) -> float:
    """What a position is worth to ``seat`` by ``model`` (the reference for the core's
    ``win_value``): 2 won and -2 lost once the game is over (``winners`` given); else 4p - 2 for
    its chance p to win by its phases and score and the other seats' (an inactive one counts as
    :data:`OUT_OF_PLAY`)."""
    if winners is not None:
        return 2.0 if seat in winners else -2.0
    others = [(phases[s], scores[s] - scores[seat]) if active[s] else OUT_OF_PLAY for s in range(len(phases)) if s != seat]
    theirs, leads = [other[0] for other in others], [other[1] for other in others]
    p = chances(model, hidden, np.array([[phases[seat], *theirs, *leads]], dtype=np.float64))[0]
    return float(4 * p - 2)


def chance(model: np.ndarray, hidden: int, players: int, mine: int, theirs: int, lead: int = 0) -> float:
    """The chance to win by ``model`` of a seat on ``mine`` phases against ``players - 1`` seats
    each on ``theirs`` with ``lead`` points more than it."""
    others = players - 1
    return float(chances(model, hidden, np.array([[mine] + [theirs] * others + [lead] * others], dtype=np.float64))[0])


def odds(model: np.ndarray, hidden: int, players: int) -> str:
    """A few of the model's chances, to read it by, against other seats all alike: a phase ahead
    early and late (with 50 points fewer, as a seat a phase ahead usually has), and on phase 9
    all, 50 points fewer and more."""
    def at(mine: int, theirs: int, lead: int) -> str:
        return f"{chance(model, hidden, players, mine, theirs, lead):.2f}"
    return (f"a phase ahead and 50 points fewer, on 3 against 2: {at(3, 2, 50)}, 9 against 8: {at(9, 8, 50)}; "
            f"9 all, 50 points fewer: {at(9, 9, 50)}, 50 more: {at(9, 9, -50)}")


HOLDOUT = 10_000_000  # the held-out games' seeds start this far after the config's


def log_loss(p: np.ndarray, won: np.ndarray) -> float:
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(won * np.log(p) + (1 - won) * np.log(1 - p)))


def train(cfg: WinConfig, log: Callable[[str], None] = print) -> dict[int, np.ndarray]:
    """Collect and fit a model per seat count, report its log loss on the hand ends of a quarter
    as many other games (against the even share's), and write them to ``cfg.out``."""
    models = {}
    for n, games in zip(cfg.players, cfg.games):
        started = time.time()
        ends, won = hand_ends(n, games, cfg.seed)
        test, test_won = hand_ends(n, max(1, games // 4), cfg.seed + HOLDOUT)
        models[n] = fit(ends, won, cfg.hidden, cfg.epochs, cfg.batch, cfg.lr, cfg.seed)
        loss, even = log_loss(chances(models[n], cfg.hidden, test), test_won), log_loss(np.full(len(test), 1 / n), test_won)
        log(f"{n} players: {len(ends):,} hand ends of {games:,} games, {time.time() - started:.0f} s; held-out log loss "
            f"{loss:.4f} (the even share {even:.4f}); {odds(models[n], cfg.hidden, n)}")
    Path(cfg.out).parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {f"n{n}": m for n, m in models.items()}
    np.savez(cfg.out, hidden=np.array(cfg.hidden), **arrays)
    log(f"wrote {cfg.out}")
    return models


def main(argv: list[str] | None = None) -> None:
    train_command(argv, "Train the champion's win model (configs/belief/champion.yaml, wins).", "wins", WinConfig, train)


if __name__ == "__main__":
    main()
