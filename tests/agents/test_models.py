"""The trained models shipped in models/: small, documented, loadable without training, and
playing legal games; the slow check re-measures the win rate their cards state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.evaluation.tournament import run_tournament
from agents.policies.registry import make_agent
from agents.training.ship import MAX_BYTES
from phase10_env import raw_env
from phase10_env.play import play

MODELS = Path(__file__).resolve().parents[2] / "models"
SHIPPED = sorted(MODELS.glob("*.zip"))


def test_the_default_and_strong_models_are_shipped_with_their_cards() -> None:
    assert {p.stem for p in SHIPPED} >= {"default", "strong"}
    for path in SHIPPED:
        assert path.stat().st_size <= MAX_BYTES, f"{path.name} is over the size limit"
        card = path.with_suffix(".md").read_text(encoding="utf-8")
        for needed in ("learner steps", "wall time", "machine", "commit", "95% interval", f"ppo:models/{path.name}"):
            assert needed in card, f"{path.with_suffix('.md').name} does not say {needed!r}"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_a_shipped_model_plays_legal_games(path: Path, monkeypatch) -> None:
    monkeypatch.chdir(MODELS.parent)  # the documented spec is relative to the checkout
    agent = make_agent(f"ppo:models/{path.name}")
    env = raw_env(num_players=2, max_steps=3000)
    env.reset(seed=3)

    def choose(seat: str) -> int:  # the model in both seats, every choice checked against the mask
        seen = env.player_observation(seat)
        action = agent.act(seen)
        assert seen.action_mask[action], f"{path.name} chose an illegal action"
        return action

    assert play(env, choose) > 0
    result = run_tournament([f"ppo:models/{path.name}", "heuristic"], 2, games=2, seed=0, workers=1, progress=False)
    assert result.entry_stats()[0].games == 2


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_a_shipped_model_still_wins_what_its_card_says(path: Path, monkeypatch) -> None:
    """1,000 fresh games (another seed than the run's final evaluation) against the heuristic:
    the new 95% interval overlaps the card's."""
    monkeypatch.chdir(MODELS.parent)
    card = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))["evaluation"]["heuristic"]["agents"][0]
    result = run_tournament([f"ppo:models/{path.name}", "heuristic"], 2, games=1000, seed=77, progress=False)
    low, high = result.entry_stats()[0].ci95
    assert low <= card["ci95"][1] and card["ci95"][0] <= high, (result.entry_stats()[0].win_rate, card)
