"""The champion in game terms: legal whole games at 2-6 players, the same player for a seed,
blind to what its seat cannot see, its options held to their ranges, its model read without
unpickling."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from agents.evaluation.champion_race import champion_races
from agents.evaluation.champion_race import main as race_main
from agents.policies.champion import MODEL, BeliefModel, ChampionAgent, ChampionConfig
from phase10_env import raw_env
from phase10_env.codec import next_action
from phase10_env.engine import Discard, Draw, Game
from phase10_env.engine.cards import SKIP
from phase10_env.heuristic import HeuristicAgent

pytestmark = pytest.mark.compiled("native core")

FAST = "champion:samples=8,min_samples=4"
SHORT = {"phases": [1, 2]}  # two phases to win: whole games in seconds


def play_game(players: int, spec: str, seed: int) -> list[int]:
    env = raw_env(num_players=players, rules=SHORT)
    env.reset(seed=seed)
    agents = {a: make_agent(spec, seed=seed + i) for i, a in enumerate(env.possible_agents)}
    actions = []
    while not all(env.terminations.values()):
        obs = env.player_observation()
        action = agents[obs.agent].act(obs)
        assert obs.action_mask[action], f"the champion played an illegal action {action}"
        actions.append(action)
        env.step(action)
    return actions


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_champion_plays_whole_games_legally(players: int) -> None:
    assert len(play_game(players, FAST, seed=players)) > 20


def test_the_champion_is_the_same_player_for_the_same_seed() -> None:
    assert play_game(2, FAST, seed=5) == play_game(2, FAST, seed=5)


def test_the_champion_sees_only_its_seat() -> None:
    """Two games that differ only in cards the seat cannot see get the same choice, at a draw
    and at a discard, with and without the belief model."""
    game = Game(3, seed=11)
    for draw_first in (False, True):  # at the draw, then at the discard
        if draw_first:
            game.apply(Draw())
        other = game.determinize(game.current, np.random.default_rng(1))
        assert other.to_json()["players"] != game.to_json()["players"]  # hidden cards moved
        for belief in (True, False):
            config = ChampionConfig(samples=64, min_samples=8, belief=belief)
            choices = {ChampionAgent(config, seed=3).search(g.view(g.current)) for g in (game, other)}
            assert len(choices) == 1


def test_once_its_phase_is_down_the_champion_searches_its_discards_unless_told_not_to() -> None:
    heuristic, game = HeuristicAgent(), Game(2, seed=4)
    plain = ChampionAgent(ChampionConfig(samples=32, min_samples=4, confidence=0, after_down=False), seed=1)
    searching = ChampionAgent(ChampionConfig(samples=32, min_samples=4, confidence=0), seed=1)
    positions = differ = 0
    while not game.is_over and positions < 30:
        view = game.view(game.current)
        move = heuristic.choose_move(view)
        if game.laid[game.current] and type(move) is Discard and move.card != SKIP:
            positions += 1
            heuristics = next_action(view, move, None)
            assert plain.search(view) == heuristics
            differ += searching.search(view) != heuristics
        game.apply(move)
    assert positions == 30 and differ > 0


def test_with_plays_the_champion_weighs_a_lay_down_a_hit_or_a_skip_against_discarding() -> None:
    """Where the heuristic would lay its phase down, hit or throw a Skip, the plain search takes
    the heuristic's move without a deal; with ``plays`` it races it against the discards (and
    the other Skip targets), and some of those races end on another move."""
    heuristic, game = HeuristicAgent(), Game(4, seed=8)
    plain = ChampionAgent(ChampionConfig(samples=32, min_samples=4, confidence=0), seed=1)
    searching = ChampionAgent(ChampionConfig(samples=32, min_samples=4, confidence=0, plays=True), seed=1)
    kinds: list[str] = []
    differ = 0
    while not game.is_over and len(kinds) < 40:
        view = game.view(game.current)
        move = heuristic.choose_move(view)
        kind = "skip" if type(move) is Discard and move.card == SKIP else type(move).__name__
        if kind in ("skip", "LayDown", "Hit"):
            kinds.append(kind)
            heuristics = next_action(view, move, None)
            assert plain.race(view) == (heuristics, 0)
            action, deals = searching.race(view)
            assert deals > 0
            differ += action != heuristics
        game.apply(move)
    assert set(kinds) == {"skip", "LayDown", "Hit"} and differ > 0


def test_deals_that_disagree_with_an_opponents_last_discard_can_be_dealt_again() -> None:
    """The same seed, the same positions: asking for deals the opponent's last discard agrees
    with changes what the search sees, so some of its choices."""
    heuristic, game = HeuristicAgent(), Game(2, seed=6)
    config = {"samples": 32, "min_samples": 4, "confidence": 0.0}
    every_deal = ChampionAgent(ChampionConfig(**config), seed=1)
    agreeing = ChampionAgent(ChampionConfig(**config, consistent=50), seed=1)
    differ = 0
    for _ in range(60):
        view = game.view(game.current)
        if game.hand_log and not game.laid[game.current]:
            differ += every_deal.search(view) != agreeing.search(view)
        game.apply(heuristic.choose_move(view))
    assert differ > 0


def test_weighing_deals_by_the_hands_moves_changes_what_the_search_sees() -> None:
    """The same seed, the same positions of a 4-player game: deals weighed by each opponent's
    moves this hand (``history``) change some of the search's choices; with no move of the hand
    made yet there is nothing to weigh, and the choice is the plain search's."""
    heuristic, game = HeuristicAgent(), Game(4, seed=6)
    config = {"samples": 32, "min_samples": 4, "confidence": 0.0}
    plain = ChampionAgent(ChampionConfig(**config), seed=1)
    weighing = ChampionAgent(ChampionConfig(**config, history=64), seed=1)
    differ = first = 0
    for _ in range(80):
        view = game.view(game.current)
        if not game.laid[game.current]:
            if game.hand_log:
                differ += plain.search(view) != weighing.search(view)
            else:
                first += 1
                assert plain.search(view) == weighing.search(view)
        game.apply(heuristic.choose_move(view))
    assert differ > 0 and first > 0
    assert len(play_game(4, FAST + ",history=16", seed=3)) > 20


def test_the_belief_model_gives_a_chance_per_kind_of_card() -> None:
    model = BeliefModel()
    features = np.random.default_rng(0).random((5, model.layers[0][0].shape[0])).astype(np.float32)
    q = model(features)
    assert q.shape == (5, 50) and ((q > 0) & (q < 1)).all()


def test_a_file_that_is_not_a_belief_model_is_refused_without_unpickling(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, w0=np.zeros((3, 50)), b0=np.zeros(50))
    with pytest.raises(ValueError, match="is not a belief model"):
        BeliefModel(wrong)
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, w0=np.array([object()], dtype=object))
    with pytest.raises(ValueError, match="pickle"):
        BeliefModel(pickled)


@pytest.mark.parametrize("spec, message", [
    ("champion:samples=0", "samples must be from 1 to 4096"),
    ("champion:samples=5000", "samples must be from 1 to 4096"),
    ("champion:confidence=-1", "confidence must be from 0 to 10"),
    ("champion:belief=maybe", "belief takes true or false"),
    ("champion:consistent=65", "consistent must be from 0 to 64"),
    ("champion:history=5000", "history must be from 0 to 4096"),
    ("champion:slip=2", "slip must be from 0 to 1"),
    ("champion:history=8,consistent=4", "history and consistent do not combine"),
    ("champion:width=3", "bad champion option"),
])
def test_options_outside_their_range_are_refused_with_the_range(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_the_shipped_model_is_small() -> None:
    assert MODEL.stat().st_size < 5_000_000


def test_a_race_draws_the_deals_before_a_candidate_may_leave_and_never_more_than_its_budget() -> None:
    races = champion_races(games=1, configs=[ChampionConfig(samples=8), ChampionConfig(samples=48)], hands=1)
    assert len(races.heuristic) > 5
    assert (races.deals[:, 0] == 8).all()  # under the 32 deals before anything may leave: the whole budget
    assert ((races.deals[:, 1] >= 32) & (races.deals[:, 1] <= 48)).all()
    assert "#0 and #1" in races.table()
    with pytest.raises(SystemExit):
        race_main(["--budgets", "0"])


def test_races_are_taken_at_the_table_size_asked() -> None:
    four = champion_races(games=1, configs=[ChampionConfig(samples=8)], hands=1, players=4)
    two = champion_races(games=1, configs=[ChampionConfig(samples=8)], hands=1)
    assert len(four.heuristic) > 3 and len(four.heuristic) != len(two.heuristic)  # other deals: the games are 4-player ones
    with pytest.raises(SystemExit):
        race_main(["--players", "7"])


def test_races_tell_apart_what_the_heuristic_would_do() -> None:
    """The plain search races only draws and discards; with ``plays`` lay-downs, hits and
    Skips too, and the table gives how often each kind was changed."""
    plain, plays = (champion_races(games=2, configs=[ChampionConfig(samples=8, plays=p)], hands=2, players=4)
                    for p in (False, True))
    assert set(plain.kinds) == {"draw", "discard"}
    assert {"lay-down", "hit", "skip"} <= set(plays.kinds)
    assert "  lay-down " in plays.table() and "  lay-down " not in plain.table()
    assert "two budgets" not in plays.table()  # one budget: nothing to compare


def test_a_race_run_takes_the_champions_other_options_and_refuses_bad_ones(capsys: pytest.CaptureFixture[str]) -> None:
    race_main(["--games", "1", "--hands", "1", "--budgets", "8", "--options", "wins=false,min_samples=4"])
    assert "#0     8 deals" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        race_main(["--games", "1", "--options", "width=3"])
    assert "bad champion option 'width=3'" in capsys.readouterr().err
