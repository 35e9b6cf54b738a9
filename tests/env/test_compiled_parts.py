"""The compiled parts (setup.py) change speed only: with them and with the Python reference code
(``PHASE10_PURE_PYTHON=1``) the same seeds give the same games, observations and masks."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SCRIPT = """
import hashlib, json
import numpy as np
from phase10_env import raw_env
from phase10_env import compiled_parts

digest, steps = hashlib.sha256(), 0
for players in (2, 4, 6):
    env = raw_env(num_players=players)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    for agent in env.agent_iter(4000):
        obs, reward, terminated, truncated, _ = env.last()
        digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes() + repr(reward).encode())
        legal = obs["action_mask"].nonzero()[0]
        env.step(None if terminated or truncated else int(legal[int(rng.random() * len(legal))]))
        steps += 1
print(json.dumps({"compiled": compiled_parts(), "digest": digest.hexdigest(), "steps": steps}))
"""


def play(pure_python: bool) -> dict:
    env = {**os.environ, "PHASE10_PURE_PYTHON": "1" if pure_python else "0"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.compiled("lay-down search")
@pytest.mark.compiled("observation composer")
def test_compiled_and_pure_python_play_the_same_games() -> None:
    compiled, pure = play(pure_python=False), play(pure_python=True)
    assert all(compiled["compiled"].values()) and not any(pure["compiled"].values())
    assert compiled["steps"] == pure["steps"] == 12_000
    assert compiled["digest"] == pure["digest"]
