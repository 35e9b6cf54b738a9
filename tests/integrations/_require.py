"""Optional packages for the integration tests: missing ones skip the test module, except when
``PHASE10_REQUIRE_INTEGRATIONS=1`` (the CI stage that installs them), where missing ones fail."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

REQUIRED = os.environ.get("PHASE10_REQUIRE_INTEGRATIONS") == "1"


def require(module: str) -> ModuleType:
    """``module``, imported; if it is not installed, skip the calling test module (fail under
    ``PHASE10_REQUIRE_INTEGRATIONS=1``)."""
    if REQUIRED:
        try:
            return importlib.import_module(module)
        except ImportError as e:
            pytest.fail(f"PHASE10_REQUIRE_INTEGRATIONS=1 but {module} cannot be imported: {e}", pytrace=False)
    return pytest.importorskip(module)
