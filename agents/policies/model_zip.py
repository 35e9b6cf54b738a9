"""A saved stable-baselines3 model's policy, read without unpickling anything.

A model zip (``model.save``, ``save_policy``) holds ``data``, a JSON file in which whatever is
not plain JSON (the policy's class, the spaces) is a pickle in base64 beside a readable summary,
and ``policy.pth``, the weights as a torch file. Unpickling runs whatever code the pickle names,
so a model zip handed to SB3's own loader is a program. This reader takes only the plain parts:
the JSON, the policy class's name read from its pickle's opcodes (never run) and looked up among
:data:`POLICY_CLASSES`, and the weights through ``torch.load(weights_only=True)``. A zip it
cannot read that way (another class, pickled policy options) is a :class:`NeedsUnpickling`
naming the part.
"""

from __future__ import annotations

import ast
import base64
import binascii
import importlib
import io
import json
import pickle
import pickletools
import re
import zipfile
from pathlib import Path
from typing import Any

from phase10_env.actions import NUM_ACTIONS

#: The policy classes this reader builds: SB3's actor-critic and DQN policies, sb3-contrib's
#: maskable actor-critic and QR-DQN policies (MlpPolicy of PPO, A2C, MaskablePPO, DQN, QR-DQN).
POLICY_CLASSES = {
    ("stable_baselines3.common.policies", "ActorCriticPolicy"),
    ("sb3_contrib.common.maskable.policies", "MaskableActorCriticPolicy"),
    ("stable_baselines3.dqn.policies", "DQNPolicy"),
    ("sb3_contrib.qrdqn.policies", "QRDQNPolicy"),
}
_NAME_OPS = {"SHORT_BINUNICODE", "BINUNICODE", "UNICODE"}
_HARMLESS_OPS = {"PROTO", "FRAME", "MEMOIZE", "STOP"} | _NAME_OPS


class NeedsUnpickling(ValueError):
    """A model whose policy can only be rebuilt by unpickling part of it (running its code)."""


def _class_named(pickled: str, where: str) -> tuple[str, str]:
    """The (module, name) a pickle of a bare class reference names, read from its opcodes; a
    pickle that does anything else (builds objects, calls functions) is refused unread."""
    try:
        ops = list(pickletools.genops(base64.b64decode(pickled, validate=True)))
    except (binascii.Error, ValueError, EOFError) as e:
        raise ValueError(f"{where}: its policy class is not a readable pickle ({e})") from None
    names = [str(arg) for op, arg, _ in ops if op.name in _NAME_OPS]
    kinds = [op.name for op, _, _ in ops]
    if kinds.count("STACK_GLOBAL") == 1 and len(names) == 2 and set(kinds) <= _HARMLESS_OPS | {"STACK_GLOBAL"}:
        return names[0], names[1]
    if kinds.count("GLOBAL") == 1 and not names and set(kinds) <= _HARMLESS_OPS | {"GLOBAL"}:
        module, _, name = str(next(arg for op, arg, _ in ops if op.name == "GLOBAL")).partition(" ")
        return module, name
    raise NeedsUnpickling(f"{where}: its policy class is pickled as more than a class name")


def _size(summary: dict[str, Any], key: str, where: str) -> int:
    """One whole number of a space's readable summary: ``[935]`` or ``"350"`` (SB3 writes JSON
    where it can, text where it cannot)."""
    value = summary.get(key)
    match = re.fullmatch(r"[\[(]?\s*(\d+)\s*,?\s*[\])]?", value if isinstance(value, str) else json.dumps(value))
    if match is None:
        raise ValueError(f"{where}: cannot read {key} from its saved space ({value!r}); a model of this env has a flat "
                         f"observation vector and {NUM_ACTIONS} actions")
    return int(match.group(1))


def _policy_options(options: Any, where: str) -> dict[str, Any]:
    """The policy's constructor options. Plain JSON as they are; pickled ones (A2C and QR-DQN
    save their optimizer's class) from the readable summary beside the pickle, when they are
    only the network's shape and optimizer settings (which playing a frozen policy never uses)."""
    if not isinstance(options, dict):
        raise ValueError(f"{where}: its policy_kwargs are not an object")
    if ":serialized:" not in options:
        return options
    summary = {k: v for k, v in options.items() if k not in (":type:", ":serialized:")}
    if options.get(":type:") != "<class 'dict'>" or not summary:
        raise NeedsUnpickling(f"{where}: its policy_kwargs are pickled with no readable summary")
    others = sorted(set(summary) - {"net_arch", "optimizer_class", "optimizer_kwargs"})
    if others:
        raise NeedsUnpickling(f"{where}: its policy_kwargs hold {others}, which only unpickling can read")
    if "net_arch" not in summary:
        return {}
    net_arch = summary["net_arch"]
    try:  # SB3 writes what JSON can hold as JSON, the rest as text
        return {"net_arch": ast.literal_eval(net_arch) if isinstance(net_arch, str) else net_arch}
    except (ValueError, SyntaxError):
        raise ValueError(f"{where}: cannot read its net_arch {net_arch!r}") from None


def read_policy(path: Path) -> Any:
    """The policy network saved in the model zip at ``path``, rebuilt from its plain parts (see
    the module docstring); ``ValueError`` if it is no such model, :class:`NeedsUnpickling` if
    only unpickling could rebuild it."""
    import gymnasium
    import numpy as np
    import torch

    where = repr(str(path))
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
            weights = archive.read("policy.pth")
    except (zipfile.BadZipFile, KeyError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{where} is not a saved stable-baselines3 model ({e})") from None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), dict) for k in
                                             ("policy_class", "observation_space", "action_space")):
        raise ValueError(f"{where} is not a saved stable-baselines3 model (its data lacks the policy and its spaces)")
    module, name = _class_named(data["policy_class"].get(":serialized:", ""), where)
    if (module, name) not in POLICY_CLASSES:
        raise NeedsUnpickling(f"{where}: its policy class {module}.{name} is none of the known ones")
    kwargs = _policy_options(data.get("policy_kwargs", {}), where)
    obs_size = _size(data["observation_space"], "_shape", where)
    actions = _size(data["action_space"], "n", where)
    if actions != NUM_ACTIONS:
        raise ValueError(f"{where} is a model with {actions} actions; this env has {NUM_ACTIONS}")
    policy_class = getattr(importlib.import_module(module), name)
    spaces = (gymnasium.spaces.Box(-np.inf, np.inf, (obs_size,), np.float32), gymnasium.spaces.Discrete(actions))
    try:
        policy = policy_class(*spaces, lambda _: 0.0, **kwargs)
        policy.load_state_dict(torch.load(io.BytesIO(weights), map_location="cpu", weights_only=True))
    except (TypeError, RuntimeError, ValueError, EOFError, pickle.UnpicklingError) as e:
        raise ValueError(f"{where}: its weights do not load into {name} ({str(e).splitlines()[0]})") from None
    return policy
