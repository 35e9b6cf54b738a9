"""Agents in game terms: they play only legal moves, see only their own seat, and are
reproducible."""

from __future__ import annotations

import numpy as np
import pytest

from agents import HeuristicAgent, RandomAgent, make_agent
from agents.evaluation.tournament import run_tournament
from agents.policies.human import HumanAgent
from phase10_env import PlayerObservation, raw_env
from phase10_env.actions import ACTIONS, DISCARD_FIRST, DRAW_DECK, DRAW_DISCARD, MELD_IDS
from phase10_env.engine import Game, build_game, card
from phase10_env.engine.phases import GroupKind, Meld
from tests.env.play import hidden_cards_shuffled, random_steps


def observation_at(game: Game, agent: str | None = None) -> PlayerObservation:
    env = raw_env(num_players=game.num_players, rules=game.rules)
    env.reset(options={"state": game.to_json()})
    return env.player_observation(agent)


def test_make_agent_knows_the_names_and_rejects_others() -> None:
    assert isinstance(make_agent("random", seed=1), RandomAgent)
    assert make_agent("heuristic:skip_target=next").config.skip_target == "next"
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("alphazero")
    with pytest.raises(ValueError, match="bad heuristic option"):
        make_agent("heuristic:colour=blue")
    with pytest.raises(ValueError, match="needs a model path"):
        make_agent("ppo")


@pytest.mark.parametrize("players", [2, 4, 6])
def test_heuristic_plays_whole_games_with_legal_actions_only(players: int) -> None:
    env = raw_env(num_players=players)
    env.reset(seed=players)
    bot = HeuristicAgent()
    for _ in range(3000):
        if env.terminations[env.agent_selection]:
            break
        obs = env.player_observation()
        action = bot.act(obs)
        assert obs.action_mask[action] == 1
        env.step(action)


def test_heuristic_ignores_hidden_cards() -> None:
    """Shuffling the cards it cannot see (other hands, the draw pile) never changes its choice."""
    bot = HeuristicAgent()
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(6):
        env = raw_env(num_players=3)
        env.reset(seed=seed)
        for step, _ in enumerate(random_steps(env, rng, 600, eager=True)):
            if step % 23 or env.pending is not None:
                continue
            seat = env.game.current
            shuffled = hidden_cards_shuffled(env.game, seat, rng)
            assert bot.act(observation_at(shuffled)) == bot.act(env.player_observation())
            checked += 1
    assert checked > 50


def test_heuristic_takes_a_discard_that_completes_a_set_and_ignores_a_useless_one() -> None:
    hand = "R7 B7 G3 Y3 B3 R11 B12 Y5 G9 R1"
    helps = build_game([hand, "R2 R4 R6 R8 R10 B2 B4 B6 B8 B10"], discard="Y7", stage="draw")
    useless = build_game([hand, "R2 R4 R6 R8 R10 B2 B4 B6 B8 B10"], discard="Y10", stage="draw")
    bot = HeuristicAgent()
    assert bot.act(observation_at(helps)) == DRAW_DISCARD
    assert bot.act(observation_at(useless)) == DRAW_DECK


def test_heuristic_lays_down_as_soon_as_it_can_then_hits() -> None:
    game = build_game(["R7 B7 G7 R3 B3 W Y9 Y3", "R2 R4 R6 R8 R10 B2 B4 B6 B8"], discard="G12")
    env = raw_env(num_players=2)
    env.reset(options={"state": game.to_json()})
    bot = HeuristicAgent()
    first = bot.act(env.player_observation())
    assert first in (MELD_IDS[Meld(GroupKind.SET, 7, 3)], MELD_IDS[Meld(GroupKind.SET, 3, 3)])
    env.step(first)
    for _ in range(8):  # the second group, and which cards go down (a 3 or 7, or the Wild, stays)
        if env.game.laid[0]:
            break
        env.step(bot.act(env.player_observation()))
    assert env.game.laid[0]
    # What stayed of the 7s and the Wild hits at once; then Y9 goes.
    action = bot.act(env.player_observation())
    assert ACTIONS[action].kind == "hit"
    env.step(action)
    assert bot.act(env.player_observation()) == DISCARD_FIRST + card(9, 3)


def test_heuristic_aims_skips_at_the_leader() -> None:
    game = build_game(["S R1 R2 R4", "R3 R5", "R6 R8", "R9 R10"], discard="G12", phases_completed=[0, 1, 4, 2])
    obs = observation_at(game)
    from phase10_env.actions import skip_id

    assert HeuristicAgent().act(obs) == skip_id(2)  # seat 2 has completed the most phases
    assert HeuristicAgent(skip_target="next").act(obs) == skip_id(1)


def test_random_agent_is_reproducible_and_uniform_over_legal_actions() -> None:
    game = build_game(["R1 R2 R4 R6 B9 Y11", "R3 R5"], discard="G12")
    obs = observation_at(game)
    a = [RandomAgent(5).act(obs) for _ in range(3)]
    assert len(set(a)) == 1
    agent = RandomAgent(0)
    picks = [agent.act(obs) for _ in range(600)]
    legal = set(obs.legal_actions.tolist())
    assert set(picks) == legal
    counts = np.bincount(picks)[sorted(legal)]
    assert counts.min() > 60  # 6 actions, 100 expected each


def test_human_agent_shows_moves_in_words_and_asks_again_on_bad_input() -> None:
    game = build_game(["R1 R2 R4", "R3 R5"], discard="G12", stage="draw")
    answers = iter(["x", "7", "2"])
    shown: list[str] = []
    human = HumanAgent(read=lambda prompt: next(answers), write=shown.append)
    assert human.act(observation_at(game)) == DRAW_DISCARD
    text = "\n".join(shown)
    assert "your hand: R1 R2 R4" in text and "take G12 from the discard pile" in text
    assert text.count("Please type a number from 1 to 2") == 2
    assert "R3" not in text.replace("player_1", "")  # the other hand stays hidden


@pytest.mark.parametrize("algorithm", ["PPO", "A2C", "DQN", "QRDQN"])
def test_any_saved_sb3_model_plays_as_ppo_path(tmp_path, algorithm: str) -> None:
    """Models trained without masks (plain sb3 / sb3-contrib algorithms, illegal actions
    penalised) still play legal moves only: the agent masks their scores."""
    import gymnasium
    import sb3_contrib
    import stable_baselines3

    env = gymnasium.make("phase10_env/Phase10-v0", num_players=2, illegal_action="penalize", phases_to_win=1)
    cls = getattr(stable_baselines3, algorithm, None) or getattr(sb3_contrib, algorithm)
    kwargs = {"PPO": {"n_steps": 32, "batch_size": 32}, "A2C": {"n_steps": 32}, "DQN": {"learning_starts": 16},
              "QRDQN": {"learning_starts": 16}}[algorithm]
    cls("MlpPolicy", env, device="cpu", policy_kwargs={"net_arch": [16]}, **kwargs).learn(64).save(tmp_path / "model")
    from agents.policies.network import load_policy

    load_policy(tmp_path / "model.zip", unpickle=False)  # read without unpickling, like the project's own models
    result = run_tournament([f"ppo:{tmp_path / 'model.zip'}", "random"], 2, games=2, seed=0, workers=1,
                            progress=False, rules={"phases_to_win": 1})
    assert [s.games for s in result.entry_stats()] == [2, 2]


def test_a_file_that_is_no_model_is_a_clear_error(tmp_path) -> None:
    (tmp_path / "notes.zip").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="notes.zip"):
        make_agent(f"ppo:{tmp_path / 'notes.zip'}")
