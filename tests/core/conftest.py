"""The native core's tests need it built; where it is not, they skip, unless
PHASE10_REQUIRE_COMPILED=1 (as in .ci/run), which makes a missing core a failure."""

import os

import pytest

from phase10_env.core import available


def pytest_collection_modifyitems(config, items):  # noqa: ARG001 - pytest's hook signature
    if available():
        return
    if os.environ.get("PHASE10_REQUIRE_COMPILED", "") not in ("", "0"):
        raise pytest.UsageError("PHASE10_REQUIRE_COMPILED is set but the native core (phase10_env.core._core) is not "
                                "built: pip install -e . with a C compiler")
    skip = pytest.mark.skip(reason="the native core is not built (no C compiler at install)")
    for item in items:
        if "tests/core" in str(item.fspath):
            item.add_marker(skip)
