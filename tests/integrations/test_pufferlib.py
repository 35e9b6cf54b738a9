"""PufferLib 3 takes the games as a native PufferEnv: its vector layer steps two of them in
its Serial backend, resets finished rows itself, and the heuristic's choices fill its
``teacher_actions`` buffer."""

from __future__ import annotations

import numpy as np
import pytest

from tests.integrations._require import require

pytestmark = pytest.mark.integrations
pufferlib_vector = require("pufferlib.vector")

from phase10_env.puffer import make_puffer_env  # noqa: E402


def test_pufferlib_steps_the_games_in_place():
    vec = pufferlib_vector.make(make_puffer_env, env_kwargs={"num_envs": 8, "opponents": "heuristic"},
                                backend=pufferlib_vector.Serial, num_envs=2)
    vec.async_reset(seed=0)
    observations = vec.recv()[0]
    assert observations.shape == (16, 731)
    rng, ends = np.random.default_rng(0), 0
    for _ in range(300):
        masks = np.concatenate([env.action_masks() for env in vec.envs])
        vec.send(np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int32))
        ends += int(vec.recv()[2].sum())
    assert ends > 0, "heuristic opponents end some games against random play in 300 steps"
    env = vec.envs[0]
    teacher = env.games.heuristic_actions()
    assert np.array_equal(env.teacher_actions, teacher) and env.action_masks()[np.arange(8), teacher].all()
