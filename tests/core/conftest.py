"""The native core's tests need it built: they are tests of the compiled part "native core"
(:mod:`tests.compiled`), which skip where it is not built, unless PHASE10_REQUIRE_COMPILED=1 (as
in .ci/run) makes that a failure."""

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:  # noqa: ARG001
    for item in items:
        if "tests/core" in str(item.fspath):
            item.add_marker(pytest.mark.compiled("native core"))
