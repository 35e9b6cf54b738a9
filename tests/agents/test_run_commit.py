"""The commit a run records: what it played by, and whether the code differed from it."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from agents.training.ship import commit


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _git(tmp_path, "init", "-q")
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "policy.py").write_text("DEALS = 1024\n")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "ladder.txt").write_text("the last ladder\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "start")
    monkeypatch.chdir(tmp_path / "agents")  # from a subfolder too, the whole tree is compared
    return tmp_path


def test_a_clean_tree_records_the_bare_commit(repo: Path) -> None:
    assert commit() == _git(repo, "rev-parse", "HEAD")


def test_an_edited_agent_is_a_local_change(repo: Path) -> None:
    (repo / "agents" / "policy.py").write_text("DEALS = 256\n")
    assert commit() == _git(repo, "rev-parse", "HEAD") + " + local changes"


def test_a_run_rewriting_its_own_log_is_not(repo: Path) -> None:
    (repo / "results" / "ladder.txt").write_text("")  # what results/reproduce.sh does before a run
    assert commit() == _git(repo, "rev-parse", "HEAD")


def test_outside_a_checkout_it_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert commit() == "unknown (not a git checkout)"
