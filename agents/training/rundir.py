"""A training run's directory, ``runs/<name>/``: what each file is, and the rules that keep work
from being lost. Both backends (SB3 and RLlib) follow them:

* a fresh run never starts in a directory that already holds a run, unless told to replace it
  (``--overwrite``); otherwise it asks for ``--resume`` or another ``name=``;
* ``--resume`` continues from the run's own saved ``config.yaml`` (command-line overrides apply
  on top, e.g. a larger ``total_timesteps``);
* resuming a finished run trains nothing and evaluates again only when asked (``--evaluate``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

#: Every file or folder a run may write, and what it is (shown in the run's summary; the table of
#: docs/training.md is made from it).
RUN_FILES: dict[str, str] = {
    "config.yaml": "the config the run used (what --resume continues from)",
    "checkpoints/": "checkpoints for --resume, the self-play pool's frozen copies, the KL anchor's reference",
    "model.zip": "the final model (play it as ppo:PATH)",
    "policy.pt": "RLlib runs: the final policy's weights and shape, played with torch alone (rllib:PATH)",
    "best_model.zip": "the model that did best against the last evaluation opponent along the way",
    "best_policy.pt": "RLlib runs: the policy that did best against the last evaluation opponent",
    "eval_model.zip": "the model as last evaluated (what the learning curve's newest point played)",
    "eval_policy.pt": "RLlib runs: the policy as last evaluated",
    "state.json": "the pool's snapshots and the learning curve, for --resume",
    "tb/": "TensorBoard logs (tensorboard --logdir runs/NAME/tb)",
    "learning_curve.png": "win rate against each evaluation opponent over training, with 95% intervals",
    "eval.json": "the final evaluation: win rates with 95% intervals, speed, the curve's points",
    "imitation.json": "imitation: accuracy and losses per epoch and DAgger round",
}


def prepare(path: Path, resume: bool, overwrite: bool) -> None:
    """Check that training in ``path`` loses nothing, then make it. Raises ``ValueError``
    saying what to do instead."""
    if resume and overwrite:
        raise ValueError("--resume continues a run and --overwrite replaces it: give one of them")
    used = path.is_dir() and any(path.iterdir())
    if resume:
        if not (path / "config.yaml").is_file():
            raise ValueError(f"nothing to resume in {path}: it holds no run (no config.yaml)")
        return
    if used:
        if not overwrite:
            raise ValueError(f"{path} already holds a run: --resume continues it, --overwrite replaces it (its files "
                             f"are deleted), or give the new run another name (name=...)")
        print(f"--overwrite: deleting the previous run in {path}")
        shutil.rmtree(path)
    path.mkdir(parents=True, exist_ok=True)


def finished(path: Path, steps: int, total: int, evaluate: bool) -> dict[str, Any] | None:
    """The saved summary of a resumed run that has reached ``total`` steps, unless asked to
    ``evaluate`` it again (None: train and evaluate as usual)."""
    if evaluate or steps < total or not (path / "eval.json").is_file():
        return None
    print(f"{path} is finished ({steps:,} of {total:,} steps): nothing to train; --evaluate evaluates it again, "
          f"total_timesteps=N trains on to N")
    summary: dict[str, Any] = json.loads((path / "eval.json").read_text(encoding="utf-8"))
    return summary


def evaluation_lines(evaluation: dict[str, Any]) -> list[str]:
    """The final evaluation (``eval.json``'s ``evaluation``) as a table: the trained agent's
    games, win rate and 95% interval against each opponent."""
    lines = [f"{'opponent':12s} {'games':>6s} {'win rate':>9s} {'95% CI':>17s}"]
    for opponent, result in evaluation.items():
        me = result["agents"][0]
        lines.append(f"{opponent:12s} {me['games']:6d} {me['win_rate']:9.3f} [{me['ci95'][0]:.3f}, {me['ci95'][1]:.3f}]")
    return lines


def files_written(path: Path) -> list[str]:
    """The run's files that exist, each with what it is."""
    return [f"  {path / name}: {what}" for name, what in RUN_FILES.items() if (path / name.rstrip("/")).exists()]
