"""Tournaments: many full games between agents, with seats and the deal rotated fairly, played
on several processes, summarised with confidence intervals.

Game ``g`` seats entry ``i`` at seat ``(i + g) % n`` and gives the first deal to seat
``(g // n) % n``, so over ``n * n`` games every entry plays every seat under every dealer. The
entries keep their order around the table: with three or more different agents, each always
sits after the same one and takes its discards (the ladder plays a table in every order:
:mod:`agents.evaluation.ladder`). Each
game's seed (and each agent's) derives from the tournament seed and ``g`` alone, so the results
are the same whatever the number of worker processes.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from phase10_env import raw_env
from phase10_env.actions import DRAW_DECK, DRAW_DISCARD
from phase10_env.engine.config import RulesSpec, load_rules
from phase10_env.play import play, policy_chooser

from ..plotting import pyplot
from ..policies.registry import cached_agent, forget_agents, make_agent
from ..pool import parallel_map

Z95 = 1.959963984540054
NATIVE_BATCH = 512  # games per call of the native core


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)  # the exact bounds at 0 and 1,
    hi = 1.0 if wins >= games else min(1.0, centre + half)  # free of rounding error
    return (lo, hi)


@dataclass(frozen=True)
class GameOutcome:
    index: int
    seats: tuple[int, ...]  # seat of each entry
    first_dealer: int
    winners: tuple[int, ...]  # entries
    scores: tuple[int, ...]  # per entry
    phases: tuple[int, ...]  # phases completed, per entry
    hands: int
    steps: int
    truncated: bool
    thinking: tuple[float, ...] = field(default=(), compare=False)  # CPU seconds each entry spent choosing: timing, not outcome
    turns: tuple[int, ...] = ()  # turns each entry played (its draws)

    @classmethod
    def from_json(cls, data: dict[str, Any], with_thinking: bool = True) -> GameOutcome:
        """The outcome a results file kept (``asdict`` of one, without ``thinking`` unless
        ``with_thinking``); KeyError or TypeError if it is not one."""
        return cls(index=int(data["index"]), seats=tuple(data["seats"]), first_dealer=int(data["first_dealer"]),
                   winners=tuple(data["winners"]), scores=tuple(data["scores"]), phases=tuple(data["phases"]),
                   hands=int(data["hands"]), steps=int(data["steps"]), truncated=bool(data["truncated"]),
                   thinking=tuple(data["thinking"]) if with_thinking else (), turns=tuple(data["turns"]))


@dataclass(frozen=True)
class MatchSetup:
    agents: tuple[str, ...]
    num_players: int
    rules: dict[str, Any]
    seed: int
    max_steps: int


def game_seed(seed: int, index: int, entry: int = -1) -> int:
    return int(np.random.SeedSequence([seed, index, entry + 1]).generate_state(1, np.uint64)[0] >> 1)


def play_game(setup: MatchSetup, index: int) -> GameOutcome:
    n = setup.num_players
    rotation, dealer = index % n, (index // n) % n
    seats = tuple((i + rotation) % n for i in range(n))
    by_seat = {seat: i for i, seat in enumerate(seats)}
    policies = [cached_agent(spec) for spec in setup.agents]
    for i, policy in enumerate(policies):
        if hasattr(policy, "seed"):
            policy.seed(game_seed(setup.seed, index, i))
    env = raw_env(num_players=n, rules=setup.rules, max_steps=setup.max_steps)
    env.reset(seed=game_seed(setup.seed, index), options={"first_dealer": dealer})
    by_agent = {agent: policies[by_seat[seat]] for seat, agent in enumerate(env.possible_agents)}
    clock = dict.fromkeys(env.possible_agents, 0.0)
    turns = dict.fromkeys(env.possible_agents, 0)

    def count_turns(agent: str, seen: object, action: int) -> None:
        turns[agent] += action in (DRAW_DECK, DRAW_DISCARD)

    steps = play(env, policy_chooser(env, by_agent, watch=count_turns, clock=clock))
    game = env.game
    agent_of = [env.possible_agents[seats[i]] for i in range(n)]
    return GameOutcome(
        index=index, seats=seats, first_dealer=dealer,
        winners=tuple(sorted(by_seat[w] for w in game.winners)),
        scores=tuple(game.scores[seats[i]] for i in range(n)),
        phases=tuple(game.phases_completed[seats[i]] for i in range(n)),
        hands=game.hand_number, steps=steps, truncated=not game.is_over,
        thinking=tuple(clock[a] for a in agent_of), turns=tuple(turns[a] for a in agent_of),
    )


def _play_indexed(args: tuple[MatchSetup, int]) -> GameOutcome:
    return play_game(*args)


@dataclass
class EntryStats:
    name: str
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_score: float
    mean_phases: float
    by_seat: list[dict[str, Any]] = field(default_factory=list)
    by_turn_order: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class TournamentResult:
    setup: MatchSetup
    outcomes: list[GameOutcome]
    seconds: float = 0.0  # wall time of the games
    workers: int = 1

    @property
    def names(self) -> list[str]:
        agents = self.setup.agents
        return [a if agents.count(a) == 1 else f"{a}#{i}" for i, a in enumerate(agents)]

    def entry_stats(self) -> list[EntryStats]:
        n, out = self.setup.num_players, []
        for i, name in enumerate(self.names):
            wins = [i in o.winners for o in self.outcomes]
            k = sum(wins)
            by_seat, by_order = [], []
            for pos in range(n):
                at_seat = [w for w, o in zip(wins, self.outcomes) if o.seats[i] == pos]
                in_order = [w for w, o in zip(wins, self.outcomes) if (o.seats[i] - o.first_dealer - 1) % n == pos]
                by_seat.append(_rate_row("seat", pos, at_seat))
                by_order.append(_rate_row("plays", pos + 1, in_order))
            out.append(EntryStats(
                name=name, games=len(wins), wins=k, win_rate=k / max(1, len(wins)), ci95=wilson_interval(k, len(wins)),
                mean_score=float(np.mean([o.scores[i] for o in self.outcomes])) if self.outcomes else 0.0,
                mean_phases=float(np.mean([o.phases[i] for o in self.outcomes])) if self.outcomes else 0.0,
                by_seat=by_seat, by_turn_order=by_order))
        return out

    @property
    def games_per_second(self) -> float:
        return len(self.outcomes) / self.seconds if self.seconds else 0.0

    def ms_per_turn(self) -> list[float]:
        """Each entry's mean CPU time choosing per turn it played, in milliseconds (it depends
        on the machine; the other results do not)."""
        return [1e3 * sum(o.thinking[i] for o in self.outcomes) / max(1, sum(o.turns[i] for o in self.outcomes))
                for i in range(self.setup.num_players)]

    @property
    def mean_hands(self) -> float:
        return float(np.mean([o.hands for o in self.outcomes])) if self.outcomes else 0.0

    def bias_tests(self) -> list[dict[str, Any]]:
        """For each agent (seats holding the same agent pooled) and each of seat and turn order
        (1 = plays first in the first hand): a chi-square test that its win rate is the same
        in every position. A flag needs p below 5% split over all the tests (Bonferroni)."""
        n = self.setup.num_players
        tests: list[dict[str, Any]] = []
        for spec in dict.fromkeys(self.setup.agents):
            entries = [i for i, a in enumerate(self.setup.agents) if a == spec]
            for dimension in ("seat", "turn order"):
                wins, games = [0] * n, [0] * n
                for o in self.outcomes:
                    for i in entries:
                        pos = o.seats[i] if dimension == "seat" else (o.seats[i] - o.first_dealer - 1) % n
                        games[pos] += 1
                        wins[pos] += i in o.winners
                chi2, p = _homogeneity(wins, games)
                tests.append({"agent": spec, "position": dimension, "chi2": chi2, "df": n - 1, "p_value": p,
                              "win_rates": [w / g if g else 0.0 for w, g in zip(wins, games)], "games": games})
        for t in tests:
            t["flagged"] = t["p_value"] < 0.05 / len(tests)
        return tests

    def bias_report(self, tests: list[dict[str, Any]] | None = None) -> list[str]:
        """The flagged bias tests (of :meth:`bias_tests`, or ``tests`` already run), in words."""
        return [f"{t['agent']}: win rate by {t['position']} {[round(r, 3) for r in t['win_rates']]} "
                f"(chi2 {t['chi2']:.1f}, p {t['p_value']:.4f})" for t in tests or self.bias_tests() if t["flagged"]]

    def to_json(self) -> dict[str, Any]:
        tests = self.bias_tests()
        return {
            "setup": {**asdict(self.setup), "agents": list(self.setup.agents)},
            "games": len(self.outcomes),
            "mean_hands": self.mean_hands,
            "mean_steps": float(np.mean([o.steps for o in self.outcomes])) if self.outcomes else 0.0,
            "truncated_games": sum(o.truncated for o in self.outcomes),
            "agents": [{**asdict(s), "ci95": list(s.ci95)} for s in self.entry_stats()],
            "bias_tests": tests,
            "bias_flags": self.bias_report(tests),
            "timing": {"seconds": self.seconds, "workers": self.workers, "games_per_second": self.games_per_second,
                       "ms_per_turn": dict(zip(self.names, self.ms_per_turn()))},
            # game by game, for paired comparisons; thinking time is in "timing" alone
            "outcomes": [{k: v for k, v in asdict(o).items() if k != "thinking"} for o in self.outcomes],
        }

    def save_json(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_json(), indent=2), encoding="utf-8")

    def table(self) -> str:
        stats = self.entry_stats()
        width = max(12, *(len(s.name) for s in stats))
        lines = [f"{len(self.outcomes)} games, {self.setup.num_players} players, mean {self.mean_hands:.1f} hands per game; "
                 f"{self.seconds:.1f} s ({self.games_per_second:.1f} games/s, "
                 f"{self.workers} process{'' if self.workers == 1 else 'es'})",
                 f"{'agent':{width}s} {'games':>6s} {'wins':>6s} {'win rate':>9s} {'95% CI':>17s} {'score':>8s} {'phases':>7s} "
                 f"{'ms/turn':>8s}"]
        for s, ms in zip(stats, self.ms_per_turn()):
            lines.append(f"{s.name:{width}s} {s.games:6d} {s.wins:6d} {s.win_rate:9.3f} "
                         f"[{s.ci95[0]:.3f}, {s.ci95[1]:.3f}] {s.mean_score:8.1f} {s.mean_phases:7.2f} {ms:8.2f}")
        tests = self.bias_tests()
        flags = self.bias_report(tests)
        lowest = min(t["p_value"] for t in tests)
        lines.append("seat / turn-order bias (chi-square, Bonferroni 5%): "
                     + ("none" if not flags else "; ".join(flags)) + f" (lowest p {lowest:.3f} of {len(tests)} tests)")
        truncated = sum(o.truncated for o in self.outcomes)
        if truncated:
            lines.append(f"{truncated} games hit the step limit and have no winner")
        return "\n".join(lines)

    def plot(self, path: str | Path) -> None:
        plt = pyplot("the tournament's plot")
        stats = self.entry_stats()
        fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(stats), 3.6))
        rates = [s.win_rate for s in stats]
        errors = np.array([[s.win_rate - s.ci95[0] for s in stats], [s.ci95[1] - s.win_rate for s in stats]])
        ax.bar(range(len(stats)), rates, yerr=errors, capsize=6, color="#4c78a8")
        ax.axhline(1 / self.setup.num_players, color="grey", linestyle="--", linewidth=1, label="even share")
        ax.set_xticks(range(len(stats)), [s.name for s in stats], rotation=15)
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (95% CI)")
        ax.set_title(f"{len(self.outcomes)} games, {self.setup.num_players} players")
        ax.legend(loc="upper right", fontsize=8)
        fig.tight_layout()
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=120)
        plt.close(fig)


def _homogeneity(wins: list[int], games: list[int]) -> tuple[float, float]:
    """Chi-square statistic and p-value that win rates are equal across positions."""
    used = [(w, g) for w, g in zip(wins, games) if g]
    total_w, total_g = sum(w for w, _ in used), sum(g for _, g in used)
    p = total_w / total_g if total_g else 0.0
    if len(used) < 2 or p in (0.0, 1.0):
        return 0.0, 1.0
    chi2 = sum((w - g * p) ** 2 / (g * p * (1 - p)) for w, g in used)
    return chi2, _chi2_sf(chi2, len(used) - 1)


def _chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (exact series)."""
    half = x / 2
    if df % 2 == 0:
        term = total = math.exp(-half)
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(2 * x / math.pi) * math.exp(-half)  # then times x/3, x/5, ...
    for k in range(1, (df + 1) // 2):
        total += term
        term *= x / (2 * k + 1)
    return min(1.0, total)


def _rate_row(position: str, value: int, wins: list[bool]) -> dict[str, Any]:
    k = sum(wins)
    return {"position": position, "value": value, "games": len(wins), "wins": k,
            "win_rate": k / len(wins) if wins else 0.0, "ci95": list(wilson_interval(k, len(wins)))}


def seat_entries(agents: Sequence[str], num_players: int) -> tuple[str, ...]:
    """One agent per seat: the list as given if it has ``num_players`` names; one name plays
    every seat; a shorter list repeats in order (``heuristic random`` at 4 players:
    heuristic, random, heuristic, random)."""
    if not agents:
        raise ValueError("name at least one agent")
    if len(agents) > num_players:
        raise ValueError(f"{len(agents)} agents for {num_players} seats")
    return tuple(agents[i % len(agents)] for i in range(num_players))


def match_label(entries: Sequence[str]) -> str:
    """A match's name for its progress bar: ``champion vs heuristic x3`` for a 4-player table."""
    return " vs ".join(f"{spec} x{n}" if n > 1 else spec for spec, n in Counter(entries).items())


def run_tournament(agents: Sequence[str], num_players: int = 2, games: int = 100, seed: int = 0,
                   rules: RulesSpec = None, workers: int | None = None,
                   max_steps: int = 200_000, progress: bool = True, backend: str = "processes",
                   address: str | None = None, native: bool | None = None) -> TournamentResult:
    """Play ``games`` full games; ``workers`` processes (default: all cores), or with
    ``backend="ray"`` Ray tasks on the cluster at ``address`` (see :func:`agents.pool.parallel_map`);
    the same seed gives the same results either way. Games of built-in agents (``random``,
    ``heuristic``) and deterministic models (``ppo:PATH``) only are played in the native core
    when it is built (``native=None``; ``True`` insists, ``False`` plays them in Python): the
    same games, in one process."""
    from .native_games import play_games, plays_natively

    entries = seat_entries(agents, num_players)
    forget_agents()  # a saved model may have changed on disk since the last tournament
    for spec in dict.fromkeys(entries):  # every agent built once here, before any game: a bad name or a
        if spec != "human":              # missing model fails now, not after the workers start
            make_agent(spec)
    setup = MatchSetup(entries, num_players, load_rules(rules).to_dict(), seed, max_steps)
    start = time.perf_counter()
    if native is True and not plays_natively(entries):
        raise ValueError(f"the native core plays only {['random', 'heuristic', 'ppo:PATH']} (and must be built), "
                         f"not {list(entries)}")
    if native is not False and backend == "processes" and plays_natively(entries):
        outcomes = []
        with tqdm(total=games, desc=match_label(entries) + " (native core)", unit="game",
                  disable=not progress) as bar:
            for first in range(0, games, NATIVE_BATCH):
                outcomes += play_games(setup, range(first, min(games, first + NATIVE_BATCH)))
                bar.update(min(games, first + NATIVE_BATCH) - first)
        return TournamentResult(setup, outcomes, time.perf_counter() - start, 1)
    jobs = [(setup, g) for g in range(games)]
    outcomes = parallel_map(_play_indexed, jobs, workers, desc=match_label(entries), progress=progress,
                            backend=backend, address=address)
    return TournamentResult(setup, outcomes, time.perf_counter() - start, workers or os.cpu_count() or 1)
