"""Random legal play, short games and full ones, every player count and rule variant, checked
move by move against an independent bookkeeping of the rules (see
:mod:`tests.engine.random_play_checker` for what is checked); and moves naming no card."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10_env.engine import (
    SKIP,
    WILD,
    Discard,
    Draw,
    Game,
    Hit,
    IllegalMoveError,
    RulesConfig,
    load_rules,
)
from tests.engine.random_play_checker import HYP, STATS, VARIANTS
from tests.engine.random_play_helpers import check_same_seed, play_checked, rules_for, short_rules

pytestmark = pytest.mark.usefixtures("random_play_report")


@settings(max_examples=450, **HYP)
@given(rules=short_rules(), seed=st.integers(0, 2**32 - 1))
def test_random_short_games(rules, seed):
    n = 2 + ((seed * 0x9E3779B1) >> 20) % 5  # about uniform over 2-6 (hypothesis would favour 2)
    game = play_checked(n, rules, seed)
    STATS["short_games"] += 1
    if seed % 4 == 0:
        check_same_seed(n, rules, seed, game)


FULL_GAMES = [
    (2, "default", 11), (3, "strict_naturals", 12), (4, "even_phases", 13), (5, "advance_all", 14),
    (6, "short_game", 15), (2, "skip_once_per_hand", 16), (3, "skip_pending_only", 17),
]


@pytest.mark.parametrize("n, variant, seed", FULL_GAMES)
def test_random_full_games(n, variant, seed):
    rules = load_rules(variant)
    game = play_checked(n, rules, seed, snapshots=3, probe_rate=0.01, laydown_rate=0.01)
    STATS["full_games"] += 1
    check_same_seed(n, rules, seed, game)


def test_moves_naming_no_card_raise_illegal_move_error():
    """A move naming something that is no card (kind -1, 50, 99) or no seat is illegal: apply
    must raise IllegalMoveError (and change nothing), like for any other illegal move."""
    game = Game(3, seed=4)
    game.apply(Draw(False))
    before = game.to_json()
    bad_moves = [Discard(-1), Discard(50), Discard(99), Hit(0, 0, 50), Hit(0, 0, -1), Hit(7, 0, WILD),
                 Discard(SKIP, 7)]
    failures = []
    for m in bad_moves:
        assert not game.is_legal(m)
        try:
            game.apply(m)
        except IllegalMoveError:
            pass
        except Exception as e:  # noqa: BLE001
            failures.append(f"{m!r}: {type(e).__name__}: {e}")
        else:
            failures.append(f"{m!r} was applied")
        assert game.to_json() == before
    assert not failures, "illegal moves not reported as IllegalMoveError: " + "; ".join(failures)


@pytest.mark.slow
def test_thousands_of_random_games():
    """Thousands of games, all player counts and variants, some full-length, cheap checks."""
    t0 = time.time()
    games = moves = 0
    rng = np.random.default_rng(20240601)
    configs = []
    for variant in VARIANTS:
        for k in (1, 2, 3):
            configs.append(rules_for(variant, k))
    for _ in range(30):
        phases = [int(p) for p in rng.integers(1, 11, size=int(rng.integers(1, 6)))]
        configs.append(RulesConfig(phases=phases, phases_to_win=int(rng.integers(1, len(phases) + 1)),
                                   advance_all=bool(rng.random() < 0.3),
                                   natural_rule=str(rng.choice(["per_phase", "per_group"])),
                                   skip_rule=str(rng.choice(["not_twice_in_a_row", "pending_only", "once_per_hand"]))))
    full_configs = [load_rules(v) for v in VARIANTS]
    seed = 0
    for _ in range(12):
        for n in range(2, 7):
            for rules in configs:
                seed += 1
                game = play_checked(n, rules, seed, level="cheap")
                games += 1
                moves += len(game.record.moves)
            for rules in full_configs:
                seed += 1
                game = play_checked(n, rules, seed, level="cheap")
                games += 1
                moves += len(game.record.moves)
    dt = time.time() - t0
    print(f"\n[slow random play] {games} games, {moves} moves in {dt:.0f} s; "
          f"tie replays {STATS['tie_replays']}, hands without going out {STATS['hands_without_going_out']}")
