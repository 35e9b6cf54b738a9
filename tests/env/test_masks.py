"""Masks are exact: every unmasked action is a legal move of the rules engine, and every legal
move of the engine is reachable through unmasked actions (up to the documented equivalences:
which colour of a number a hit plays, which copies a lay-down uses)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10_env import raw_env
from phase10_env.actions import MELD_IDS, NUM_ACTIONS
from phase10_env.codec import decode, encode, legal_mask
from phase10_env.engine import LayDown, Meld, build_game
from tests.env.play import VARIANTS, random_steps

STATES_CHECKED = {"count": 0}


def engine_actions(game) -> set[int]:
    """Action ids that start each legal engine move (both melds of a two-group lay-down)."""
    ids: set[int] = set()
    for move in game.legal_moves():
        if isinstance(move, LayDown):
            ids.update(MELD_IDS[m] for m in move.melds)
        else:
            ids.add(encode(move, game.current, game.num_players))
    return ids


def check_exact(env: raw_env) -> None:
    game, pending = env.game, env.pending_meld
    unmasked = set(np.flatnonzero(env.action_mask()).tolist())
    laydowns = [m.melds for m in game.legal_moves() if isinstance(m, LayDown)]
    if pending is None:
        assert unmasked == engine_actions(game)
    else:
        partners = {MELD_IDS[other] for melds in laydowns if pending in melds
                    for other in melds if other != pending or melds.count(pending) == 2}
        assert unmasked == partners and unmasked
    for a in unmasked:
        move = decode(game, a, pending)
        if isinstance(move, Meld):
            assert any(move in melds for melds in laydowns)
        else:
            assert game.is_legal(move), f"action {a} decodes to illegal {move}"
    for melds in laydowns:
        if len(melds) == 2:
            first, second = melds
            assert legal_mask(game, first)[MELD_IDS[second]] and legal_mask(game, second)[MELD_IDS[first]]
    STATES_CHECKED["count"] += 1


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), variant=st.sampled_from(VARIANTS),
       eager=st.booleans())
def test_masks_are_exact_over_random_play(seed: int, players: int, variant: str, eager: bool) -> None:
    env = raw_env(num_players=players, rules=variant)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in random_steps(env, rng, 1500, eager=eager, on_state=check_exact):
        pass


def test_unmasked_count_is_reported() -> None:
    # Runs after the property test in file order; keeps the figure visible with -s.
    print(f"\nmask exactness checked in {STATES_CHECKED['count']} states")


def test_two_group_lay_down_finishes_in_the_same_turn() -> None:
    game = build_game(["R7 B7 G7 Y3 B3 W R1 R2 R4 R5 B9", "R3 B3 G3 Y3 R11 B11 G11 W W S"], discard="G12")
    env = raw_env(num_players=2)
    env.reset(options={"state": game.to_json()})
    env.step(MELD_IDS[Meld(0, 7, 3)])
    mask = env.action_mask()
    assert set(np.flatnonzero(mask)) == {MELD_IDS[Meld(0, 3, 3)]}, "only the completing set of 3s may follow"
    env.step(MELD_IDS[Meld(0, 3, 3)])
    assert env.game.laid[0] and env.pending_meld is None


def test_mask_lists_skip_targets_by_seat_offset() -> None:
    game = build_game(["S R1 R2", "R3 R4", "R5 R6"], discard="G12", skip_pending=[2], skipped_this_hand=[2])
    env = raw_env(num_players=3)
    env.reset(options={"state": game.to_json()})
    legal = set(np.flatnonzero(env.action_mask()).tolist())
    from phase10_env.actions import SKIP_NO_EFFECT, skip_id
    assert skip_id(1) in legal and skip_id(2) not in legal and SKIP_NO_EFFECT not in legal


@pytest.mark.parametrize("players", [2, 6])
def test_action_table_covers_every_seat_offset(players: int) -> None:
    env = raw_env(num_players=players)
    env.reset(seed=1)
    assert env.action_space(env.agent_selection).n == NUM_ACTIONS
