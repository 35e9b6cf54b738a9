"""matplotlib for the figures the agents' tools write (tournaments, ladders, benchmark reports,
learning curves): an optional dependency, drawn to files without a display."""

from __future__ import annotations

import importlib.util
from typing import Any


def can_plot() -> bool:
    """Whether matplotlib is there to draw figures."""
    return importlib.util.find_spec("matplotlib") is not None


def pyplot(what: str) -> Any:
    """matplotlib's pyplot, drawing to files (no display); an ImportError saying that ``what``
    needs it and which extra brings it, if it is not installed."""
    if not can_plot():
        raise ImportError(f"{what} needs matplotlib (in the train extra: pip install -e \".[train]\")")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
