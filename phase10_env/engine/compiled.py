"""Loading the optional compiled parts that setup.py builds at install (C versions of hot spots;
each follows Python reference code that stays in the package).

Set the environment variable ``PHASE10_PURE_PYTHON=1`` to run the Python reference code
instead, for example to compare the two or to debug.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE_PYTHON = os.environ.get("PHASE10_PURE_PYTHON", "") not in ("", "0")
_RUNNING: dict[str, bool] = {}


def load(name: str, label: str) -> ModuleType | None:
    """The compiled module ``name`` (absolute), or ``None`` when it is not built or
    ``PHASE10_PURE_PYTHON`` is set; :func:`compiled_parts` reports it under ``label``."""
    module = None
    if not PURE_PYTHON:
        try:
            module = importlib.import_module(name)
        except ImportError:
            module = None
    _RUNNING[label] = module is not None
    return module


def compiled_parts() -> dict[str, bool]:
    """Which compiled parts run (True) and which run their Python reference (False)."""
    return dict(_RUNNING)
