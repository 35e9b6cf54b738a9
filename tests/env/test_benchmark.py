"""The benchmark command runs and reports every environment it promises (timings are checked by
running it, not here)."""

from __future__ import annotations

import json

from agents.cli import main


def test_bench_command_reports_phase10_beside_connect_four(tmp_path, capsys) -> None:
    out = tmp_path / "bench.json"
    main(["bench", "--seconds", "0.2", "--players", "2", "--json", str(out)])
    data = json.loads(out.read_text())
    names = [row["name"] for row in data["env"]]
    assert names == ["phase10 raw_env 2p", "phase10 env() 2p", "connect_four_v3 raw_env", "connect_four_v3 env()"]
    assert all(row["steps"] > 0 and row["steps_per_second"] > 0 for row in data["env"])
    assert data["engine"][0]["players"] == 2 and data["engine"][0]["moves"] > 0
    assert set(data["compiled"]) == {"lay-down search", "observation composer"}
    printed = capsys.readouterr().out
    assert "x connect_four" in printed and "compiled parts: lay-down search" in printed
