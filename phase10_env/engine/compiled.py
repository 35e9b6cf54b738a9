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


def load(name: str) -> ModuleType | None:
    """The compiled module ``name`` (absolute), or ``None`` when it is not built or
    ``PHASE10_PURE_PYTHON`` is set."""
    if PURE_PYTHON:
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
