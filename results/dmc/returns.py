"""Deep Monte Carlo from hands' outcomes (DouZero's recipe, as tried in models/champion.md): one
network reads the seat's observation (planning features) beside a description of one draw or
discard and learns what the hand will be worth at its end (the win model's chance to win from
there, or the game's outcome when it ends the game) from the outcomes of the hands actually played.

Experience: whole four-player games against three heuristics of the native core, the learner's
seat random; its draws and discards are the heuristic's, a share ``explore`` of them replaced by a
uniformly random legal choice. Lay-downs and hits are always the heuristic's. An experiment kept to
reproduce its figures, not part of the package::

    python results/dmc/returns.py DECISIONS OUT.npz     # the run reported stopped at 11539682
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from common import (
    ACTION_FEATURES,
    ACTIONS,
    FEATURES,
    Progress,
    action_features,
    decision_masks,
    hand_end_values,
    mlp,
    save,
    win_model,
)

from phase10_env import core
from phase10_env.vector import Phase10VectorEnv


@dataclass(frozen=True)
class Config:
    players: int = 4
    envs: int = 512
    hidden: tuple[int, ...] = (512, 512, 256)
    lr: float = 3e-4
    batch: int = 2048
    buffer: int = 1_000_000
    reuse: float = 2.0  # network updates' samples per collected sample
    explore: float = 0.1
    decisions: int = 20_000_000
    seed: int = 40_000_000
    threads: int = 2


def train(cfg: Config, out: Path, log_every: float = 60.0, keep_every: float = 600.0) -> None:
    import torch

    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    model, hidden = win_model()
    env = Phase10VectorEnv(cfg.envs, num_players=cfg.players, opponents="heuristic", features=FEATURES,
                           learner_seat="random", max_steps=20_000)
    obs, info = env.reset(seed=cfg.seed)
    g = env._games.slots.view(core.SLOT)[:, 0]["g"]
    width = obs.shape[1]
    net = mlp([width + ACTION_FEATURES, *cfg.hidden, 1])
    assert isinstance(net, torch.nn.Sequential)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    rng = np.random.default_rng(cfg.seed)
    buf_obs = np.zeros((cfg.buffer, width), dtype=np.float16)
    buf_act = np.zeros(cfg.buffer, dtype=np.int64)
    buf_ret = np.zeros(cfg.buffer, dtype=np.float32)
    filled, write = 0, 0
    pending: list[list[tuple[np.ndarray, int]]] = [[] for _ in range(cfg.envs)]
    collected, owed = 0, 0.0
    progress = Progress(out, 500, log_every, keep_every)
    while collected < cfg.decisions:
        heuristic = env.heuristic_actions()
        masks = env.action_masks()
        dmask = decision_masks(heuristic, masks)
        deciding = np.flatnonzero(dmask.any(1))
        actions = np.where(heuristic < 0, 0, heuristic)
        if len(deciding):
            base = np.searchsorted(ACTIONS, heuristic[deciding])
            explore = np.flatnonzero(rng.random(len(deciding)) < cfg.explore)
            chosen = base.copy()
            for k in explore:
                chosen[k] = rng.choice(np.flatnonzero(dmask[deciding[k]]))
            actions[deciding] = ACTIONS[chosen]
            for r, c in zip(deciding, chosen):
                pending[r].append((obs[r].astype(np.float16), int(c)))
        seats = info["learner"].copy()
        hand = g["hand_number"].copy()
        obs, _, terminated, truncated, info = env.step(actions)
        for r in np.flatnonzero(truncated):
            pending[r] = []
        ended = np.flatnonzero(terminated | ((g["hand_number"] != hand) & ~truncated))
        if len(ended):
            values = hand_end_values(env._games.slots, ended, seats[ended], cfg.players, model, hidden)
            for r, v in zip(ended, values):
                for o, a in pending[r]:
                    buf_obs[write], buf_act[write], buf_ret[write] = o, a, v
                    write = (write + 1) % cfg.buffer
                    filled = min(filled + 1, cfg.buffer)
                    collected += 1
                    owed += cfg.reuse / cfg.batch
                pending[r] = []
        while owed >= 1 and filled >= 50_000:
            pick = rng.integers(filled, size=cfg.batch)
            o32 = buf_obs[pick].astype(np.float32)
            x = torch.from_numpy(np.concatenate([o32, action_features(o32, buf_act[pick])], 1))
            y = torch.from_numpy(buf_ret[pick])
            progress.learn(opt, torch.nn.functional.mse_loss(net(x)[:, 0], y))
            owed -= 1
        progress.tick(net, f"decisions {collected:>11,}", f"{collected // 1_000_000}M")
    save(net, out)


if __name__ == "__main__":
    train(Config(decisions=int(sys.argv[1])), Path(sys.argv[2]))
