"""R20 variants and the other rule options (R11 natural_rule, R15 skip_rule) as configuration."""

import dataclasses
from pathlib import Path

import pytest

from phase10_env.engine import Game, RulesConfig, load_rules
from tests.engine.p10_rules_helpers import (
    NATURAL_RULES,
    SKIP_RULES,
)

CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs" / "rules"


def test_r20_default_is_the_standard_game():
    rules = RulesConfig()
    assert tuple(rules.phases) == tuple(range(1, 11))
    assert rules.phases_to_win == 10
    assert rules.advance_all is False
    assert rules.natural_rule == "per_phase"
    assert rules.skip_rule == "not_twice_in_a_row"
    assert load_rules(None) == rules
    assert load_rules("default") == rules
    assert Game(2, seed=0).rules == rules


@pytest.mark.parametrize(
    "phases, expected",
    [("all", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)), ("even", (2, 4, 6, 8, 10)), ([1, 5, 9], (1, 5, 9)), ([10], (10,))],
)
def test_r20_phases_option(phases, expected):
    rules = RulesConfig(phases=phases)
    assert tuple(rules.phases) == expected
    assert rules.phases_to_win == len(expected)  # default: all listed phases
    game = Game(3, rules=rules, seed=1)
    assert [game.phase_of(s) for s in range(3)] == [expected[0]] * 3


@pytest.mark.parametrize("n", [1, 3, 5, 7, 10])
def test_r20_phases_to_win_option(n):
    rules = RulesConfig(phases_to_win=n)
    assert rules.phases_to_win == n


@pytest.mark.parametrize(
    "name, expected",
    [
        ("default", {}),
        ("even_phases", {"phases": (2, 4, 6, 8, 10), "phases_to_win": 5}),
        ("advance_all", {"advance_all": True}),
        ("short_game", {"phases_to_win": 5}),
        ("strict_naturals", {"natural_rule": "per_group"}),
        ("skip_once_per_hand", {"skip_rule": "once_per_hand"}),
        ("skip_pending_only", {"skip_rule": "pending_only"}),
    ],
)
def test_r20_named_rule_files(name, expected):
    want = dataclasses.asdict(RulesConfig())
    want["phases"] = tuple(want["phases"])
    want.update(expected)
    for rules in (load_rules(name), RulesConfig.from_yaml(CONFIG_DIR / f"{name}.yaml"), load_rules(CONFIG_DIR / f"{name}.yaml")):
        got = dataclasses.asdict(rules)
        got["phases"] = tuple(got["phases"])
        assert got == want


def test_r20_from_dict_and_overrides():
    rules = RulesConfig.from_dict({"phases": "even", "skip_rule": "pending_only"})
    assert tuple(rules.phases) == (2, 4, 6, 8, 10) and rules.skip_rule == "pending_only"
    rules = load_rules("short_game", natural_rule="per_group", advance_all=True)
    assert rules.phases_to_win == 5 and rules.natural_rule == "per_group" and rules.advance_all is True
    rules = load_rules({"phases": [1, 2, 3]}, phases_to_win=2)
    assert tuple(rules.phases) == (1, 2, 3) and rules.phases_to_win == 2


@pytest.mark.parametrize(
    "bad, key",
    [
        ({"phase": "all"}, "phase"),
        ({"bogus": 1}, "bogus"),
        ({"phases": "odd"}, "phases"),
        ({"phases": [0]}, "phases"),
        ({"phases": [11]}, "phases"),
        ({"phases": []}, "phases"),
        ({"phases_to_win": 0}, "phases_to_win"),
        ({"phases_to_win": 11}, "phases_to_win"),
        ({"phases": "even", "phases_to_win": 6}, "phases_to_win"),
        ({"natural_rule": "per_card"}, "natural_rule"),
        ({"skip_rule": "never"}, "skip_rule"),
        ({"advance_all": "sometimes"}, "advance_all"),
    ],
)
def test_r20_unknown_key_or_bad_value_is_rejected_naming_the_key(bad, key):
    with pytest.raises(ValueError, match=key):
        RulesConfig.from_dict(bad)
    with pytest.raises(ValueError, match=key):
        load_rules(bad)
    with pytest.raises(ValueError, match=key):
        Game(2, rules=bad, seed=0)


def test_r20_rules_are_fixed_for_the_game():
    rules = RulesConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.phases_to_win = 3  # type: ignore[misc]
    game = Game(2, rules="short_game", seed=0)
    assert game.rules.phases_to_win == 5


@pytest.mark.parametrize("natural_rule", NATURAL_RULES)
@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r20_options_combine_and_survive_save_and_load(natural_rule, skip_rule):
    from phase10_env.engine import Game as G

    rules = load_rules({"phases": "even", "natural_rule": natural_rule, "skip_rule": skip_rule})
    game = G(3, rules=rules, seed=2)
    again = G.from_json(game.to_json())
    assert again.rules == rules
    assert again.rules.natural_rule == natural_rule and again.rules.skip_rule == skip_rule
