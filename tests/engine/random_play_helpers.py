"""Helpers for the random-play tests: playing random games with every check (the
:class:`~tests.engine.random_play_checker.Checker`, save / load, replay), strategies for the rules
hypothesis draws."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import strategies as st

from phase10_env.engine import (
    Game,
    GameRecord,
    RulesConfig,
    TieReplay,
    load_rules,
)
from tests.engine.random_play_checker import MOVE_CAP, STATS, VARIANTS, Checker, saved_and_loaded, validate_schema

# --------------------------------------------------------------------------- playing


def rules_for(variant, phases_to_win=None) -> RulesConfig:
    if isinstance(variant, RulesConfig):
        return variant
    return load_rules(variant, phases_to_win=phases_to_win) if phases_to_win else load_rules(variant)


def play_plain(n: int, rules: RulesConfig, seed: int, cap: int = MOVE_CAP) -> tuple[Game, int]:
    """Random legal play with no checks (the choices depend only on ``seed``)."""
    game = Game(n, rules, seed=seed)
    rng = np.random.default_rng([seed, 1])
    moves = 0
    while not game.is_over:
        legal = game.legal_moves()
        game.apply(legal[int(rng.integers(len(legal)))])
        moves += 1
        assert moves <= cap, f"game of {n} players, rules {rules}, seed {seed} exceeds {cap} moves"
    return game, moves


def play_checked(n: int, rules: RulesConfig, seed: int, *, snapshots: int = 2, level: str = "full",
                 probe_rate: float = 0.02, laydown_rate: float = 0.05, tie_loads: list | None = None) -> Game:
    """One random game with every check; also save/load, determinism and record replay.
    With ``tie_loads`` (a list), the state at the start of every tie replay is also saved and
    loaded; a state that does not load is noted in the list (the game plays on)."""
    game = Game(n, rules, seed=seed)
    rng = np.random.default_rng([seed, 1])
    check_rng = np.random.default_rng([seed, 2])  # for probes, so the moves match play_plain
    checker = Checker(game, check_rng, level=level, probe_rate=probe_rate, laydown_rate=laydown_rate)
    snaps = []  # (move index, clone)
    snap_prob = snapshots / 400.0
    full = level == "full"
    if full:
        snaps.append((0, saved_and_loaded(game)[1]))
    moves = []
    try:
        while not game.is_over:
            legal = game.legal_moves()
            assert legal
            move = legal[int(rng.integers(len(legal)))]
            if full and len(snaps) <= snapshots and check_rng.random() < snap_prob:
                try:
                    state, clone = saved_and_loaded(game)
                except ValueError as e:
                    raise AssertionError(f"the state after move {len(moves)} does not load back: {e}") from e
                assert clone.to_json() == state, "from_json(to_json()) is not the same state"
                assert clone.legal_moves() == legal, "a loaded game offers other moves"
                snaps.append((len(moves), clone))
                STATS["snapshots"] += 1
            events = checker.step(move)
            moves.append(move)
            if tie_loads is not None and any(isinstance(e, TieReplay) for e in events):
                try:
                    state, clone = saved_and_loaded(game)
                except ValueError as e:
                    tie_loads.append(f"{n} players, rules {rules.to_dict()}, seed {seed}, after move {len(moves)}: {e}")
                else:
                    assert clone.to_json() == state
                    snaps.append((len(moves), clone))
            assert len(moves) <= MOVE_CAP, f"game exceeds {MOVE_CAP} moves: {n} players, {rules}, seed {seed}"
    except AssertionError as e:
        raise AssertionError(f"[{n} players, rules {rules.to_dict()}, seed {seed}, move {len(moves)}: "
                             f"{game!r}] {e}") from e
    STATS["games"] += 1
    STATS[f"games_{n}p"] += 1
    checker.finish_checks()
    if not full:
        return game
    final = game.to_json()
    validate_schema(final)
    # save / load continues identically
    for idx, clone in snaps:
        for m in moves[idx:]:
            clone.apply(m)
        assert clone.to_json() == final, f"a game loaded after move {idx} plays on differently (seed {seed})"
    # the record replays to the same state, also through JSON
    assert game.record.moves == moves
    assert Game.from_record(game.record).to_json() == final
    rec = GameRecord.from_json(json.loads(json.dumps(game.record.to_json())))
    assert Game.from_record(rec).to_json() == final
    if snaps and len(snaps) > 1:
        idx, clone = snaps[-1]
        assert Game.from_record(clone.record).to_json() == final, "a loaded game's record does not replay"
    return game


def check_same_seed(n: int, rules: RulesConfig, seed: int, game: Game) -> None:
    again, moves = play_plain(n, rules, seed)
    assert again.to_json() == game.to_json(), "the same seed and choices gave another game"
    assert again.record.moves == game.record.moves


# --------------------------------------------------------------------------- strategies

short_named = st.builds(lambda name, k: (name, k),
                        st.sampled_from(VARIANTS),
                        st.integers(1, 3))


@st.composite
def short_rules(draw) -> RulesConfig:
    """Mostly short games: a named variant cut to 1-3 phases, or a custom list of phases."""
    if draw(st.integers(0, 2)) == 0:
        phases = draw(st.lists(st.integers(1, 10), min_size=1, max_size=4))
        k = draw(st.integers(1, min(3, len(phases))))
        extra = draw(st.fixed_dictionaries({
            "natural_rule": st.sampled_from(["per_phase", "per_group"]),
            "skip_rule": st.sampled_from(["not_twice_in_a_row", "pending_only", "once_per_hand"]),
            "advance_all": st.sampled_from([False, False, True]),
        }))
        return RulesConfig(phases=phases, phases_to_win=k, **extra)
    name, k = draw(short_named)
    if name == "even_phases":
        k = min(k, 2)
    return load_rules(name, phases_to_win=k)
