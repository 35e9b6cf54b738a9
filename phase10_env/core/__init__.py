"""The native core: Phase 10 in C, many games at once over arrays the caller owns.

The C files beside this module are one per concern: ``game.c`` the rules, ``choices.c`` card
choices, ``codec.c`` masks and action ids, ``observe.c`` observations, ``heuristic.c`` the
heuristic player, ``vec.c`` one env slot, and ``module.c`` the binding. They follow the Python
engine (:mod:`phase10_env.engine`), codec, observation encoder and heuristic agent step by step,
so a seed plays the same game in both; ``tests/core`` checks that game by game. The Python code
stays the specification and the path that runs where no C compiler built the core. Beside them,
for the ``champion`` agent only: ``search.c`` its rollout search (:mod:`agents.policies.mcts`'s
method), ``belief.c`` what a seat may infer of the cards it cannot see, and ``history.c`` the
hand's public log replayed to weigh the hands dealt to the other seats.

A *slot* is one game with its env bookkeeping (move in progress, rewards not yet delivered,
random generators), stored as ``SLOT_BYTES`` bytes in a row of a ``uint8`` array. :data:`SLOT`
is the numpy dtype of a slot, so any field reads as ``slots.view(SLOT)["g"]["scores"]``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from ..engine.compiled import load

_core: ModuleType | None = load("phase10_env.core._core", "native core")


def native() -> ModuleType:
    """The compiled core, or an ``ImportError`` saying why it is not there."""
    if _core is None:
        raise ImportError("the native core (phase10_env.core._core) is not built, or PHASE10_PURE_PYTHON is set; "
                          "reinstall with a C compiler (pip install -e .) to build it")
    return _core


def available() -> bool:
    return _core is not None


def _dtypes(layout: list[tuple[str, int, list[tuple[str, int, str]]]]) -> dict[str, np.dtype[Any]]:
    """numpy dtypes of the C structs, from their sizes and field offsets as the compiler laid them out."""
    out: dict[str, np.dtype[Any]] = {}
    for name, size, fields in layout:
        formats = []
        for _, _, fmt in fields:
            shape, _, base = fmt.rpartition(")")
            element = out[base] if base in out else np.dtype(base)
            formats.append((element, tuple(int(x) for x in shape.strip("(").split(",") if x)) if shape else element)
        out[name] = np.dtype({"names": [f for f, _, _ in fields], "formats": formats,
                              "offsets": [o for _, o, _ in fields], "itemsize": size})
    return out


if _core is not None:
    DTYPES = _dtypes(_core.layout())
    SLOT: np.dtype[Any] = DTYPES["Slot"]
    SLOT_BYTES: int = _core.SLOT_BYTES
