"""The search agent in game terms: legal whole games at 2-6 players, reproducible for a seed,
blind to what its seat cannot see, and scoring a played-out hand as the module says."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from agents.policies.mcts import SearchAgent, SearchConfig
from phase10_env import raw_env
from phase10_env.engine import Discard, Draw, Game, build_game, parse_card
from phase10_env.engine.cards import POINTS, parse_cards

FAST = "mcts:sims=2,width=2"
SHORT = {"phases": [1, 2]}  # two phases to win: whole games in seconds


def play_game(players: int, spec: str, seed: int) -> list[int]:
    """Every seat played by ``spec``; the actions of the whole game."""
    env = raw_env(num_players=players, rules=SHORT)
    env.reset(seed=seed)
    agents = {a: make_agent(spec, seed=seed + i) for i, a in enumerate(env.possible_agents)}
    actions = []
    while not all(env.terminations.values()):
        obs = env.player_observation()
        action = agents[obs.agent].act(obs)
        assert obs.action_mask[action], f"mcts played an illegal action {action}"
        actions.append(action)
        env.step(action)
    return actions


@pytest.mark.parametrize("players", [2, 3, 6])
def test_mcts_plays_whole_games_legally(players: int) -> None:
    assert len(play_game(players, FAST, seed=players)) > 20


@pytest.mark.parametrize("backend", [pytest.param("native", marks=pytest.mark.compiled("native core")), "python"])
def test_mcts_plays_out_by_deck_streams_legally(backend: str) -> None:
    assert len(play_game(3, f"{FAST},streams=true,backend={backend}", seed=4)) > 20


def test_mcts_is_the_same_player_for_the_same_seed() -> None:
    assert play_game(2, FAST, seed=5) == play_game(2, FAST, seed=5)


def test_mcts_sees_only_its_seat() -> None:
    """Two games that differ only in cards the seat cannot see get the same choice."""
    game = Game(3, seed=11)
    while not (game.stage == 1 and len(game.legal_moves()) > 3):
        game.apply(game.legal_moves()[-1])
    view = game.view(game.current)
    other = game.determinize(game.current, np.random.default_rng(1))
    assert other.to_json()["players"] != game.to_json()["players"]  # hidden cards moved
    choices = {SearchAgent(SearchConfig(sims=4), seed=3).choose_move(g.view(g.current)) for g in (game, other)}
    assert len(choices) == 1 and other.view(other.current) == view


def test_a_hand_played_out_scores_the_phase_made_and_the_points_left() -> None:
    """Seat 0 is down with one card: discarding it goes out; seat 1 never made its phase and
    keeps its ten cards."""
    opponent = "R2 R4 R6 R8 R10 B2 B4 B6 B8 B10"
    game = build_game(["Y12", opponent], table={0: [("set", 7, "R7 B7 G7"), ("set", 3, "R3 B3 G3")]})
    agent = SearchAgent(SearchConfig(points_weight=0.5))
    going_out = Discard(parse_card("Y12"))
    left = sum(POINTS[c] for c in parse_cards(opponent))
    assert agent.play_out(game.copy(), going_out, seat=0) == pytest.approx(1 + 0.5 * left / 100)
    assert agent.play_out(game.copy(), going_out, seat=1) == pytest.approx(-1 - 0.5 * left / 100)


def test_options_are_read_from_the_spec() -> None:
    agent = make_agent("mcts:sims=12,width=2,confidence=1.5,after_down=true")
    assert agent.config == SearchConfig(sims=12, width=2, confidence=1.5, after_down=True)


def test_only_the_heuristics_best_discards_and_both_draws_are_searched() -> None:
    agent = SearchAgent(SearchConfig(width=3))
    game = build_game(["R1 B3 G5 Y7 R9 B11 G2 Y4 R6 B8 W", "R2 R4 R6 R8 R10 B2 B4 B6 B8 B10"], discard="Y9")
    discards = agent.candidates(game.view(0))
    assert len(discards) == 3 and all(isinstance(m, Discard) for m in discards)
    assert discards[0] == agent.heuristic.choose_move(game.view(0))
    drawing = build_game(["R1 B3 G5 Y7 R9 B11 G2 Y4 R6 B8", "R2 R4 R6 R8 R10 B2 B4 B6 B8 B10"], discard="Y9", stage="draw")
    assert set(agent.candidates(drawing.view(0))) == {Draw(False), Draw(True)}


@pytest.mark.parametrize("spec, message", [
    ("mcts:sims=0", "sims must be from 1 to 1000, not 0"),
    ("mcts:sims=100000", "sims must be from 1 to 1000, not 100000"),
    ("mcts:width=12", "width must be from 1 to 11"),
    ("mcts:confidence=nan", "confidence must be from 0 to 10, not nan"),
    ("mcts:points_weight=-1", "points_weight must be from 0 to 100"),
    ("mcts:seconds=601", "seconds must be from 0 to 600"),
    ("mcts:sims=2.5", "sims takes a whole number"),
    ("mcts:depth=3", "bad mcts option 'depth=3'"),
    ("mcts:sims=many", "sims takes a whole number"),
    ("mcts:width", "bad mcts option"),
    ("mcts:after_down=maybe", "takes true or false"),
    ("mcts:min_sims=1", "min_sims must be from 2 to 1000"),
    ("heuristic:take_for_ways=maybe", "take_for_ways takes true or false, not 'maybe'"),
    ("heuristic:skip_target=last", "skip_target takes one of \\['leader', 'next'\\], not 'last'"),
    ("random:fast=true", "random takes no options"),
])
def test_bad_mcts_specs_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_a_time_limit_stops_a_search_that_would_run_long() -> None:
    """1,000 sampled games of 11 discards would take minutes; ``seconds`` ends the search in
    time and the agent still plays a legal move (the heuristic's, with so few samples)."""
    import time

    game = build_game(["R1 B3 G5 Y7 R9 B11 G2 Y4 R6 B8 W", "R2 R4 R6 R8 R10 B2 B4 B6 B8 B10"], discard="Y9")
    agent = make_agent("mcts:sims=1000,min_sims=1000,width=11,seconds=0.3")
    start = time.monotonic()
    move = agent.choose_move(game.view(0))
    assert time.monotonic() - start < 3.0
    assert move in game.legal_moves()
