"""The champion reads each seat's public memory of a hand from the engine's hand log
(:func:`agents.policies.champion.remember_hand`); the core keeps the same memory as it plays.
Both must agree at every decision, or the belief model would read other features in play than
it was trained on."""

from __future__ import annotations

import numpy as np
import pytest

from agents.policies.champion import remember_hand
from phase10_env.core import SLOT, SLOT_BYTES
from phase10_env.core.convert import load_game
from phase10_env.engine import Draw, Game, SeenMove
from tests.core.twin import Twin

MEMORY = ("discarded", "passed", "last_discard")


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_hand_log_gives_the_cores_memory_of_discards_and_passed_cards(players: int) -> None:
    rng = np.random.default_rng(players)
    for seed in range(3):
        twin = Twin(1000 * players + seed, players)
        rebuilt = np.zeros((1, SLOT_BYTES), np.uint8)
        for step in range(400):
            if twin.over:
                break
            game = twin.env.game
            for seat in range(players):
                load_game(rebuilt, 0, game)
                remember_hand(rebuilt, 0, game.view(seat))
                for field in MEMORY:
                    ours, theirs = rebuilt.view(SLOT)[0, 0]["g"][field], twin.slot["g"][field]
                    assert np.array_equal(ours[:players], theirs[:players]), (
                        f"game {seed}, action {step}, seat {seat}'s view: {field} differs")
            action = twin.heuristic_action() if rng.random() < 0.8 else int(rng.choice(twin.legal()))
            assert twin.play(action) is None


def test_the_hand_log_starts_again_at_each_deal_and_records_what_a_draw_left() -> None:
    twin = Twin(7, 2)
    game = twin.env.game
    hand = game.hand_number
    while game.hand_number == hand:
        assert twin.play(twin.heuristic_action()) is None
    assert game.hand_log == [], "a new hand starts with an empty log"
    top, seat = game.discard_pile[-1], game.current
    assert twin.play(0) is None  # draw from the draw pile (action 0)
    assert game.hand_log == [SeenMove(seat, Draw(from_discard=False), top)]
    view = game.view(1 - seat)
    assert view.hand_log == tuple(game.hand_log)
    assert game.copy().hand_log == game.hand_log
    assert Game.from_view(view, np.random.default_rng(0)).hand_log == game.hand_log
