"""The Deep Monte Carlo runs' curves, drawn from their logs and result files (nothing is run).

    python results/dmc/curves.py results/dmc_curves.png

Three panels, each against the positions (or decisions) a network had learned from:
the training loss of the two paired runs (the run from the hands' outcomes
learned another target), how well the paired run's checkpoints predict the
measured gains of 30,000 held-out decisions, and the development win rate of each
checkpoint's best setting beside the heuristic's in the same seat on the same deals.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RESULTS = Path(__file__).resolve().parent.parent
LOG_LINE = re.compile(r"^\s*\d+s (?:states|decisions)\s+([\d,]+)\s+updates\s+[\d,]+\s+loss\s+([\d.]+)")
R2_LINE = re.compile(r"^\S*dmc/?_?paired_(\d+)k\.npz R\^2 ([\d.]+), correlation ([\d.]+)")
# A development line starts with the network (a checkpoint's file, or its size in millions) and
# holds one "W of G" per setting played.
NETWORK = re.compile(r"^(?:\S*dmc_paired_(\d+)k\.npz|([\d.]+) M (?:states|decisions)\b)")
WINS = re.compile(r"(\d+) of (\d+)")
HEURISTIC = re.compile(r"the heuristic in the same seat on these deals: (\d+) of (\d+)")


def loss_curve(log: Path) -> tuple[list[float], list[float]]:
    """(millions of positions, loss) at each line of a trainer's log."""
    seen, losses = [], []
    for line in log.read_text().splitlines():
        match = LOG_LINE.match(line)
        if match:
            seen.append(int(match[1].replace(",", "")) / 1e6)
            losses.append(float(match[2]))
    return seen, losses


def heldout_fit(path: Path) -> dict[float, tuple[float, float]]:
    """Millions of positions -> (R^2, correlation) of the paired run's checkpoints."""
    fit = {}
    for line in path.read_text().splitlines():
        match = R2_LINE.match(line)
        if match and "reg" not in line:
            fit[int(match[1]) / 1000] = (float(match[2]), float(match[3]))
    return fit


def best_win_rates(path: Path) -> dict[float, float]:
    """Millions of positions -> the best development win rate over the settings tried there."""
    best: dict[float, float] = {}
    for line in path.read_text().splitlines():
        network = NETWORK.match(line)
        if not network:
            continue
        millions = float(network[2]) if network[1] is None else int(network[1]) / 1000
        for wins, games in WINS.findall(line):
            best[millions] = max(best.get(millions, 0.0), int(wins) / int(games))
    return best


def heuristic_rate(path: Path) -> float:
    match = HEURISTIC.search(path.read_text())
    if match is None:
        raise ValueError(f"{path} does not name the heuristic's wins on its deals")
    return int(match[1]) / int(match[2])


def main(out: str) -> None:
    paired_dev = RESULTS / "dmc_paired_dev_4p.txt"
    returns_dev = RESULTS / "dmc_returns_dev_4p.txt"
    fig, (ax_loss, ax_fit, ax_wins) = plt.subplots(1, 3, figsize=(13, 3.8))

    for name, label in (("paired", "paired play-outs (squared error)"),
                        ("paired_reg", "the same, regularised (Huber 0.05)")):
        ax_loss.plot(*loss_curve(RESULTS / "dmc" / f"{name}_log.txt"), label=label)
    ax_loss.set(xlabel="positions learned from (millions)", ylabel="training loss",
                title="Training loss: flat, the play-outs' noise")
    ax_loss.legend(fontsize=8)

    fit = heldout_fit(RESULTS / "dmc_paired_heldout_r2.txt")
    points = sorted(fit)
    ax_fit.plot(points, [fit[p][1] for p in points], "o-", label="correlation")
    ax_fit.plot(points, [fit[p][0] for p in points], "s-", label="R$^2$")
    ax_fit.set(xlabel="positions learned from (millions)", ylim=(0, 0.3),
               title="Held-out gains predicted (30,000 decisions)")
    ax_fit.legend(fontsize=8)

    paired = best_win_rates(paired_dev)
    returns = best_win_rates(returns_dev)
    ax_wins.plot(sorted(paired), [paired[p] for p in sorted(paired)], "o-", label="paired play-outs")
    ax_wins.plot(sorted(returns), [returns[p] for p in sorted(returns)], "s-", label="hands' outcomes")
    ax_wins.axhline(heuristic_rate(paired_dev), color="k", ls="--", label="the heuristic in its seat")
    ax_wins.axhline(0.25, color="grey", ls=":", label="even share")
    ax_wins.set(xlabel="positions or decisions (millions)", ylabel="win rate, 2,000 games", ylim=(0, 0.3),
                title="Development win rate, best setting")
    ax_wins.legend(fontsize=8)

    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1])
