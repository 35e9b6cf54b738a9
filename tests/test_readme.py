"""The README works as written: every ```python block runs; it links only files in the
repository. And every command the documentation's measured figures quote is one that
results/reproduce.sh runs."""

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
    assert len(BLOCKS) >= 1


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


def _section(page: str, heading: str) -> str:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_every_measured_command_is_one_reproduce_sh_runs() -> None:
    quoted = _section("evaluation.md", "Measured strength") + _section("performance.md", "The AEC env and the engine")
    commands = [c for c in re.findall(r"`([^`]+)`", quoted) if c.startswith(("phase10 ", "env PHASE10")) and " --" in c]
    assert len(commands) >= 10
    script = {line.strip().removeprefix("run ") for line in (ROOT / "results" / "reproduce.sh").read_text().splitlines()}
    assert [c for c in commands if c not in script] == []


def test_the_readme_links_only_files_in_the_repository() -> None:
    """A clone has what the README links to (the rules, the license, the docs), nothing outside."""
    links = [link for link in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README) if "://" not in link]
    assert "docs/rules.md" in links and "LICENSE" in links
    for link in links:
        target = (ROOT / link).resolve()
        assert target.is_relative_to(ROOT) and target.exists(), f"the README links {link}, which is not in the repository"


def test_the_rules_page_has_every_rule_and_every_rule_option() -> None:
    from phase10_env.engine.config import NATURAL_RULES, SKIP_RULES, RulesConfig

    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    anchors = re.findall(r'<a id="(R\d+)"></a>\n### \1\. ', rules)
    assert anchors == [f"R{i}" for i in range(1, 21)]
    options = rules[rules.index("## Every rule option"):]
    for name in RulesConfig.option_names():
        assert f"| `{name}` |" in options, name
    for value in (*NATURAL_RULES, *SKIP_RULES, "all", "even"):
        assert f"`{value}`" in options, value
    cited = {int(n) for path in ROOT.glob("phase10_env/**/*.py") for n in re.findall(r"\bR(\d+)\b", path.read_text())}
    assert cited and cited <= set(range(1, 21)), "the code cites a rule the rules page does not have"


def test_the_virtual_environment_the_readme_makes_is_ignored_by_git() -> None:
    assert "python -m venv .venv" in README
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", ".venv/bin/python"], cwd=ROOT)
    assert ignored.returncode == 0, ".gitignore does not ignore .venv"


def test_the_license_file_is_the_one_pyproject_names() -> None:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        tomllib = pytest.importorskip("tomli")
    license_name = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["license"]["text"]
    assert license_name == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")
