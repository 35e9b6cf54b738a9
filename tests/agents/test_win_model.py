"""The champion's win model in game terms: hand ends read from real games, a fit that finds what
a lead in points is worth, the core judging positions as the Python reference does, and the
shipped model's odds where the game says they must lie."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.policies.champion import WIN_MODEL, ChampionAgent, ChampionConfig, load_win_model
from agents.training.win_model import WinConfig, fit, hand_ends, load_config, train, win_value
from phase10_env.core import SLOT, SLOT_BYTES, native
from phase10_env.core.convert import load_game
from phase10_env.engine import Game
from phase10_env.heuristic import HeuristicAgent
from tests.agents.test_champion import play_game

pytestmark = pytest.mark.compiled("native core")


def test_hand_ends_mirror_each_other_at_two_players_and_one_seat_wins() -> None:
    ends, won = hand_ends(2, games=40, seed=5)
    assert len(ends) > 40 * 5  # a game lasts many hands
    mirrored = ends[:, [1, 0, 2]] * [1, 1, -1]  # each hand's end from the other seat
    assert sorted(map(tuple, ends)) == sorted(map(tuple, mirrored))
    assert won.sum() * 2 == len(won)  # of each hand's two rows, one seat won the game
    assert ends[:, :2].max() <= 10  # (10 only in a tie replay, which goes on)


def test_the_fit_finds_what_a_lead_is_worth() -> None:
    rng = np.random.default_rng(0)
    lead = rng.integers(-40, 41, 20_000) * 5  # points, level on phase 9
    won = (rng.random(len(lead)) < 1 / (1 + np.exp(-(0.3 + 4.0 * lead / 100)))).astype(float)
    ends = np.stack([np.full(len(lead), 9), np.full(len(lead), 9), lead], 1)
    model = fit(ends, won)
    assert model[9, 9] == pytest.approx([0.3, 4.0], abs=0.15)
    assert model[2, 5].tolist() == [-3.0, 1.0]  # never seen: the seat behind in phases loses


def test_the_core_judges_a_position_as_the_reference_does() -> None:
    core, model, heuristic = native(), load_win_model()[3], HeuristicAgent()
    for seed in range(12):
        game = Game(3, seed=seed, start_phases=[seed % 10, (seed * 7) % 10, 5])
        for _ in range(seed * 17):
            if game.is_over:
                break
            game.apply(heuristic.choose_move(game.view(game.current)))
        game.scores[:] = [seed * 5, 40, 25 * (seed % 3)]
        slots = np.zeros((1, SLOT_BYTES), np.uint8)
        load_game(slots, 0, game)
        g = slots.view(SLOT)[0, 0]["g"]
        for seat in range(3):
            values = np.empty(1)
            core.hand_values(slots, np.zeros(1, np.int64), seat, np.zeros(3, np.int64), np.zeros(3, np.int64), 0.25,
                             values, model)
            expected = win_value(model, seat, g["completed"][:3].tolist(), g["scores"][:3].tolist(),
                                 g["active"][:3].tolist(), list(game.winners) if game.is_over else None)
            assert values[0] == pytest.approx(expected, abs=1e-12)


def test_the_shipped_model_favours_the_seat_ahead_and_the_lower_score() -> None:
    for players, model in load_win_model().items():
        chance = 1 / (1 + np.exp(-model[..., 0]))  # level on points
        assert chance[8, 6] > 0.5 > chance[6, 8], players
        assert model[9, 9, 1] > 0, players  # on phase 9 both, fewer points is better (ties on 10 go to it)


def test_the_shipped_model_is_the_configs(tmp_path: Path) -> None:
    cfg = load_config("configs/belief/champion.yaml")
    shipped = load_win_model()
    assert set(shipped) == set(cfg.players)
    small = WinConfig(players=(2,), games=(cfg.games[0],), seed=cfg.seed, out=str(tmp_path / "wins.npz"))
    again = train(small, log=lambda _: None)[2]
    assert np.allclose(again, shipped[2], atol=1e-9)


def test_a_seat_count_without_a_model_and_a_bad_file_are_clear_errors(tmp_path: Path) -> None:
    agent = ChampionAgent(ChampionConfig(wins=True, samples=4, min_samples=2))
    agent.win_model = {2: agent.win_model[2]}
    with pytest.raises(ValueError, match="no model for 3 players"):
        agent.search(Game(3, seed=1).view(0))
    bad = tmp_path / "bad.npz"
    np.savez(bad, n2=np.zeros(3))
    with pytest.raises(ValueError, match="not a win model"):
        load_win_model(bad)
    assert WIN_MODEL.exists()


def test_the_champion_judging_by_wins_plays_legal_games() -> None:
    for players in (2, 4):
        assert len(play_game(players, "champion:samples=8,min_samples=4,wins=true", seed=players)) > 20


def test_a_config_option_the_models_do_not_know_is_a_clear_error(tmp_path: Path) -> None:
    from agents.training import belief

    config = tmp_path / "champion.yaml"
    config.write_text("belief:\n  players: [2]\n  epochs: 1\nwins:\n  players: [2]\n  games: [5]\n  gamse: 3\n")
    assert belief.load_config(config).players == (2,)  # lists read as tuples
    with pytest.raises(ValueError, match=r"unknown wins options \['gamse'\]"):
        load_config(config)
