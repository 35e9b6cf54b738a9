"""Suite-wide settings."""

from __future__ import annotations

import pytest

from tests.compiled import require_compiled


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Tests marked ``compiled(label)`` need that compiled part (see :mod:`tests.compiled`)."""
    for mark in item.iter_markers("compiled"):
        require_compiled(*mark.args)


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory):
    """stable-baselines3 makes a log folder in the system's temp directory for every model
    trained without one; keep those in pytest's own temporary tree."""
    patch = pytest.MonkeyPatch()
    patch.setenv("SB3_LOGDIR", str(tmp_path_factory.mktemp("sb3_logs")))
    yield
    patch.undo()
