"""The champion's win model in game terms: hand ends read from real games, a fit that finds what
phases and a lead in points are worth, a model that never judges a phase made as a loss, the
core judging positions as the Python reference does, and the shipped model's odds where the
game says they must lie."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.policies.champion import WIN_MODEL, ChampionAgent, ChampionConfig, WinModel, load_win_model
from agents.training.win_model import WinConfig, chance, chances, fit, hand_ends, layers, load_config, train, win_value
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


def test_at_four_players_a_row_sees_every_other_seat() -> None:
    ends, won = hand_ends(4, games=1, seed=5)  # one game: each hand's end is four rows, seat 0's first
    assert ends.shape[1] == 7  # its phases, then each other seat's phases and its lead over each
    assert len(ends) >= 4 * 5 and won.sum() * 4 == len(won)
    assert ends[:, :4].min() >= 0 and ends[:, :4].max() <= 10
    seat0, seat1 = ends[0::4], ends[1::4]  # seat 1, the next in turn, sees seat 0 last
    assert (seat1[:, 0] == seat0[:, 1]).all() and (seat1[:, 3] == seat0[:, 0]).all()
    assert (seat1[:, 6] == -seat0[:, 4]).all()  # its lead over seat 0 is seat 0's over it turned round
    assert (seat0[:, 4:] != 0).any()


def test_the_fit_finds_what_phases_and_a_lead_are_worth() -> None:
    rng = np.random.default_rng(0)
    rows = 30_000
    ends = np.stack([rng.integers(0, 10, rows), rng.integers(0, 10, rows), rng.integers(-40, 41, rows) * 5], 1)
    truth = 1 / (1 + np.exp(-(0.4 * (ends[:, 0] - ends[:, 1]) + ends[:, 2] / 100)))
    won = (rng.random(rows) < truth).astype(float)
    model = fit(ends, won, hidden=8, epochs=20, batch=1024, lr=1e-2, seed=0)
    probe = np.array([[5, 5, 0], [7, 4, 0], [4, 7, 0], [6, 6, 150], [6, 6, -150]])
    expected = 1 / (1 + np.exp(-(0.4 * (probe[:, 0] - probe[:, 1]) + probe[:, 2] / 100)))
    assert chances(model, 8, probe) == pytest.approx(expected, abs=0.05)


def test_a_phase_made_never_lowers_the_chance_and_an_opponents_never_raises_it() -> None:
    rng, shipped = np.random.default_rng(1), load_win_model()
    for players, model in shipped.by_players.items():
        for _ in range(200):
            phases, scores = rng.integers(0, 10, players).tolist(), (rng.integers(0, 60, players) * 10).tolist()
            active = [True] * players
            if players > 2 and rng.random() < 0.2:  # a tie replay: a seat sits it out
                active[int(rng.integers(1, players))] = False
            base, other = win_value(model, shipped.hidden, 0, phases, scores, active, None), int(rng.integers(1, players))
            mine = [phases[0] + 1, *phases[1:]]
            theirs = phases[:other] + [phases[other] + 1] + phases[other + 1:]
            fewer = [scores[0] - 50, *scores[1:]]
            assert win_value(model, shipped.hidden, 0, mine, scores, active, None) >= base  # its own phase
            assert win_value(model, shipped.hidden, 0, theirs, scores, active, None) <= base  # another's
            assert win_value(model, shipped.hidden, 0, phases, fewer, active, None) >= base  # 50 points fewer


def test_the_core_judges_a_position_as_the_reference_does() -> None:
    core, shipped, heuristic = native(), load_win_model(), HeuristicAgent()
    model = shipped.by_players[4]
    for seed in range(12):
        game = Game(4, seed=seed, start_phases=[seed % 10, (seed * 7) % 10, 5, 9])
        for _ in range(seed * 17):
            if game.is_over:
                break
            game.apply(heuristic.choose_move(game.view(game.current)))
        game.scores[:] = [seed * 5, 40, 25 * (seed % 3), 15]
        if seed % 3 == 0 and not game.is_over:  # a tie replay: one seat sits it out
            game.active[(seed // 3) % 4] = False
        slots = np.zeros((1, SLOT_BYTES), np.uint8)
        load_game(slots, 0, game)
        g = slots.view(SLOT)[0, 0]["g"]
        for seat in range(4):
            values = np.empty(1)
            core.hand_values(slots, np.zeros(1, np.int64), seat, np.zeros(4, np.int64), np.zeros(4, np.int64), 0.25,
                             values, model, shipped.hidden)
            expected = win_value(model, shipped.hidden, seat, g["completed"][:4].tolist(), g["scores"][:4].tolist(),
                                 g["active"][:4].tolist(), list(game.winners) if game.is_over else None)
            assert values[0] == pytest.approx(expected, abs=1e-12)
    with pytest.raises(ValueError, match="a model with 16 hidden units has 609 numbers, not 608"):
        core.hand_values(slots, np.zeros(1, np.int64), 0, np.zeros(4, np.int64), np.zeros(4, np.int64), 0.25,
                         np.empty(1), model[:-1], shipped.hidden)


def test_the_shipped_model_favours_the_seat_ahead_and_the_lower_score() -> None:
    shipped = load_win_model()
    for n, model in shipped.by_players.items():  # a seat against n - 1 seats all alike
        at = {key: chance(model, shipped.hidden, n, *key) for key in [(8, 6, 0), (6, 8, 0), (5, 5, 0), (9, 9, 50),
                                                                      (9, 9, 0), (9, 9, -50)]}
        assert at[8, 6, 0] > 1.5 / n and at[6, 8, 0] < 0.5 / n, n  # two phases ahead, behind
        assert at[5, 5, 0] == pytest.approx(1 / n, abs=0.1), n  # level: the even share
        assert at[9, 9, 50] > at[9, 9, 0] > at[9, 9, -50], n  # on phase 9 all, fewer points is better


def test_the_shipped_model_is_the_configs(tmp_path: Path) -> None:
    cfg = load_config("configs/belief/champion.yaml")
    shipped = load_win_model()
    assert set(shipped.by_players) == set(cfg.players) and shipped.hidden == cfg.hidden
    small = WinConfig(players=(2,), games=(cfg.games[0],), seed=cfg.seed, hidden=cfg.hidden, epochs=cfg.epochs,
                      batch=cfg.batch, lr=cfg.lr, out=str(tmp_path / "wins.npz"))
    again = train(small, log=lambda _: None)[2]
    assert np.allclose(again, shipped.by_players[2], atol=1e-9)


def test_a_seat_count_without_a_model_and_a_bad_file_are_clear_errors(tmp_path: Path) -> None:
    agent = ChampionAgent(ChampionConfig(wins=True, samples=4, min_samples=2))
    assert agent.win_model is not None
    agent.win_model = WinModel({2: agent.win_model.by_players[2]}, agent.win_model.hidden)
    with pytest.raises(ValueError, match="no model for 3 players"):
        agent.search(Game(3, seed=1).view(0))
    bad = tmp_path / "bad.npz"
    np.savez(bad, n2=np.zeros(3), hidden=np.array(16))
    with pytest.raises(ValueError, match="not a win model: n2: a win model with 16 hidden units has 609 numbers, not 3"):
        load_win_model(bad)
    shipped = load_win_model()
    negative = shipped.by_players[2].copy()
    layers(negative, shipped.hidden)[2][0, 0] = -0.5  # one weight of the second layer
    np.savez(bad, n2=negative, hidden=np.array(shipped.hidden))
    with pytest.raises(ValueError, match="n2 has negative weights"):
        load_win_model(bad)
    np.savez(bad, n2=shipped.by_players[2])
    with pytest.raises(ValueError, match="it must hold hidden"):
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
