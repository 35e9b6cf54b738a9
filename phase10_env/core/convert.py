"""Between the native core's slots and the Python engine's objects: rules as the core takes
them, and a slot's game as ``GameState.to_json`` data (for comparing the two, and for tests)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.cards import card_name
from ..engine.config import SKIP_RULES, RulesConfig
from ..engine.phases import KIND_NAMES, NaturalRule
from ..engine.state import FORMAT, STAGE_NAMES, VERSION


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
