"""The champion's one training command: both of its models from one config, and a mistake in
either section found before any training."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.policies.champion import ChampionAgent, ChampionConfig
from agents.training.champion import main
from phase10_env.engine import Game

pytestmark = pytest.mark.compiled("native core")

TINY = """
belief: {players: [2], rows: 300, keep: 0.5, hidden: [8], epochs: 1, out: somewhere/beliefs.npz}
wins: {players: [2], games: [30], hidden: 4, epochs: 2, out: somewhere/wins.npz}
"""


def test_one_command_trains_both_models_a_champion_then_plays_with(tmp_path: Path) -> None:
    config = tmp_path / "champion.yaml"
    config.write_text(TINY)
    main([str(config), "--out-dir", str(tmp_path / "out")])
    beliefs, wins = tmp_path / "out" / "beliefs.npz", tmp_path / "out" / "wins.npz"
    assert (tmp_path / "out" / "beliefs.json").exists()  # the belief model's training summary
    champion = ChampionAgent(ChampionConfig(samples=4, min_samples=2), seed=0, model=beliefs, win_model=wins)
    assert champion.win_model is not None and set(champion.win_model.by_players) == {2}  # the tiny model, not the shipped one
    game = Game(2, seed=3)
    assert champion.search(game.view(game.current)) >= 0


def test_a_bad_win_model_section_stops_the_command_before_the_belief_model_trains(tmp_path: Path) -> None:
    config = tmp_path / "champion.yaml"
    config.write_text(TINY.replace("games: [30]", "games: [30], width: 3"))
    with pytest.raises(ValueError, match=r"unknown wins options \['width'\]"):
        main([str(config), "--out-dir", str(tmp_path / "out")])
    assert not (tmp_path / "out").exists()
