"""The champion's leaf values: what a hand is expected to be worth from a coarse picture of it.

The champion's search plays each candidate move a few turns on and reads the hand's worth
from a table rather than playing every hand to its end (whose many draws to come make the
worth noisy: see ``phase10_env/core/leaf.c``). This fills that table: heuristic games played in
the native core, and at every turn's start, for every seat, the core adds what the rest of the
hand turned out to be worth to that seat (phases made less the best opponent's, and points)
under that turn's key. The table is those sums; the champion's
:class:`~agents.policies.champion.LeafTable` turns them into means.

One command, from a config: ``python -m agents.training.leaf configs/belief/champion.yaml``
(its ``leaf`` section); it writes the sums (``.npz``, numpy arrays only) and a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from phase10_env import core
from phase10_env.core.convert import rules_tuple
from phase10_env.engine.config import load_rules


@dataclass(frozen=True)
class LeafConfig:
    """``games`` heuristic games for each seat count in ``players``, ``batch_games`` at once."""

    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    games: int = 20_000
    batch_games: int = 500
    seed: int = 0
    out: str = "models/champion_leaf.npz"


def load_config(path: str | Path) -> LeafConfig:
    data = yaml.safe_load(Path(path).read_text()) or {}
    leaf = dict(data.get("leaf", {}))
    if "players" in leaf:
        leaf["players"] = tuple(leaf["players"])
    unknown = set(leaf) - set(LeafConfig.__dataclass_fields__)
    if unknown:
        raise ValueError(f"{path}: unknown leaf options {sorted(unknown)}")
    return LeafConfig(**leaf)


def record(num_players: int, games: int, seed: int, batch_games: int = 500) -> dict[str, np.ndarray]:
    """The sums over ``games`` heuristic games of ``num_players`` seats: ``count``, ``made``
    and ``points`` by leaf key."""
    c = core.native()
    sums = {"count": np.zeros(c.LEAF_KEYS, np.int64), "made": np.zeros(c.LEAF_KEYS), "points": np.zeros(c.LEAF_KEYS)}
    config = (0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0, (0,) * num_players)
    rng = np.random.default_rng(seed)
    for start in range(0, games, batch_games):
        n = min(batch_games, games - start)
        slots, rows = np.zeros((n, core.SLOT_BYTES), dtype=np.uint8), np.arange(n, dtype=np.int64)
        c.configure(slots, rows, num_players, rules_tuple(load_rules(None)), config)
        c.reset(slots, rows, rng.integers(2**63, size=n, dtype=np.uint64), np.ones(n, dtype=np.uint8))
        c.leaf_record(slots, rows, sums["count"], sums["made"], sums["points"])
    return sums


def train(cfg: LeafConfig, log: Any = print) -> dict[str, Any]:
    """Record, save; returns the summary written beside the table."""
    started = time.time()
    parts = [record(n, cfg.games, cfg.seed * 100 + n, cfg.batch_games) for n in cfg.players]
    sums = {k: np.sum([p[k] for p in parts], axis=0) for k in ("count", "made", "points")}
    out = Path(cfg.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **sums)
    seconds = time.time() - started
    summary = {"players": list(cfg.players), "games_each": cfg.games, "turns": int(sums["count"].sum()),
               "keys_seen": int((sums["count"] > 0).sum()), "keys": int(len(sums["count"])), "seconds": round(seconds)}
    out.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n")
    log(f"saved {out} ({out.stat().st_size / 1e6:.2f} MB): {summary['turns']:,} turns, "
        f"{summary['keys_seen']:,} of {summary['keys']:,} keys seen, {seconds:.0f} s")
    return summary


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Fill the champion's leaf-value table (configs/belief/champion.yaml).")
    parser.add_argument("config")
    parser.add_argument("--out", help="where to write the table (default: the config's leaf.out)")
    args = parser.parse_args(argv)
    cfg = load_config(args.config)
    if args.out:
        cfg = LeafConfig(**{**cfg.__dict__, "out": args.out})
    train(cfg)


if __name__ == "__main__":
    main()
