"""Playthroughs, as OpenSpiel keeps them: seeded games written out move by move (the table as
the player to act sees it, every seat's observation as its named non-zero parts, the legal
actions, the action taken, the rewards and returns), checked in, and compared here line by
line, so any change of behaviour or of the encoding shows up as a readable diff.

After an intended change, rewrite them with ``PHASE10_WRITE_PLAYTHROUGHS=1 python -m pytest
tests/env/test_playthrough.py`` and review the diff.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from phase10_env import OBS_SLICES, raw_env
from phase10_env.engine import COLOURS, Game, build_game, card_name
from phase10_env.observation import GROUP_FIELDS, GROUP_VALUES, SEAT_BLOCK, SEAT_FIELDS, SEAT_VALUES
from phase10_env.render import action_text, render_text

FOLDER = Path(__file__).resolve().parents[1] / "playthroughs"
CARD_PARTS = ("hand", "discard_top", "discard_counts", "table_counts", "pending_cards")


def tie_in_the_last_hand() -> Game:
    """player_0 goes out by discarding R5 with 25 points on the board; player_1 keeps a Wild
    worth 25: both complete the last phase on 25 points, so a tie replay follows (R19)."""
    return build_game(["R5", "W"], discard="G12", draw_top="R6", rules={"phases": [1]}, scores=[25, 0],
                      table={0: [("set", 7, "R7 B7 G7"), ("set", 3, "R3 B3 G3")],
                             1: [("set", 8, "R8 B8 G8"), ("set", 4, "R4 B4 G4")]})


CASES: dict[str, tuple[int, dict, int, Callable[[], Game] | None, int]] = {
    "2p_default_seed7": (2, {}, 7, None, 250),
    "3p_even_phases_seed3": (3, {"phases": "even", "phases_to_win": 2}, 3, None, 250),
    "2p_advance_all_seed5": (2, {"advance_all": True, "phases": [1, 2]}, 5, None, 250),
    "2p_tie_replay": (2, {"phases": [1]}, 1, tie_in_the_last_hand, 150),
}


def _fields(offsets: dict[str, int], total: int) -> list[tuple[str, int, int]]:
    """(name, start, size) of each field of a block laid out by ``offsets``."""
    starts = sorted(offsets.items(), key=lambda item: item[1]) + [("", total)]
    return [(name, start, nxt - start) for (name, start), (_, nxt) in zip(starts, starts[1:])]


SEAT_PARTS, GROUP_PARTS = _fields(SEAT_FIELDS, SEAT_VALUES), _fields(GROUP_FIELDS, GROUP_VALUES)


FLAGS = {"present", "active", "laid", "skip_pending", "lost_turn", "skipped_this_hand", "dealer", "to_act",
         "wild_low", "wild_high"}
#: How to name the hot index of a one-hot field.
INDEX_NAMES: dict[str, Callable[[int], str]] = {
    "phase": lambda i: str(i + 1), "numbers": lambda i: str(i + 1), "kind": ("set", "run", "colour").__getitem__,
    "colour": COLOURS.__getitem__}


def _values(values: np.ndarray, parts: list[tuple[str, int, int]]) -> str:
    out = []
    for name, start, size in parts:
        part = values[start:start + size]
        if size == 1:
            if part[0]:
                out.append(name if name in FLAGS else f"{name}={part[0]:g}")
        elif part.any():
            label = INDEX_NAMES[name]
            out.append(f"{name}={','.join(label(i) for i in np.flatnonzero(part))}")
    return " ".join(out)


def _group(values: np.ndarray) -> str:
    return _values(values, GROUP_PARTS) if values.any() else ""


def observation_text(obs: np.ndarray) -> list[str]:
    """The observation's non-zero parts, by the names of ``OBS_SLICES`` (cards by name)."""
    lines = []
    for name, part in OBS_SLICES.items():
        values = obs[part]
        if not values.any():
            continue
        if name in CARD_PARTS:
            cards = [f"{card_name(k)}x{values[k]:g}" if values[k] != 1 else card_name(k) for k in np.flatnonzero(values)]
            lines.append(f"{name}: {' '.join(cards)}")
        elif name == "seats":
            for offset, block in enumerate(values.reshape(-1, SEAT_BLOCK)):
                if block.any():
                    groups = [_group(block[SEAT_VALUES + i * GROUP_VALUES:SEAT_VALUES + (i + 1) * GROUP_VALUES])
                              for i in range(2)]
                    laid = "".join(f" | group {i}: {g}" for i, g in enumerate(groups) if g)
                    lines.append(f"seat +{offset}: {_values(block[:SEAT_VALUES], SEAT_PARTS)}{laid}")
        elif name == "pending_groups":
            groups = [_group(values[i * GROUP_VALUES:(i + 1) * GROUP_VALUES]) for i in range(2)]
            lines.append(f"{name}: " + " | ".join(g for g in groups if g))
        else:
            hot = np.flatnonzero(values)
            lines.append(f"{name}: " + " ".join(f"{i}" if values[i] == 1 else f"{i}:{values[i]:g}" for i in hot))
    return lines


def playthrough(players: int, rules: dict, seed: int, start: Callable[[], Game] | None, max_steps: int) -> str:
    env = raw_env(num_players=players, rules=rules, rewards="shaped")
    env.reset(seed=seed, options={"state": start().to_json()} if start else None)
    rng = np.random.default_rng(seed)
    lines = [f"# {players} players, rules {rules or 'default'}, seed {seed}"
             f"{', from ' + start.__name__ if start else ''}, uniformly random legal actions, shaped rewards"]
    returns = {a: 0.0 for a in env.possible_agents}
    for step in range(max_steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        seen = env.player_observation(agent)
        view = seen.seat_view()
        legal = seen.legal_actions.tolist()
        action = int(legal[rng.integers(len(legal))])
        lines.append(f"\n## step {step}: {agent}")
        lines.append(render_text(env.game, viewer=env.possible_agents.index(agent)))
        for other in env.possible_agents:
            lines.append(f"observation of {other}:")
            lines += [f"  {line}" for line in observation_text(env.observe(other)["observation"])]
        lines.append("legal: " + "; ".join(f"{a}={action_text(view, a)}" for a in legal))
        lines.append(f"action: {action} ({action_text(view, action)})")
        env.step(action)
        rewards = {a: r for a, r in env.rewards.items() if r}
        for a, r in rewards.items():
            returns[a] += r
        if rewards:
            lines.append(f"rewards: {rewards}; returns: {({a: round(r, 4) for a, r in returns.items()})}")
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


def test_the_tie_replay_case_reaches_a_tie_replay() -> None:
    text = (FOLDER / "2p_tie_replay.txt").read_text(encoding="utf-8")
    assert "(tie replay)" in text


def test_the_advance_all_case_plays_one_hand_per_phase() -> None:
    text = (FOLDER / "2p_advance_all_seed5.txt").read_text(encoding="utf-8")
    assert "Hand 2 " in text and "Hand 3 " not in text
