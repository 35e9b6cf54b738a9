"""Model zips read without unpickling (agents/policies/model_zip.py): every model this project
makes loads that way, to the same weights SB3's own loader gives; a zip whose pickles would run
code is refused before anything in it runs."""

from __future__ import annotations

import base64
import json
import pickle
import zipfile
from pathlib import Path

import pytest
import torch

from agents.policies.model_zip import NeedsUnpickling, read_policy
from agents.policies.network import _unpickle_policy, load_policy

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "models" / "default.zip"


class _WritesAFile:
    """Unpickled, it writes ``path``: what a hostile pickle could do, harmlessly."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return (exec, (f"open({self.path!r}, 'w').write('the model ran code')",))


def hostile_model(path: Path, marker: Path, part: str = "policy_class") -> Path:
    """A copy of the shipped default model whose ``part`` (``policy_class``, ``policy_kwargs``
    or ``weights``) is a pickle that writes ``marker`` when loaded."""
    payload = pickle.dumps(_WritesAFile(marker))
    with zipfile.ZipFile(SHIPPED) as shipped:
        data = json.loads(shipped.read("data"))
        weights = shipped.read("policy.pth")
    if part == "weights":
        weights = payload
    else:
        data[part] = {":type:": "<class 'type'>", ":serialized:": base64.b64encode(payload).decode()}
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data", json.dumps(data))
        archive.writestr("policy.pth", weights)
    return path


def test_the_shipped_models_load_without_unpickling_to_the_weights_sb3_loads(monkeypatch) -> None:
    expected = {path: _unpickle_policy(path).state_dict() for path in sorted((ROOT / "models").glob("*.zip"))}

    def no_unpickling(*args, **kwargs):
        raise AssertionError("the reader unpickled something")

    monkeypatch.setattr(pickle, "loads", no_unpickling)
    monkeypatch.setattr("cloudpickle.loads", no_unpickling)
    for path, weights in expected.items():
        policy = load_policy(path, unpickle=False)
        assert policy.state_dict().keys() == weights.keys()
        assert all(torch.equal(policy.state_dict()[k], v.float()) for k, v in weights.items()), path


def test_the_hostile_payload_is_real_sb3s_own_loader_runs_it(tmp_path) -> None:
    """What the refusals below are measured against: the payload does write its file."""
    marker = tmp_path / "ran.txt"
    with pytest.raises(Exception):  # noqa: B017 - after running, SB3's loader fails on the payload's None
        _unpickle_policy(hostile_model(tmp_path / "evil.zip", marker))
    assert marker.read_text() == "the model ran code"


@pytest.mark.parametrize("part", ["policy_class", "policy_kwargs", "weights"])
def test_a_model_whose_pickles_would_run_code_is_refused_before_anything_runs(tmp_path, part) -> None:
    marker = tmp_path / "ran.txt"
    path = hostile_model(tmp_path / "evil.zip", marker, part)
    with pytest.raises(ValueError, match="evil.zip"):
        load_policy(path, unpickle=False)
    with pytest.raises(ValueError):
        read_policy(path)
    assert not marker.exists()


def test_a_class_the_reader_does_not_know_needs_unpickling_and_says_which(tmp_path) -> None:
    with zipfile.ZipFile(SHIPPED) as shipped:
        data = json.loads(shipped.read("data"))
        weights = shipped.read("policy.pth")
    data["policy_class"][":serialized:"] = base64.b64encode(pickle.dumps(zipfile.ZipFile)).decode()
    path = tmp_path / "other.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data", json.dumps(data))
        archive.writestr("policy.pth", weights)
    with pytest.raises(NeedsUnpickling, match="zipfile.ZipFile is none of the known ones"):
        load_policy(path, unpickle=False)
