"""Tournaments: fair seating, the same results for any number of processes, citable figures."""

from __future__ import annotations

import json

import pytest

from agents.cli import main
from agents.evaluation.tournament import match_label, run_tournament, seat_entries, wilson_interval


def test_wilson_interval_matches_known_values() -> None:
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_seats_are_filled_in_order_and_checked() -> None:
    assert seat_entries(["heuristic", "random"], 4) == ("heuristic", "random", "heuristic", "random")
    assert seat_entries(["heuristic"], 3) == ("heuristic",) * 3
    with pytest.raises(ValueError, match="3 agents for 2 seats"):
        seat_entries(["a", "b", "c"], 2)


def test_every_entry_plays_every_seat_under_every_dealer() -> None:
    result = run_tournament(["random", "random", "random"], 3, games=9, seed=1, workers=1, progress=False,
                            rules={"phases_to_win": 1})
    assert all(sum(o.turns) >= o.hands for o in result.outcomes), "every hand has at least one turn"
    combos = {(o.seats[0], o.first_dealer) for o in result.outcomes}
    assert combos == {(s, d) for s in range(3) for d in range(3)}
    assert all(o.winners for o in result.outcomes) and not any(o.truncated for o in result.outcomes)


def test_same_results_whatever_the_number_of_workers() -> None:
    kwargs = dict(agents=["heuristic", "random"], num_players=2, games=12, seed=7, progress=False,
                  rules={"phases_to_win": 3}, native=False)  # the process pool (the core plays in one process)
    results = [run_tournament(workers=w, **kwargs) for w in (1, 2)]
    assert results[0].outcomes == results[1].outcomes, "the same games (thinking time is not part of a game)"
    one, two = (r.to_json() for r in results)
    assert one.pop("timing")["workers"] == 1 and two.pop("timing")["workers"] == 2
    assert one == two, "every result but the timing is the same"


def test_eval_command_writes_json_with_the_documented_fields_and_a_plot(tmp_path, capsys) -> None:
    out, png = tmp_path / "r.json", tmp_path / "r.png"
    main(["eval", "--agents", "heuristic", "random", "--games", "8", "--workers", "1", "--seed", "3",
          "--rule", "phases_to_win=2", "--json", str(out), "--plot", str(png)])
    data = json.loads(out.read_text())
    names = [a["name"] for a in data["agents"]]
    assert names == ["heuristic", "random"]
    for a in data["agents"]:
        assert {"name", "games", "wins", "win_rate", "ci95", "mean_score", "mean_phases"} <= set(a)
        assert a["games"] == 8 and a["ci95"][0] <= a["win_rate"] <= a["ci95"][1]
    assert data["agents"][0]["wins"] + data["agents"][1]["wins"] == 8
    assert set(data["timing"]["ms_per_turn"]) == {"heuristic", "random"}
    assert all(ms > 0 for ms in data["timing"]["ms_per_turn"].values())
    assert png.stat().st_size > 1000
    assert "win rate" in capsys.readouterr().out


def test_eval_command_rejects_a_bad_rule_option() -> None:
    with pytest.raises(SystemExit, match="phases_to_wins"):
        main(["eval", "--agents", "random", "random", "--games", "1", "--rule", "phases_to_wins=2"])


def test_chi_square_tail_matches_the_tables() -> None:
    from agents.evaluation.tournament import _chi2_sf

    # 5% critical values of the chi-square distribution for 1-5 degrees of freedom
    for df, critical in [(1, 3.841), (2, 5.991), (3, 7.815), (4, 9.488), (5, 11.070)]:
        assert _chi2_sf(critical, df) == pytest.approx(0.05, abs=2e-4)
    assert _chi2_sf(0.0, 3) == pytest.approx(1.0)


def test_mirror_match_bias_tests_pool_the_identical_agents() -> None:
    result = run_tournament(["random"], 3, games=18, seed=2, workers=1, progress=False, rules={"phases_to_win": 1})
    tests = result.bias_tests()
    assert [(t["agent"], t["position"]) for t in tests] == [("random", "seat"), ("random", "turn order")]
    assert all(sum(t["games"]) == 18 * 3 and 0.0 <= t["p_value"] <= 1.0 for t in tests)


def test_a_table_of_one_agent_against_three_copies_is_named_with_their_count() -> None:
    assert match_label(seat_entries(["champion", "heuristic", "heuristic", "heuristic"], 4)) == "champion vs heuristic x3"
    assert match_label(seat_entries(["champion", "heuristic"], 4)) == "champion x2 vs heuristic x2"
    assert match_label(seat_entries(["mcts", "heuristic"], 2)) == "mcts vs heuristic"
