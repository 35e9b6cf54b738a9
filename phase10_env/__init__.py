"""Phase 10 for reinforcement learning: an exact rules engine (:mod:`phase10_env.engine`), a
PettingZoo AEC environment (:func:`env`, :class:`raw_env`) with exact action masks, and a
Gymnasium single-agent view (``gymnasium.make("phase10_env/Phase10-v0")``)."""

import gymnasium
import pettingzoo

from . import core  # noqa: F401 - loads the native core, so compiled_parts() always lists it
from .actions import ACTIONS, NUM_ACTIONS, describe
from .engine.compiled import compiled_parts
from .env import env, raw_env
from .observation import OBS_SIZE, OBS_SLICES
from .policy import PlayerObservation, Policy
from .rewards import RewardConfig
from .single_agent import Phase10Env

gymnasium.register(id="phase10_env/Phase10-v0", entry_point="phase10_env.single_agent:Phase10Env",
                   vector_entry_point="phase10_env.vector:Phase10VectorEnv")
if hasattr(pettingzoo, "register"):  # PettingZoo's registry (1.25+): pettingzoo.make("aec", "phase10/phase10_v0")
    pettingzoo.register("aec", "phase10/phase10_v0", entry_point="phase10_env.env:env")

__all__ = ["env", "raw_env", "Phase10Env", "ACTIONS", "NUM_ACTIONS", "describe", "OBS_SIZE", "OBS_SLICES",
           "RewardConfig", "PlayerObservation", "Policy", "compiled_parts"]
