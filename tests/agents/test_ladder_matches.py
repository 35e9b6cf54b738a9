"""A ladder stopped midway goes on from its kept matches: a match read back is the match played,
only the very match asked for is read back, and a damaged or foreign file stops the ladder with
its name instead of being replaced or ignored."""

from __future__ import annotations

import json

import pytest

from agents.cli import main
from agents.evaluation import ladder as ladder_module
from agents.evaluation.ladder import run_ladder
from agents.evaluation.match_store import load_match, match_path
from tests.agents.test_ladder import THREE, _without_timing


def _ladder(agents, matches, **kwargs):
    options = {"games_per_pair": 4, "table_players": 0, "seed": 5, "workers": 1, "progress": False} | kwargs
    return run_ladder(agents, matches=matches, **options)


def _results(result) -> dict:
    data = _without_timing(result.to_json())
    data["settings"].pop("matches_read_back")
    return data


def test_a_stopped_ladder_goes_on_from_its_kept_matches_and_ends_as_one_run_would(tmp_path, monkeypatch) -> None:
    whole = _ladder(THREE, None, table_players=3, table_games=18)
    _ladder(THREE[:2], tmp_path)  # "stopped" after its first match: random vs heuristic
    assert len(list(tmp_path.glob("*.json"))) == 1
    played, real = [], ladder_module.run_tournament

    def run_tournament(entries, *args, **kwargs):
        played.append(entries)
        return real(entries, *args, **kwargs)

    monkeypatch.setattr(ladder_module, "run_tournament", run_tournament)
    resumed = _ladder(THREE, tmp_path, table_players=3, table_games=18)
    # all but the kept match; the table in both its orders around it
    assert played == [tuple(THREE[::2]), tuple(THREE[1:]), tuple(THREE), (THREE[0], THREE[2], THREE[1])]
    assert _results(resumed) == _results(whole)
    (commit,) = resumed.settings["matches_read_back"]
    assert resumed.settings["matches_read_back"][commit] == ["random vs heuristic"]
    assert "(1 match read back from earlier runs, played at" in resumed.markdown()
    played.clear()
    again = _ladder(THREE, tmp_path, table_players=3, table_games=18)  # everything kept now: nothing played
    assert played == [] and _results(again) == _results(whole)
    assert "(5 matches read back" in again.markdown()


def test_a_kept_match_of_other_games_is_an_error_naming_the_file_and_what_differs(tmp_path) -> None:
    kept = _ladder(THREE[:2], tmp_path)
    path = match_path(tmp_path, kept.pairs[0].setup)
    with pytest.raises(ValueError, match=r"-\d+\.json: it is another match \(differs in games\)"):
        _ladder(THREE[:2], tmp_path, games_per_pair=8)
    record = json.loads(path.read_text())
    record["setup"]["max_steps"] = 99
    path.write_text(json.dumps(record))
    with pytest.raises(ValueError, match=r"differs in max_steps"):
        _ladder(THREE[:2], tmp_path)
    assert json.loads(path.read_text())["setup"]["max_steps"] == 99  # left as it was, not replaced


@pytest.mark.parametrize("damage", ["cut", "format", "outcomes"])
def test_a_damaged_kept_match_stops_the_ladder_with_its_name(tmp_path, damage) -> None:
    setup = _ladder(THREE[:2], tmp_path).pairs[0].setup
    path = match_path(tmp_path, setup)
    text = path.read_text()
    record = json.loads(text)
    if damage == "cut":
        path.write_text(text[: len(text) // 2])
    elif damage == "format":
        path.write_text(json.dumps(record | {"format": "phase10-match/0"}))
    else:
        path.write_text(json.dumps(record | {"outcomes": record["outcomes"][:-1]}))
    with pytest.raises(ValueError, match=str(path.name).replace(".", r"\.")):
        load_match(tmp_path, setup, 4)


def test_the_ladder_command_keeps_its_matches_where_asked(tmp_path, capsys) -> None:
    kept = tmp_path / "matches"
    args = ["ladder", "--agents", "random", "heuristic", "--games", "4", "--table-players", "0", "--workers", "1",
            "--no-plot", "--json", str(tmp_path / "l.json"), "--matches", str(kept)]
    main(args)
    assert [p.suffix for p in kept.iterdir()] == [".json"]  # whole files only, no partial one left
    main(args)
    assert "1 match read back" in capsys.readouterr().out
