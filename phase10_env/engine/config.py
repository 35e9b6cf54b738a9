"""The rule options (R11, R15, R19, R20) as one validated, frozen object.

Build it from keyword arguments (``RulesConfig(skip_rule="pending_only")``), from a mapping
(``RulesConfig.from_dict``) or from a YAML file (``RulesConfig.from_yaml``); the files under
``configs/rules/`` are the named variants (``load_rules("even_phases")``), shipped inside the
package too, so they work from an installed wheel. An unknown option or
a bad value raises ``ValueError`` naming it.

>>> load_rules("even_phases").phases
(2, 4, 6, 8, 10)
>>> RulesConfig(skip_rule="pending_only", phases_to_win=3).phases_to_win
3
>>> RulesConfig(skip_rule="never")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: rules option 'skip_rule' must be one of ['not_twice_in_a_row', ...], not 'never'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeAlias, get_args

from .phases import PHASES, NaturalRule

NaturalRuleName = Literal["per_phase", "per_group"]
SkipRuleName = Literal["not_twice_in_a_row", "pending_only", "once_per_hand"]
NATURAL_RULES: tuple[NaturalRuleName, ...] = get_args(NaturalRuleName)
SKIP_RULES: tuple[SkipRuleName, ...] = get_args(SkipRuleName)
PHASE_PRESETS: dict[str, tuple[int, ...]] = {"all": tuple(range(1, 11)), "even": (2, 4, 6, 8, 10)}

def shipped_configs() -> Path:
    """The ``configs/`` folder that comes with the package: in an installed wheel, the copy
    inside it (``phase10_env/configs``, made by setup.py); in a source checkout, the
    repository's own ``configs/``."""
    inside = Path(str(resources.files("phase10_env"))) / "configs"
    return inside if inside.is_dir() else Path(__file__).resolve().parents[2] / "configs"


#: Where the named rule variants live.
RULES_DIR = shipped_configs() / "rules"


@dataclass(frozen=True, init=False)
class RulesConfig:
    """Rule options. Defaults are the standard game.

    * ``phases``: the phases played, in order: numbers 1-10, or a preset ``"all"`` / ``"even"``.
    * ``phases_to_win``: how many phases of that list complete the game (default: all of them).
    * ``advance_all``: play one hand per phase, everyone advances, lowest total score wins.
    * ``natural_rule``: ``"per_phase"`` (one natural card in the whole lay-down) or
      ``"per_group"`` (one in every group).
    * ``skip_rule``: ``"not_twice_in_a_row"``, ``"pending_only"`` or ``"once_per_hand"`` (R15).
    """

    phases: tuple[int, ...]
    phases_to_win: int
    advance_all: bool
    natural_rule: NaturalRuleName
    skip_rule: SkipRuleName

    def __init__(self, phases: Iterable[int] | str = PHASE_PRESETS["all"], phases_to_win: int | None = None,
                 advance_all: bool = False, natural_rule: NaturalRuleName = "per_phase",
                 skip_rule: SkipRuleName = "not_twice_in_a_row") -> None:
        """Checks every option; ``phases_to_win=None`` means all of ``phases``, so the attribute
        is always a number."""
        chosen = phases
        if isinstance(chosen, str):
            if chosen not in PHASE_PRESETS:
                raise ValueError(f"rules option 'phases': unknown preset {chosen!r}; use one of {sorted(PHASE_PRESETS)} "
                                 "or a list of phase numbers")
            chosen = PHASE_PRESETS[chosen]
        try:
            numbers = tuple(chosen)
        except TypeError:
            raise ValueError(f"rules option 'phases' must be a list of phase numbers, not {phases!r}") from None
        if not numbers or any(isinstance(p, bool) or not isinstance(p, int) or p not in PHASES for p in numbers):
            raise ValueError(f"rules option 'phases' must be a non-empty list of numbers 1-10, not {phases!r}")
        to_win = len(numbers) if phases_to_win is None else phases_to_win
        if isinstance(to_win, bool) or not isinstance(to_win, int) or not 1 <= to_win <= len(numbers):
            raise ValueError(f"rules option 'phases_to_win' must be an integer from 1 to {len(numbers)} (the number of "
                             f"phases), not {phases_to_win!r}")
        if not isinstance(advance_all, bool):
            raise ValueError(f"rules option 'advance_all' must be true or false, not {advance_all!r}")
        if natural_rule not in NATURAL_RULES:
            raise ValueError(f"rules option 'natural_rule' must be one of {list(NATURAL_RULES)}, not {natural_rule!r}")
        if skip_rule not in SKIP_RULES:
            raise ValueError(f"rules option 'skip_rule' must be one of {list(SKIP_RULES)}, not {skip_rule!r}")
        # Frozen: set the checked values past the dataclass's __setattr__.
        object.__setattr__(self, "phases", numbers)
        object.__setattr__(self, "phases_to_win", to_win)
        object.__setattr__(self, "advance_all", advance_all)
        object.__setattr__(self, "natural_rule", natural_rule)
        object.__setattr__(self, "skip_rule", skip_rule)

    @cached_property
    def natural(self) -> NaturalRule:
        return NaturalRule.PER_GROUP if self.natural_rule == "per_group" else NaturalRule.PER_PHASE

    @classmethod
    def option_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> RulesConfig:
        if not isinstance(options, Mapping):
            raise ValueError(f"rules must be a mapping of option names to values, not {type(options).__name__}")
        unknown = sorted(set(options) - set(cls.option_names()))
        if unknown:
            raise ValueError(f"unknown rules option(s) {unknown}; valid options are {cls.option_names()}")
        return cls(**options)

    @classmethod
    def from_yaml(cls, path: str | Path) -> RulesConfig:
        import yaml

        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f) or {}
        try:
            return cls.from_dict(data)
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None

    def to_dict(self) -> dict[str, Any]:
        """Options as plain data; ``phases_to_win`` is None when it is all the phases, so that
        replacing ``phases`` (:meth:`with_options`) keeps that meaning."""
        d = asdict(self)
        d["phases"] = list(self.phases)
        if self.phases_to_win == len(self.phases):
            d["phases_to_win"] = None
        return d

    def with_options(self, **options: Any) -> RulesConfig:
        return RulesConfig.from_dict({**self.to_dict(), **options})


RulesSpec: TypeAlias = "RulesConfig | Mapping[str, Any] | str | Path | None"
"""Rules as :func:`load_rules` takes them: a config, a mapping of options, a YAML path, the name
of a variant in ``configs/rules``, or None (the standard game)."""


def load_rules(rules: RulesSpec = None, **options: Any) -> RulesConfig:
    """Rules from a config, a mapping, a YAML path or the name of a file in ``configs/rules``,
    with keyword options applied on top."""
    if rules is None:
        base = RulesConfig()
    elif isinstance(rules, RulesConfig):
        base = rules
    elif isinstance(rules, Mapping):
        base = RulesConfig.from_dict(rules)
    elif not isinstance(rules, (str, Path)):
        raise ValueError(f"rules must be a RulesConfig, a mapping of rule options, a YAML path or the name of a "
                         f"rule variant, not {rules!r}")
    else:
        path = Path(rules)
        if not path.suffix and not path.exists():
            path = RULES_DIR / f"{rules}.yaml"
            if not path.exists():
                known = sorted(p.stem for p in RULES_DIR.glob("*.yaml"))
                raise ValueError(f"no rules file {str(rules)!r}; named rules are {known}, or give a YAML path")
        base = RulesConfig.from_yaml(path)
    return base.with_options(**options) if options else base
