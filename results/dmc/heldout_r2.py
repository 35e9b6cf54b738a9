"""How much of the paired gains a network of paired.py predicts, on decisions of games it never
saw: 30,000 draw and discard decisions of heuristic four-player games (seed 60000000; a fifth of
the decisions sampled), each legal choice's gain over the heuristic's measured by one paired
play-out as paired.py measures them. Reports R^2 = 1 - MSE(predicted, measured) / MSE(0, measured)
over the choices other than the heuristic's (0: no better than the heuristic's answer, a gain of 0
everywhere), their correlation, the mean measured gain (and its spread) and the mean predicted one; then, for each margin, how
often the network's best choice beats the heuristic's by more than the margin and what that choice's
measured gain is: what leaving the heuristic there would win, decision by decision. An experiment's
measurement, not part of the package::

    python results/dmc/heldout_r2.py MODEL.npz [MODEL.npz ...]
"""

from __future__ import annotations

import sys

import numpy as np
from common import FEATURES, PLAYERS, QNet, decision_masks, win_model
from paired import paired_gains

from phase10_env.vector import Phase10VectorEnv

STATES, SEED, ENVS = 30_000, 60_000_000, 256
MARGINS = (0.0, 0.01, 0.02, 0.03)


def heldout() -> dict[str, np.ndarray]:
    model, hidden = win_model()
    env = Phase10VectorEnv(ENVS, num_players=PLAYERS, opponents="heuristic", features=FEATURES, learner_seat="random",
                           max_steps=20_000)
    obs, info = env.reset(seed=SEED)
    rng = np.random.default_rng(SEED)
    parts: dict[str, list[np.ndarray]] = {"obs": [], "gain": [], "mask": [], "h": []}
    count = 0
    while count < STATES:
        heuristic = env.heuristic_actions()
        dmask = decision_masks(heuristic, env.action_masks())
        deciding = np.flatnonzero(dmask.any(1) & (rng.random(ENVS) < 0.2))
        if len(deciding):
            gain, h = paired_gains(env._games.slots, deciding, dmask, heuristic, info["learner"], model, hidden)
            for key, value in (("obs", obs[deciding]), ("gain", gain), ("mask", dmask[deciding]), ("h", h)):
                parts[key].append(value)
            count += len(deciding)
        obs, _, _, _, info = env.step(np.where(heuristic < 0, 0, heuristic))
    return {key: np.concatenate(value) for key, value in parts.items()}


def score(net: QNet, data: dict[str, np.ndarray]) -> str:
    out = net(data["obs"])
    rows = np.arange(len(data["h"]))
    predicted = out - out[rows, data["h"]][:, None]
    others = data["mask"].copy()
    others[rows, data["h"]] = False
    p, g = predicted[others], data["gain"][others]
    r2 = 1 - ((p - g) ** 2).mean() / (g ** 2).mean()
    lines = [f"R^2 {r2:.4f}, correlation {np.corrcoef(p, g)[0, 1]:.3f}, mean gain {g.mean():.4f} measured (SD {g.std():.4f}), "
             f"{p.mean():.4f} predicted ({len(rows):,} decisions, {len(g):,} choices)"]
    best = np.where(others, predicted, -np.inf).argmax(1)
    top = predicted[rows, best]
    for margin in MARGINS:
        taken = top > margin
        measured = data["gain"][rows[taken], best[taken]]
        se = measured.std(ddof=1) / np.sqrt(len(measured)) if len(measured) > 1 else float("nan")
        lines.append(f"  margin {margin}: leaves the heuristic in {taken.mean():.3f} of the decisions, predicted gain "
                     f"{top[taken].mean():.4f}, measured {measured.mean():.4f} +- {se:.4f} (one SE)")
    return "\n".join(lines)


if __name__ == "__main__":
    data = heldout()
    for path in sys.argv[1:]:
        print(path, score(QNet.load(path), data), flush=True)
