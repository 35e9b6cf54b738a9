"""The native core plays the same games as the Python engine: the same deals, legal masks,
observations (planning features included), rewards, heuristic choices and states, action for
action, under every rule variant and at 2-6 players. Actions mix the heuristic's choices (so
lay-downs, hits and whole games happen) with uniformly random legal ones (so odd positions do)."""

import numpy as np
import pytest

from tests.core.twin import Twin, play_twin

VARIANTS = [None, "even_phases", "advance_all", "short_game", "strict_naturals", "skip_once_per_hand",
            "skip_pending_only"]


@pytest.mark.parametrize("rules", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_whole_games_match(rules, players):
    for seed in range(2):
        rng = np.random.default_rng(seed)
        twin = Twin(seed + 100 * players, players, rules, start_phases="random" if seed else "first")
        assert play_twin(twin, rng, heuristic_share=0.85) > 0


@pytest.mark.parametrize("players", [2, 5])
def test_random_play_and_hand_episodes_match(players):
    """Uniformly random play reaches empty draw piles and reshuffles (R7); hand episodes end
    with the first hand."""
    for seed in range(2):
        rng = np.random.default_rng(seed)
        twin = Twin(seed, players, episode="hand" if seed else "game", rewards="outcome" if seed else "shaped")
        play_twin(twin, rng, heuristic_share=0.0 if seed else 0.2)


@pytest.mark.slow
def test_thousands_of_games_match():
    """The full check (``pytest -m slow``): 2,000 games over every variant and player count."""
    for game in range(2000):
        rng = np.random.default_rng(game)
        rules = VARIANTS[game % len(VARIANTS)]
        players = 2 + game % 5
        play_twin(Twin(game, players, rules, start_phases="random" if game % 3 == 0 else "first"), rng,
                  heuristic_share=[0.95, 0.8, 0.5][game % 3], state_every=50)
