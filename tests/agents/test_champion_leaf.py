"""The champion's leaf values in game terms: the table's sums add up over heuristic games (what
one of two players gains, the other loses), a search whose horizon lies past every hand's end
is the plain search, and a file that is not a leaf table is refused without unpickling."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from agents.policies.champion import LEAF, LeafTable
from agents.training.leaf import record
from phase10_env import raw_env

pytestmark = pytest.mark.compiled("native core")


def test_in_two_player_hands_what_one_seat_gains_the_other_loses() -> None:
    sums = record(2, games=20, seed=3, batch_games=7)
    turns = int(sums["count"].sum())
    assert turns > 20 * 2 * 50  # every turn's start, once for each seat
    assert abs(sums["made"].sum()) < 1e-9 and abs(sums["points"].sum()) < 1e-9
    assert sums["made"].max() > 0 > sums["made"].min()


def test_a_seat_that_is_down_with_one_card_is_worth_more_than_one_missing_six() -> None:
    values = LeafTable(LEAF).values(points_weight=0.25).reshape(5, 67, 67, 2, 2)
    one_card_left, six_missing = 1, 11 + (6 * 4 + 3) * 2 + 1  # leaf.c's seat codes (12 outs, one near)
    assert values[0, one_card_left, six_missing].min() > 0.5 > -0.5 > values[0, six_missing, one_card_left].max()


def play(spec: str, seed: int) -> list[int]:
    """The actions of a short two-player game, the champion ``spec`` against the heuristic."""
    env = raw_env(num_players=2, rules={"phases": [1, 2]})
    env.reset(seed=seed)
    agents = dict(zip(env.possible_agents, (make_agent(spec, seed=seed), make_agent("heuristic")), strict=True))
    actions = []
    while not all(env.terminations.values()):
        obs = env.player_observation()
        actions.append(agents[obs.agent].act(obs))
        env.step(actions[-1])
    return actions


def test_a_horizon_past_every_hands_end_is_the_plain_search() -> None:
    plain = play("champion:samples=16,min_samples=4,confidence=0", seed=8)
    assert play("champion:samples=16,min_samples=4,confidence=0,horizon=100", seed=8) == plain
    assert play("champion:samples=16,min_samples=4,confidence=0,horizon=2", seed=8) != plain


def test_a_file_that_is_not_a_leaf_table_is_refused_without_unpickling(tmp_path: Path) -> None:
    short = tmp_path / "short.npz"
    np.savez(short, count=np.zeros(3, np.int64), made=np.zeros(3), points=np.zeros(3))
    with pytest.raises(ValueError, match="is not a leaf table"):
        LeafTable(short)
    lacking = tmp_path / "lacking.npz"
    np.savez(lacking, count=np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="lacks"):
        LeafTable(lacking)
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, count=np.array([object()], dtype=object), made=np.zeros(1), points=np.zeros(1))
    with pytest.raises(ValueError, match="pickle"):
        LeafTable(pickled)
