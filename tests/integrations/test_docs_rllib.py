"""The documentation's Python blocks that need the rllib extra (first line ``# requires: rllib``)
run as written; the main suite skips them where Ray is not installed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integrations._require import require

pytestmark = pytest.mark.integrations
require("ray")

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = [b for page in sorted((ROOT / "docs").rglob("*.md"))
          for b in re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)
          if re.match(r"#\s*requires:\s*rllib\b", b)]


def test_the_docs_show_rllib_code() -> None:
    assert BLOCKS


@pytest.mark.slow
@pytest.mark.parametrize("code", BLOCKS, ids=[f"rllib_block{i + 1}" for i in range(len(BLOCKS))])
def test_rllib_block_runs(code: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")} | {"OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"docs block failed:\n{code}\n--- stderr ---\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), "a docs example should show its result"
