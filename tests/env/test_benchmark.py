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
    assert set(data["compiled"]) == {"lay-down search", "observation composer", "native core"}
    search = data["search"]
    assert [(row["players"], row["actions_in"]) for row in search] == [(2, 20), (2, 400)]
    assert all(row["copy_us"] > 0 and row["determinize_us"] > 0 and row["env_step_us"] > 0 for row in search)
    printed = capsys.readouterr().out
    assert "a copy costs" in printed
    assert "x connect_four" in printed and "compiled parts: lay-down search" in printed


def test_bench_seconds_is_the_whole_run_budget() -> None:
    """Two environments and one engine setting share the budget: a third of it each."""
    from agents.evaluation.bench import full_benchmark

    results, engine = full_benchmark(1.5, (2,), include_connect_four=False)
    parts = [r.seconds for r in results] + [row["seconds"] for row in engine]
    assert len(parts) == 3
    assert all(0.45 <= part <= 0.8 for part in parts), parts
    assert 1.4 <= sum(parts) <= 2.0
