"""The share of the other seats' hidden cards the champion's deals hold, each way of dealing."""

from __future__ import annotations

import pytest

from agents.evaluation.belief_overlap import main, overlaps

pytestmark = pytest.mark.compiled("native core")


def test_each_way_of_dealing_gives_a_share_of_the_true_hidden_cards() -> None:
    rows = overlaps(players=4, positions=6, seed=5, replays=64, slips=[0.03])
    assert [r.name for r in rows] == ["uniform", "uniform, weighed by the hand's moves, slip 0.03",
                                      "belief model", "belief model, weighed by the hand's moves, slip 0.03"]
    for r in rows:
        assert len(r.shares) == 6 * 3  # three other seats a position
        assert all(0 <= s <= 1 for s in r.shares)
        assert all(1 <= e <= 64 + 1e-9 for e in r.effective)
    assert rows[0].effective == [pytest.approx(64)] * 18  # unweighed: every deal counts alike


def test_the_command_prints_a_row_per_way_and_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--players", "3", "--positions", "2", "--replays", "16", "--slips", "0.1"])
    out = capsys.readouterr().out
    assert "3 players, 2 positions" in out and "belief model, weighed by the hand's moves, slip 0.1" in out
    for bad in (["--players", "7"], ["--slips", "1.5"], ["--slips", "x"], ["--replays", "0"]):
        with pytest.raises(SystemExit):
            main(bad)
