"""Random play is deterministic: the same seed and choices give the same game, in every variant,
and the game record replays to it."""

from __future__ import annotations

import pytest

from phase10_env.engine import Game, load_rules
from tests.engine.random_play_checker import STATS, VARIANTS
from tests.engine.random_play_helpers import play_plain

pytestmark = pytest.mark.usefixtures("random_play_report")


def test_same_seed_same_game_every_variant():
    for i, variant in enumerate(VARIANTS):
        rules = load_rules(variant, phases_to_win=1)
        for n in range(2, 7):
            a, _ = play_plain(n, rules, 1000 + i * 10 + n)
            b, _ = play_plain(n, rules, 1000 + i * 10 + n)
            assert a.to_json() == b.to_json()
            assert Game.from_record(a.record).to_json() == a.to_json()
            STATS["games"] += 2
            STATS["determinism_games"] += 2
