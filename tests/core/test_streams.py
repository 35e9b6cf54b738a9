"""Deck streams: the core's play-outs by streams are the Python reference's, card for card; a
seat keeps its cards when another seat takes a discard instead of drawing; and which card a draw
takes never depends on the cards; and they cut the noise of a search candidate's gain, not the gain."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.evaluation.gain_noise import gain_noise
from agents.evaluation.gain_noise import main as gain_main
from agents.policies.mcts import SearchAgent, SearchConfig
from agents.policies.streams import DeckStreams
from phase10_env.codec import encode
from phase10_env.core import SLOT, SLOT_BYTES, native
from phase10_env.core.convert import load_game, state_json
from phase10_env.engine import Discard, Draw, Game
from phase10_env.heuristic import HeuristicAgent

HEURISTIC = HeuristicAgent()


def _position(seed: int, players: int, moves: int) -> Game:
    game = Game(players, seed=seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(HEURISTIC.choose_move(game.view(game.current)))
    return game


def test_a_play_out_by_streams_in_the_core_is_the_references_card_for_card() -> None:
    core, reference = native(), SearchAgent(SearchConfig(streams=True, backend="python"))
    compared = reshuffled = 0
    for seed in range(24):
        players = 2 + seed % 5
        game = _position(seed, players, 7 + 13 * (seed % 7))  # draws and discards, early and late in a hand
        if game.is_over:
            continue
        moves = [m for m in game.legal_moves() if type(m) in (Draw, Discard)][:4]
        for move in moves:
            ours = game.copy()
            reference.play_out(ours, move, game.current)
            slots = np.zeros((1, SLOT_BYTES), np.uint8)
            load_game(slots, 0, game)
            core.playout_streams(slots, np.zeros(1, np.int64),
                                 np.array([encode(move, game.current, players)], np.int64))
            expected, got = ours.to_json(), state_json(slots.view(SLOT)[0, 0]["g"], game.rules)
            expected.pop("history")
            assert {k: v for k, v in expected.items() if v != got.get(k)} == {}, (seed, move)
            compared += 1
            reshuffled += len(ours.draw_pile) > len(game.draw_pile)
    assert compared > 60 and reshuffled  # both the plain pile and a reshuffled one were drawn


def test_a_seat_draws_the_same_card_whether_or_not_the_seat_before_took_the_discard() -> None:
    same = differ = 0
    for seed in range(40):
        game = _position(seed, 3, 0)
        if not game.can_draw_discard():
            continue
        first = game.current
        drawn = {}  # (streams, the first seat took the discard): the card the next seat drew
        for streams in (True, False):
            for from_discard in (False, True):
                world = game.copy()
                deck = DeckStreams(world)
                if streams and not from_discard:
                    deck.draw(world)
                world.unsafe_apply(Draw(from_discard))
                while world.current == first:  # the first seat's turn to its discard
                    world.unsafe_apply(HEURISTIC.choose_move(world.view(first)))
                if streams:
                    deck.draw(world)
                drawn[streams, from_discard] = world.draw_pile[-1]
        same += drawn[True, False] == drawn[True, True]
        differ += drawn[False, False] != drawn[False, True]
    assert same >= 30 and differ >= 0.8 * same  # by streams the same card; from one shared pile mostly another


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.integers(0, 3), min_size=1, max_size=70))
def test_which_card_a_draw_takes_depends_only_on_who_draws(seed: int, drawers: list[int]) -> None:
    game = _position(seed, 4, 0)
    size = len(game.draw_pile)
    positions = []
    for order in (list(range(size)), list(np.random.default_rng(seed).permutation(size))):  # as cards, told apart
        world = game.copy()
        world.draw_pile = order
        deck, taken = DeckStreams(world), []
        for seat in drawers[:size]:
            world.current = seat
            before = list(world.draw_pile)
            deck.draw(world)
            card = world.draw_pile.pop()
            assert sorted([*world.draw_pile, card]) == sorted(before)  # nothing lost, nothing added
            taken.append(before.index(card))
        positions.append(taken)
    assert positions[0] == positions[1]


def test_streams_cut_the_noise_of_a_candidates_gain_but_not_the_gain() -> None:
    noise = gain_noise(games=2, deals=64)
    assert len(noise.variance[True]) > 100
    assert noise.variance[True].mean() < 0.7 * noise.variance[False].mean()
    assert abs(noise.difference()) < 4 * noise.difference_error()


def test_the_gain_noise_command_prints_its_table(capsys) -> None:
    gain_main(["--games", "1", "--deals", "8", "--hands", "1"])
    assert "deck streams" in capsys.readouterr().out
