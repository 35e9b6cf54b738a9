"""A ladder's matches kept on disk as each ends, so a stopped ladder goes on from its last match.

A ladder of search agents runs for hours (the champion's five pairs take most of it); with
``phase10 ladder --matches DIR`` each finished match is written to ``DIR`` as one JSON file
(``phase10-match/1``: its setup, every game's outcome, which the ratings need, its wall time and
workers, and the commit it was played at), and a match whose file is already there is read back
instead of played again. Matches are deterministic for their seed, so a ladder put together from
files gives the figures one uninterrupted run would (but wall times).

A file is read back only for the very match asked for: its agents, seats, rules, seed, step cap
and number of games must all agree, and a file that does not is an error naming what differs,
never silently replaced or ignored. What a file cannot show is an agent that changed under the
same spec (a retrained model, an edited search): the commit of each match read back is returned
so that the ladder can say so; delete the directory when an agent changed.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict
from pathlib import Path

from ..training.ship import commit
from .tournament import GameOutcome, MatchSetup, TournamentResult

FORMAT = "phase10-match/1"


def match_path(directory: str | Path, setup: MatchSetup) -> Path:
    """Where the match of ``setup`` is kept: its agents (made file-safe) and its seed."""
    names = "__".join(re.sub(r"[^A-Za-z0-9.=,-]+", "_", spec) for spec in setup.agents)
    return Path(directory) / f"{names}-{setup.seed}.json"


def save_match(directory: str | Path, match: TournamentResult) -> Path:
    """Write ``match`` to its file in ``directory`` (whole or not at all: a stopped write leaves
    no half file)."""
    path = match_path(directory, match.setup)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"format": FORMAT, "setup": {**asdict(match.setup), "agents": list(match.setup.agents)},
              "games": len(match.outcomes), "seconds": match.seconds, "workers": match.workers, "commit": commit(),
              "outcomes": [asdict(o) for o in match.outcomes]}
    partial = path.with_suffix(".json.partial")
    partial.write_text(json.dumps(record) + "\n", encoding="utf-8")
    os.replace(partial, path)
    return path


def load_match(directory: str | Path, setup: MatchSetup, games: int) -> tuple[TournamentResult, str] | None:
    """The match of ``setup`` with ``games`` games and the commit it was played at, if its file is
    in ``directory`` (None if not); ValueError if the file there is of another match or damaged."""
    path = match_path(directory, setup)
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        if record.get("format") != FORMAT:
            raise ValueError(f"format {record.get('format')!r}, not {FORMAT!r}")
        kept = record["setup"]
        wanted = json.loads(json.dumps({**asdict(setup), "agents": list(setup.agents)}))  # as the file has it
        differ = sorted(k for k in wanted.keys() | kept.keys() if kept.get(k) != wanted.get(k))
        if differ or record["games"] != games:
            raise ValueError(f"it is another match (differs in {', '.join(differ or ['games'])}); "
                             "delete it, or give another directory")
        outcomes = [GameOutcome.from_json(o) for o in record["outcomes"]]
        if len(outcomes) != games:
            raise ValueError(f"it holds {len(outcomes)} games' outcomes, not {games}")
        match = TournamentResult(setup, outcomes, seconds=float(record["seconds"]), workers=int(record["workers"]))
        return match, str(record["commit"])
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as e:
        raise ValueError(f"{path} cannot be read back as a match: {e!r}") from None
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
