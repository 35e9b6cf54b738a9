"""The ladder: every pair plays with seats rotated, every game feeds the ratings, a seed gives
the same ladder, and bad agent lists fail before any game is played."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from agents.cli import main
from agents.evaluation.ladder import FORMAT, finishing_ranks, run_ladder
from agents.evaluation.tournament import GameOutcome, TournamentResult, run_tournament

THREE = ["random", "heuristic", "heuristic:skip_target=next"]


@pytest.fixture(scope="module")
def ladder():
    """Three agents: 3 pairs of 4 games, one 3-player table of 18 games, 9 in each order around it."""
    return run_ladder(THREE, games_per_pair=4, table_players=3, table_games=18, seed=5, workers=1, progress=False)


def _without_timing(data: dict) -> dict:
    """The ladder's results without how long it took on how many processes."""
    data = json.loads(json.dumps(data))
    data.pop("wall_seconds"), data["settings"].pop("workers")
    for match in data["pairs"] + data["tables"]:
        match.pop("seconds"), match.pop("seconds_per_game")
        for result in match["results"]:
            result.pop("ms_per_turn")
    return data


def _games(match: TournamentResult) -> list[tuple]:
    """What happened in each game of ``match`` (not how long the agents took)."""
    return [(o.seats, o.first_dealer, o.winners, o.scores, o.phases, o.steps) for o in match.outcomes]


def test_json_has_the_documented_fields(ladder) -> None:
    data = ladder.to_json()
    assert data["format"] == FORMAT and data["agents"] == THREE
    assert {"games_per_pair", "table_players", "table_games", "seed", "rules", "max_steps", "workers", "rating"} \
        <= set(data["settings"])
    assert data["settings"]["rating"]["library"] == "openskill"
    assert {"phase10", "openskill", "numpy", "python"} <= set(data["versions"])
    assert [p["agents"] for p in data["pairs"]] == [THREE[:2], [THREE[0], THREE[2]], THREE[1:]]
    assert [t["agents"] for t in data["tables"]] == [THREE, [THREE[0], THREE[2], THREE[1]]], "both orders around it"
    assert sorted(r["agent"] for r in data["ratings"]) == sorted(THREE)
    for r in data["ratings"]:
        assert {"mu", "sigma", "ordinal", "games"} <= set(r) and r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"])
    assert data["wall_seconds"] > 0


def test_every_pair_plays_its_games_with_seats_rotated(ladder) -> None:
    for match in ladder.to_json()["pairs"] + ladder.to_json()["tables"]:
        n, games = len(match["agents"]), match["games"]
        assert games == (4 if n == 2 else 9) and match["truncated"] == 0
        # one winner per game under the standard rules (R19 replays ties)
        assert sum(r["wins"] for r in match["results"]) == games
        for r in match["results"]:
            assert r["seat_games"] == [games // n] * n, "each agent sits in each seat equally often"
            assert sum(r["seat_wins"]) == r["wins"] and r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]


def test_at_a_table_every_agent_sits_after_every_other_equally_often(ladder) -> None:
    """Whoever sits after an agent takes its discards: a table is played in every order around it."""
    after = Counter()
    for match in ladder.tables:
        for outcome in match.outcomes:
            by_seat = {seat: match.setup.agents[i] for i, seat in enumerate(outcome.seats)}
            after.update((by_seat[s], by_seat[(s + 1) % len(by_seat)]) for s in by_seat)
    assert after == {(a, b): 9 for a in THREE for b in THREE if a != b}


def test_a_pair_replays_with_phase10_eval_and_its_recorded_seed(ladder) -> None:
    pair = ladder.pairs[0]
    again = run_tournament(list(pair.setup.agents), 2, 4, seed=pair.setup.seed, workers=1, progress=False)
    assert _games(again) == _games(pair)


def test_the_heuristic_rates_above_random_from_every_game(ladder) -> None:
    ratings = {r.agent: r for r in ladder.ratings}
    assert ladder.ratings[-1].agent == "random"
    assert ratings["heuristic"].ordinal > ratings["random"].ordinal
    assert ratings["heuristic"].mu > ratings["random"].mu
    assert all(r.games == 2 * 4 + 18 for r in ladder.ratings), "two pairs and the 3-player table"
    assert ladder.pair_rate("heuristic", "random")[0] > 0.5
    assert ladder.table_rate("random")[0] < 1 / 3 < ladder.table_rate("heuristic")[0] + ladder.table_rate(THREE[2])[0]


def test_the_markdown_table_lists_the_best_rated_first(ladder) -> None:
    lines = ladder.markdown().splitlines()
    assert lines[0] == ("| # | agent | rating (μ − 3σ) | μ | σ | " + " | ".join(f"vs {r.agent}" for r in ladder.ratings)
                        + " | 3-player tables |")
    rows = [line.split(" | ") for line in lines[2:5]]
    assert [row[1] for row in rows] == [f"`{r.agent}`" for r in ladder.ratings]
    assert rows[-1][1] == "`random`" and rows[-1][5 + 2] == "—", "random's own column is empty"
    assert "4 games per pair, 18 per 3-player table (1 table, each in every order around it)" in ladder.markdown()


def test_the_same_seed_gives_the_same_ladder(ladder) -> None:
    # any number of workers plays the same games (tests/agents/test_tournament.py); one keeps this fast
    again = run_ladder(THREE, games_per_pair=4, table_players=3, table_games=18, seed=5, workers=1, progress=False)
    assert _without_timing(again.to_json()) == _without_timing(ladder.to_json())
    other = run_ladder(THREE[:2], games_per_pair=4, table_players=0, seed=6, workers=1, progress=False)
    assert _games(other.pairs[0]) != _games(ladder.pairs[0]), "another seed deals other games"


def test_a_slow_agent_plays_fewer_games_a_pair_and_they_are_the_first_games_of_its_pairs(ladder) -> None:
    slow = THREE[2]
    fewer = run_ladder(THREE, games_per_pair=8, games_with={slow: 4}, table_players=0, seed=5, workers=1,
                       progress=False)
    assert [len(m.outcomes) for m in fewer.pairs] == [8, 4, 4]
    # a game's deal depends on the match's seed and its index alone: more games only add games
    assert _games(fewer.pairs[0])[:4] == _games(ladder.pairs[0])
    assert [_games(m) for m in fewer.pairs[1:]] == [_games(m) for m in ladder.pairs[1:]]
    assert {r.agent: r.games for r in fewer.ratings} == {THREE[0]: 12, THREE[1]: 12, slow: 8}
    assert fewer.to_json()["settings"]["games_with"] == {slow: 4}
    assert f"8 games per pair, 4 for the pairs of `{slow}`; seats" in fewer.markdown()


def test_finishing_order_is_winner_then_phases_then_score() -> None:
    outcome = GameOutcome(index=0, seats=(0, 1, 2, 3), first_dealer=0, winners=(2,), scores=(150, 90, 300, 90),
                          phases=(9, 8, 10, 8), hands=12, steps=900, truncated=False)
    # seat 2 made phase 10 and won; seat 0 completed 9 phases; seats 1 and 3 tie on phases and score
    assert finishing_ranks(outcome) == [1, 2, 0, 2]


@pytest.mark.parametrize(("agents", "kwargs", "message"), [
    (["random", "nobody"], {}, "unknown agent 'nobody'"),
    (["random"], {}, "at least two agents, got 1"),
    (["random", "random"], {}, "named more than once: \\['random'\\]"),
    (["random", "human"], {}, "human cannot play"),
    (["random", "heuristic"], {"games_per_pair": 6}, "multiple of 4"),
    (["random", "heuristic"], {"table_players": 4}, "4-player tables need at least 4 agents, got 2"),
    (THREE, {"table_players": 3, "table_games": 9}, "multiple of 18 \\(in each of its 2 orders"),
    (THREE, {"games_with": {"heuristic": 6}}, "games per pair of 'heuristic' must be a positive multiple of 4"),
    (THREE, {"games_with": {"mcts": 4}}, "games are given for agents not in the ladder: \\['mcts'\\]"),
])
def test_bad_ladders_fail_before_playing_and_say_why(agents, kwargs, message) -> None:
    options = {"games_per_pair": 4, "table_players": 0, "workers": 1, "progress": False} | kwargs
    with pytest.raises(ValueError, match=message):
        run_ladder(agents, **options)


def test_ladder_command_writes_json_png_and_markdown(tmp_path, capsys) -> None:
    out, png, md = tmp_path / "l.json", tmp_path / "l.png", tmp_path / "l.md"
    main(["ladder", "--agents", "random", "heuristic", "--games", "4", "--table-players", "0", "--workers", "1",
          "--json", str(out), "--plot", str(png), "--markdown", str(md)])
    printed = capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["ratings"][0]["agent"] == "heuristic" and data["settings"]["games_per_pair"] == 4
    assert png.stat().st_size > 1000
    table = md.read_text()
    assert table.splitlines()[0].startswith("| # | agent | rating") and "| 1 | `heuristic` |" in table
    assert table.strip() in printed
    with pytest.raises(SystemExit, match="unknown agent 'nobody'"):
        main(["ladder", "--agents", "random", "nobody", "--table-players", "0", "--no-plot"])


@pytest.mark.parametrize(("given", "message"), [
    (["--games-with", "heuristic"], "expected AGENT=N"),
    (["--games-with", "heuristic=4", "--games-with", "heuristic=8"], "names an agent more than once: \\['heuristic'\\]"),
    (["--games-with", "mcts=4"], "not in the ladder: \\['mcts'\\]"),
])
def test_the_ladder_command_says_what_is_wrong_with_its_games_with(given, message, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["ladder", "--agents", "random", "heuristic", "--games", "4", "--table-players", "0", "--no-plot", *given])
    # argparse prints its own errors and exits with 2; the ladder's exit with the error as their message
    assert re.search(message, capsys.readouterr().err + str(stopped.value.code))


def test_games_past_the_step_limit_stop_without_a_winner_and_the_table_says_so() -> None:
    short = run_ladder(["random", "heuristic"], games_per_pair=4, table_players=0, table_games=0, seed=1, workers=1,
                       max_steps=60, progress=False)
    (match,) = short.to_json()["pairs"]
    assert match["truncated"] == 4 and all(r["wins"] == 0 for r in match["results"])
    assert all(r.games == 4 for r in short.ratings)
    assert "4 games stopped unfinished after 60 actions" in short.markdown()
    with pytest.raises(ValueError, match="max steps must be positive"):
        run_ladder(["random", "heuristic"], games_per_pair=4, table_players=0, table_games=0, max_steps=0)


def test_the_ladder_reports_the_processes_its_matches_ran_on() -> None:
    """Games of built-in agents alone run in the native core, in one process; the others on the
    processes asked for, and the ladder reports those, whichever match came first."""
    ran = run_ladder(["random", "heuristic", "heuristic:skip_target=next"], games_per_pair=4, table_players=0, seed=2,
                     workers=2, progress=False)
    assert [m.workers for m in ran.pairs] == [1, 2, 2]
    assert ran.settings["workers"] == 2 and "min on 2 processes" in ran.markdown()
