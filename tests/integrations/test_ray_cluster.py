"""Joining a Ray cluster: a head node started on loopback (``ray start --head --port=P``), a
training run and a tournament that join it through ``RAY_ADDRESS`` with its token, and clear
errors for an address where nothing listens or a missing token."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.integrations._require import require

pytestmark = [pytest.mark.integrations, pytest.mark.slow]
require("ray")

ROOT = Path(__file__).resolve().parents[2]
RAY = str(Path(sys.executable).with_name("ray"))
TINY = ["backend=rllib", "name=cluster", "total_timesteps=400", "checkpoint_every=400", "rllib.num_env_runners=1",
        "rllib.train_batch_size=400", "rllib.minibatch_size=100", "rllib.num_epochs=1", "rllib.hiddens=[16]",
        "eval.every=0", "eval.final_games=2", "eval.workers=1", "env.rules={phases_to_win: 1}"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    return {**env, "OMP_NUM_THREADS": "1", **extra}


@pytest.fixture(scope="module")
def head_node(tmp_path_factory):
    """A one-machine Ray cluster: its head on ``127.0.0.1:P``, run with ``--block`` in a process
    group of its own so that stopping it stops exactly it (``ray stop`` would stop every Ray here)."""
    port = _free_port()
    log = (tmp_path_factory.mktemp("head") / "head.log").open("w")
    head = subprocess.Popen([RAY, "start", "--head", f"--port={port}", "--num-cpus=3", "--include-dashboard=false",
                             "--disable-usage-stats", "--block"], env=_clean_env(), stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if head.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the head node did not come up: {Path(log.name).read_text()[-2000:]}")
                time.sleep(1)
        token = subprocess.run([RAY, "get-auth-token"], env=_clean_env(), capture_output=True, text=True,
                               check=True).stdout.strip()
        yield f"127.0.0.1:{port}", token
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
        log.close()
        # `ray stop` would also forget the head as this machine's current cluster; do that part too.
        record = Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster"
        if record.exists() and record.read_text().strip().endswith(f":{port}"):
            record.unlink()


def _run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=540)


def test_training_joins_the_cluster_through_ray_address(head_node, tmp_path) -> None:
    address, token = head_node
    env = _clean_env(RAY_ADDRESS=address, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token)
    done = _run([sys.executable, str(ROOT / "train.py"), str(ROOT / "configs" / "rllib.yaml"), *TINY], env, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "3 CPUs in the cluster" in done.stdout, "it joined the head (3 CPUs), not a Ray of its own"
    summary = json.loads((tmp_path / "runs" / "cluster" / "eval.json").read_text())
    assert summary["env_steps"] >= 400 and (tmp_path / "runs" / "cluster" / "policy.pt").exists()

    games = _run([sys.executable, "-m", "agents.cli", "eval", "--agents", "heuristic", "random", "--games", "4",
                  "--rule", "phases_to_win=1", "--ray", "--json", str(tmp_path / "eval.json")],
                 env | {"PYTHONPATH": str(ROOT)}, tmp_path)
    assert games.returncode == 0, games.stderr[-3000:]
    assert json.loads((tmp_path / "eval.json").read_text())["agents"][0]["games"] == 4


def test_joining_without_the_token_says_how_to_pass_it(head_node, tmp_path) -> None:
    address, _ = head_node
    done = _run([sys.executable, "-m", "agents.cli", "eval", "--agents", "heuristic", "random", "--games", "2",
                 "--address", address], _clean_env(PYTHONPATH=str(ROOT)), tmp_path)
    assert done.returncode != 0
    assert address in done.stderr and "RAY_AUTH_TOKEN" in done.stderr


def test_an_address_where_nothing_listens_is_a_clear_error(tmp_path) -> None:
    address = f"127.0.0.1:{_free_port()}"
    started = time.monotonic()
    done = _run([sys.executable, str(ROOT / "train.py"), str(ROOT / "configs" / "rllib.yaml"), *TINY,
                 "--address", address], _clean_env(), tmp_path)
    assert done.returncode != 0 and f"cannot join the Ray cluster at '{address}'" in done.stderr
    assert time.monotonic() - started < 60
    assert not (tmp_path / "runs").exists(), "nothing is half-made"
