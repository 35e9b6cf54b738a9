"""The benchmark command (agents.evaluation.bench) runs and reports every environment it
promises; its time budget is shared as it says (timings themselves are not checked here)."""

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


def test_bench_seconds_is_the_whole_run_budget(monkeypatch) -> None:
    """Each environment and each engine setting gets an equal share of the budget: with two
    environments and one engine setting, a third each (the time each part asks for, not the
    time it took: that depends on the machine's load)."""
    from agents.evaluation import bench

    asked: list[tuple[str, float]] = []
    monkeypatch.setattr(bench, "run_benchmark", lambda seconds, players, seed, c4: asked.append(("env", seconds)) or [])
    monkeypatch.setattr(bench, "engine_benchmark", lambda seconds, players, seed: asked.append(("engine", seconds)) or [])
    bench.full_benchmark(1.5, (2,), include_connect_four=False)
    assert asked == [("env", 0.5), ("engine", 0.5)]  # run_benchmark gives each of its two envs that share
    assert len(bench.benchmark_targets((2,), include_connect_four=False)) == 2
    bench.full_benchmark(12.0, (2, 6), include_connect_four=False)
    assert asked[2:] == [("env", 2.0), ("engine", 2.0)]  # 4 envs and 2 engine settings share 12 s
