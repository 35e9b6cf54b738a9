"""The README works as written: every ```python block runs, and every command its results
section quotes is one that results/reproduce.sh runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```python\n(.*?)^```", README, re.S | re.M)
REQUIRES = re.compile(r"#\s*requires:\s*(\S+)")


def missing_extra(extra: str) -> str | None:
    """Why the extra ``extra`` is not installed (a requirement not found), or None."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        tomllib = pytest.importorskip("tomli")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert extra in extras, f"README block requires the extra {extra!r}, which pyproject.toml does not define"
    for requirement in extras[extra]:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)
        try:
            version(name)
        except PackageNotFoundError:
            return f"{name} (extra {extra!r}) is not installed"
    return None


def test_the_readme_has_python_blocks() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i + 1}" for i in range(len(BLOCKS))])
def test_python_block_runs(code: str) -> None:
    first = code.splitlines()[0] if code.strip() else ""
    required = REQUIRES.match(first)
    if required and (reason := missing_extra(required.group(1))):
        pytest.skip(reason)
    # One torch thread: on a machine busy with other work (parallel tests), more threads than
    # cores slow a short PPO run several-fold.
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"README block failed:\n{code}\n--- stderr ---\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), "a README example should show its result"


def test_every_results_command_is_one_reproduce_sh_runs() -> None:
    results = README[README.index("\n## Results"):]
    results = results[:results.index("\n## ", 1)]
    commands = [c for c in re.findall(r"`([^`]+)`", results) if c.startswith(("phase10 ", "env PHASE10")) and " --" in c]
    assert len(commands) >= 10
    script = {line.strip().removeprefix("run ") for line in (ROOT / "results" / "reproduce.sh").read_text().splitlines()}
    assert [c for c in commands if c not in script] == []
