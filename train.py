"""Train a Phase 10 agent with self-play MaskablePPO, then evaluate it.

    python train.py                                  # configs/default.yaml
    python train.py configs/strong.yaml              # another config
    python train.py total_timesteps=200000 ppo.learning_rate=1e-4   # override any key
    python train.py configs/strong.yaml --resume     # continue runs/<name>/ from its last checkpoint
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("items", nargs="*", help="a config file (first, optional) and key=value overrides")
    parser.add_argument("--resume", action="store_true", help="continue the run from its latest checkpoint")
    args = parser.parse_args(argv)
    config = args.items[0] if args.items and "=" not in args.items[0] else None
    overrides = [i for i in args.items if "=" in i]
    from agents.training.config import load_config
    from agents.training.sb3 import TrainingRun

    try:
        cfg = load_config(config, overrides)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    TrainingRun(cfg).train(resume=args.resume)


if __name__ == "__main__":
    main(sys.argv[1:])
