"""How a game's seed travels as JSON: as a decimal string.

Seeds are non-negative integers up to 2**63 (the env draws them there), but JSON numbers are
doubles in most languages, JavaScript among them, and exact only below 2**53: a record whose seed
went through a browser as a number would deal other cards. So wherever JSON carries a seed (a
game record, the web app's API) it is a string of decimal digits, which every language keeps
exactly; readers also take a JSON integer, as records of version 1 wrote it (exact in Python).
"""

from __future__ import annotations

import re

_DECIMAL = re.compile(r"0|[1-9][0-9]{0,39}")


def seed_to_json(seed: int) -> str:
    """``seed`` as JSON carries it."""
    return str(seed)


def seed_from_json(value: object, where: str = "seed") -> int:
    """The seed ``value`` (a decimal string, or an integer) names; a ``ValueError`` naming
    ``where`` for anything else (a float, a sign, spaces, leading zeros, a bool)."""
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ValueError(f"{where} must be a non-negative integer written as a decimal string (\"42\"), not {value!r}")
