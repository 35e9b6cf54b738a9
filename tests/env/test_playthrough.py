"""Playthroughs, as OpenSpiel keeps them: seeded games written out move by move (the table as
the player to act sees it, its legal actions, the action taken), checked in, and compared here
line by line, so any change of behaviour shows up as a readable diff.

After an intended change, rewrite them with ``PHASE10_WRITE_PLAYTHROUGHS=1 python -m pytest
tests/env/test_playthrough.py`` and review the diff.
"""

from __future__ import annotations

import difflib
import hashlib
import os
from pathlib import Path

import numpy as np
import pytest

from phase10_env import PlayerObservation, raw_env
from phase10_env.render import action_text, render_text

FOLDER = Path(__file__).resolve().parents[1] / "playthroughs"
CASES = {"2p_default_seed7": (2, {}, 7), "3p_even_phases_seed3": (3, {"phases": "even", "phases_to_win": 2}, 3)}


def playthrough(players: int, rules: dict, seed: int, max_steps: int = 400) -> str:
    env = raw_env(num_players=players, rules=rules)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    lines = [f"# {players} players, rules {rules or 'default'}, seed {seed}, uniformly random legal actions"]
    for step in range(max_steps):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        seen = env.player_observation(agent)
        view = seen.seat_view()
        legal = seen.legal_actions.tolist()
        action = int(legal[rng.integers(len(legal))])
        digest = hashlib.sha1(seen.observation.tobytes()).hexdigest()[:12]
        lines.append(f"\n## step {step}: {agent} (observation sha1 {digest})")
        lines.append(render_text(env.game, viewer=env.possible_agents.index(agent)))
        lines.append("legal: " + "; ".join(f"{a}={action_text(view, a)}" for a in legal))
        lines.append(f"action: {action} ({action_text(view, action)})")
        env.step(action)
    lines.append("\n## end\n" + render_text(env.game))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_playthrough_is_unchanged(name: str) -> None:
    text = playthrough(*CASES[name])
    path = FOLDER / f"{name}.txt"
    if os.environ.get("PHASE10_WRITE_PLAYTHROUGHS"):
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "checked in", "now"))[:80])
        pytest.fail(f"{path.name} changed; if intended, rewrite it (see the module docstring):\n{diff}")
