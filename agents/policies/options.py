"""An agent spec's options (``mcts:sims=32,width=3``) read into its config dataclass, each number
held to its range: a value outside it, of the wrong kind or an unknown key is a ``ValueError``
that says what the option takes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")


def parse_options(text: str, config: type[T], agent: str) -> T:
    """``config`` built from ``text`` (``key=value`` items split by commas; the config checks
    its ranges with :func:`check_ranges`); ``agent`` names the agent in errors."""
    kinds = {f.name: f.type for f in fields(config)}  # type: ignore[arg-type]  # a dataclass
    options: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, sep, value = item.partition("=")
        if not sep or key not in kinds:
            raise ValueError(f"bad {agent} option {item!r}; options are {sorted(kinds)} as key=value")
        kind = kinds[key]
        if kind in (str, "str"):
            options[key] = value
        elif kind in (bool, "bool"):
            if value.lower() not in ("true", "false"):
                raise ValueError(f"{agent} option {key} takes true or false, not {value!r}")
            options[key] = value.lower() == "true"
        else:
            try:
                options[key] = float(value) if kind in (float, "float") else int(value)
            except ValueError:
                raise ValueError(f"{agent} option {key} takes {'a number' if kind in (float, 'float') else 'a whole number'}, "
                                 f"not {value!r}") from None
    return config(**options)


def check_ranges(config: object, ranges: Mapping[str, tuple[float, float]], agent: str) -> None:
    """A ``ValueError`` giving the range of the first number of ``config`` outside its range."""
    for name, (low, high) in ranges.items():
        value = getattr(config, name)
        if not low <= value <= high:
            raise ValueError(f"{agent} option {name} must be from {low} to {high}, not {value}")
