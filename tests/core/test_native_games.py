"""Tournament games of built-in agents played in the core are the Python tournament's games,
outcome for outcome; and search play-outs in the core end the hand as the engine does."""

import numpy as np
import pytest

from agents.evaluation.native_games import play_games
from agents.evaluation.tournament import MatchSetup, play_game, run_tournament
from phase10_env.core import SLOT, SLOT_BYTES, native
from phase10_env.core.convert import load_game, state_json
from phase10_env.engine import Discard, Draw, Game
from phase10_env.engine.cards import DECK_COUNTS
from phase10_env.engine.config import RulesConfig
from phase10_env.heuristic import HeuristicAgent


@pytest.mark.parametrize(("agents", "rules"), [
    (("heuristic", "random"), {}),
    (("random", "random", "heuristic"), {}),  # the two random entries are one agent object, one generator
    (("heuristic",) * 4, {"phases": [1, 2, 3]}),
    (("heuristic", "random"), {"skip_rule": "once_per_hand", "advance_all": True}),
    (("heuristic",) * 5, {"natural_rule": "per_group", "phases": "even"}),
])
def test_native_tournament_games_are_the_python_ones(agents, rules):
    setup = MatchSetup(agents, len(agents), RulesConfig.from_dict(rules).to_dict(), 5, 200_000)
    assert play_games(setup, range(10)) == [play_game(setup, i) for i in range(10)]


def test_run_tournament_plays_built_in_agents_natively_with_the_same_results():
    fast = run_tournament(["heuristic", "random"], 2, games=8, seed=3, progress=False)
    slow = run_tournament(["heuristic", "random"], 2, games=8, seed=3, progress=False, native=False, workers=1)
    assert fast.outcomes == slow.outcomes and fast.workers == 1
    with pytest.raises(ValueError, match="native core plays only"):
        run_tournament(["mcts", "random"], 2, games=1, native=True, progress=False)


def test_a_loaded_game_plays_out_its_hand_as_the_engine_does():
    heuristic, core = HeuristicAgent(), native()
    for seed in range(12):
        game = Game(2 + seed % 5, seed=seed)
        for _ in range(int(np.random.default_rng(seed).integers(0, 500))):
            if game.is_over:
                break
            game.apply(heuristic.choose_move(game.view(game.current)))
        if game.is_over:
            continue
        slots = np.zeros((1, SLOT_BYTES), np.uint8)
        load_game(slots, 0, game)
        expected = game.to_json()
        expected.pop("history")
        assert state_json(slots.view(SLOT)[0, 0]["g"], game.rules) == expected
        hand = game.hand_number
        while game.hand_number == hand and not game.is_over:
            game.apply(heuristic.choose_move(game.view(game.current)))
        core.playout(slots, np.zeros(1, np.int64), True, False, np.zeros(1, np.uint64))
        expected = game.to_json()
        expected.pop("history")
        assert state_json(slots.view(SLOT)[0, 0]["g"], game.rules) == expected


def test_determinize_deals_only_what_the_seat_cannot_see():
    core, heuristic = native(), HeuristicAgent()
    game = Game(3, seed=4)
    for _ in range(40):
        game.apply(heuristic.choose_move(game.view(game.current)))
    slots = np.zeros((200, SLOT_BYTES), np.uint8)
    for r in range(200):
        load_game(slots, r, game)
    core.determinize(slots, np.arange(200, dtype=np.int64), np.zeros(200, np.int64), np.arange(200, dtype=np.uint64))
    g = slots.view(SLOT)[:, 0]["g"]
    seen = game.view(0)
    hands = [bytes(h) for h in game.hands]
    assert all(bytes(row["hands"][0]) == hands[0] for row in g)  # its own hand is kept
    assert all(row["hand_size"][s] == game.hand_sizes[s] for row in g for s in range(3))
    in_sight = np.array(DECK_COUNTS) - np.frombuffer(bytes(game.discard_counts), np.uint8) - np.frombuffer(
        bytes(game.table_counts), np.uint8)
    for row in g:  # cards seen taken from the pile stay where they are; hands and pile hold the rest of the deck
        for s in (1, 2):
            assert (row["hands"][s] >= np.frombuffer(bytes(game.taken_from_discard[s]), np.uint8)).all()
        total = row["hands"][:3].sum(0) + np.bincount(row["draw"][:row["num_draw"]], minlength=50)
        assert np.array_equal(total, in_sight) and row["num_draw"] == len(game.draw_pile) == seen.draw_pile_size
    assert len({bytes(row["hands"][1]) for row in g}) > 100  # the other hands really are dealt again


def test_hand_values_are_the_search_agents_values():
    from agents.policies.mcts import SearchAgent

    agent, core, heuristic = SearchAgent(), native(), HeuristicAgent()
    for seed in range(8):
        game = Game(2 + seed % 4, seed=seed, start_phases=[9] * (2 + seed % 4) if seed % 3 == 0 else None)
        for _ in range(5):
            game.apply(heuristic.choose_move(game.view(game.current)))
        slots = np.zeros((30, SLOT_BYTES), np.uint8)
        for r in range(30):
            load_game(slots, r, game)
        rows = np.arange(30, dtype=np.int64)
        core.determinize(slots, rows, np.full(30, game.current, np.int64), np.arange(30, dtype=np.uint64))
        core.playout(slots, rows, True, False, np.zeros(30, np.uint64))
        values = np.empty(30)
        core.hand_values(slots, rows, game.current, np.array(game.phases_completed, np.int64),
                         np.array(game.scores, np.int64), 0.25, values)
        n = game.num_players
        for r, g in enumerate(slots.view(SLOT)[:, 0]["g"]):
            expected = agent.value(game.current, int(g["stage"]) == 2, [s for s in range(n) if int(g["winners"]) >> s & 1],
                                   g["active"][:n].tolist(), game.phases_completed, g["completed"][:n].tolist(),
                                   game.scores, g["scores"][:n].tolist())
            assert values[r] == expected


class _NeverLaysDown(HeuristicAgent):
    """Draws and discards only, so its hands never end: a hand that loops for ever."""

    def choose_move(self, view):
        return next(m for m in view.legal_moves if isinstance(m, (Draw, Discard)))


def test_a_play_out_whose_hand_never_ends_stops_after_the_limit():
    from agents.policies.mcts import PLAYOUT_HAND_ACTIONS, SearchAgent

    core = native()
    assert core.PLAYOUT_HAND_ACTIONS == PLAYOUT_HAND_ACTIONS
    agent = SearchAgent()
    agent.heuristic = _NeverLaysDown()
    game = Game(2, seed=1)
    move = next(m for m in game.legal_moves() if isinstance(m, Draw))
    assert agent.play_out(game, move, 0) == 0.0  # nobody gained: the hand stopped where it stood
    assert game.hand_number == 1 and len(game.hand_log) == 1 + PLAYOUT_HAND_ACTIONS
