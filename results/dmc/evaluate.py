"""One network seat (its draws and discards; the heuristic's other moves) against three heuristics
of the native core, in whole four-player games, the seat drawn at random each game: wins with a
95% Wilson interval, and the share of its draw and discard decisions where it left the heuristic's
choice; and against the heuristic itself in that seat on the same deals, game by game (the difference
with a 95% interval; the games won only by one or the other). A choice replaces the heuristic's only if
the network values it above the heuristic's by more than ``margin``. Reads either network of the
experiments (one value per choice read beside its features, returns.py; one gain per choice,
paired.py). An experiment's measurement, not part of the package::

    python results/dmc/evaluate.py MODEL.npz|none GAMES SEED MARGIN[,MARGIN...] [nodraws]
"""

from __future__ import annotations

import sys

import numpy as np
from common import ACTIONS, DRAWS, FEATURES, PLAYERS, QNet, choice_values, decision_masks

from agents.evaluation.tournament import wilson_interval
from phase10_env.vector import Phase10VectorEnv


def gains(net: QNet, obs: np.ndarray, dmask: np.ndarray, heuristic: np.ndarray) -> np.ndarray:
    """Each legal choice's value over the heuristic's (-inf where not legal)."""
    h = np.searchsorted(ACTIONS, heuristic)
    rows = np.arange(len(h))
    if net.layers[-1][0].shape[1] == 1:  # a value read beside the choice's features
        values = choice_values(net, obs, dmask)
    else:  # one output per choice
        values = net(obs)
        values[~dmask] = -np.inf
    out: np.ndarray = values - values[rows, h][:, None]
    return out


def evaluate(net: QNet | None, games: int, seed: int, margin: float, draws: bool = True) -> tuple[np.ndarray, float]:
    """Each game's outcome for the network's seat (1 won, 0 not) and the share of its decisions
    where it left the heuristic's choice."""
    env = Phase10VectorEnv(games, num_players=PLAYERS, opponents="heuristic", features=FEATURES, learner_seat="random",
                           max_steps=20_000)
    obs, _ = env.reset(seed=seed)
    result = np.full(games, np.nan)
    changed = decided = 0
    while np.isnan(result).any():
        heuristic = env.heuristic_actions()
        actions = np.where(heuristic < 0, 0, heuristic)
        dmask = decision_masks(heuristic, env.action_masks()) & np.isnan(result)[:, None]
        if not draws:
            dmask[:, :DRAWS] = False
        deciding = np.flatnonzero(dmask.any(1))
        if net is not None and len(deciding):
            g = gains(net, obs[deciding], dmask[deciding], heuristic[deciding])
            best = g.argmax(1)
            better = g[np.arange(len(deciding)), best] > margin
            actions[deciding[better]] = ACTIONS[best[better]]
            changed, decided = changed + int(better.sum()), decided + len(deciding)
        obs, rewards, terminated, truncated, _ = env.step(actions)
        done = np.flatnonzero((terminated | truncated) & np.isnan(result))
        result[done] = np.where(truncated[done], 0.0, rewards[done] > 0)
    return result, changed / max(decided, 1)


if __name__ == "__main__":
    path, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    net = None if path == "none" else QNet.load(path)
    draws = sys.argv[5:6] != ["nodraws"]
    heuristic_games, _ = evaluate(None, games, seed, 0.0)
    for margin in (float(m) for m in sys.argv[4].split(",")):
        result, changed = (heuristic_games, 0.0) if net is None else evaluate(net, games, seed, margin, draws)
        wins = int(result.sum())
        lo, hi = wilson_interval(wins, games)
        diff = result - heuristic_games
        half = 1.96 * diff.std(ddof=1) / np.sqrt(games)
        print(f"{path} margin {margin} {'draws and discards' if draws else 'discards only'}: {wins} of {games}, "
              f"{wins / games:.3f} [{lo:.3f}, {hi:.3f}]; left the heuristic's choice in {changed:.3f} of its decisions; "
              f"the heuristic in its seat {int(heuristic_games.sum())}; game by game {diff.mean():+.3f} "
              f"[{diff.mean() - half:+.3f}, {diff.mean() + half:+.3f}] ({int((diff > 0).sum())} won only by it, "
              f"{int((diff < 0).sum())} only by the heuristic)", flush=True)
