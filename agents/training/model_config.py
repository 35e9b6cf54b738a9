"""The champion's learned models are each trained from one section of a YAML config
(``configs/belief/champion.yaml``: ``belief``, ``wins``) by one command of the same shape,
``python -m agents.training.NAME CONFIG [--out PATH]``; this reads the section and runs it."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import yaml

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

C = TypeVar("C", bound="DataclassInstance")  # a frozen dataclass of the section's options, ``out`` among them


def load_section(path: str | Path, section: str, options: type[C]) -> C:
    """The ``section`` of the YAML file at ``path`` as ``options`` (lists become tuples); an
    option it does not know is a ``ValueError`` naming it."""
    data = dict((yaml.safe_load(Path(path).read_text()) or {}).get(section, {}))
    unknown = set(data) - {f.name for f in fields(options)}
    if unknown:
        raise ValueError(f"{path}: unknown {section} options {sorted(unknown)}")
    return options(**{key: tuple(value) if isinstance(value, list) else value for key, value in data.items()})


def train_command(argv: Sequence[str] | None, description: str, section: str, options: type[C],
                  train: Callable[[C], object]) -> None:
    """``CONFIG [--out PATH]``: train from the config's ``section``, writing to ``PATH`` if given."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("config")
    parser.add_argument("--out", help=f"where to write the model (default: the config's {section}.out)")
    args = parser.parse_args(argv)
    cfg = load_section(args.config, section, options)
    train(replace(cfg, out=args.out) if args.out else cfg)
