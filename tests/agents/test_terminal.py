"""The terminal game (`phase10 play`), replays (`phase10 replay`) and the command line's options,
driven through stdin or injected read/write functions."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys

import pytest

from agents import RandomAgent
from agents.cli import _rule_options, browse_record, build_parser, main, play_at_terminal
from agents.policies.human import LEGEND, HumanAgent
from phase10_env import raw_env
from phase10_env.engine import WILD, Discard, Game, GameRecord

HUMAN_VS_RANDOM = ["play", "--agents", "human", "random", "--rule", "phases_to_win=1", "--delay", "0", "--seed", "0"]
PROMPT = "Your move ["


def play_with_stdin(monkeypatch, capsys, argv: list[str], typed: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    main(argv)
    return capsys.readouterr().out


def test_a_human_follows_the_other_players_moves_and_the_game_is_saved(monkeypatch, capsys, tmp_path) -> None:
    saved = tmp_path / "game.json"
    out = play_with_stdin(monkeypatch, capsys, HUMAN_VS_RANDOM + ["--save", str(saved)], "1\n" * 5000)
    assert out.index(LEGEND) < out.index(PROMPT), "the card codes are explained before the first move"
    turns = out.split(PROMPT)
    told_before_table = [t for t in turns if "player_1 drew from the draw pile" in t or "player_1 took" in t]
    assert told_before_table, "the other player's moves are told"
    assert all(t.index("player_1 d") < t.index("your hand:") for t in told_before_table if "your hand:" in t)
    assert "You drew " in out, "the human is told which card they drew"
    assert "Game over:" in out and "Final scores" in out
    record = GameRecord.load(saved)
    game = Game.from_record(record)
    winner = "you" if game.winners[0] == 0 else "player_1 (random)"
    assert game.is_over and f"{winner} {game.scores[game.winners[0]]} (won)" in out


def test_help_repeats_the_legend_and_quit_leaves_with_the_record_saved(monkeypatch, capsys, tmp_path) -> None:
    saved = tmp_path / "left.json"
    out = play_with_stdin(monkeypatch, capsys, HUMAN_VS_RANDOM + ["--save", str(saved)], "?\n1\nhelp\n1\nq\n")
    assert out.count(LEGEND) == 3  # at the start and on each help
    assert out.count("The phases:\n  phase 1: set of 3 + set of 3\n") == 2  # the rules in short on each help
    assert "You left the game." in out and "Final scores" not in out
    assert len(GameRecord.load(saved).moves) >= 2  # the human's draw and discard at least


def test_end_of_input_leaves_the_game_with_a_short_message(monkeypatch, capsys) -> None:
    out = play_with_stdin(monkeypatch, capsys, HUMAN_VS_RANDOM, "1\n")
    assert out.rstrip().endswith("End of input: game left.")


def test_the_installed_command_ends_cleanly_when_input_ends() -> None:
    done = subprocess.run([sys.executable, "-m", "agents.cli", *HUMAN_VS_RANDOM], input="1\n1\n", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr + done.stdout
    assert done.stdout.rstrip().endswith("End of input: game left.")


class CtrlC(io.StringIO):
    def readline(self, *args) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_stops_the_game_with_a_short_message_and_saves_it(monkeypatch, capsys, tmp_path) -> None:
    saved = tmp_path / "stopped.json"
    monkeypatch.setattr("sys.stdin", CtrlC())
    with pytest.raises(SystemExit) as stop:
        main(HUMAN_VS_RANDOM + ["--save", str(saved)])
    assert stop.value.code == 130
    assert "Interrupted." in capsys.readouterr().out
    assert GameRecord.load(saved).moves == []


def test_watching_bots_shows_each_hand_and_verbose_every_move(capsys) -> None:
    main(["play", "--agents", "random", "random", "--rule", "phases_to_win=1", "--seed", "2"])
    quiet = capsys.readouterr().out
    assert "Hand 1 |" in quiet and "Hand 1 over:" in quiet and "Game over:" in quiet
    assert "drew from the draw pile" not in quiet
    main(["play", "--agents", "random", "random", "--rule", "phases_to_win=1", "--seed", "2", "--verbose"])
    assert "player_0 drew from the draw pile" in capsys.readouterr().out


def test_the_delay_pauses_before_every_bot_action_and_never_before_the_human() -> None:
    env = raw_env(num_players=2, rules={"phases_to_win": 1}, render_mode="ansi")
    env.reset(seed=4)
    bot_actions = 0

    class CountingBot(RandomAgent):
        def act(self, obs) -> int:
            nonlocal bot_actions
            bot_actions += 1
            return super().act(obs)

    human = HumanAgent(read=lambda prompt: "1", write=lambda text: None)
    pauses: list[float] = []
    told: list[str] = []
    play_at_terminal(env, {"player_0": human, "player_1": CountingBot(1)}, 0.25, write=told.append, sleep=pauses.append)
    assert env.game.is_over and bot_actions > 0
    assert pauses == [0.25] * bot_actions
    assert any(line.startswith("  player_1 ") for line in told)


def test_replay_steps_forward_back_and_to_a_move(tmp_path) -> None:
    env = raw_env(num_players=2, rules={"phases_to_win": 1}, render_mode="ansi")
    env.reset(seed=1)
    bots = {agent: RandomAgent(i) for i, agent in enumerate(env.possible_agents)}
    play_at_terminal(env, bots, 0.0, write=lambda text: None)
    record = env.game.record
    answers = iter(["", "3", "b", "huh", "q"])
    shown: list[str] = []
    browse_record(record, 1, read=lambda prompt: next(answers), write=shown.append)
    last = len(record.moves)
    screens = [s.strip() for s in shown if s.startswith("\n== ")]
    assert screens == [f"== start of the game ({last} moves)", f"== after move 1 of {last}", f"== after move 3 of {last}",
                       f"== after move 2 of {last}", f"== after move 2 of {last}"]
    tables = [s for s in shown if s.startswith("Hand ")]
    assert all(t.count("hand:") == 1 for t in tables), "with --seat only that seat's hand shows"
    assert sum(LEGEND in s for s in shown) == 2  # at the start and after "huh"


def test_replay_command_refuses_a_file_that_is_no_record_or_has_an_illegal_move(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(SystemExit, match="cannot read the game record"):
        main(["replay", str(bad)])
    record = Game(2, seed=0).record
    record.moves.append(Discard(WILD))  # a discard before drawing
    record.save(bad)
    with pytest.raises(SystemExit, match="cannot read the game record.*must draw first"):
        main(["replay", str(bad)])


def test_every_option_of_every_command_has_help_and_shows_its_default() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert {"eval", "play", "replay", "bench"} <= set(commands)
    for name, command in commands.items():
        text = command.format_help().replace("\n", " ")
        for action in command._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{name} {action.dest} has no help"
            if action.default not in (None, False, []):
                assert f"(default: {action.default})" in " ".join(text.split()), f"{name} {action.dest}"


def test_eval_without_players_gives_each_agent_named_a_seat(tmp_path) -> None:
    out = tmp_path / "r.json"
    main(["eval", "--agents", "heuristic", "random", "random", "--games", "3", "--workers", "1",
          "--rule", "phases_to_win=1", "--json", str(out)])
    assert json.loads(out.read_text())["setup"]["num_players"] == 3
    with pytest.raises(SystemExit, match="give --players N"):
        main(["eval", "--agents", "heuristic", "--games", "1"])


def test_a_rule_option_takes_a_comma_list(tmp_path) -> None:
    assert _rule_options(["phases=1,2,3"]) == {"phases": [1, 2, 3]}
    assert _rule_options(["phases=[2,4]", "skip_rule=pending_only"]) == {"phases": [2, 4], "skip_rule": "pending_only"}
    out = tmp_path / "r.json"
    main(["eval", "--agents", "random", "random", "--games", "2", "--workers", "1", "--rule", "phases=2,4",
          "--rule", "phases_to_win=1", "--json", str(out)])
    assert json.loads(out.read_text())["setup"]["rules"]["phases"] == [2, 4]


def test_play_deals_a_new_game_each_time_and_prints_the_seed_that_deals_it_again(capsys) -> None:
    bots = ["play", "--agents", "random", "random", "--rule", "phases_to_win=1"]
    outs = []
    for _ in range(2):
        main(bots)
        outs.append(capsys.readouterr().out)
    seeds = [int(out.split("Seed ", 1)[1].split()[0]) for out in outs]
    assert seeds[0] != seeds[1], "two games without --seed were dealt from the same seed"
    main([*bots, "--seed", str(seeds[1])])
    assert capsys.readouterr().out == outs[1], "the printed seed does not deal the same game again"


def test_the_end_of_a_game_names_the_players_and_says_game_over_once(monkeypatch, capsys) -> None:
    out = play_with_stdin(monkeypatch, capsys, HUMAN_VS_RANDOM, "1\n" * 5000)
    end = out[out.rindex(PROMPT):]
    assert end.count("Game over") == 1
    assert "player_0" not in end, "the human is 'you' in the final table"
    final = end.splitlines()[-1]
    assert final.startswith("Final scores: you ") and "player_1 (random) " in final and "[" not in final


def test_a_finished_game_shows_the_phases_made_not_a_phase_never_played() -> None:
    """At the end the table keeps the last hand's groups, of the phase just made: "phase N+1"
    beside them would be a phase the game ended before."""
    from phase10_env.render import render_text

    env = raw_env(num_players=3, rules={"phases_to_win": 2}, render_mode="ansi")
    env.reset(seed=6)
    play_at_terminal(env, {a: RandomAgent(i) for i, a in enumerate(env.possible_agents)}, 0.0, write=lambda t: None)
    game = env.game
    assert game.is_over
    table = render_text(game)
    for s in range(3):
        if game.active[s]:  # a seat out of a tie replay shows as such
            assert f"player_{s}: made {game.phases_completed[s]} of 2 phases" in table, table
    assert " phase " not in table


def test_one_card_is_one_card() -> None:
    from phase10_env.engine import build_game
    from phase10_env.render import render_text

    table = render_text(build_game(["R7 B7 G7 R2 B2 G2 Y5", "G9"], discard="R1"))
    assert "score 0, 1 card\n" in table and "1 cards" not in table


def test_moves_are_offered_in_the_words_the_game_tells_them_in() -> None:
    from phase10_env.actions import MELD_IDS
    from phase10_env.engine import Meld, build_game
    from phase10_env.engine.phases import GroupKind
    from phase10_env.narrate import Narrator
    from phase10_env.render import action_text

    game = build_game(["R11 B11 G11 R3 B3 W Y9 Y10", "G2 G4 G6 G8 Y1 Y3 Y5 B7 B9 R12"], discard="R1")
    env = raw_env(num_players=2)
    env.reset(options={"state": game.to_json()})
    view = env.seat_view("player_0")
    eleven = MELD_IDS[Meld(GroupKind.SET, 11, 3)]
    offered = action_text(view, eleven)
    assert offered == "lay down a set of three 11s"
    narrator = Narrator(env.game.record, 0, ["you", "player_1"])
    narrator.catch_up(env.game.record)
    env.step(eleven)
    env.step(MELD_IDS[Meld(GroupKind.SET, 3, 3)])
    told = narrator.catch_up(env.game.record)
    assert told[0].startswith("You laid down a set of three 11s (")


def test_hot_seat_pauses_for_the_handover_before_showing_the_next_humans_hand() -> None:
    env = raw_env(num_players=2, rules={"phases_to_win": 1}, render_mode="ansi")
    env.reset(seed=3)
    events: list[tuple[str, str]] = []
    answers = iter(["1"] * 400)

    def human(seat: int) -> HumanAgent:
        return HumanAgent(read=lambda prompt: next(answers),
                          write=lambda text: events.append((f"table {seat}", text)) if "your hand:" in text else None)

    def handover(prompt: str) -> str:
        events.append(("handover", prompt))
        return ""

    try:
        play_at_terminal(env, {"player_0": human(0), "player_1": human(1)}, 0.0, write=lambda text: None,
                         read=handover)
    except StopIteration:
        pass  # out of scripted answers; the game need not end
    tables = [i for i, (kind, _) in enumerate(events) if kind.startswith("table")]
    assert len(tables) > 10
    for before, after in zip(tables, tables[1:]):
        if events[before][0] != events[after][0]:  # the other human's hand comes next
            assert any(kind == "handover" for kind, _ in events[before + 1:after]), "no pause to hand over"
    assert events[0][0] == "handover" and "player_0's turn" in events[0][1]
