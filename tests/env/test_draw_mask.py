"""The draw-stage mask says what the engine says: the discard pile's top card may be taken
exactly when ``Game.can_draw_discard`` (R5: never a Skip), the draw pile when it holds cards
(R7), and nothing else is unmasked; over random play and over every top card."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from phase10_env.actions import DRAW_DECK, DRAW_DISCARD
from phase10_env.engine import Game, Stage, build_game
from phase10_env.engine.cards import DECK_COUNTS, NUM_KINDS, card_name
from phase10_env.masks import legal_mask
from tests.env.play import VARIANTS


def check_draw_mask(game: Game) -> None:
    mask = legal_mask(game)
    assert mask[DRAW_DISCARD] == game.can_draw_discard(), f"discard pile top {game.discard_top()}"
    assert mask[DRAW_DECK] == bool(game.draw_pile)
    assert mask.sum() == mask[DRAW_DECK] + mask[DRAW_DISCARD], "only draws at the draw stage"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), variant=st.sampled_from(VARIANTS))
def test_draw_mask_follows_can_draw_discard_over_random_play(seed: int, players: int, variant: str) -> None:
    game = Game(players, variant, seed=seed)
    rng = np.random.default_rng(seed)
    draws = 0
    while not game.is_over and draws < 300:
        if game.stage == Stage.DRAW:
            check_draw_mask(game)
            draws += 1
        moves = game.legal_moves()
        game.apply(moves[rng.integers(len(moves))])
    assert draws > 10


@settings(max_examples=60, deadline=None)
@given(discard=st.lists(st.integers(0, NUM_KINDS - 1), max_size=3), seed=st.integers(0, 1000),
       empty_draw_pile=st.booleans())
def test_draw_mask_follows_can_draw_discard_on_any_discard_pile(discard: list[int], seed: int,
                                                                empty_draw_pile: bool) -> None:
    """Every top card (a Skip too), an empty discard pile, and an empty draw pile."""
    names = " ".join(card_name(k) for k in discard)
    hands = ["R1 R2", "B1 B2"]
    if empty_draw_pile:  # every card not in the discard pile goes to a hand
        rest = [card_name(k) for k, c in enumerate(_left_after(discard)) for _ in range(c)]
        hands = [" ".join(rest[::2]), " ".join(rest[1::2])]
    try:
        game = build_game(hands, discard=names, stage="draw", seed=seed)
    except ValueError:  # more copies than the deck has, or no card left to draw (R7)
        game = None
    assume(game is not None)
    check_draw_mask(game)


def _left_after(discard: list[int]) -> list[int]:
    left = list(DECK_COUNTS)
    for k in discard:
        left[k] -= 1
    return left
