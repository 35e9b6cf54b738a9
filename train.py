"""Train a Phase 10 agent with self-play PPO, then evaluate it: ``backend: masked_ppo`` (the
compact masked PPO on the native core's batched games), ``sb3`` (sb3-contrib's MaskablePPO) or
``rllib`` (PPO on Ray RLlib).

    python train.py                                  # configs/default.yaml
    python train.py configs/strong.yaml              # another config
    python train.py total_timesteps=200000 ppo.learning_rate=1e-4   # override any key
    python train.py configs/strong.yaml --resume     # continue runs/<name>/ (its own saved config) from its last checkpoint
    python train.py --overwrite                      # start runs/default/ again, deleting the earlier run
    python train.py configs/rllib.yaml               # Ray RLlib: Ray started here, or the cluster at RAY_ADDRESS
    python train.py configs/rllib.yaml --address HOST:6379   # join that Ray cluster
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("items", nargs="*", help="a config file (first, optional) and key=value overrides")
    parser.add_argument("--resume", action="store_true",
                        help="continue runs/<name>/ from its latest checkpoint, with the config saved there (overrides "
                             "on the command line apply on top, e.g. a larger total_timesteps)")
    parser.add_argument("--overwrite", action="store_true",
                        help="start afresh in runs/<name>/ even if it holds a run, deleting that run's files")
    parser.add_argument("--evaluate", action="store_true",
                        help="with --resume on a finished run: evaluate it again (otherwise it only shows its results)")
    parser.add_argument("--address", help="backend rllib: the Ray cluster to join (default: RAY_ADDRESS, else a Ray "
                                          "started on this machine)")
    args = parser.parse_args(argv)
    config = args.items[0] if args.items and "=" not in args.items[0] else None
    overrides = [i for i in args.items if "=" in i]
    from agents.training.config import RUNS_DIR, load_config

    try:
        cfg = load_config(config, overrides)
        if args.resume:  # the run's own config, not the named one's current version
            saved = RUNS_DIR / cfg.name / "config.yaml"
            if not saved.is_file():
                raise ValueError(f"nothing to resume: {saved} does not exist (start the run without --resume)")
            cfg = load_config(saved, overrides)
        if args.evaluate and not args.resume:
            raise ValueError("--evaluate re-evaluates a finished run: use it with --resume")
        if args.address and cfg.backend != "rllib":
            raise ValueError(f"--address joins a Ray cluster, for backend rllib; this config's backend is {cfg.backend}")
        if cfg.backend == "rllib":
            try:
                from agents.training.rllib import RLlibRun
            except ImportError as e:
                raise ValueError(_missing_for_rllib(e)) from None
            run = RLlibRun(cfg, address=args.address)
        elif cfg.backend == "masked_ppo":
            from agents.training.masked_ppo_run import MaskedPPORun

            run = MaskedPPORun(cfg)
        else:
            from agents.training.sb3 import TrainingRun

            run = TrainingRun(cfg)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None
    try:
        run.train(resume=args.resume, overwrite=args.overwrite, evaluate=args.evaluate)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from None


def _missing_for_rllib(error: ImportError) -> str:
    """What the rllib backend lacks, by the module that failed to import: Ray is the rllib
    extra; the rest of what it imports (torch, stable-baselines3, sb3-contrib) the train extra."""
    missing = (error.name or "").split(".")[0]
    if missing == "ray":
        return f"backend rllib needs Ray RLlib (pip install -e \".[rllib]\"): {error}"
    return (f"backend rllib also needs the train extra, which brings {missing or 'a module it imports'} "
            f"(pip install -e \".[train,rllib]\"): {error}")


if __name__ == "__main__":
    main(sys.argv[1:])
