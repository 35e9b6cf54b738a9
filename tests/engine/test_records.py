"""Game records as files other programs read: a record keeps its game through a JSON round trip
in a language whose numbers are doubles (JavaScript's), the loader refuses wrong types naming
the field instead of coercing them, and records written before the seed became a string load."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10_env import raw_env
from phase10_env.engine import Game
from phase10_env.engine.record import GameRecord
from tests.engine.test_copy_and_determinize import random_game


def through_doubles(data: dict) -> dict:
    """``data`` written as JSON and read back the way JavaScript's JSON.parse reads it: every
    number a double."""
    return json.loads(json.dumps(data), parse_int=float)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(2**53 + 1, 2**63 - 1) | st.integers(0, 2**53), moves=st.integers(0, 120),
       players=st.integers(2, 6))
def test_a_record_survives_a_json_round_trip_in_a_language_of_doubles(seed, moves, players):
    game = random_game(players, seed, moves)
    back = GameRecord.from_json(json.loads(json.dumps(through_doubles(game.record.to_json())),
                                           parse_float=lambda text: int(float(text))))
    assert back.seed == seed
    assert Game.from_record(back).to_json() == game.to_json()


def test_the_env_deals_seeds_that_a_double_cannot_hold_and_the_record_keeps_them():
    env = raw_env(num_players=2)
    env.reset(seed=3)
    seed = env.game.seed
    assert seed > 2**53  # the env draws seeds in [0, 2**63): most are beyond a double's integers
    data = json.loads(json.dumps(env.game.record.to_json()))
    assert data["seed"] == str(seed) and data["version"] == 2


def test_a_version_1_record_with_its_seed_as_a_big_number_still_loads():
    game = random_game(2, 2**62 + 12345, 40)
    old = game.record.to_json() | {"version": 1, "seed": game.seed}
    del old["start_phases"], old["start"]  # the first records had neither
    back = GameRecord.from_json(json.loads(json.dumps(old)))
    assert back.seed == game.seed and Game.from_record(back).to_json() == game.to_json()


def a_record() -> dict:
    return json.loads(json.dumps(random_game(2, 7, 30).record.to_json()))


def moved(field: str, value) -> dict:
    """A record with the first move's ``field`` set to ``value`` (the first move is a draw, the
    second a discard)."""
    data = a_record()
    index = 0 if field == "from_discard" else 1
    data["moves"][index] = data["moves"][index] | {field: value}
    return data


@pytest.mark.parametrize("data, words", [
    (a_record() | {"seed": 1.7}, "seed must be a non-negative integer written as a decimal string"),
    (a_record() | {"seed": "7.0"}, "seed must be"),
    (a_record() | {"seed": "-7"}, "seed must be"),
    (a_record() | {"seed": True}, "seed must be"),
    (a_record() | {"num_players": "2"}, "num_players must be an integer from 2 to 6, not '2'"),
    (a_record() | {"first_dealer": "1"}, "first_dealer must be a seat from 0 to 1, not '1'"),
    (a_record() | {"first_dealer": 1.0}, "first_dealer must be a seat"),
    (a_record() | {"version": 3}, "version must be 1 or 2"),
    (a_record() | {"start_phases": ["0", 0]}, "start_phases must be null or 2 integers"),
    (a_record() | {"start": "yes"}, "start must be null or a saved state"),
    (a_record() | {"moves": {}}, "moves must be a list"),
    (a_record() | {"rules": {"phases_to_win": "3"}}, "phases_to_win"),
    (a_record() | {"colour": "red"}, "unknown key(s) ['colour']"),
    ({k: v for k, v in a_record().items() if k != "seed"}, "lacks ['seed']"),
    (moved("from_discard", "false"), "moves[0].from_discard must be true or false, not 'false'"),
    (moved("card", "r7"), "moves[1].card must be a card name"),
    (moved("target", "1"), "moves[1].target must be a non-negative integer, not '1'"),
    (moved("extra", 1), "moves[1] (discard) has unknown key(s) ['extra']"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_the_record_loader_names_the_field_of_a_wrong_type(data, words):
    with pytest.raises(ValueError, match="malformed record") as error:
        GameRecord.from_json(data)
    assert words in str(error.value)


def test_a_hit_with_numbers_written_as_strings_is_refused():
    record = {"format": "phase10-record", "version": 2, "num_players": 2, "rules": {}, "seed": "1", "first_dealer": 1,
              "moves": [{"move": "hit", "target": "4", "group": "3", "card": "R7"}]}
    with pytest.raises(ValueError, match=r"moves\[0\]\.target must be a non-negative integer, not '4'"):
        GameRecord.from_json(record)
