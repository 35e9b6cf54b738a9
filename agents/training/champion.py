"""The champion's two learned models from one config, in one command: the belief model (where
the search's deals come from, :mod:`agents.training.belief`), then the win model (how a
play-out is judged, :mod:`agents.training.win_model`). Both sections are read before either is
trained, so a mistake in the second costs no training time.

    python -m agents.training.champion configs/belief/champion.yaml [--out-dir DIR]
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from . import belief, win_model
from .model_config import load_section


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config")
    parser.add_argument("--out-dir", help="write both models here, under their configured file names "
                                          "(default: each section's out, the shipped models' place)")
    args = parser.parse_args(argv)
    beliefs = load_section(args.config, "belief", belief.BeliefConfig)
    wins = load_section(args.config, "wins", win_model.WinConfig)
    if args.out_dir:
        beliefs = replace(beliefs, out=str(Path(args.out_dir) / Path(beliefs.out).name))
        wins = replace(wins, out=str(Path(args.out_dir) / Path(wins.out).name))
    belief.train(beliefs)
    win_model.train(wins)


if __name__ == "__main__":
    main()
