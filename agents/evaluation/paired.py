"""Two runs on the same deals, compared game by game.

Two variants of an agent played on the same seed meet the same deals, so most games end the
same way for both; what tells them apart is the games where one won and the other did not.
Comparing the two win rates as if they were independent ignores that and needs far more games.
This reads two results files of ``phase10 eval --json`` (or two ladder match files), checks that
they are the same games with only one entry changed, and gives the paired difference of that
entry's win rate with its 95% interval and McNemar's exact test on the games they split::

    python -m agents.evaluation.paired runs/a.json runs/b.json --entry 0
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from .tournament import Z95, GameOutcome, MatchSetup, TournamentResult


def load_results(path: str | Path) -> TournamentResult:
    """The setup and game outcomes a results file kept; ValueError naming the file if it has none."""
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        if "outcomes" not in record:
            raise ValueError("it keeps no game outcomes (written before `phase10 eval --json` kept them): run it again")
        setup = record["setup"]
        match = MatchSetup(agents=tuple(setup["agents"]), num_players=int(setup["num_players"]), rules=setup["rules"],
                           seed=int(setup["seed"]), max_steps=int(setup["max_steps"]))
        return TournamentResult(match, [GameOutcome.from_json(o, with_thinking=False) for o in record["outcomes"]])
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as e:
        raise ValueError(f"{path} cannot be read as results: {e!r}") from None
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


@dataclass(frozen=True)
class PairedComparison:
    games: int
    both: int  # games the entry won in both runs
    first_only: int
    second_only: int
    neither: int
    difference: float  # win rate in the first run minus in the second
    ci95: tuple[float, float]
    p_value: float  # McNemar's exact test: the split games fall either way with chance 1/2

    def summary(self, first: str, second: str) -> str:
        lo, hi = self.ci95
        return (f"{self.games} games on the same deals: {first} won {self.both + self.first_only}, "
                f"{second} won {self.both + self.second_only} (both {self.both}, {first} only {self.first_only}, "
                f"{second} only {self.second_only}, neither {self.neither})\n"
                f"difference {self.difference:+.3f} [{lo:+.3f}, {hi:+.3f}] (paired, 95%); "
                f"McNemar exact p {self.p_value:.3f}")


def first_games(run: TournamentResult, games: int) -> TournamentResult:
    """The run cut to its first ``games`` games; ValueError if it has fewer."""
    if len(run.outcomes) < games:
        raise ValueError(f"a run has {len(run.outcomes)} games, fewer than the {games} to compare")
    return TournamentResult(run.setup, run.outcomes[:games])


def compare(first: TournamentResult, second: TournamentResult, entry: int = 0) -> PairedComparison:
    """Entry ``entry``'s wins in ``first`` against ``second``, game by game. ValueError if the runs
    are not the same games: another seed, table, rules, step cap, game count, or another agent in a
    seat other than ``entry``'s."""
    a, b = first.setup, second.setup
    if not 0 <= entry < a.num_players:
        raise ValueError(f"entry {entry} is not one of the {a.num_players} entries")
    differ = [k for k in ("num_players", "rules", "seed", "max_steps") if getattr(a, k) != getattr(b, k)]
    differ += [f"agent {i} ({x!r} against {y!r})" for i, (x, y) in enumerate(zip(a.agents, b.agents))
               if i != entry and x != y]
    if [o.index for o in first.outcomes] != [o.index for o in second.outcomes]:
        differ.append(f"games ({len(first.outcomes)} against {len(second.outcomes)})")
    if differ:
        raise ValueError(f"not the same games: they differ in {', '.join(differ)}")
    return paired_wins([(entry in x.winners, entry in y.winners) for x, y in zip(first.outcomes, second.outcomes)])


def paired_wins(won: Sequence[tuple[bool, bool]]) -> PairedComparison:
    """The comparison of two players' wins (or one player's in two runs), deal by deal."""
    n = len(won)
    if n == 0:
        raise ValueError("no games to compare")
    first_only = sum(x and not y for x, y in won)
    second_only = sum(y and not x for x, y in won)
    both = sum(x and y for x, y in won)
    d = (first_only - second_only) / n
    spread = math.sqrt(max(0.0, (first_only + second_only) / n - d * d) / n)  # of the mean game-by-game difference
    split = first_only + second_only
    tail = sum(math.comb(split, k) for k in range(min(first_only, second_only) + 1)) / 2**split if split else 1.0
    return PairedComparison(games=n, both=both, first_only=first_only, second_only=second_only,
                            neither=n - both - split, difference=d, ci95=(d - Z95 * spread, d + Z95 * spread),
                            p_value=min(1.0, 2 * tail))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m agents.evaluation.paired", description=__doc__.split("\n\n")[0])
    p.add_argument("first", help="results JSON of `phase10 eval --json` (or a ladder match file)")
    p.add_argument("second", help="the other run, on the same seed")
    p.add_argument("--entry", type=int, default=0, help="the entry compared (its place in --agents; default 0)")
    p.add_argument("--games", type=int, help="compare the first this many games of each run (a shorter run against "
                   "the start of a longer one on the same seed)")
    p.add_argument("--json", help="write the comparison as JSON here")
    args = p.parse_args(argv)
    if args.games is not None and args.games < 1:
        p.error("games must be positive")
    try:
        first, second = load_results(args.first), load_results(args.second)
        if args.games is not None:
            first, second = (first_games(run, args.games) for run in (first, second))
        result = compare(first, second, args.entry)
    except ValueError as e:
        p.error(str(e))
    print(result.summary(Path(args.first).stem, Path(args.second).stem))
    if args.json:
        Path(args.json).write_text(json.dumps({"first": args.first, "second": args.second, "entry": args.entry,
                                               **asdict(result)}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
