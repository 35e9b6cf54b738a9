"""Masks are exact: every unmasked action leads to a legal move of the rules engine, and every
legal move of the engine, each choice of cards included, is reachable through unmasked actions
(R10-R14: the player chooses every card that leaves its hand)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10_env import raw_env
from phase10_env.actions import CHOOSE_FIRST, DISCARD_FIRST, MELD_IDS, hit_id
from phase10_env.codec import decode
from phase10_env.engine import Game, LayDown, Meld, Move, build_game, card
from phase10_env.engine.partial import PartialHit, PartialLayDown, PartialMove
from phase10_env.masks import legal_mask
from tests.env.play import VARIANTS, random_steps


def same_move(move: Move) -> object:
    """A move up to the order in which a lay-down names its groups (group 0 or 1 on the table)."""
    if isinstance(move, LayDown):
        return ("lay", tuple(sorted((m, tuple(sorted(c))) for m, c in zip(move.melds, move.cards))))
    return move


def reachable_moves(game: Game, pending: PartialMove | None = None) -> list[Move]:
    """Every engine move some sequence of unmasked actions plays from here (each state of a move
    in progress visited once)."""
    moves: list[Move] = []
    seen: set[PartialMove] = set()

    def walk(state: PartialMove | None) -> None:
        mask = legal_mask(game, state)
        assert mask.any(), f"no legal action while {state} is in progress"
        for a in np.flatnonzero(mask):
            result = decode(game, int(a), state)
            if isinstance(result, (PartialLayDown, PartialHit)):
                if result not in seen:
                    seen.add(result)
                    walk(result)
            else:
                moves.append(result)

    walk(pending)
    return moves


def check_exact(env: raw_env) -> bool:
    """Compare what the masks reach with the engine's legal moves; False where not checked."""
    game = env.game
    if env.pending is not None:  # checked from the state where the move began
        return False
    reached = reachable_moves(game)
    for move in reached:
        assert game.is_legal(move), f"unmasked actions lead to the illegal move {move}"
    legal = {same_move(m) for m in game.legal_moves()}
    assert {same_move(m) for m in reached} == legal
    return True


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), variant=st.sampled_from(VARIANTS),
       eager=st.booleans())
def test_masks_are_exact_over_random_play(seed: int, players: int, variant: str, eager: bool) -> None:
    env = raw_env(num_players=players, rules=variant)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    checked = []
    for _ in random_steps(env, rng, 1500, eager=eager, on_state=lambda e: checked.append(check_exact(e))):
        pass
    assert sum(checked) > 100, "the states checked should be most of the game's"


def test_two_group_lay_down_finishes_in_the_same_turn() -> None:
    game = build_game(["R7 B7 G7 Y3 B3 W R1 R2 R4 R5 B9", "R3 B3 G3 Y3 R11 B11 G11 W W S"], discard="G12")
    env = raw_env(num_players=2)
    env.reset(options={"state": game.to_json()})
    env.step(MELD_IDS[Meld(0, 7, 3)])
    mask = env.action_mask()
    assert set(np.flatnonzero(mask)) == {MELD_IDS[Meld(0, 3, 3)]}, "only the completing set of 3s may follow"
    env.step(MELD_IDS[Meld(0, 3, 3)])
    assert env.game.laid[0] and env.pending is None  # Y3 B3 W: no other cards could make the 3s


def test_a_card_choice_appears_where_the_cards_left_in_hand_differ() -> None:
    game = build_game(["R7 B7 G7 Y7 R3 B3 G3 R1 R2 R4 R5", "R6 B6 G6 Y6 R11 B11 G11 W W S"], discard="G12")
    env = raw_env(num_players=2)
    env.reset(options={"state": game.to_json()})
    env.step(MELD_IDS[Meld(0, 7, 3)])
    assert env.pending == PartialLayDown(meld=Meld(0, 7, 3))
    sevens = {CHOOSE_FIRST + card(7, c) for c in range(4)}
    assert set(np.flatnonzero(env.action_mask())) == sevens  # keep any one of the four 7s
    env.step(CHOOSE_FIRST + card(7, 3))
    env.step(CHOOSE_FIRST + card(7, 2))
    assert env.pending == PartialLayDown(meld=Meld(0, 7, 3), settled=(card(7, 2), card(7, 3)))
    env.step(CHOOSE_FIRST + card(7, 1))  # R7 stays in hand
    assert env.pending == PartialLayDown(groups=((Meld(0, 7, 3), (card(7, 1), card(7, 2), card(7, 3))),))
    env.step(MELD_IDS[Meld(0, 3, 3)])  # R3 B3 G3: nothing to choose
    assert env.game.laid[0] and env.game.hands[0][card(7, 0)] == 1


def test_the_issue_position_lets_the_player_keep_the_red_four_and_go_out() -> None:
    """Seat 0 on phase 2 holds R4 B4 R5 R6 R7 G9 B9 Y9 Y12 after its draw; seat 1 has laid a red
    colour group. It lays G9 B9 Y9 and the run B4 R5 R6 R7, hits R4 on the red group, discards
    Y12 and goes out (R10, R12-R14, R16)."""
    game = build_game(["R4 B4 R5 R6 R7 G9 B9 Y9 Y12", "B1 B2 B3 B5 B6 B7 B8 B10 B11 B12"], discard="G12",
                      phases_completed=[1, 7], table={1: [("colour", 0, "R1 R2 R3 R8 R10 R11 R12")]})
    env = raw_env(num_players=2)
    env.reset(options={"state": game.to_json()})
    env.step(MELD_IDS[Meld(0, 9, 3)])
    env.step(MELD_IDS[Meld(1, 4, 4)])
    assert set(np.flatnonzero(env.action_mask())) == {CHOOSE_FIRST + card(4, 0), CHOOSE_FIRST + card(4, 1)}
    env.step(CHOOSE_FIRST + card(4, 1))  # B4 into the run, R4 stays in hand
    assert env.game.laid[0] and env.game.hands[0][card(4, 0)] == 1
    env.step(hit_id(1, 0, 3))  # R4 on seat 1's red group
    env.step(DISCARD_FIRST + card(12, 3))
    assert env.game.history[-1].went_out == 0


def test_mask_lists_skip_targets_by_seat_offset() -> None:
    game = build_game(["S R1 R2", "R3 R4", "R5 R6"], discard="G12", skip_pending=[2], skipped_this_hand=[2])
    env = raw_env(num_players=3)
    env.reset(options={"state": game.to_json()})
    legal = set(np.flatnonzero(env.action_mask()).tolist())
    from phase10_env.actions import SKIP_NO_EFFECT, skip_id
    assert skip_id(1) in legal and skip_id(2) not in legal and SKIP_NO_EFFECT not in legal


