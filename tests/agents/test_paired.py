"""Two runs on the same deals compared game by game: the games one variant won and the other lost
decide, the interval is the paired one, and runs that are not the same games are refused."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from agents.evaluation.paired import compare, load_results, main
from agents.evaluation.tournament import GameOutcome, MatchSetup, TournamentResult, run_tournament

SETUP = MatchSetup(agents=("champion", "heuristic"), num_players=2, rules={}, seed=7, max_steps=10_000)


def _run(winners: list[int], setup: MatchSetup = SETUP) -> TournamentResult:
    """Games whose winner (entry 0 or 1) is given, one a game."""
    return TournamentResult(setup, [GameOutcome(index=i, seats=(i % 2, 1 - i % 2), first_dealer=0, winners=(w,),
                                                scores=(0, 50) if w == 0 else (50, 0), phases=(10, 9), hands=8,
                                                steps=300, truncated=False, thinking=(1.0, 0.01), turns=(80, 80))
                                    for i, w in enumerate(winners)])


def test_only_the_games_the_variants_split_move_the_difference() -> None:
    # 10 games: both won 4, the first alone 3, the second alone 1, neither 2
    first = _run([0, 0, 0, 0, 0, 0, 0, 1, 1, 1])
    second = _run([0, 0, 0, 0, 1, 1, 1, 0, 1, 1])
    result = compare(first, second, entry=0)
    assert (result.both, result.first_only, result.second_only, result.neither) == (4, 3, 1, 2)
    assert result.difference == pytest.approx(0.2)
    # the 4 split games fall 3 to 1: P(3 or more of 4 either way) = 2 * 5 / 16
    assert result.p_value == pytest.approx(10 / 16)
    # per game the difference is +1 three times, -1 once, else 0: variance 4/10 - 0.2^2 = 0.36
    half = 1.959964 * (0.36 / 10) ** 0.5
    assert result.ci95 == pytest.approx((0.2 - half, 0.2 + half))


def test_the_same_games_played_the_same_way_differ_by_nothing() -> None:
    run = _run([0, 1] * 20)
    result = compare(run, run)
    assert result.difference == 0 and result.ci95 == (0, 0) and result.p_value == 1.0


def test_pairing_narrows_the_interval_when_the_runs_agree_on_most_games() -> None:
    # 200 games, 120 won by both, 20 by the first alone, 5 by the second alone
    first = _run([0] * 140 + [1] * 5 + [1] * 55)
    second = _run([0] * 120 + [1] * 20 + [0] * 5 + [1] * 55)
    result = compare(first, second)
    assert result.difference == pytest.approx(15 / 200)
    lo, hi = result.ci95
    unpaired = 1.96 * ((0.7 * 0.3 + 0.625 * 0.375) / 200) ** 0.5  # half the interval for independent samples
    assert (hi - lo) / 2 < 0.6 * unpaired
    assert lo > 0 and result.p_value < 0.01


@pytest.mark.parametrize("change, named", [
    ({"seed": 8}, "seed"),
    ({"max_steps": 20_000}, "max_steps"),
    ({"agents": ("champion", "random")}, "agent 1"),
])
def test_runs_that_are_not_the_same_games_are_refused(change: dict, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        compare(_run([0, 1]), _run([0, 1], replace(SETUP, **change)))


def test_the_compared_entry_may_differ_but_must_exist() -> None:
    compare(_run([0, 1]), _run([0, 1], replace(SETUP, agents=("champion:wins=false", "heuristic"))), entry=0)
    with pytest.raises(ValueError, match="entry 2"):
        compare(_run([0, 1]), _run([0, 1]), entry=2)
    with pytest.raises(ValueError, match="games"):
        compare(_run([0, 1]), _run([0, 1, 0]))


def test_eval_results_keep_their_games_and_compare_from_the_command_line(tmp_path: Path, capsys) -> None:
    for name, agent in (("a", "heuristic"), ("b", "random")):
        run_tournament([agent, "heuristic"], games=6, seed=3, workers=1, progress=False).save_json(tmp_path / f"{name}.json")
    kept = load_results(tmp_path / "a.json")
    assert len(kept.outcomes) == 6 and kept.setup.agents == ("heuristic", "heuristic")
    main([str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--json", str(tmp_path / "ab.json")])
    assert "6 games on the same deals: a won" in capsys.readouterr().out
    written = json.loads((tmp_path / "ab.json").read_text())
    assert written["first_only"] - written["second_only"] == sum(0 in o.winners for o in kept.outcomes)  # random won none


def test_a_file_without_game_outcomes_is_named_not_guessed_at(tmp_path: Path) -> None:
    run = _run([0, 1]).to_json()
    del run["outcomes"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(run))
    with pytest.raises(ValueError, match="old.json.*keeps no game outcomes"):
        load_results(old)
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="bad.json cannot be read"):
        load_results(tmp_path / "bad.json")


def test_a_shorter_run_compares_with_the_start_of_a_longer_one(tmp_path: Path, capsys) -> None:
    _run([0, 0, 1, 1]).save_json(tmp_path / "short.json")
    _run([0, 1, 1, 1, 0, 0]).save_json(tmp_path / "long.json")
    with pytest.raises(SystemExit):  # 4 games against 6: not the same games
        main([str(tmp_path / "short.json"), str(tmp_path / "long.json")])
    assert "games (4 against 6)" in capsys.readouterr().err
    main([str(tmp_path / "short.json"), str(tmp_path / "long.json"), "--games", "4"])
    assert "4 games on the same deals: short won 2, long won 1 (both 1, short only 1" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([str(tmp_path / "short.json"), str(tmp_path / "long.json"), "--games", "5"])
    assert "a run has 4 games, fewer than the 5 to compare" in capsys.readouterr().err
