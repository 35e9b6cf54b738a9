"""Saved states of random games: corrupted ones are refused with ``ValueError``, finished games
and tie replays save and load back, states follow the published schema."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import phase10_env.engine as engine
from phase10_env.engine import (
    Game,
    RulesConfig,
    load_rules,
)
from tests.engine import reference as ref
from tests.engine.random_play_checker import HYP, STATS, VARIANTS, saved_and_loaded, validate_schema
from tests.engine.random_play_helpers import play_checked, play_plain

pytestmark = pytest.mark.usefixtures("random_play_report")


def _state_at(n: int, rules: RulesConfig, seed: int, steps: int) -> dict:
    """The state after ``steps`` random moves, or the last one before the game ended (finished
    games are tested on their own in test_finished_game_state_round_trips)."""
    game = Game(n, rules, seed=seed)
    rng = np.random.default_rng([seed, 1])
    state = game.to_json()
    for _ in range(steps):
        legal = game.legal_moves()
        game.apply(legal[int(rng.integers(len(legal)))])
        if game.is_over:
            break
        state = game.to_json()
    return state


def _places_with_cards(d: dict):
    """(container list, index) pairs of every card in the state."""
    out = [(d["draw_pile"], i) for i in range(len(d["draw_pile"]))]
    out += [(d["discard_pile"], i) for i in range(len(d["discard_pile"]))]
    for p in d["players"]:
        out += [(p["hand"], i) for i in range(len(p["hand"]))]
        for g in p["table"]:
            out += [(g["cards"], i) for i in range(len(g["cards"]))]
    return out


def _card_lists(d: dict):
    lists = [d["draw_pile"], d["discard_pile"]]
    for p in d["players"]:
        lists.append(p["hand"])
    return lists


CORRUPTIONS = [
    "remove_card", "duplicate_card", "phases_completed_high", "phases_completed_negative", "phases_completed_type",
    "unknown_top_key", "unknown_player_key", "unknown_group_key", "missing_key", "score_type", "score_negative",
    "laid_type", "hand_type", "card_name", "current_high", "current_negative", "current_type", "dealer_high",
    "stage_name", "num_players_mismatch", "players_type", "group_wrong_card", "winners_while_playing",
    "rules_unknown_option", "format", "replace_card",
]


def corrupt(d: dict, how: str, rng: np.random.Generator) -> dict | None:
    """A copy of state ``d`` broken in one way, or None if this state cannot be broken that way."""
    d = copy.deepcopy(d)
    n = d["num_players"]
    players = d["players"]
    s = int(rng.integers(n))
    if how == "remove_card":
        spots = _places_with_cards(d)
        lst, i = spots[int(rng.integers(len(spots)))]
        del lst[i]
    elif how == "duplicate_card":
        spots = _places_with_cards(d)
        lst, i = spots[int(rng.integers(len(spots)))]
        dest = _card_lists(d)[int(rng.integers(len(_card_lists(d))))]
        dest.append(lst[i])
    elif how == "replace_card":
        # swap one card for another kind: one kind one short, the other one over
        lists = [lst for lst in _card_lists(d) if lst]
        lst = lists[int(rng.integers(len(lists)))]
        i = int(rng.integers(len(lst)))
        lst[i] = "W" if lst[i] != "W" else "R1"
    elif how == "phases_completed_high":
        ptw = d["rules"]["phases_to_win"]
        players[s]["phases_completed"] = ptw + int(rng.integers(1, 5)) if ptw else 11
    elif how == "phases_completed_negative":
        players[s]["phases_completed"] = -1
    elif how == "phases_completed_type":
        players[s]["phases_completed"] = [str(players[s]["phases_completed"]), 0.5, None, True][int(rng.integers(4))]
    elif how == "unknown_top_key":
        d["colour_of_the_table"] = "green"
    elif how == "unknown_player_key":
        players[s]["nickname"] = "Ann"
    elif how == "unknown_group_key":
        groups = [g for p in players for g in p["table"]]
        if not groups:
            return None
        groups[int(rng.integers(len(groups)))]["owner"] = 0
    elif how == "missing_key":
        keys = sorted(d)
        del d[keys[int(rng.integers(len(keys)))]]
    elif how == "score_type":
        players[s]["score"] = [str(players[s]["score"]), float(players[s]["score"]) + 0.5, None][int(rng.integers(3))]
    elif how == "score_negative":
        players[s]["score"] = -5
    elif how == "laid_type":
        players[s]["laid"] = [1, "yes", None][int(rng.integers(3))]
    elif how == "hand_type":
        players[s]["hand"] = " ".join(players[s]["hand"]) or "R1"
    elif how == "card_name":
        lists = [lst for lst in _card_lists(d) if lst]
        lst = lists[int(rng.integers(len(lists)))]
        lst[int(rng.integers(len(lst)))] = ["R13", "X7", "R0", "", "Wild"][int(rng.integers(5))]
    elif how == "current_high":
        d["current"] = n + int(rng.integers(0, 3))
    elif how == "current_negative":
        d["current"] = -1
    elif how == "current_type":
        d["current"] = [str(d["current"]), float(d["current"]), None][int(rng.integers(3))]
    elif how == "dealer_high":
        d["dealer"] = n
    elif how == "stage_name":
        d["stage"] = "discard"
    elif how == "num_players_mismatch":
        d["num_players"] = n + 1 if n < 6 else n - 1
    elif how == "players_type":
        d["players"] = {str(i): p for i, p in enumerate(players)}
    elif how == "group_wrong_card":
        spots = [(g, i) for p in players for g in p["table"] for i, c in enumerate(g["cards"]) if c != "W"]
        if not spots:
            return None
        g, i = spots[int(rng.integers(len(spots)))]
        # a natural card that breaks the group: another number (set / run) or another colour
        c = engine.parse_card(g["cards"][i])
        num, col = ref.number_of(c), ref.colour_of(c)
        if g["kind"] == "colour":
            new = engine.card(num, (col + 1) % 4)
        else:
            new = engine.card(num % 12 + 1, col)
        g["cards"][i] = engine.card_name(new)
    elif how == "winners_while_playing":
        if d["stage"] == "game_over":
            d["winners"] = []
        else:
            d["winners"] = [0]
    elif how == "rules_unknown_option":
        d["rules"]["house_rule"] = True
    elif how == "format":
        d["version"] = 99
    else:
        raise AssertionError(how)
    return d


@settings(max_examples=300, **HYP)
@given(n=st.integers(2, 6), variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1),
       steps=st.integers(0, 600), how=st.sampled_from(CORRUPTIONS))
def test_malformed_states_are_rejected(n, variant, seed, steps, how):
    rules = load_rules(variant, phases_to_win=2) if variant != "even_phases" else load_rules(variant)
    state = _state_at(n, rules, seed, steps)
    try:
        Game.from_json(state)
    except ValueError:
        # A reachable state that does not load is a bug of its own, caught by the round-trip
        # tests (test_tie_replays_..., test_finished_game_...); here we need a loadable one.
        STATS["malformed_base_not_loadable"] += 1
        assume(False)
    bad = corrupt(state, how, np.random.default_rng([seed, 3]))
    if bad is None:
        return
    try:
        Game.from_json(bad)
    except ValueError:
        STATS["malformed_rejected"] += 1
        return
    except Exception as e:  # noqa: BLE001
        raise AssertionError(f"corruption {how!r} raised {type(e).__name__}: {e} instead of ValueError") from e
    raise AssertionError(f"corruption {how!r} of a {n}-player {variant} state (seed {seed}, {steps} steps) loaded without error")


def test_finished_game_state_round_trips():
    """Saving and loading must work for every state to_json writes, the final one included:
    ``Game.from_json(game.to_json())`` of a finished game gives the same state back."""
    failures = []
    played = 0
    for i, (variant, k) in enumerate([(v, k) for v in VARIANTS for k in (1, 2, 3)]):
        for n in range(2, 7):
            seed = 500 + 10 * i + n
            rules = load_rules(variant, phases_to_win=k)
            game, _ = play_plain(n, rules, seed)
            played += 1
            try:
                final, again = saved_and_loaded(game)
            except ValueError as e:
                failures.append(f"{n} players, {variant} phases_to_win={k}, seed {seed}: {e}")
                continue
            if again.to_json() != final:
                failures.append(f"{n} players, {variant} phases_to_win={k}, seed {seed}: loads as another state")
    STATS["games"] += played
    STATS["round_trip_games"] += played
    assert not failures, f"{len(failures)} of {played} finished games do not load back:\n" + "\n".join(failures[:8])


def test_tie_replays_play_and_load():
    """R19 tie replays: find games (3-6 players, two phases) that reach one, play them again with
    every check, and save / load the state at the start of each replay."""
    rules = load_rules("default", phases_to_win=2)
    found = []
    for n in range(3, 7):
        for seed in range(40):
            game, _ = play_plain(n, rules, seed)
            STATS["games"] += 1
            if game.history and len(game.history) > 1 and any(not a for a in game.active):
                found.append((n, seed))
    assert len(found) >= 4, f"too few tie replays to test: {found}"
    failures: list[str] = []
    for n, seed in found:
        play_checked(n, rules, seed, tie_loads=failures)
        STATS["tie_games_checked"] += 1
    assert not failures, (f"{len(failures)} of {len(found)} tie-replay states do not load back "
                          f"(R19 replay, save/load):\n" + "\n".join(failures[:6]))


def test_saved_states_follow_the_published_schema():
    validate_schema(Game(3, seed=5).to_json())
