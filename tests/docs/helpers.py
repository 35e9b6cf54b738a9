"""The site's own modules (docs/hooks.py, docs/screenshots.py) for the tests: docs/ is not a
package, so each is loaded from its file."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def docs_module(name: str) -> ModuleType:
    """``docs/<name>.py``, loaded as the module ``docs_<name>``."""
    spec = importlib.util.spec_from_file_location(f"docs_{name}", ROOT / "docs" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
