"""Fixtures of the engine tests."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.engine.random_play_checker import STATS


@pytest.fixture(scope="module")
def random_play_report() -> Iterator[None]:
    """Print what the tests of a module played (with ``-s``); the modules use it for all their tests."""
    t0 = time.time()
    yield
    keys = sorted(k for k in STATS if k not in ("games", "moves"))
    print(f"\n[random play] {STATS['games']} games, {STATS['moves']} checked moves in {time.time() - t0:.1f} s; "
          + ", ".join(f"{k} {STATS[k]}" for k in keys))
