"""What the commands write and check before working: the ladder and the benchmark write under runs/
unless told to write into results/ (the shipped figures), `phase10 eval` checks every agent before
any game starts, and the help texts read right."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from agents.cli import build_parser, main
from agents.evaluation import tournament


def test_the_ladder_leaves_the_shipped_results_alone_unless_told(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    shipped = tmp_path / "results" / "ladder.json"
    shipped.parent.mkdir()
    shipped.write_text("the committed ladder")
    main(["ladder", "--agents", "random", "heuristic", "--games", "4", "--table-players", "0", "--workers", "1",
          "--no-plot", "--rule", "phases_to_win=1"])
    assert shipped.read_text() == "the committed ladder"
    assert (tmp_path / "runs" / "ladder" / "ladder.json").is_file()
    args = build_parser().parse_args(["ladder"])
    assert not args.plot.startswith("results/")


def test_the_benchmark_leaves_the_shipped_results_alone_unless_told(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    shipped = tmp_path / "results" / "benchmark" / "OneHand-2p-Heuristic-v0__random__seed0.json"
    shipped.parent.mkdir(parents=True)
    shipped.write_text("the committed result")
    main(["benchmark", "--algo", "ref", "--agent", "random", "--task", "OneHand-2p-Heuristic-v0", "--games", "2"])
    assert shipped.read_text() == "the committed result"
    written = list((tmp_path / "runs").rglob("*.json"))
    assert [p.name for p in written] == [shipped.name]
    report = build_parser().parse_args(["benchmark-report", "x.json"])
    assert not Path(report.out).as_posix().startswith("results/")


def test_eval_checks_every_agent_before_any_game_starts(monkeypatch) -> None:
    def no_games(*args, **kwargs):
        raise AssertionError("the games started before the agents were checked")

    monkeypatch.setattr(tournament, "parallel_map", no_games)
    with pytest.raises(SystemExit, match="no saved model at '/no/such/model.zip'"):
        main(["eval", "--agents", "random", "ppo:/no/such/model.zip", "--games", "2"])
    with pytest.raises(SystemExit, match="sims must be from 1 to 1000"):
        main(["eval", "--agents", "heuristic", "mcts:sims=0", "--games", "2"])


def test_the_help_texts_print_a_percent_sign_once_and_name_every_agent_kind() -> None:
    from agents.policies.registry import AGENT_KINDS

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    for name, command in commands.items():
        assert "%%" not in command.format_help(), name
    for name in ("eval", "play", "ladder"):
        agents = next(a for a in commands[name]._actions if a.dest == "agents").help
        for kind in AGENT_KINDS:
            assert kind in agents, (name, kind)
