"""Between the native core's slots and the Python engine's objects: rules as the core takes
them, and a slot's game as ``GameState.to_json`` data (for comparing the two, and for tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine.cards import card_name
from ..engine.config import SKIP_RULES, RulesConfig
from ..engine.moves import Discard, Draw, Hit, LayDown, SeenMove
from ..engine.phases import KIND_NAMES, NaturalRule
from ..engine.state import FORMAT, STAGE_NAMES, VERSION, GameState


def rules_tuple(rules: RulesConfig) -> tuple[tuple[int, ...], int, int, int, int]:
    """The rule options as ``configure`` takes them."""
    return (rules.phases, rules.phases_to_win, int(rules.advance_all), int(rules.natural == NaturalRule.PER_GROUP),
            SKIP_RULES.index(rules.skip_rule))


def _u128(words: np.ndarray) -> int:
    return int(words[0]) | (int(words[1]) << 64)


def rng_state(pcg: np.void) -> dict[str, Any]:
    """A core generator as numpy's ``PCG64.state`` dict."""
    return {"bit_generator": "PCG64", "state": {"state": _u128(pcg["state"]), "inc": _u128(pcg["inc"])},
            "has_uint32": int(pcg["has_uint32"]), "uinteger": int(pcg["uinteger"])}


def _names(kinds: Any) -> list[str]:
    return [card_name(int(k)) for k in kinds]


def _counted(counts: np.ndarray) -> list[str]:
    return [card_name(k) for k, c in enumerate(counts) for _ in range(int(c))]


def state_json(g: np.void, rules: RulesConfig) -> dict[str, Any]:
    """The game of a slot (its ``g`` field) as ``GameState.to_json`` data, without ``history``
    (the core keeps no history of hands)."""
    n = int(g["num_players"])
    return {
        "format": FORMAT, "version": VERSION, "rules": rules.to_dict(), "num_players": n, "seed": int(g["seed"]),
        "rng": rng_state(g["rng"]), "hand_number": int(g["hand_number"]), "dealer": int(g["dealer"]),
        "current": int(g["current"]), "stage": STAGE_NAMES[int(g["stage"])], "replay": bool(g["replay"]),
        "winners": [s for s in range(n) if int(g["winners"]) >> s & 1],
        "draw_pile": _names(g["draw"][:int(g["num_draw"])]),
        "discard_pile": _names(g["discard"][:int(g["num_discard"])]),
        "players": [
            {
                "hand": _counted(g["hands"][s]),
                "taken_from_discard": _counted(g["taken"][s]),
                "phases_completed": int(g["completed"][s]),
                "laid": bool(g["laid"][s]),
                "score": int(g["scores"][s]),
                "active": bool(g["active"][s]),
                "skip_pending": bool(g["skip_pending"][s]),
                "lost_turn": bool(g["lost_turn"][s]),
                "skipped_this_hand": bool(g["skipped"][s]),
                "table": [{"kind": KIND_NAMES[int(t["kind"])], "value": int(t["value"]),
                           "cards": _names(t["cards"][:int(t["n"])])} for t in g["table"][s][:int(g["num_groups"][s])]],
            }
            for s in range(n)
        ],
    }


def _put_u128(words: np.ndarray, value: int) -> None:
    words[0], words[1] = value & (2**64 - 1), value >> 64


def load_game(slots: np.ndarray, row: int, game: GameState) -> None:
    """Write ``game`` (a position of the Python engine) into slot ``row`` of ``slots`` (its env
    settings kept, nothing in progress): the core plays on from it exactly as the engine would."""
    from . import SLOT

    slot = slots.view(SLOT)[row, 0]
    slot["g"] = np.zeros((), SLOT["g"])
    g = slot["g"]
    g["last_discard"] = -1  # a position only: no memory of how the hand came to it
    n = game.num_players
    rng = game.rng.bit_generator.state
    _put_u128(g["rng"]["state"], int(rng["state"]["state"]))
    _put_u128(g["rng"]["inc"], int(rng["state"]["inc"]))
    g["rng"]["has_uint32"], g["rng"]["uinteger"] = int(rng["has_uint32"]), int(rng["uinteger"])
    g["seed"] = game.seed
    phases, ptw, advance_all, per_group, skip_rule = rules_tuple(game.rules)
    g["rules"]["phases"][:len(phases)] = phases
    g["rules"]["num_phases"], g["rules"]["phases_to_win"] = len(phases), ptw
    g["rules"]["advance_all"], g["rules"]["per_group"], g["rules"]["skip_rule"] = advance_all, per_group, skip_rule
    g["num_players"], g["dealer"], g["current"], g["stage"] = n, game.dealer, game.current, int(game.stage)
    g["replay"], g["hand_number"] = int(game.replay), game.hand_number
    g["winners"] = sum(1 << s for s in game.winners)
    for s in range(n):
        g["hands"][s] = np.frombuffer(bytes(game.hands[s]), np.uint8)
        g["taken"][s] = np.frombuffer(bytes(game.taken_from_discard[s]), np.uint8)
        g["hand_size"][s] = game.hand_sizes[s]
        g["supply"][s] = game.number_counts[s]
        g["num_groups"][s] = len(game.table[s])
        for i, group in enumerate(game.table[s]):
            t = g["table"][s][i]
            t["kind"], t["value"], t["low"], t["high"], t["n"] = group.kind, group.value, group.low, group.high, len(group.cards)
            t["cards"][:len(group.cards)] = group.cards
        g["completed"][s], g["laid"][s], g["scores"][s] = game.phases_completed[s], game.laid[s], game.scores[s]
        g["skip_pending"][s], g["lost_turn"][s] = game.skip_pending[s], game.lost_turn[s]
        g["skipped"][s], g["active"][s] = game.skipped_this_hand[s], game.active[s]
    g["draw"][:len(game.draw_pile)], g["num_draw"] = game.draw_pile, len(game.draw_pile)
    g["discard"][:len(game.discard_pile)], g["num_discard"] = game.discard_pile, len(game.discard_pile)
    g["discard_counts"] = np.frombuffer(bytes(game.discard_counts), np.uint8)
    g["table_counts"] = np.frombuffer(bytes(game.table_counts), np.uint8)
    slot["p"] = np.zeros((), SLOT["p"])
    slot["terminated"] = slot["truncated"] = 0


LOG_WIDTH = 115
"""The int16s of one logged move as the core reads a hand's log (module.c's read_log)."""


def hand_log_rows(hand_log: Sequence[SeenMove]) -> np.ndarray:
    """A hand's public log (:attr:`SeatView.hand_log <phase10_env.engine.SeatView.hand_log>`)
    as the core's rows: seat, the discard pile's top card before the move (-1: none), the
    move's type and fields, each meld's (kind, value, size) and its cards counted by kind."""
    rows = np.zeros((len(hand_log), LOG_WIDTH), dtype=np.int16)
    for row, (seat, move, top) in zip(rows, hand_log):
        row[0], row[1], row[4] = seat, -1 if top is None else top, -1
        if type(move) is Draw:
            row[2], row[3] = 0, move.from_discard
        elif type(move) is Discard:
            row[2], row[6] = 3, move.card
            row[4] = -1 if move.target is None else move.target
        elif type(move) is Hit:
            row[2], row[4], row[5], row[6], row[7] = 2, move.target, move.group, move.card, move.low_end
        else:
            assert type(move) is LayDown
            if move.cards is None:
                raise ValueError(f"the hand's log holds a lay-down without its cards ({move}): the core needs them")
            row[2], row[8] = 1, len(move.melds)
            for i, (meld, cards) in enumerate(zip(move.melds, move.cards)):
                row[9 + 3 * i:12 + 3 * i] = meld.kind, meld.value, meld.size
                for card in cards:
                    row[15 + 50 * i + card] += 1
    return rows
