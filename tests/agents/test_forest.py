"""Runs drawn side by side: each file's entry as recorded, a panel per seat count, bad input named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.evaluation.forest import main, panels, parse_target, read_run
from agents.evaluation.tournament import GameOutcome, MatchSetup, TournamentResult


def _results(tmp_path: Path, name: str, players: int, wins: int, games: int = 8) -> Path:
    """A results file where entry 0 won ``wins`` of ``games`` games (thinking 2 s a game over 20 turns)."""
    setup = MatchSetup(agents=("champion",) + ("heuristic",) * (players - 1), num_players=players, rules={},
                       seed=5, max_steps=10_000)
    outcomes = [GameOutcome(index=i, seats=tuple(range(players)), first_dealer=0, winners=(0 if i < wins else 1,),
                            scores=(0,) * players, phases=(10,) * players, hands=8, steps=300, truncated=False,
                            thinking=(2.0,) + (0.01,) * (players - 1), turns=(20,) * players)
                for i in range(games)]
    path = tmp_path / f"{name}.json"
    TournamentResult(setup, outcomes).save_json(path)
    return path


def test_a_run_reads_as_its_entry_recorded_it(tmp_path: Path) -> None:
    run = read_run(_results(tmp_path, "net_4p", players=4, wins=3))
    assert (run.label, run.players, run.games, run.win_rate) == ("net_4p", 4, 8, 3 / 8)
    assert run.ci95[0] < 3 / 8 < run.ci95[1]
    assert run.ms_per_turn == pytest.approx(100.0)  # 2 s over 20 turns
    heuristic = read_run(_results(tmp_path, "b", players=2, wins=8), entry=1, label="the heuristic")
    assert (heuristic.label, heuristic.win_rate) == ("the heuristic", 0.0)


def test_a_file_without_thinking_times_still_reads(tmp_path: Path) -> None:
    path = _results(tmp_path, "old", players=2, wins=5)
    record = json.loads(path.read_text())
    del record["timing"], record["outcomes"]
    path.write_text(json.dumps(record))
    run = read_run(path)
    assert run.ms_per_turn is None and run.win_rate == 5 / 8


def test_bad_files_and_entries_are_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="x.json: entry 2 is not one of its 2 entries"):
        read_run(_results(tmp_path, "x", players=2, wins=1), entry=2)
    (tmp_path / "bad.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="bad.json cannot be read as results"):
        read_run(tmp_path / "bad.json")


@pytest.mark.parametrize("text", ["4", "4=", "1=0.3", "7=0.3", "4=1.5", "four=0.35"])
def test_a_target_needs_a_seat_count_and_a_rate(text: str) -> None:
    with pytest.raises(ValueError, match="PLAYERS=RATE"):
        parse_target(text)


def test_the_command_draws_a_panel_per_seat_count_in_the_order_given(tmp_path: Path, capsys) -> None:
    files = [_results(tmp_path, "a", 2, 5), _results(tmp_path, "b", 4, 2), _results(tmp_path, "c", 2, 6)]
    out = tmp_path / "tries.png"
    main([*map(str, files), "--labels", "first", "second", "third", "--target", "4=0.35", "--out", str(out)])
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    grouped = panels([read_run(f, label=f.stem) for f in files])
    assert [(n, [r.label for r in rows]) for n, rows in grouped] == [(2, ["a", "c"]), (4, ["b"])]
    printed = capsys.readouterr().out.splitlines()
    assert printed[:3] == ["2 players  first: 0.625 [0.306, 0.863], 8 games, 100 ms",
                           "4 players  second: 0.250 [0.071, 0.591], 8 games, 100 ms",
                           "2 players  third: 0.750 [0.409, 0.929], 8 games, 100 ms"]
    with pytest.raises(SystemExit):
        main([*map(str, files), "--labels", "one", "--out", str(out)])
