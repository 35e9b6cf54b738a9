"""TorchRL takes the AEC env as it is: ``PettingZooWrapper(use_mask=True)`` passes
``check_env_specs``, and a masked random rollout plays only legal moves."""

from __future__ import annotations

import pytest

from tests.integrations._require import require

pytestmark = pytest.mark.integrations
require("torchrl")

from torchrl.envs.libs.pettingzoo import PettingZooWrapper  # noqa: E402
from torchrl.envs.utils import check_env_specs  # noqa: E402

from phase10_env import env as phase10  # noqa: E402


def make_env() -> PettingZooWrapper:
    return PettingZooWrapper(phase10(num_players=3, phases_to_win=1), use_mask=True, seed=0)


def test_wrapped_env_specs_check_out() -> None:
    check_env_specs(make_env(), seed=0)


def test_a_masked_rollout_plays_only_legal_moves() -> None:
    env = make_env()
    rollout = env.rollout(max_steps=200)
    group = next(iter(env.group_map))
    actions = rollout[group, "action"]  # one-hot or index per agent of the group, per step
    masks = rollout[group, "action_mask"]
    acting = masks.any(-1)  # the agent to act has a non-empty mask; the others' is all zero
    assert acting.sum(-1).eq(1).all(), "exactly one seat acts at each step"
    chosen = actions if actions.shape == masks.shape[:-1] else actions.long().argmax(-1)
    legal = masks.gather(-1, chosen.long().unsqueeze(-1)).squeeze(-1)
    assert legal[acting].all(), "every move played was legal"
    assert len(rollout) > 20
