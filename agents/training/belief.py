"""Training the champion's belief model: what one seat may infer about another's hidden cards.

Data: heuristic games played in the native core, many at once. At a sample of draw decisions,
for each other active seat, the core gives the features the seat to act may know (its hand,
the unseen cards, the piles, the table, what the other seat discarded, passed over and took
this hand) and, as the target, how many of each kind of card the other seat holds hidden among
the unseen ones. The model (:class:`~agents.policies.champion.BeliefModel`, a perceptron with
a sigmoid per kind) is fitted by the binomial likelihood of those counts: ``q[k]`` is the chance
that one unseen card of kind ``k`` is in that hand. Its worth is reported against the uniform
belief (every unseen card alike: what a plain determinized search assumes), on held-out rows.

One command, from a config: ``python -m agents.training.belief configs/belief/champion.yaml``; it
writes the model (``.npz``, numpy arrays only) and a JSON summary beside it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from phase10_env import core
from phase10_env.core.convert import rules_tuple
from phase10_env.engine.config import load_rules

from .model_config import load_section, train_command

DRAW_STAGE = 0


@dataclass(frozen=True)
class BeliefConfig:
    """``players``: the seat counts to learn from, with ``rows`` examples each; ``keep``: the
    share of draw decisions sampled (consecutive decisions are alike); the network's ``hidden``
    sizes; ``epochs``, ``batch`` and ``lr`` of Adam; ``holdout``: the share of games held out to
    report the likelihood on (split by game, so a game's rows never straddle it)."""

    players: tuple[int, ...] = (2, 3, 4)
    rows: int = 150_000
    keep: float = 0.1
    hidden: tuple[int, ...] = (256, 256)
    epochs: int = 8
    batch: int = 1024
    lr: float = 1e-3
    holdout: float = 0.1
    seed: int = 0
    out: str = "models/champion.npz"
    batch_games: int = 256
    threads: int = 2


def load_config(path: str | Path) -> BeliefConfig:
    return load_section(path, "belief", BeliefConfig)


def collect(num_players: int, rows: int, keep: float, seed: int, batch_games: int = 256) -> tuple[np.ndarray, ...]:
    """``rows`` examples from heuristic games of ``num_players`` seats: features, hidden counts,
    unseen counts and each row's game number."""
    c = core.native()
    slots = np.zeros((batch_games, core.SLOT_BYTES), dtype=np.uint8)
    all_rows = np.arange(batch_games, dtype=np.int64)
    config = (0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0, (0,) * num_players)
    c.configure(slots, all_rows, num_players, rules_tuple(load_rules(None)), config)
    rng = np.random.default_rng(seed)
    next_game = batch_games
    game_of = np.arange(batch_games, dtype=np.int64)
    c.reset(slots, all_rows, rng.integers(2**63, size=batch_games, dtype=np.uint64), np.ones(batch_games, dtype=np.uint8))
    f = c.BELIEF_FEATURES
    features, hidden, unseen = (np.empty((rows, f), np.float32), np.empty((rows, 50), np.float32),
                                np.empty((rows, 50), np.float32))
    games = np.empty(rows, np.int64)
    filled = 0
    actions, status = np.empty(batch_games, dtype=np.int64), np.empty(batch_games, dtype=np.int8)
    view = slots.view(core.SLOT)[:, 0]
    while filled < rows:
        g = view["g"]
        current = g["current"].astype(np.int64)
        picked = all_rows[(g["stage"] == DRAW_STAGE) & (rng.random(batch_games) < keep)]
        for offset in range(1, num_players):
            other = (current[picked] + offset) % num_players
            live = picked[g["active"][picked, other] != 0]
            take = min(len(live), rows - filled)
            if take <= 0:
                continue
            live, part = live[:take], slice(filled, filled + take)
            c.belief_features(slots, live, current[live], (current[live] + offset) % num_players,
                              features[part], hidden[part], unseen[part])
            games[part] = game_of[live]
            filled += take
        c.heuristic(slots, all_rows, actions)
        c.act(slots, all_rows, actions, status)
        over = all_rows[view["terminated"] != 0]
        if len(over):
            c.reset(slots, over, rng.integers(2**63, size=len(over), dtype=np.uint64), np.ones(len(over), dtype=np.uint8))
            game_of[over] = next_game + np.arange(len(over))
            next_game += len(over)
    return features, hidden, unseen, games


def uniform_nll(hidden: np.ndarray, unseen: np.ndarray) -> float:
    """The likelihood's loss per row of the uniform belief (each unseen card alike)."""
    q = np.clip(hidden.sum(1, keepdims=True) / np.maximum(unseen.sum(1, keepdims=True), 1), 1e-6, 1 - 1e-6)
    return float(-(hidden * np.log(q) + (unseen - hidden) * np.log1p(-q)).sum(1).mean())


def train(cfg: BeliefConfig, log: Any = print) -> dict[str, Any]:
    """Collect, fit, save; returns the summary written beside the model."""
    import torch

    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    started = time.time()
    parts = [collect(n, cfg.rows, cfg.keep, cfg.seed * 100 + n, cfg.batch_games) for n in cfg.players]
    x, h, u = (np.concatenate([p[i] for p in parts]) for i in range(3))
    game = np.concatenate([p[3] + i * 10**9 for i, p in enumerate(parts)])
    collected = time.time() - started
    ids, index = np.unique(game, return_inverse=True)
    val = (np.random.default_rng(cfg.seed).random(len(ids)) < cfg.holdout)[index]
    log(f"collected {len(x):,} rows from {len(ids):,} games in {collected:.0f} s")
    sizes = [x.shape[1], *cfg.hidden, 50]
    layers: list[torch.nn.Module] = []
    for i in range(len(sizes) - 1):
        layers += [torch.nn.Linear(sizes[i], sizes[i + 1]), torch.nn.ReLU()]
    net = torch.nn.Sequential(*layers[:-1])
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    xt, ht, ut = (torch.from_numpy(a[~val]) for a in (x, h, u))
    xv, hv, uv = (torch.from_numpy(a[val]) for a in (x, h, u))

    def nll(logits: torch.Tensor, hid: torch.Tensor, pool: torch.Tensor) -> torch.Tensor:
        log_q, log_not_q = torch.nn.functional.logsigmoid(logits), torch.nn.functional.logsigmoid(-logits)
        return -(hid * log_q + (pool - hid) * log_not_q).sum(1).mean()

    rng = np.random.default_rng(cfg.seed)
    curve = []
    for epoch in range(cfg.epochs):
        order = torch.from_numpy(rng.permutation(len(xt)))
        for b in range(0, len(order), cfg.batch):
            j = order[b:b + cfg.batch]
            loss = nll(net(xt[j]), ht[j], ut[j])
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]  # torch leaves it untyped
            opt.step()
        with torch.no_grad():
            curve.append(round(float(nll(net(xv), hv, uv)), 4))
        log(f"epoch {epoch + 1}: held-out loss {curve[-1]:.3f}")
    out = Path(cfg.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    arrays = {}
    for i, m in enumerate(linear):
        arrays[f"w{i}"] = m.weight.detach().numpy().T.astype(np.float32)
        arrays[f"b{i}"] = m.bias.detach().numpy().astype(np.float32)
    np.savez_compressed(out, **arrays)
    summary = {
        "rows": int(len(x)), "held_out_rows": int(val.sum()), "games": int(len(ids)),
        "players": list(cfg.players), "hidden": list(cfg.hidden), "epochs": cfg.epochs,
        "held_out_loss": curve[-1], "uniform_loss": round(uniform_nll(h[val], u[val]), 4), "curve": curve,
        "seconds": {"collect": round(collected), "fit": round(time.time() - started - collected)},
    }
    Path(out.with_suffix(".json")).write_text(json.dumps(summary, indent=1) + "\n")
    log(f"saved {out} ({out.stat().st_size / 1e6:.1f} MB); held-out loss {curve[-1]:.3f} "
        f"vs uniform {summary['uniform_loss']:.3f}")
    return summary


def main(argv: list[str] | None = None) -> None:
    train_command(argv, "Train the champion's belief model (configs/belief/champion.yaml).", "belief", BeliefConfig, train)


if __name__ == "__main__":
    main()
