"""Saved states (``Game.to_json`` / ``Game.from_json``): a state a game can reach loads and plays
on; anything else, malformed or a position no game can reach, is a ``ValueError`` that names the
field and says why. The positions are real games' states, changed the way a damaged or hand-edited
file would be."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import phase10_env.engine as engine
from phase10_env import raw_env
from phase10_env.engine import (
    NUM_KINDS,
    Discard,
    Draw,
    Game,
    build_game,
    card_name,
    parse_card,
    parse_cards,
)
from phase10_env.engine.moves import move_from_json
from phase10_env.engine.phases import PHASES
from tests.engine.p10_rules_helpers import all_cards_accounted, deck_as_kinds

# --------------------------------------------------------------------------- real states


def play_randomly(game: Game, rng: np.random.Generator, moves: int) -> None:
    for _ in range(moves):
        if game.is_over:
            return
        legal = game.legal_moves()
        game.apply(legal[int(rng.integers(len(legal)))])


def _played_until(rules: dict[str, Any] | None, reached, seed: int = 1) -> Game:
    """The first random 2-player game from ``seed`` on that reaches a position ``reached(game)``."""
    while True:
        game, rng = Game(2, rules, seed=seed), np.random.default_rng(seed)
        while not reached(game) and not game.is_over and len(game.history) < 3:
            play_randomly(game, rng, 1)
        if reached(game):
            return game
        seed += 1


def _replay_won() -> Game:
    """R19: a tie replay between seats 0 and 2, which seat 0 wins by going out."""
    game = build_game(["Y1", "", "R9 B9 W"], table={0: [("set", 4, "R4 B4 G4 Y4 W"), ("set", 2, "R2 B2 W")]},
                      phases_completed=[10, 4, 10], active=[True, False, True], replay=True, stage="play")
    game.apply(Discard(parse_card("Y1")))
    return game


BASES = {
    "fresh": lambda: Game(2, seed=1),  # seat 0 to draw
    "two_hands": lambda: _played_until(None, lambda g: len(g.history) == 2),
    "laid": lambda: _played_until(None, lambda g: any(g.laid) and g.stage == 0 and not g.history),
    "over": lambda: _played_until({"phases_to_win": 1}, lambda g: g.is_over),
    "over_advance_all": lambda: _played_until({"phases_to_win": 1, "advance_all": True}, lambda g: g.is_over),
    "over_replay": _replay_won,
}


@cache
def _saved(base: str) -> str:
    return json.dumps(BASES[base]().to_json())


def state(base: str = "two_hands") -> dict[str, Any]:
    """A fresh copy of a saved state of a real game (``BASES``)."""
    return json.loads(_saved(base))


def refused(data: dict[str, Any], *says: str) -> str:
    """The state does not load; the error says each of ``says``. Returns the message."""
    with pytest.raises(ValueError) as error:
        Game.from_json(data)
    message = str(error.value)
    for text in says:
        assert text in message, f"{text!r} not in the error {message!r}"
    return message


def set_at(data: Any, path: tuple, value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def laid_seat(data: dict[str, Any]) -> int:
    return next(s for s, p in enumerate(data["players"]) if p["laid"])


@pytest.mark.parametrize("base", BASES)
def test_saved_states_of_real_games_load_and_save_unchanged(base):
    data = state(base)
    assert Game.from_json(data).to_json() == data


def version_1(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` as format version 1 wrote it: each player's phases completed under "phase_index"."""
    old = copy.deepcopy(data)
    old["version"] = 1
    for player in old["players"]:
        player["phase_index"] = player.pop("phases_completed")
    return old


@pytest.mark.parametrize("base", ["two_hands", "over", "over_replay"])
def test_version_1_states_load_as_the_same_game_and_save_as_version_2(base):
    data = state(base)
    assert data["version"] == 2 and any(p["phases_completed"] for p in data["players"])
    assert Game.from_json(version_1(data)).to_json() == data


def test_each_version_names_the_phases_completed_its_own_way():
    data = state("two_hands")
    mixed = version_1(data)
    mixed["version"] = 2
    refused(mixed, "players[0]", "phases_completed")
    old_name_new_key = copy.deepcopy(data)
    old_name_new_key["version"] = 1
    refused(old_name_new_key, "players[0]", "phase_index")
    data["version"] = 3
    refused(data, "version 1 or 2", "version 3")


# --------------------------------------------------------------------------- 1. R7


def test_r7_no_turn_begins_at_an_empty_draw_pile_while_discards_could_be_reshuffled():
    data = state("fresh")
    assert data["stage"] == "draw" and len(data["discard_pile"]) == 1
    data["discard_pile"] = data["draw_pile"] + data["discard_pile"]
    data["draw_pile"] = []
    refused(data, "R7", "empty draw pile", f"{len(data['discard_pile'])} cards")


def test_r7_the_player_who_took_the_last_card_of_the_draw_pile_may_be_saved():
    game = Game(2, seed=1)
    game.apply(Draw())
    data = game.to_json()
    data["discard_pile"] = data["draw_pile"] + data["discard_pile"]  # the last card was just taken
    data["draw_pile"] = []
    game = Game.from_json(data)
    game.apply(next(m for m in game.legal_moves() if isinstance(m, Discard)))
    assert game.stage == 0 and len(game.draw_pile) == len(data["discard_pile"])  # reshuffled, R7
    game.apply(Draw())


# --------------------------------------------------------------------------- 2. numbers out of range

OUT_OF_RANGE = [
    (("rng", "state", "state"), -1, "rng.state.state"),
    (("rng", "state", "state"), 2**128, "rng.state.state"),
    (("rng", "state", "inc"), 2**200, "rng.state.inc"),
    (("rng", "state", "inc"), 12, "rng.state.inc"),  # even: no numpy PCG64 stream has that
    (("rng", "state", "inc"), "7", "rng.state.inc"),
    (("rng", "has_uint32"), 2**64, "rng.has_uint32"),
    (("rng", "has_uint32"), True, "rng.has_uint32"),
    (("rng", "uinteger"), -5, "rng.uinteger"),
    (("rng", "uinteger"), 2**32, "rng.uinteger"),
    (("rng", "bit_generator"), "MT19937", "rng.bit_generator"),
    (("rng", "state"), [1, 2], "rng.state"),
    (("rng",), None, "rng"),
    (("history", 0, "hand_number"), json.loads("Infinity"), "history[0].hand_number"),
    (("history", 1, "hand_number"), 1e300, "history[1].hand_number"),
    (("hand_number",), json.loads("Infinity"), "hand_number"),
    (("seed",), -1, "seed"),
    (("version",), True, "version"),
]


@pytest.mark.parametrize("path, value, field", OUT_OF_RANGE, ids=[f"{f}={v!r}"[:40] for _, v, f in OUT_OF_RANGE])
def test_numbers_out_of_range_are_value_errors_naming_the_field(path, value, field):
    data = state()
    set_at(data, path, value)
    refused(data, field, *([] if isinstance(value, (list, dict, type(None))) else [repr(value)]))


def test_rng_keys_are_checked_before_numpy_sees_them():
    data = state()
    data["rng"]["spare"] = 0  # numpy would ignore it
    refused(data, "rng has unknown key(s) ['spare']")
    data = state()
    del data["rng"]["uinteger"]
    refused(data, "rng lacks ['uinteger']")


@pytest.mark.parametrize("where", ["hand", "taken_from_discard", "discard_pile", "draw_pile", "group"])
def test_hundreds_of_copies_of_a_card_are_counted_before_they_are_stored(where):
    data = state("laid")
    seat = laid_seat(data)
    player = data["players"][seat]
    target = {"hand": player["hand"], "taken_from_discard": player["taken_from_discard"],
              "discard_pile": data["discard_pile"], "draw_pile": data["draw_pile"],
              "group": player["table"][0]["cards"]}[where]
    target.extend([target[0] if target else "W"] * 300)
    field = {"hand": f"players[{seat}].hand", "taken_from_discard": f"players[{seat}].taken_from_discard",
             "group": f"players[{seat}].table[0].cards"}.get(where, where)
    refused(data, f"{field} lists {len(target)} cards; the deck has 108")


def test_a_card_twice_too_often_in_one_hand_is_named_with_its_count():
    data = state("fresh")
    hand = data["players"][1]["hand"]
    hand += [hand[0]] * 2
    refused(data, "players[1].hand holds", f"copies of {hand[0]}", "the deck has")


# --------------------------------------------------------------------------- 3. history

HISTORY_FIELDS = [
    ("went_out", "banana", "history[1].went_out must be an integer from 0 to 1, not 'banana'"),
    ("went_out", 2, "history[1].went_out must be an integer from 0 to 1, not 2"),
    ("went_out", True, "history[1].went_out"),
    ("points", "abc", "history[1].points must be a list"),
    ("points", [0], "history[1].points must list one value per player (2), not 1"),
    ("points", [0, 0, 0], "history[1].points must list one value per player (2), not 3"),
    ("points", [-5, 0], "history[1].points[0] must be an integer >= 0, not -5"),
    ("points", [0, 2.5], "history[1].points[1] must be an integer >= 0, not 2.5"),
    ("points", [0, 7], "history[1].points[1] is 7"),
    ("made_phase", [1, 0], "history[1].made_phase[0] must be true or false, not 1"),
    ("made_phase", "yes", "history[1].made_phase must be a list"),
    ("scores", [None, 0], "history[1].scores[0] must be an integer >= 0, not None"),
    ("scores", [3, 0], "history[1].scores[0] is 3"),
    ("phases_completed", [11, 0], "history[1].phases_completed[0] must be an integer from 0 to 10, not 11"),
    ("phases_completed", [0, "1"], "history[1].phases_completed[1] must be an integer from 0 to 10"),
    ("hand_number", 0, "history[1].hand_number must be an integer >= 1, not 0"),
    ("hand_number", "2", "history[1].hand_number must be an integer >= 1, not '2'"),
]


@pytest.mark.parametrize("key, value, says", HISTORY_FIELDS, ids=[f"{k}={v!r}" for k, v, _ in HISTORY_FIELDS])
def test_a_hand_result_is_read_like_the_rest_of_the_state(key, value, says):
    data = state()
    data["history"][1][key] = value
    refused(data, says)


@pytest.mark.parametrize("change, says", [
    (lambda h: h.update(note="close one"), "history[0] has unknown key(s) ['note']"),
    (lambda h: h.pop("made_phase"), "history[0] lacks ['made_phase']"),
    (lambda h: h.clear(), "history[0] lacks"),
], ids=["unknown_key", "missing_key", "empty"])
def test_a_hand_result_has_exactly_its_six_keys(change, says):
    data = state()
    change(data["history"][0])
    refused(data, says)


@pytest.mark.parametrize("history, says", [("many", "history must be a list"), ([["R1"]], "history[0] must be an object")])
def test_history_is_a_list_of_hand_results(history, says):
    data = state()
    data["history"] = history
    refused(data, says)


def _swap_hand_numbers(data):
    history = data["history"]
    history[0]["hand_number"], history[1]["hand_number"] = history[1]["hand_number"], history[0]["hand_number"]


def _scores_not_running_sums(data):
    data["history"][1]["scores"][0] += 5
    data["players"][0]["score"] += 5


def _scores_not_those_of_the_players(data):
    data["players"][0]["score"] += 5


def _phase_lost(data):
    data["history"][0]["phases_completed"][0] = data["history"][1]["phases_completed"][0] + 1


def _phase_advanced_without_making_it(data):
    assert data["history"][1]["phases_completed"][0] == data["history"][0]["phases_completed"][0] + 1
    data["history"][1]["made_phase"][0] = False


def _went_out_with_points(data):
    seat = data["history"][1]["went_out"]
    data["history"][1]["points"][seat] += 5
    data["history"][1]["scores"][seat] += 5
    data["players"][seat]["score"] += 5


def _more_points_than_score(data):
    assert data["history"][0]["went_out"] != 0
    data["history"][0]["points"][0] = data["history"][0]["scores"][0] + 5


def _phases_not_those_of_the_players(data):
    assert not any(p["laid"] for p in data["players"])
    data["players"][0]["phases_completed"] -= 1


def _history_of_a_later_hand(data):
    for h in data["history"]:
        h["hand_number"] += 1


def _history_of_an_earlier_hand(data):
    data["hand_number"] += 1


HISTORY_CHANGES = [
    (_swap_hand_numbers, "history[1].hand_number is 1, but the hand before it was 2"),
    (_scores_not_running_sums, "history[1].scores must be history[0].scores plus history[1].points (R17)"),
    (_scores_not_those_of_the_players, "are not those after the last hand in history"),
    (_phase_lost, "history[1].phases_completed: seat 0 goes from 3 to 2"),
    (_phase_advanced_without_making_it, "history[1].phases_completed: seat 0 goes from 1 to 2"),
    (_went_out_with_points, "went out, so it made its phase and scored 0 (R16)"),
    (_more_points_than_score, "history[0]: a seat's score is lower than the points it scored in that hand"),
    (_phases_not_those_of_the_players, "phases completed [1, 2] are not those after the last hand in history [2, 2]"),
    (_history_of_a_later_hand, "the last entry of history is hand 3, but this is hand 3, so it must be hand 2"),
    (_history_of_an_earlier_hand, "the last entry of history is hand 2, but this is hand 4, so it must be hand 3"),
]


@pytest.mark.parametrize("change, says", HISTORY_CHANGES, ids=[c.__name__.strip("_") for c, _ in HISTORY_CHANGES])
def test_hand_results_agree_with_each_other_and_with_the_players(change, says):
    data = state()
    assert data["hand_number"] == 3 and data["stage"] != "game_over"
    change(data)
    refused(data, "inconsistent state", says)


# --------------------------------------------------------------------------- 4. unreachable positions


def _five_draw_cards_to_a_hand(data):
    for _ in range(5):
        data["players"][1]["hand"].append(data["draw_pile"].pop())


def _waiting_seat_with_eleven(data):
    data["players"][1]["hand"].append(data["draw_pile"].pop())


def _to_play_without_drawing(data):
    data["stage"] = "play"


def _a_hand_card_back_to_the_draw_pile(data):
    data["draw_pile"].append(data["players"][0]["hand"].pop())


def _laid_seat_takes_draw_cards(data):
    hand = data["players"][laid_seat(data)]["hand"]
    while len(hand) < 5:  # phase 1 lays 6 of the 10 cards
        hand.append(data["draw_pile"].pop())


def _a_draw_card_onto_a_group(data):
    group = data["players"][laid_seat(data)]["table"][0]
    fits = {"set": lambda c: c[1:] == str(group["value"]), "colour": lambda c: c[0] == "RBGY"[group["value"]],
            "run": lambda c: False}[group["kind"]]
    card = next(c for c in data["draw_pile"] if c == "W" or fits(c))
    data["draw_pile"].remove(card)
    group["cards"].append(card)


def _a_hand_emptied_into_the_draw_pile(data):
    data["draw_pile"] += data["players"][1]["hand"]
    data["players"][1]["hand"] = []


def _up_card_back_onto_the_draw_pile(data):
    data["draw_pile"].append(data["discard_pile"].pop())


def _score_of_seven(data):
    data["players"][0]["score"] = 7


def _skip_pending_never_discarded(data):
    data["players"][1]["skip_pending"] = True


def _turn_lost_to_no_skip(data):
    data["players"][1]["lost_turn"] = True


def _skip_pending_after_a_lost_turn(data):
    data["players"][1].update(skip_pending=True, lost_turn=True, skipped_this_hand=True)


def _current_lost_its_turn(data):
    data["players"][0].update(lost_turn=True, skipped_this_hand=True)


UNREACHABLE = [
    ("fresh", _five_draw_cards_to_a_hand, "seat 1 holds 15 cards without having laid its phase; it must hold 10 (10 dealt)"),
    ("fresh", _waiting_seat_with_eleven, "seat 1 holds 11 cards without having laid its phase; it must hold 10 (10 dealt)"),
    ("fresh", _to_play_without_drawing,
     "seat 0 holds 10 cards without having laid its phase; it must hold 11 (10 dealt, plus the card drawn this turn)"),
    ("fresh", _a_hand_card_back_to_the_draw_pile, "seat 0 holds 9 cards without having laid its phase; it must hold 10"),
    ("laid", _laid_seat_takes_draw_cards, "holds 5 cards after laying its phase, which takes 6 of its 10; it can hold at most 4"),
    ("laid", _a_draw_card_onto_a_group, "the table holds 7 cards, but the seats' hands are 6 cards short"),
    ("fresh", _a_hand_emptied_into_the_draw_pile, "seat 1 holds no cards, so it went out and the hand should have ended (R16)"),
    ("fresh", _up_card_back_onto_the_draw_pile, "the current player is to draw, but the discard pile is empty"),
    ("fresh", _score_of_seven, "players[0].score is 7, but every card scores 5, 10, 15 or 25 (R17)"),
    ("fresh", _skip_pending_never_discarded, "seat 1 has a Skip pending or lost its last turn to one, so it was skipped"),
    ("fresh", _turn_lost_to_no_skip, "seat 1 has a Skip pending or lost its last turn to one, so it was skipped"),
    ("fresh", _skip_pending_after_a_lost_turn, "skip_rule='not_twice_in_a_row' forbids aiming a Skip at it (R15)"),
    ("fresh", _current_lost_its_turn, "the current player's turn has begun, so its last turn was not lost to a Skip"),
]


@pytest.mark.parametrize("base, change, says", UNREACHABLE, ids=[c.__name__.strip("_") for _, c, _ in UNREACHABLE])
def test_positions_no_game_can_reach_are_refused(base, change, says):
    data = state(base)
    assert data["stage"] == "draw" and not data["history"] and (base != "fresh" or data["current"] == 0)
    change(data)
    refused(data, "inconsistent state", says)


def test_a_skip_may_wait_on_a_seat_whose_last_turn_was_lost_under_pending_only():
    data = state("fresh")
    data["rules"]["skip_rule"] = "pending_only"
    _skip_pending_after_a_lost_turn(data)
    Game.from_json(data)


def test_hand_sizes_of_a_game_in_play_are_those_the_loader_asks_for():
    game = Game(3, seed=4)
    rng = np.random.default_rng(4)
    for _ in range(1500):
        assert_hand_sizes_reachable(game)
        play_randomly(game, rng, 1)


def test_built_positions_may_hold_any_number_of_cards_and_say_so():
    game = build_game(["R1 R2 R3", "B1"], discard="G12", stage="draw")
    data = game.to_json()
    assert data["built"] is True
    assert Game.from_json(data).to_json() == data  # the mark survives a save
    del data["built"]
    refused(data, "seat 0 holds 3 cards without having laid its phase; it must hold 10")
    assert "built" not in Game(2, seed=1).to_json()


def test_built_positions_still_follow_the_rules_of_the_game():
    replay = build_game(["Y1", "", "R9 B9 W"], table={0: [("set", 4, "R4 B4 G4 Y4 W"), ("set", 2, "R2 B2 W")]},
                        phases_completed=[10, 4, 10], active=[True, False, True], replay=True).to_json()
    replay["players"][1]["skipped_this_hand"] = True
    refused(replay, "seat 1 sits out the tie replay but holds cards, groups or Skips of this hand")
    with pytest.raises(ValueError, match=r"an advance_all game in which a seat completed all 3 phases is over \(R20\)"):
        build_game(["R1", "R2"], rules={"advance_all": True, "phases_to_win": 3}, phases_completed=[3, 2])


# ------------------------------------------------------------ 4. the end of the game


def _points_not_those_left_in_hand(data):
    loser = 1 - data["winners"][0]
    data["history"][-1]["points"][loser] += 5
    data["history"][-1]["scores"][loser] += 5
    data["players"][loser]["score"] += 5


def _loser_named_winner(data):
    data["winners"] = [1 - data["winners"][0]]


def _made_phase_not_those_laid(data):
    loser = 1 - data["winners"][0]
    data["history"][-1]["made_phase"][loser] = not data["players"][loser]["laid"]


def _winner_took_a_card_after_going_out(data):
    data["players"][data["winners"][0]]["hand"].append(data["draw_pile"].pop())


def _two_winners(data):
    data["winners"] = [0, 1]


def _no_history(data):
    data["history"] = []


def _someone_else_to_act(data):
    data["current"] = 1 - data["current"]


def _went_out_without_making_the_phase(data):
    data["history"][-1]["made_phase"][data["winners"][0]] = False


def _winner_still_on_its_phase(data):
    data["players"][data["winners"][0]]["phases_completed"] = 0


def _advance_all_over_a_hand_early(data):
    data["rules"]["phases_to_win"] = 2


def _replay_won_by_a_seat_that_did_not_go_out(data):
    data["winners"] = [2]


GAME_OVER_CHANGES = [
    ("over", _points_not_those_left_in_hand, "but the game's last hand (history) gave it"),
    ("over", _loser_named_winner, "the game is won by the one seat with the lowest score of those that completed"),
    ("over", _made_phase_not_those_laid, "the seats that laid their phase are not those that made it in the last hand"),
    ("over", _winner_took_a_card_after_going_out, "went out in the last hand (history) but holds cards"),
    ("over", _two_winners, "the game is won by the one seat with the lowest score of those that completed"),
    ("over", _no_history, "a finished game must list the result of its last hand in history"),
    ("over", _someone_else_to_act, "went out, ending the game, so it must be the current player"),
    ("over", _went_out_without_making_the_phase, "went out, so it made its phase and scored 0 (R16)"),
    ("over", _winner_still_on_its_phase, "laid its phase in the game's last hand but completed no phase (R18)"),
    ("over_advance_all", _loser_named_winner, "an advance_all game is won by every seat with the lowest score"),
    ("over_advance_all", _advance_all_over_a_hand_early, "an advance_all game ends in the hand of the list's last phase"),
    ("over_replay", _replay_won_by_a_seat_that_did_not_go_out, "a tie replay is won by the seat that goes out"),
]


@pytest.mark.parametrize("base, change, says", GAME_OVER_CHANGES,
                         ids=[f"{b}-{c.__name__.strip('_')}" for b, c, _ in GAME_OVER_CHANGES])
def test_a_finished_game_ends_as_its_last_hand_says(base, change, says):
    data = state(base)
    last = data["history"][-1]
    assert data["stage"] == "game_over" and len(data["winners"]) == 1 and last["went_out"] == data["current"]
    change(data)
    refused(data, "inconsistent state", says)


# --------------------------------------------------------------------------- 5. card names

ALL_NAMES = [card_name(k) for k in range(NUM_KINDS)]
NOT_NAMES = ["r7", "R07", " R7", "R7 ", "R7\n", "w", "s", "Wild", "R0", "R13", "", "B 7", "Y012", "G+1",
             "R\u0661", "RR7", "7R", "W1", "S0"]


def test_every_card_name_parses_and_prints_back():
    assert len(set(ALL_NAMES)) == NUM_KINDS
    assert [parse_card(name) for name in ALL_NAMES] == list(range(NUM_KINDS))
    assert parse_cards("R7  B7\tW\nS") == parse_cards(["R7", "B7", "W", "S"])


@pytest.mark.parametrize("text", NOT_NAMES + [7, None, ["R7"]], ids=repr)
def test_only_the_documented_card_syntax_parses(text):
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


def test_the_schema_pattern_is_the_syntax_parse_card_reads():
    import jsonschema

    schema = Path(engine.__file__).resolve().parent / "state_schema.json"
    card = json.loads(schema.read_text(encoding="utf-8"))["$defs"]["card"]
    for text in ALL_NAMES + [t for t in NOT_NAMES if not t.endswith("\n")]:  # $ in a Python re takes "\n"
        valid = jsonschema.Draft202012Validator(card).is_valid(text)
        assert valid == (text in ALL_NAMES), text


@pytest.mark.parametrize("entry", ["r7", "R07", " R7", 7, None, True, ["R7"], {"card": "R7"}], ids=repr)
def test_a_card_list_entry_that_is_no_card_name_is_named_with_its_place(entry):
    data = state("fresh")
    data["players"][1]["hand"][3] = entry
    refused(data, f"players[1].hand[3] must be a card name such as 'R7', 'Y12', 'W' or 'S', not {entry!r}")


@pytest.mark.parametrize("move", [{"move": "discard", "card": "r7"}, {"move": "discard", "card": 7},
                                  {"move": "hit", "target": 0, "group": 0, "card": "R07"}], ids=repr)
def test_moves_in_a_record_use_the_same_card_names(move):
    with pytest.raises(ValueError, match=r"move\.card must be a card name such as 'R7'"):
        move_from_json(move)


# --------------------------------------------------------------------------- the property


def assert_hand_sizes_reachable(game: Game) -> None:
    """Hand sizes as the rules make them (what the loader asks, restated): a seat that has not
    laid its phase holds 10 cards, 11 while it plays its turn; one that has holds at most that
    less its phase; an active seat holds a card unless the game ended with it going out; the
    cards on the table are those the hands lack (one more if the last card went out on a hit)."""
    over = game.is_over
    went_out = game.history[-1].went_out if over else None
    played = 0
    for s in range(game.num_players):
        size = game.hand_sizes[s]
        if not game.active[s]:
            assert size == 0, (s, size)
            continue
        dealt = 10 + (not over and s == game.current and game.stage == 1)
        if game.laid[s]:
            assert size <= dealt - sum(r.size for r in PHASES[game.table_phase(s)]), (s, size)
        else:
            assert size == dealt, (s, size, dealt)
        assert size or went_out == s, s
        played += dealt - size
    on_table = sum(len(g.cards) for groups in game.table for g in groups)
    assert on_table - played in ((0, 1) if went_out is not None else (0,)), (on_table, played)


def assert_game_sound(game: Game, rng: np.random.Generator) -> None:
    """What every loaded game satisfies: every card once, hand sizes a game reaches and a discard
    pile to draw from (but in a built position), nothing under the discard pile's top card left to
    reshuffle when the draw pile is empty at the draw stage (R7), a save that loads back unchanged,
    and legal moves that play."""
    assert all_cards_accounted(game) == deck_as_kinds()
    if not game.built:
        assert_hand_sizes_reachable(game)
    if game.stage == 0:  # a turn begins after a discard (or the deal), and with the reshuffle of R7
        assert (game.discard_pile or game.built) and (game.draw_pile or len(game.discard_pile) == 1)
    saved = game.to_json()
    assert Game.from_json(copy.deepcopy(saved)).to_json() == saved
    for _ in range(8):
        if game.is_over:
            break
        legal = game.legal_moves()
        assert legal, "a game that is not over always has a legal move"
        game.apply(legal[int(rng.integers(len(legal)))])
        assert all_cards_accounted(game) == deck_as_kinds()


def assert_observations_in_bounds(data: dict[str, Any], num_players: int) -> None:
    env = raw_env(num_players=num_players)
    env.reset(options={"state": data})
    for agent in env.possible_agents:
        obs = env.observe(agent)["observation"]
        space = env.observation_space(agent)["observation"]
        outside = np.flatnonzero((obs < space.low) | (obs > space.high))
        assert not outside.size, f"{agent}: {obs[outside]} at {outside} lie outside {space.low[outside]}-{space.high[outside]}"
        assert space.contains(obs)


ODD_VALUES = [-1, 0, 1, 2, 5, 11, 12, 255, 256, 2**31, 2**64, 2**200, -(2**70), 0.5, 1.0, float("inf"), float("nan"),
              True, False, None, "", "R7", "r7", "W", "banana", "draw", [], [0], ["R7"], {}, {"a": 1}]


def _places(node: Any, path: tuple = ()) -> list[tuple]:
    """Paths of every value in the state, containers included, but not single cards (there are
    so many that they would swamp the rest; other mutations move and rename cards)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    out = []
    for key, value in items:
        if not (isinstance(key, int) and isinstance(value, str)):
            out.append(path + (key,))
            out.extend(_places(value, path + (key,)))
    return out


def _get(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def _players(data: dict[str, Any]) -> list[dict]:
    players = data.get("players")
    return [p for p in players if isinstance(p, dict)] if isinstance(players, list) else []


def _card_lists(data: dict[str, Any]) -> list[list]:
    lists = [data.get("draw_pile"), data.get("discard_pile")]
    for p in _players(data):
        lists += [p.get("hand"), p.get("taken_from_discard")]
        table = p.get("table")
        lists += [g.get("cards") for g in table if isinstance(g, dict)] if isinstance(table, list) else []
    return [lst for lst in lists if isinstance(lst, list)]


def mutate(data: dict[str, Any], how: str, rng: np.random.Generator) -> None:
    """Change a state in place the way a damaged or hand-edited file might be. Earlier changes
    may have broken the structure, so each looks before it leaps (and may do nothing)."""
    def pick(seq: list) -> Any:
        return seq[int(rng.integers(len(seq)))] if seq else None

    places = _places(data)
    if how == "value":
        set_at(data, pick(places), copy.deepcopy(pick(ODD_VALUES)))
    elif how in ("number", "flip"):
        kind = int if how == "number" else bool
        path = pick([p for p in places if type(_get(data, p)) is kind])
        if path:
            value = _get(data, path)
            set_at(data, path, not value if kind is bool else value + pick([-5, -2, -1, 1, 2, 5, 2**64]))
    elif how in ("delete_key", "add_key"):
        node = _get(data, pick([p for p in places if isinstance(_get(data, p), dict)] + [()]))
        if how == "add_key":
            node[pick(["extra", "hand", "note", "built", "built"])] = pick(ODD_VALUES + [True] * 4)
        elif node:
            del node[pick(sorted(node))]
    elif how in ("move_cards", "drop_card", "duplicate_card", "rename_card"):
        lists = _card_lists(data)
        source = pick([lst for lst in lists if lst])
        if source is None:
            return
        i = int(rng.integers(len(source)))
        if how == "move_cards":
            target = pick(lists)
            for _ in range(int(rng.integers(1, 6))):
                if source:
                    target.insert(int(rng.integers(len(target) + 1)), source.pop(min(i, len(source) - 1)))
        elif how == "drop_card":
            del source[i]
        elif how == "duplicate_card":
            pick(lists).append(source[i])
        else:
            source[i] = pick(ALL_NAMES + NOT_NAMES)
    elif how == "flood":
        lists = _card_lists(data)
        pick(lists).extend([pick(ALL_NAMES)] * int(rng.integers(250, 300)))
    elif how == "pile_to_pile":
        piles = [data.get(key) for key in ("draw_pile", "discard_pile")]
        if all(isinstance(pile, list) for pile in piles):
            source, target = piles if rng.integers(2) else piles[::-1]
            target[:0] = source  # under the other pile
            source.clear()
    elif how == "rng":
        rng_state = data.get("rng")
        places = [p for p in _places(rng_state)] if isinstance(rng_state, dict) else []
        if places:
            set_at(rng_state, pick(places), copy.deepcopy(pick(ODD_VALUES)))
    elif how == "stage":
        data["stage"] = pick(["draw", "play", "game_over"])
    elif how == "seat":
        data[pick(["current", "dealer"])] = int(rng.integers(6))
    elif how in ("swap_players", "swap_tables"):
        players = _players(data)
        if len(players) >= 2:
            a, b = (players[int(i)] for i in rng.choice(len(players), 2, replace=False))
            key = pick(sorted(set(a) & set(b))) if how == "swap_players" else "table"
            if key in a and key in b:
                a[key], b[key] = b[key], a[key]
    elif how == "history":
        history = data.get("history")
        entry = pick([h for h in history if isinstance(h, dict)]) if isinstance(history, list) else None
        if entry:
            n = len(_players(data))
            entry[pick(sorted(entry))] = copy.deepcopy(pick(ODD_VALUES + [[0] * n, [5] * n, [True] * n, list(range(n))]))
    else:
        raise AssertionError(how)


MUTATIONS = ["value", "number", "flip", "delete_key", "add_key", "move_cards", "drop_card", "duplicate_card",
             "rename_card", "flood", "pile_to_pile", "rng", "stage", "seat", "swap_players", "swap_tables", "history"]


@settings(max_examples=800, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(num_players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 500),
       changes=st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3))
def test_a_damaged_state_is_refused_or_loads_as_a_sound_game(num_players, seed, moves, changes):
    """Real states (two phases to win, so that some games end), damaged: either a ValueError, or
    a game as sound as a real one whose observations stay within the observation space."""
    game = Game(num_players, {"phases_to_win": 2}, seed=seed)
    rng = np.random.default_rng(seed)
    play_randomly(game, rng, moves)
    data = game.to_json()
    for how in changes:
        mutate(data, how, rng)
    try:
        loaded = Game.from_json(copy.deepcopy(data))
    except ValueError as e:
        assert str(e).startswith(("malformed state: ", "inconsistent state: ")), f"not a loader message: {e}"
        event("refused")
        return
    event("loaded")
    if max(loaded.hand_sizes) <= 11:  # only a built position holds more: the observation has no room for it
        assert_observations_in_bounds(copy.deepcopy(data), num_players)
    assert_game_sound(loaded, rng)


def test_advance_all_started_mid_list_ends_once_the_list_is_played_out() -> None:
    """R20 with start_phases: one hand per phase left, then the lowest total wins; phases never
    run past the list (it used to play on to 17 of 10 phases)."""
    game = Game(2, rules={"advance_all": True}, seed=1, start_phases=[8, 8])
    rng = np.random.default_rng(0)
    while not game.is_over:
        legal = game.legal_moves()
        game.apply(legal[int(rng.integers(len(legal)))])
    assert game.hand_number == 2 and game.phases_completed == [10, 10]
    assert Game.from_json(game.to_json()).winners == game.winners
