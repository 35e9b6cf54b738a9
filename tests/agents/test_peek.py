"""The perfect-belief measurement: the search shown every hand plays from the true game, dealing
only the draw pile; the command plays each deal both ways and compares them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.evaluation import peek
from agents.evaluation.peek import Deal, champion_wins, main
from agents.policies.champion import ChampionAgent, ChampionConfig
from phase10_env.engine import Game
from phase10_env.heuristic import HeuristicAgent

pytestmark = pytest.mark.compiled("native core")

CONFIG = ChampionConfig(samples=64, min_samples=8, confidence=0, belief=False)  # deals differ only by peek


def test_shown_every_hand_the_search_keeps_the_hands_and_deals_only_the_pile() -> None:
    """From the same true game and the same deals' seed, the search shown every hand (only the
    draw pile dealt anew) and the search dealing every hidden card anew see different worlds,
    so some of their choices differ; each is the same for the same seed."""
    heuristic, game = HeuristicAgent(), Game(2, seed=21)
    differ = 0
    for _ in range(40):
        view = game.view(game.current)
        shown, dealt = (ChampionAgent(CONFIG, seed=3).race_from(game, view, peek=peek) for peek in (True, False))
        assert shown == ChampionAgent(CONFIG, seed=3).race_from(game, view, peek=True)
        differ += shown != dealt
        game.apply(heuristic.choose_move(view))
    assert differ > 0


def test_a_deal_is_the_same_game_each_time_it_is_played() -> None:
    deal = Deal(2, 3, 5, ChampionConfig(samples=8, min_samples=4))
    assert champion_wins(deal, peek=True) == champion_wins(deal, peek=True)


def test_the_command_plays_each_deal_both_ways(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "peek.json"
    main(["--games", "2", "--options", "samples=8,min_samples=4", "--workers", "1", "--json", str(out)])
    assert "2 games on the same deals: shown every hand won" in capsys.readouterr().out
    record = json.loads(out.read_text())
    assert len(record["outcomes"]) == 2 and record["comparison"]["games"] == 2
    with pytest.raises(SystemExit):
        main(["--players", "7"])


def test_a_variant_is_played_a_third_way_and_can_reuse_a_recorded_run(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The variant's deals are played as the champion plays with its options added; with
    ``--recorded`` the first two ways come from the earlier run, which must be of the same deals."""
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    options = ["--players", "4", "--games", "2", "--options", "samples=8,min_samples=4", "--workers", "1"]
    main([*options, "--json", str(first)])
    capsys.readouterr()
    played: list[Deal] = []

    def as_it_plays(deal: Deal) -> bool:
        played.append(deal)
        return champion_wins(deal, peek=False)

    monkeypatch.setattr(peek, "as_it_plays", as_it_plays)
    main([*options, "--variant", "history=16", "--recorded", str(first), "--json", str(second)])
    assert [d.config for d in played] == [ChampionConfig(samples=8, min_samples=4, history=16)] * 2  # only the variant played
    out = capsys.readouterr().out
    assert "two ways as recorded in" in out and "with history=16 won" in out
    record = json.loads(second.read_text())
    assert record["outcomes"] == json.loads(first.read_text())["outcomes"]
    config = ChampionConfig(samples=8, min_samples=4, history=16)
    assert record["variant_outcomes"] == [champion_wins(Deal(4, i, 12_000_000, config), peek=False) for i in range(2)]
    for bad in (["--seed", "1"], ["--options", "samples=9,min_samples=4"]):
        with pytest.raises(SystemExit):
            main([*options, *bad, "--variant", "history=16", "--recorded", str(first)])
    assert "is a run with" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*options, "--recorded", str(first)])
