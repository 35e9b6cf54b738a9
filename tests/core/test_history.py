"""What the other seats' moves this hand say of their hands (the core's ``history``): a dealt
world is unwound to the hand's start and replayed move by move, and each seat's hand weighed by
the moves the heuristic would not have made from it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from phase10_env import core
from phase10_env.core.convert import LOG_WIDTH, hand_log_rows, load_game
from phase10_env.engine import Discard, Game, Move, SeatView
from phase10_env.engine.cards import SKIP
from phase10_env.engine.state import DRAW_STAGE
from phase10_env.heuristic import HeuristicAgent

REPLAYS = 256
HEURISTIC = HeuristicAgent()

Chooser = Callable[[Game, np.random.Generator], Move]


def heuristic(game: Game, rng: np.random.Generator) -> Move:  # noqa: ARG001
    return HEURISTIC.choose_move(game.view(game.current))


def at_random(game: Game, rng: np.random.Generator) -> Move:
    moves = game.legal_moves()
    return moves[int(rng.integers(len(moves)))]


def position(seed: int, players: int = 4, seats: dict[int, Chooser] | None = None) -> tuple[Game, SeatView] | None:
    """A game of ``seed`` played on to a draw some way into a hand (the heuristic in every seat
    but those of ``seats``), with the view of the seat to draw; None if the hand had no move yet."""
    rng = np.random.default_rng(seed)
    game = Game(num_players=players, seed=seed)
    for _ in range(int(rng.integers(8, 90))):
        if game.is_over:
            return None
        game.apply((seats or {}).get(game.current, heuristic)(game, rng))
    while not game.is_over and game.stage != DRAW_STAGE:
        game.apply(heuristic(game, rng))
    if game.is_over or not game.hand_log:
        return None
    return game, game.view(game.current)


def weighed(game: Game, view: SeatView, slip: float, seed: int = 1) -> tuple[int, np.ndarray, np.ndarray]:
    """The core's replays from ``view``: how many, every hand of each replay, each seat's moves
    unlike the heuristic's."""
    slot = np.zeros((1, core.SLOT_BYTES), dtype=np.uint8)
    load_game(slot, 0, Game.from_view(view, np.random.default_rng(seed)))
    hands = np.zeros((REPLAYS, 6, 50), np.uint8)
    unlike = np.zeros((REPLAYS, 6), np.int16)
    count = core.native().history(slot, 0, seed, hand_log_rows(view.hand_log), REPLAYS, slip, hands, unlike)
    return count, hands[:count], unlike[:count]


def positions(count: int, players: int = 4, seats: dict[int, Chooser] | None = None) -> list[tuple[Game, SeatView]]:
    found = []
    for seed in range(1, 1000):
        got = position(seed, players, seats)
        if got is not None:
            found.append(got)
        if len(found) == count:
            return found
    raise AssertionError("too few positions")


def test_the_core_reads_a_logged_move_in_as_many_numbers_as_the_log_gives() -> None:
    assert core.native().LOG_WIDTH == LOG_WIDTH


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_replayed_world_keeps_what_the_seat_sees_and_deals_each_other_seat_its_hand_size(players: int) -> None:
    for game, view in positions(6, players):
        count, hands, _ = weighed(game, view, 0.03)
        me = view.seat
        assert count == REPLAYS  # no reshuffle in these hands: every replay fitted the log
        assert (hands[:, me] == np.frombuffer(bytes(game.hands[me]), np.uint8)).all()
        for p in range(players):
            if p != me:
                assert (hands[:, p].sum(axis=1) == game.hand_sizes[p]).all()
                assert (hands[:, p] >= np.frombuffer(bytes(game.taken_from_discard[p]), np.uint8)).all()


def test_the_weighed_hands_hold_more_of_the_cards_heuristic_seats_really_hold() -> None:
    """Weighed by their moves, the dealt hands share more cards with the true hands than the
    same replays unweighed do (the information is real, not a reshuffled prior)."""
    unweighed: list[float] = []
    weighed_by_moves: list[float] = []
    for game, view in positions(24):
        _, hands, unlike = weighed(game, view, 0.03)
        for p in range(game.num_players):
            if p == view.seat:
                continue
            taken = np.frombuffer(bytes(game.taken_from_discard[p]), np.uint8).astype(np.int64)
            true = np.frombuffer(bytes(game.hands[p]), np.uint8).astype(np.int64) - taken
            shared = np.minimum(hands[:, p].astype(np.int64) - taken, true).sum(axis=1)
            weights = 0.03 ** unlike[:, p].astype(np.float64)
            unweighed.append(shared.mean())
            weighed_by_moves.append((weights * shared).sum() / weights.sum())
    assert np.mean(weighed_by_moves) > np.mean(unweighed) * 1.2, (np.mean(weighed_by_moves), np.mean(unweighed))


def test_a_seat_playing_at_random_makes_far_more_moves_unlike_the_heuristic_than_heuristic_seats() -> None:
    random_unlike: list[float] = []
    heuristic_unlike: list[float] = []
    for game, view in positions(12, seats={1: at_random}):
        if view.seat == 1:
            continue
        _, _, unlike = weighed(game, view, 0.5)
        moves = {s: sum(1 for seen in view.hand_log if seen.seat == s) for s in range(4)}
        for p in range(4):
            if p != view.seat and moves[p]:
                (random_unlike if p == 1 else heuristic_unlike).append(unlike[:, p].min() / moves[p])
    assert random_unlike and heuristic_unlike
    assert np.mean(random_unlike) > 2 * np.mean(heuristic_unlike) + 0.1, (np.mean(random_unlike), np.mean(heuristic_unlike))


def test_a_hand_whose_pile_was_reshuffled_is_not_weighed() -> None:
    rng = np.random.default_rng(3)
    game = Game(num_players=2, seed=3)
    while True:  # random play until the pile is reshuffled from the discards: it grows within a hand
        hand, pile = game.hand_number, len(game.draw_pile)
        game.apply(at_random(game, rng))
        assert not game.is_over
        if game.hand_number == hand and len(game.draw_pile) > pile:
            break
    assert game.stage == DRAW_STAGE and weighed(game, game.view(game.current), 0.03)[0] == 0


def test_a_log_that_does_not_fit_the_game_is_refused_by_name() -> None:
    game, view = positions(1)[0]
    slot = np.zeros((1, core.SLOT_BYTES), dtype=np.uint8)
    load_game(slot, 0, Game.from_view(view, np.random.default_rng(1)))
    hands, unlike = np.zeros((8, 6, 50), np.uint8), np.zeros((8, 6), np.int16)
    rows = hand_log_rows(view.hand_log)
    bad = rows.copy()
    bad[0, 0] = 7  # no seat 7 at a 4-seat table
    with pytest.raises(ValueError, match="log row 0 is not a move of a 4-player game"):
        core.native().history(slot, 0, 1, bad, 8, 0.5, hands, unlike)
    last = view.hand_log[-1]  # at a draw: the seat before threw a card
    assert type(last.move) is Discard
    other = hand_log_rows(view.hand_log[:-1] + (last._replace(move=Discard(0 if last.move.card == SKIP else SKIP)),))
    with pytest.raises(ValueError, match="does not fit the game"):
        core.native().history(slot, 0, 1, other, 8, 0.5, hands, unlike)
    draws = np.zeros((200, LOG_WIDTH), np.int16)  # one seat drawing from the pile 200 times in a hand
    draws[:, 0], draws[:, 1], draws[:, 4] = view.seat, 5, -1
    no_top = draws[:1].copy()
    no_top[0, 1] = -1  # a hand that began with no card on the discard pile
    for rows in (draws, no_top):
        with pytest.raises(ValueError, match="does not fit the game"):
            core.native().history(slot, 0, 1, rows, 8, 0.5, hands, unlike)
    with pytest.raises(ValueError, match="replays must be 1 to 4096"):
        core.native().history(slot, 0, 1, rows, 0, 0.5, hands, unlike)
