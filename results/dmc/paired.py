"""Deep Monte Carlo from paired play-outs (models/champion.md, "Deep Monte Carlo for the draws and
discards, tried"): at a sampled share ``keep`` of the learner's draws and discards (the learner
plays the heuristic), every legal choice is played out from the true position to the hand's end by
deck streams (``core.playout_streams``: the choice, then the heuristic in every seat; each seat
draws from a stream of its own, so the choices meet the same cards), and each end is judged by the
win model. One network (one output per choice, :data:`common.CHOICES`) reads the observation and
learns each choice's gain over the heuristic's (its own output minus the heuristic choice's).
The network sees only the observation; the play-outs' knowledge of the hidden cards averages out
in the regression. An experiment kept to reproduce its figures, not part of the package::

    python results/dmc/paired.py STATES OUT.npz [--hidden 256 256] [--huber 0.05] [--weight-decay 0.01]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from common import ACTIONS, CHOICES, FEATURES, PLAYERS, Progress, decision_masks, hand_end_values, mlp, save, win_model

from phase10_env import core
from phase10_env.vector import Phase10VectorEnv


def paired_gains(slots: np.ndarray, deciding: np.ndarray, dmask: np.ndarray, heuristic: np.ndarray,
                 seats: np.ndarray, model: np.ndarray, hidden: int) -> tuple[np.ndarray, np.ndarray]:
    """For the games ``deciding``: each legal choice's hand-end value minus the heuristic choice's,
    ``(len(deciding), CHOICES)``, and the heuristic's choice."""
    rows, cands = np.nonzero(dmask[deciding])
    src = deciding[rows]
    scratch = slots[src].copy()
    idx = np.arange(len(src), dtype=np.int64)
    core.native().playout_streams(scratch, idx, ACTIONS[cands].astype(np.int64))
    v = hand_end_values(scratch, idx, seats[src], PLAYERS, model, hidden)
    vals = np.zeros((len(deciding), CHOICES), np.float32)
    vals[rows, cands] = v
    h = np.searchsorted(ACTIONS, heuristic[deciding])
    return vals - vals[np.arange(len(deciding)), h][:, None], h


def main(states: int, out: Path, envs: int = 256, keep: float = 0.5, seed: int = 50_000_000,
         hidden: tuple[int, ...] = (512, 512, 256), lr: float = 3e-4, batch: int = 1024, reuse: float = 3.0,
         buffer: int = 1_000_000, log_every: float = 60.0, keep_every: float = 600.0, huber: float = 0.0,
         weight_decay: float = 0.0) -> None:
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    model, wh = win_model()
    env = Phase10VectorEnv(envs, num_players=PLAYERS, opponents="heuristic", features=FEATURES, learner_seat="random",
                           max_steps=20_000)
    obs, info = env.reset(seed=seed)
    slots = env._games.slots
    width = obs.shape[1]
    net = mlp([width, *hidden, CHOICES])
    assert isinstance(net, torch.nn.Sequential)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
    rng = np.random.default_rng(seed)
    b_obs = np.zeros((buffer, width), np.float16)
    b_gain = np.zeros((buffer, CHOICES), np.float32)
    b_mask = np.zeros((buffer, CHOICES), bool)
    b_h = np.zeros(buffer, np.int64)
    filled = write = collected = 0
    owed, sim = 0.0, 0.0
    progress = Progress(out, 300, log_every, keep_every)
    while collected < states:
        heuristic = env.heuristic_actions()
        dmask = decision_masks(heuristic, env.action_masks())
        deciding = np.flatnonzero(dmask.any(1) & (rng.random(envs) < keep))
        if len(deciding):
            t0 = time.perf_counter()
            gain, h = paired_gains(slots, deciding, dmask, heuristic, info["learner"], model, wh)
            sim += time.perf_counter() - t0
            n = len(deciding)
            at = (write + np.arange(n)) % buffer
            b_obs[at], b_gain[at], b_mask[at], b_h[at] = obs[deciding], gain, dmask[deciding], h
            write, filled, collected = (write + n) % buffer, min(filled + n, buffer), collected + n
            owed += reuse * n / batch
        obs, _, _, _, info = env.step(np.where(heuristic < 0, 0, heuristic))
        while owed >= 1 and filled >= 20_000:
            pick = rng.integers(filled, size=batch)
            o = net(torch.from_numpy(b_obs[pick].astype(np.float32)))
            pred = o - o.gather(1, torch.from_numpy(b_h[pick])[:, None])
            m = torch.from_numpy(b_mask[pick]).float()
            error = pred - torch.from_numpy(b_gain[pick])
            if huber > 0:  # squared within huber of the target, linear beyond: an outlier pulls less
                per = torch.nn.functional.huber_loss(error, torch.zeros_like(error), reduction="none", delta=huber) * 2
            else:
                per = error**2
            progress.learn(opt, (per * m).sum() / m.sum())
            owed -= 1
        progress.tick(net, f"states {collected:>10,}", f"{collected // 1000}k", digits=6, extra=f" sim {sim:.0f}s")
    save(net, out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("states", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--hidden", type=int, nargs="+", default=[512, 512, 256])
    parser.add_argument("--huber", type=float, default=0.0, help="Huber loss with this delta (0: squared error)")
    parser.add_argument("--weight-decay", type=float, default=0.0)
    args = parser.parse_args()
    main(args.states, args.out, hidden=tuple(args.hidden), huber=args.huber, weight_decay=args.weight_decay)
