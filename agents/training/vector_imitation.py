"""Imitation data from batched heuristic games in the native core, the masked PPO backend's warm
start (the SB3 backend's :mod:`.imitation` records the same in Python games, one at a time).

:func:`collect` plays ``games`` whole games in a self-play :class:`~phase10_env.vector.Phase10VectorEnv`
(every seat's decision comes back) and records, at every decision, the observation, the mask,
the heuristic's choice (:meth:`~phase10_env.vector.Phase10VectorEnv.heuristic_actions`) and the
discounted reward the deciding seat went on to receive. The heuristic plays every seat, or, with
a ``player`` (a batched policy, for DAgger), all but one seat per game (the seat rotates from
game to game) while the teacher still labels every position. The result is the
:class:`~.imitation.Demonstrations` that :func:`~.imitation.pretrain` fits.
"""

from __future__ import annotations

import numpy as np

from phase10_env.vector import BatchPolicy, Phase10VectorEnv

from .config import EnvSettings
from .imitation import Demonstrations

BATCH = 128  # games played at once


def collect(env: EnvSettings, games: int, seed: int, gamma: float, player: BatchPolicy | None = None) -> Demonstrations:
    """The heuristic's choice at every decision of ``games`` games (see the module docstring)."""
    n = min(BATCH, games)
    vec = Phase10VectorEnv(n, num_players=env.num_players, mode="selfplay", rules=env.rules, rewards=env.rewards,
                           episode="game", features=env.features, max_steps=env.max_steps or None,
                           autoreset_mode="SameStep", backend="native")
    obs, infos = vec.reset(seed=seed)
    masks, seats = infos["action_mask"], infos["seat"]
    started = n  # games begun so far; a row's game number decides its player's seat
    game_of = np.arange(n)
    live = np.ones(n, dtype=bool)  # rows whose game is one of the ``games`` asked for
    steps: list[tuple[np.ndarray, ...]] = []
    finished = 0
    while finished < games:
        labels = vec.heuristic_actions()
        actions = labels.copy()
        if player is not None:
            mine = np.flatnonzero(seats == game_of % env.num_players)
            if len(mine):
                actions[mine] = player(obs[mine], masks[mine])
        rows = np.flatnonzero(live)
        obs_next, rewards, terminated, truncated, infos = vec.step(actions)
        done = terminated | truncated
        steps.append((obs[rows], masks[rows], labels[rows], seats[rows], rewards[rows], game_of[rows]))
        for r in np.flatnonzero(done & live):
            finished += 1
            if started < games:
                game_of[r], started = started, started + 1
            else:
                live[r] = False
        obs, masks, seats = obs_next, infos["action_mask"], infos["seat"]
    return _demonstrations(steps, env.num_players, gamma)


def _demonstrations(steps: list[tuple[np.ndarray, ...]], num_players: int, gamma: float) -> Demonstrations:
    """The recorded decisions with each one's return: what its seat received from that decision
    until its next one, plus ``gamma`` times the next one's return (computed backward)."""
    games = 1 + max(int(s[5].max()) for s in steps if len(s[5]))
    acc = np.zeros((games, num_players))  # rewards received since the seat's next decision (going backward)
    later = np.zeros((games, num_players))  # the return of the seat's next decision
    returns = []
    for _, _, _, seats, rewards, game in reversed(steps):
        acc[game] += rewards
        g = acc[game, seats] + gamma * later[game, seats]
        later[game, seats], acc[game, seats] = g, 0.0
        returns.append(g)
    returns.reverse()
    return Demonstrations(np.concatenate([s[0] for s in steps]).astype(np.float32),
                          np.concatenate([s[1] for s in steps]).astype(bool),
                          np.concatenate([s[2] for s in steps]).astype(np.int64),
                          np.concatenate(returns).astype(np.float32))
