"""An install that works without the repository: the wheel carries the named rule variants and
training configs, and the installed package finds them from any directory (issue 15)."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the built wheel installed (not the checkout)."""
    base = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(ROOT)],
                   check=True, capture_output=True, text=True)
    (wheel,) = (base / "dist").glob("phase10-*.whl")
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, capture_output=True, text=True)
    return env_dir


def run(env_dir: Path, args: list[str], cwd: Path) -> str:
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    done = subprocess.run(args, cwd=cwd, env=environ, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_tournament_with_a_named_variant_runs_from_another_directory(installed: Path, tmp_path: Path) -> None:
    out = run(installed, [str(installed / "bin" / "phase10"), "eval", "--agents", "heuristic", "random",
                          "--rules", "even_phases", "--games", "4", "--workers", "1"], cwd=tmp_path)
    assert "heuristic" in out and "4 games" in out


def test_every_named_config_and_variant_loads_from_the_installed_package(installed: Path, tmp_path: Path) -> None:
    names = sorted(p.stem for p in (ROOT / "configs").glob("*.yaml"))
    variants = sorted(p.stem for p in (ROOT / "configs" / "rules").glob("*.yaml"))
    code = ("import sys, phase10_env\n"
            "from agents.training.config import load_config\n"
            "from phase10_env.engine.config import load_rules\n"
            "assert 'site-packages' in phase10_env.__file__, phase10_env.__file__\n"
            f"print([load_config(n).name for n in {names!r}])\n"
            f"print([load_rules(v).phases_to_win for v in {variants!r}])\n")
    out = run(installed, [str(installed / "bin" / "python"), "-c", code], cwd=tmp_path)
    assert out.splitlines()[0] == str([n for n in names])
