"""Every code block of the documentation site (docs/**/*.md) runs as written.

A page's blocks run in order, in one fresh working directory (with the checkout's ``models/``
and ``configs/`` linked in), so a later block may use what an earlier one made:

* a ``python`` block runs with this Python and must print something;
* a ``python`` block whose first line is ``# file: NAME`` is written to ``NAME`` instead (the
  module a later block imports or names);
* a ``bash`` block runs in bash (``set -euo pipefail``), ``phase10`` being this checkout's
  command;
* a block whose first line is ``# not run: REASON`` is not run, and must say why;
* a block whose first line is ``# requires: EXTRA`` is skipped when that extra is not
  installed (tests/integrations runs the ``rllib`` ones);
* ``text`` blocks are output and listings, not code.

Any other language, or a fence without one, fails, so nothing escapes the test by its label."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_readme import missing_extra

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").rglob("*.md"))
FENCE = re.compile(r"^```(.*)$", re.M)
RUNNABLE = ("python", "bash")
NOT_RUN = re.compile(r"#\s*not run:\s*(.*)")
REQUIRES = re.compile(r"#\s*requires:\s*(\S+)")
FILE = re.compile(r"#\s*file:\s*([\w.]+\.py)$")


def blocks(text: str) -> list[tuple[str, str]]:
    """``(language, code)`` of each fenced block of ``text``, in order."""
    found, fences = [], list(FENCE.finditer(text))
    assert len(fences) % 2 == 0, "a code fence is not closed"
    for opening, closing in zip(fences[::2], fences[1::2]):
        assert closing.group(1) == "", f"a fence opens inside a block at {closing.group(0)!r}"
        found.append((opening.group(1).strip(), text[opening.end() + 1:closing.start()]))
    return found


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT / "docs"))


def test_the_docs_have_blocks_to_run() -> None:
    runnable = [code for path in PAGES for language, code in blocks(path.read_text(encoding="utf-8"))
                if language in RUNNABLE and not NOT_RUN.match(code.splitlines()[0])]
    assert len(runnable) >= 15


@pytest.mark.parametrize("path", PAGES, ids=page_id)
def test_every_block_is_labelled_and_every_skip_gives_its_reason(path: Path) -> None:
    for language, code in blocks(path.read_text(encoding="utf-8")):
        assert language in (*RUNNABLE, "text"), f"{page_id(path)}: a block in {language or 'no language'!r}"
        first = code.splitlines()[0] if code.strip() else ""
        if (skipped := NOT_RUN.match(first)) is not None:
            assert len(skipped.group(1).split()) >= 3, f"{page_id(path)}: say why a block is not run: {first!r}"


def _run(language: str, code: str, cwd: Path, where: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
           "OMP_NUM_THREADS": "1", "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    if language == "python":
        command = [sys.executable, "-c", code]
    else:
        prelude = f'set -euo pipefail\nphase10() {{ "{sys.executable}" -m agents.cli "$@"; }}\n'
        command = ["bash", "-c", prelude + code]
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{where} failed:\n{code}\n--- stderr ---\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), f"{where}: an example should show its result"


@pytest.mark.parametrize("path", [p for p in PAGES if any(lang in RUNNABLE for lang, _ in blocks(p.read_text(encoding="utf-8")))],
                         ids=page_id)
def test_every_block_of_the_page_runs(path: Path, tmp_path: Path) -> None:
    for name in ("models", "configs"):
        (tmp_path / name).symlink_to(ROOT / name)
    for number, (language, code) in enumerate(blocks(path.read_text(encoding="utf-8")), start=1):
        first = code.splitlines()[0] if code.strip() else ""
        where = f"{page_id(path)}, block {number}"
        if language not in RUNNABLE or NOT_RUN.match(first):
            continue
        if (required := REQUIRES.match(first)) and missing_extra(required.group(1)):
            continue  # tests/integrations runs these where the extra is installed
        if language == "python" and (target := FILE.match(first)):
            (tmp_path / target.group(1)).write_text(code, encoding="utf-8")
            continue
        _run(language, code, tmp_path, where)
