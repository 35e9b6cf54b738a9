"""The tests of a compiled part (setup.py's C extensions, and any native core to come) skip when
the part does not run, except with ``PHASE10_REQUIRE_COMPILED=1`` (CI), where that is a failure.

Mark such a test ``@pytest.mark.compiled("lay-down search")`` (or a module, with ``pytestmark``),
naming the part as :func:`phase10_env.compiled_parts` does; ``tests/conftest.py`` calls
:func:`require_compiled` before each marked test.
"""

from __future__ import annotations

import os

import pytest

from phase10_env import compiled_parts

REQUIRE_ENV = "PHASE10_REQUIRE_COMPILED"


def require_compiled(label: str) -> None:
    """Skip the calling test unless the compiled part ``label`` runs; fail instead under
    ``PHASE10_REQUIRE_COMPILED=1``. A label no compiled part has is a failure either way."""
    running = compiled_parts()
    if label not in running:
        pytest.fail(f"no compiled part is called {label!r}; the parts are {sorted(running)}", pytrace=False)
    if running[label]:
        return
    message = f"the compiled {label} is not built or is turned off (python setup.py build_ext --inplace; PHASE10_PURE_PYTHON)"
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{message}, and {REQUIRE_ENV}=1 requires it", pytrace=False)
    pytest.skip(message)
