"""The ladder: every pair of agents head to head, optionally multi-player tables drawn from them,
and one rating per agent from every game's finishing order.

Each pair, and each table (every combination of ``table_players`` agents), is a tournament of
:func:`~agents.evaluation.tournament.run_tournament`: seats and the first deal rotate so that
every agent plays every seat under every dealer equally often. A match's seed derives from the
ladder's seed and the match's agents alone (``match_seed``), so adding an agent to the ladder
does not change the games of the others, and ``phase10 eval --agents A B --games N --seed S``
with a pair's recorded seed replays that pair's games.

An agent slow to think can play fewer games a pair than the others (``games_with``, e.g. the
champion 200 where the fast agents play 2,000), so that cheap neighbours in the ranking get the
games they need to separate. A pair plays the fewer games of its two agents' counts.

A tournament's seats rotate, but its entries keep their order around the table, and at three
or more players that order matters: whoever sits after an agent takes its discards. (With one
order per table, the agent seated after ``random`` in 4-player tables of the six default agents
won 0.78 of its games, the same agent elsewhere 0.46.) So a table is played in every order
around it: ``(k - 1)!`` tournaments, the first agent fixed and the others permuted, each of
``table_games / (k - 1)!`` games, and every agent sits after every other equally often.

Ratings are OpenSkill's Plackett-Luce model (Weng-Lin), which rates multi-player rankings with
ties. Every game is one ranking: winners first, then the others by phases completed (more
first), then by final score (lower first); equal standings tie. The games are rated in a fixed
order, round by round (game 0 of every match in match order, then game 1, ...), so a seed gives
the same ratings, and no match is rated wholly before another. ``tau`` is 0: the agents do not
change during a ladder, so their skill is taken as fixed. The conservative rating is OpenSkill's
ordinal, ``mu - 3 * sigma``.

``LadderResult.to_json`` (``results/ladder.json``)::

    format        "phase10-ladder/1"
    agents        the agent specs, in the order given
    settings      games_per_pair, games_with (agent -> its pairs' games), table_players,
                  table_games, seed, rules, max_steps, workers (the most processes a match ran
                  on: built-in agents alone play in the native core, in one), rating (library,
                  version, model, tau, ordinal), matches_read_back (with ``matches``: commit ->
                  the matches read back that were played at it)
    pairs[]       agents [A, B], seed, games, truncated, seconds, seconds_per_game,
                  results[] per agent: agent, wins, win_rate, ci95 [lo, hi] (Wilson, 95%),
                  seat_games, seat_wins (per seat 0, 1), ms_per_turn (its thinking time)
    tables[]      the same per multi-player table and order around it (agents: that order,
                  seats per table)
    ratings[]     best first: agent, mu, sigma, ordinal, games (rated)
    versions      phase10, openskill, numpy, python
    wall_seconds  the whole ladder's wall time
"""

from __future__ import annotations

import importlib.metadata
import itertools
import json
import math
import platform
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from openskill.models import PlackettLuce

from phase10_env.engine.config import RulesSpec, load_rules

from ..plotting import pyplot
from ..policies.registry import make_agent
from .match_store import load_match, save_match
from .tournament import GameOutcome, MatchSetup, TournamentResult, run_tournament, seat_entries, wilson_interval

DEFAULT_AGENTS = ("random", "ppo:models/default.zip", "heuristic", "ppo:models/strong.zip", "mcts", "champion")
FORMAT = "phase10-ladder/1"
ORDINAL_Z = 3.0
# Actions after which a ladder game stops unfinished: 23 heuristic games' length, 2.5 random
# 2-player games'. Two greedy policies can pass one card back and forth for ever (each takes the
# other's discard and throws it again), and such a game would hold up the ladder for hours.
MAX_STEPS = 10_000


@dataclass(frozen=True)
class AgentRating:
    agent: str
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma
    games: int


def match_seed(seed: int, agents: Sequence[str]) -> int:
    """The seed of the match between ``agents`` (in seat-entry order) in a ladder of ``seed``."""
    key = zlib.crc32("\n".join(agents).encode())
    return int(np.random.SeedSequence([seed, key]).generate_state(1, np.uint32)[0])


def finishing_ranks(outcome: GameOutcome) -> list[float]:
    """Each entry's place in ``outcome`` (0 best): winners first, then more phases completed,
    then the lower score; entries with equal standings share a place."""
    keys = [(i not in outcome.winners, -outcome.phases[i], outcome.scores[i]) for i in range(len(outcome.scores))]
    order = sorted(set(keys))
    return [order.index(k) for k in keys]


def rate_games(agents: Sequence[str], matches: Sequence[TournamentResult]) -> list[AgentRating]:
    """OpenSkill ratings of ``agents`` from every game of ``matches``, rated round by round in
    match order; best (highest ordinal) first."""
    model = PlackettLuce(tau=0.0)
    ratings = {a: model.rating(name=a) for a in agents}
    games = dict.fromkeys(agents, 0)
    rounds = max((len(m.outcomes) for m in matches), default=0)
    for g in range(rounds):
        for match in matches:
            if g >= len(match.outcomes):
                continue
            entries = match.setup.agents
            new = model.rate([[ratings[a]] for a in entries], ranks=finishing_ranks(match.outcomes[g]))
            for a, (rating,) in zip(entries, new):
                ratings[a] = rating
                games[a] += 1
    out = [AgentRating(a, r.mu, r.sigma, r.ordinal(z=ORDINAL_Z), games[a]) for a, r in ratings.items()]
    return sorted(out, key=lambda r: -r.ordinal)


def _match_json(match: TournamentResult) -> dict[str, Any]:
    games = len(match.outcomes)
    results = [{"agent": spec, "wins": s.wins, "win_rate": s.win_rate, "ci95": list(s.ci95),
                "seat_games": [row["games"] for row in s.by_seat], "seat_wins": [row["wins"] for row in s.by_seat],
                "ms_per_turn": ms}
               for spec, s, ms in zip(match.setup.agents, match.entry_stats(), match.ms_per_turn())]
    return {"agents": list(match.setup.agents), "seed": match.setup.seed, "games": games,
            "truncated": sum(o.truncated for o in match.outcomes), "seconds": match.seconds,
            "seconds_per_game": match.seconds / games if games else 0.0, "results": results}


@dataclass
class LadderResult:
    agents: tuple[str, ...]
    pairs: list[TournamentResult]
    tables: list[TournamentResult]
    ratings: list[AgentRating]
    settings: dict[str, Any]
    seconds: float  # wall time of the whole ladder

    def pair_rate(self, a: str, b: str) -> tuple[float, tuple[float, float]]:
        """``a``'s win rate against ``b`` and its 95% interval."""
        for match in self.pairs:
            if set(match.setup.agents) == {a, b}:
                stats = match.entry_stats()[match.setup.agents.index(a)]
                return stats.win_rate, stats.ci95
        raise KeyError(f"no pair {a!r} vs {b!r} in this ladder")

    def table_rate(self, agent: str) -> tuple[float, tuple[float, float]]:
        """``agent``'s win rate over all its multi-player tables and its 95% interval."""
        wins = games = 0
        for match in self.tables:
            if agent in match.setup.agents:
                i = match.setup.agents.index(agent)
                wins += sum(i in o.winners for o in match.outcomes)
                games += len(match.outcomes)
        return (wins / games if games else 0.0), wilson_interval(wins, games)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "agents": list(self.agents), "settings": self.settings,
                "pairs": [_match_json(m) for m in self.pairs], "tables": [_match_json(m) for m in self.tables],
                "ratings": [asdict(r) for r in self.ratings], "versions": _versions(), "wall_seconds": self.seconds}

    def save_json(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")

    def markdown(self) -> str:
        """The ladder as a Markdown table, best rated first: rating, then each pairwise win rate
        of the row's agent against the column's (95% interval), then its win rate at the tables."""
        order = [r.agent for r in self.ratings]
        k = self.settings["table_players"]
        head = ["#", "agent", "rating (μ − 3σ)", "μ", "σ", *(f"vs {a}" for a in order)]
        if self.tables:
            head.append(f"{k}-player tables")
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for place, r in enumerate(self.ratings, 1):
            cells = [str(place), f"`{r.agent}`", f"{r.ordinal:.1f}", f"{r.mu:.1f}", f"{r.sigma:.2f}"]
            for other in order:
                cells.append("—" if other == r.agent else _rate_cell(*self.pair_rate(r.agent, other)))
            if self.tables:
                cells.append(_rate_cell(*self.table_rate(r.agent)))
            lines.append("| " + " | ".join(cells) + " |")
        s = self.settings
        tables = (f", {s['table_games']} per {k}-player table ({_count(math.comb(len(self.agents), k), 'table')}, "
                  f"each in every order around it)" if self.tables else "")
        unfinished = sum(o.truncated for m in self.pairs + self.tables for o in m.outcomes)
        stopped = (f" {_count(unfinished, 'game')} stopped unfinished after {s['max_steps']:,} actions: no winner, "
                   "ranked by phases and score." if unfinished else "")
        note = (f"{self._games_note()}{tables}; seats and first deal rotated; seed {s['seed']}; win rate "
                f"of the row against the column, 95% Wilson interval; OpenSkill {s['rating']['model']} ratings from "
                f"every game's finishing order; {self.seconds / 60:.1f} min on {_count(s['workers'], 'process')}"
                f"{self._read_back_note()}.{stopped}")
        return "\n".join(lines) + "\n\n" + note

    def _games_note(self) -> str:
        """'2000 games per pair, 200 for the pairs of `champion`' (or without the second part)."""
        fewer = self.settings.get("games_with") or {}
        return f"{self.settings['games_per_pair']} games per pair" + "".join(
            f", {n} for the pairs of `{agent}`" for agent, n in fewer.items())

    def _read_back_note(self) -> str:
        read_back = self.settings.get("matches_read_back") or {}
        if not read_back:
            return ""
        played = sum(m.seconds for m in self.pairs + self.tables) / 60
        return (f" ({_count(sum(map(len, read_back.values())), 'match')} read back from earlier runs, played at "
                f"{', '.join(sorted(read_back))}; all the matches' games took {played:.1f} min)")

    def plot(self, path: str | Path) -> None:
        """A PNG: the pairwise win-rate heatmap beside each agent's rating (μ, bar to μ − 3σ)."""
        plt = pyplot("the ladder's PNG")
        order = [r.agent for r in self.ratings]
        n = len(order)
        grid = np.full((n, n), np.nan)
        for i, a in enumerate(order):
            for j, b in enumerate(order):
                if a != b:
                    grid[i, j] = self.pair_rate(a, b)[0]
        fig, (heat, bars) = plt.subplots(1, 2, figsize=(5.5 + 1.6 * n, 1.5 + 0.9 * n),
                                         gridspec_kw={"width_ratios": [n, max(3, n * 0.8)]})
        image = heat.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
        for i, j in itertools.product(range(n), range(n)):
            if i != j:
                rate, (lo, hi) = self.pair_rate(order[i], order[j])
                heat.text(j, i, f"{rate:.2f}\n[{lo:.2f}, {hi:.2f}]", ha="center", va="center", fontsize=7,
                          color="white" if abs(rate - 0.5) > 0.3 else "black")
        heat.set_xticks(range(n), order, rotation=30, ha="right", fontsize=8)
        heat.set_yticks(range(n), order, fontsize=8)
        heat.set_xlabel("opponent")
        heat.set_title(f"win rate of row vs column ({self._games_note().replace('`', '')}, 95% CI)", fontsize=9)
        fig.colorbar(image, ax=heat, fraction=0.046, pad=0.04)
        ys = np.arange(n)[::-1]
        mus = np.array([r.mu for r in self.ratings])
        bars.errorbar(mus, ys, xerr=[ORDINAL_Z * np.array([r.sigma for r in self.ratings]), np.zeros(n)],
                      fmt="o", color="#4c78a8", capsize=4)
        for y, r in zip(ys, self.ratings):
            bars.annotate(f"{r.ordinal:.1f}", (r.ordinal, y), textcoords="offset points", xytext=(0, 6), fontsize=7,
                          ha="center")
        bars.set_yticks(ys, order, fontsize=8)
        bars.set_ylim(-0.7, n - 0.3)
        bars.set_xlabel("OpenSkill μ (bar to the rating μ − 3σ)")
        bars.set_title("ratings, every game" + (f" ({self.settings['table_players']}-player tables too)"
                                                if self.tables else ""), fontsize=9)
        fig.tight_layout()
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=120)
        plt.close(fig)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "es" if noun.endswith(("s", "ch")) else "s")


def _rate_cell(rate: float, ci: tuple[float, float]) -> str:
    return f"{rate:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]"


def _versions() -> dict[str, str]:
    def version(package: str) -> str:
        try:
            return importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    return {"phase10": version("phase10"), "openskill": version("openskill"), "numpy": version("numpy"),
            "python": platform.python_version()}


def check_ladder(agents: Sequence[str], games_per_pair: int, table_players: int, table_games: int,
                 games_with: Mapping[str, int] | None = None) -> None:
    """Raise ``ValueError`` naming what is wrong with a ladder's agents or game counts; builds each
    agent once, so an unknown name or a missing model fails before any game is played."""
    if len(agents) < 2:
        raise ValueError(f"a ladder needs at least two agents, got {len(agents)}: {list(agents)}")
    named_twice = sorted({a for a in agents if list(agents).count(a) > 1})
    if named_twice:
        raise ValueError(f"agents named more than once: {named_twice}")
    if "human" in agents:
        raise ValueError("human cannot play in a ladder (it plays many games unattended)")
    for whose, games in [("games per pair", games_per_pair),
                         *((f"games per pair of {agent!r}", n) for agent, n in (games_with or {}).items())]:
        if games <= 0 or games % 4:
            raise ValueError(f"{whose} must be a positive multiple of 4 (each agent plays each seat under each first "
                             f"dealer equally often), not {games}")
    strangers = sorted(set(games_with or {}) - set(agents))
    if strangers:
        raise ValueError(f"games are given for agents not in the ladder: {strangers} (the ladder's: {list(agents)})")
    if table_players:
        if not 3 <= table_players <= 6:
            raise ValueError(f"table players must be 3-6 (or 0 for pairs only), not {table_players}")
        if table_players > len(agents):
            raise ValueError(f"{table_players}-player tables need at least {table_players} agents, got {len(agents)}; "
                             "0 table players plays pairs only")
        orders = math.factorial(table_players - 1)
        block = table_players * table_players * orders
        if table_games <= 0 or table_games % block:
            raise ValueError(f"games per {table_players}-player table must be a positive multiple of {block} (in each "
                             f"of its {orders} orders around the table, every agent at every seat under every first "
                             f"dealer), not {table_games}")
    for spec in agents:
        make_agent(spec)  # raises ValueError naming an unknown agent or a missing model


def table_orders(table: Sequence[str]) -> list[tuple[str, ...]]:
    """Every order of ``table``'s agents around the table, the first agent's seat fixed: the
    ``(k - 1)!`` seatings in which each agent sits after every other equally often."""
    return [(table[0], *rest) for rest in itertools.permutations(table[1:])]


def run_ladder(agents: Sequence[str] = DEFAULT_AGENTS, games_per_pair: int = 200, table_players: int = 4,
               table_games: int = 96, seed: int = 0, rules: RulesSpec = None,
               workers: int | None = None, max_steps: int = MAX_STEPS, progress: bool = True,
               matches: str | Path | None = None, games_with: Mapping[str, int] | None = None) -> LadderResult:
    """Play every pair of ``agents`` (``games_per_pair`` games each, or for a pair with an agent of
    ``games_with`` the fewest games given for its agents) and, with ``table_players``
    (3-6; 0 for none), every table of that many of them (``table_games`` games each, split over
    its orders around the table, :func:`table_orders`); rate every
    game. ``workers`` processes (default: all cores); the same seed gives the same results. A
    game unfinished after ``max_steps`` actions has no winner and is rated by its standings.
    With ``matches``, a directory: each match is kept there as it ends, and a match already
    there is read back instead of played (:mod:`~agents.evaluation.match_store`)."""
    agents = tuple(agents)
    games_with = dict(games_with or {})
    check_ladder(agents, games_per_pair, table_players, table_games, games_with)
    if max_steps <= 0:
        raise ValueError(f"max steps must be positive, not {max_steps}")
    rules_dict = load_rules(rules).to_dict()
    start = time.perf_counter()
    read_back: dict[str, list[str]] = {}  # commit -> the matches read back that were played at it

    def match(entries: tuple[str, ...], games: int) -> TournamentResult:
        setup = MatchSetup(seat_entries(entries, len(entries)), len(entries), rules_dict, match_seed(seed, entries),
                           max_steps)
        if matches is not None and (kept := load_match(matches, setup, games)) is not None:
            read_back.setdefault(kept[1], []).append(" vs ".join(entries))
            return kept[0]
        result = run_tournament(entries, len(entries), games, setup.seed, rules_dict, workers, max_steps=max_steps,
                                progress=progress)
        if matches is not None:
            save_match(matches, result)
        return result

    pairs = [match(pair, min([games_with[a] for a in pair if a in games_with], default=games_per_pair))
             for pair in itertools.combinations(agents, 2)]
    tables = [match(order, table_games // math.factorial(table_players - 1))
              for table in itertools.combinations(agents, table_players) for order in table_orders(table)
              ] if table_players else []
    ratings = rate_games(agents, pairs + tables)
    settings = {"games_per_pair": games_per_pair, "games_with": games_with, "table_players": table_players,
                "table_games": table_games if table_players else 0, "seed": seed, "rules": rules_dict,
                "max_steps": max_steps, "workers": max(m.workers for m in pairs + tables),
                "rating": {"library": "openskill", "version": _versions()["openskill"], "model": "PlackettLuce",
                           "tau": 0.0, "ordinal": f"mu - {ORDINAL_Z:g} sigma"},
                "matches_read_back": read_back}
    return LadderResult(agents, pairs, tables, ratings, settings, time.perf_counter() - start)
