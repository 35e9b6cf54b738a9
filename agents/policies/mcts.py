"""A search agent: determinized Monte-Carlo evaluation of the draw and the discard.

Until its phase is down, at each draw (take the discard or draw from the deck) and each
discard, the agent samples games consistent with its seat's view (:meth:`Game.from_view`: the
cards it cannot see dealt at random), plays every candidate move in each of them, and lets the
heuristic play all seats to the end of the hand. A candidate is worth what the hand is worth to
the agent: its phase made, less the best opponent's, plus the points the opponent adds less its
own (weighed by ``points_weight`` per 100). Every candidate is played in the same samples
(common random numbers), so what is measured is each one's gain over the heuristic's own
choice, sample by sample. Candidates leave the race once their gain is clearly negative (or
exactly zero so far); the agent leaves the heuristic's move only for one whose mean gain clears
``confidence`` standard errors, because single samples are noisy (a hand is won or lost by one
card) and a choice made on noise plays worse than the heuristic. Discards are ranked by the
heuristic and only the ``width`` best are searched; lay-downs and hits are the heuristic's.

This is perfect-information Monte Carlo over information-set samples: the sampled opponents
play knowing the sampled cards, the method's known weakness; but its play-out policy is the
heuristic itself, so against the heuristic a sample is the real opponent's play in a world the
agent cannot rule out.

Spec: ``mcts`` or ``mcts:sims=16,width=4`` (see :class:`SearchConfig`). Deterministic for a
seed: the budget is a number of sampled games, not a time (unless ``seconds`` sets a time limit
as well, as the web app does).

With the native core built (``backend=native``, the default then) the sampled games are dealt
and played out in C (:mod:`phase10_env.core`): one game consistent with the view is built, and
each sample deals again the cards the seat cannot see (``determinize``), every candidate's copy
of it played out by the core's heuristic, a batch of samples per call. ``backend=python`` keeps
the engine's own play-outs (the reference; about a hundred times slower).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from phase10_env import core
from phase10_env.codec import encode, next_action
from phase10_env.engine import Discard, Draw, Game, Move, SeatView, Stage
from phase10_env.heuristic import HeuristicAgent
from phase10_env.policy import PlayerObservation

from .options import check_ranges, parse_options
from .streams import DeckStreams

# A play-out's hand still going after this many actions stops where it stands: in a dealt world
# two heuristic seats can pass one card back and forth for ever (the longest of 1,800 heuristic
# hands took 110 actions). The native core keeps the same limit (its PLAYOUT_HAND_ACTIONS).
PLAYOUT_HAND_ACTIONS = 1000


@dataclass(frozen=True)
class SearchConfig:
    """The search's knobs, each number within :data:`OPTION_RANGES` (a value outside is a
    ``ValueError`` giving the range).

    * ``sims``: at most this many games sampled per decision (each candidate still in the race
      is played in all of them);
    * ``min_sims``: games sampled before a candidate may leave the race: one that has scored
      exactly what the heuristic's choice scored in every game so far, or whose gain over it is below
      zero by ``confidence`` standard errors, leaves; the search stops when none is left;
    * ``width``: discards searched, the heuristic's best first;
    * ``points_weight``: what 100 points added to one's score weigh against one phase made;
    * ``confidence``: how many standard errors a move's mean gain over the heuristic's choice
      must exceed before the agent plays it instead (sampled games are few and noisy);
    * ``after_down``: search also once its phase is down (the heuristic then only sheds
      cards, and searching rarely changes its choice);
    * ``backend``: ``native`` (play-outs in the compiled core, in batches of ``batch``
      samples) or ``python`` (the engine's play-outs, one sample at a time); ``auto`` takes the
      core when it is built;
    * ``batch``: samples dealt and played out per call to the core (``native`` backend);
    * ``seconds``: stop sampling once a decision has taken this long and decide on the games
      sampled so far (0: no limit). With a limit, play depends on the machine's speed and is no
      longer the same for the same seed;
    * ``streams``: play-outs draw the pile by deck streams (:mod:`agents.policies.streams`:
      the same odds, less noise in a candidate's gain).
    """

    sims: int = 8
    min_sims: int = 4
    width: int = 3
    points_weight: float = 0.25
    confidence: float = 2.0
    after_down: bool = False
    backend: str = "auto"
    batch: int = 8
    seconds: float = 0.0
    streams: bool = False

    def __post_init__(self) -> None:
        check_ranges(self, OPTION_RANGES, "mcts")
        if self.backend not in ("auto", "native", "python"):
            raise ValueError(f"mcts option backend must be auto, native or python, not {self.backend!r}")


#: The range of each numeric option (both ends allowed). ``min_sims`` starts at 2 because a
#: standard error needs two samples; a discard is chosen from at most 11 cards.
OPTION_RANGES: dict[str, tuple[float, float]] = {
    "sims": (1, 1000), "min_sims": (2, 1000), "width": (1, 11), "points_weight": (0, 100), "confidence": (0, 10),
    "batch": (1, 1000), "seconds": (0, 600)}


def parse_search_options(text: str) -> SearchConfig:
    """The config a spec's ``key=value,...`` part gives (``sims=32,width=3``)."""
    return parse_options(text, SearchConfig, "mcts")


class SearchAgent:
    """Plays from its seat's view only; searches draws and discards (module docstring)."""

    name = "mcts"

    def __init__(self, config: SearchConfig | None = None, seed: int | None = None) -> None:
        self.config = config or SearchConfig()
        self.heuristic = HeuristicAgent()
        self.rng = np.random.default_rng(seed)
        backend = self.config.backend
        self.native = backend == "native" or (backend == "auto" and core.available())
        if self.native:
            core.native()  # a clear error if the core was asked for and is not built

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: PlayerObservation) -> int:
        view = obs.seat_view()
        if obs.pending is not None:  # a lay-down or hit under way: the heuristic's, to its end
            move = self.heuristic.choose_move(view, obs.pending)
        else:
            move = self.choose_move(view)
        action = next_action(view, move, obs.pending)
        if not obs.action_mask[action]:
            raise RuntimeError(f"mcts chose action {action}, which is not legal here: a bug in the search")
        return action

    def choose_move(self, view: SeatView) -> Move:
        candidates = self.candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        cfg, seat = self.config, view.seat
        gains: list[list[float]] = [[] for _ in candidates]  # over the heuristic's choice, world by world
        live = list(range(1, len(candidates)))
        worlds = NativeWorlds(view, self.rng) if self.native else None
        deadline = time.monotonic() + cfg.seconds if cfg.seconds else None
        w = 0
        while w < cfg.sims:
            if worlds is None:
                world = Game.from_view(view, self.rng)
                values = [[self.play_out(world.copy(), candidates[i], seat) for i in [0, *live]]]
            else:
                values = worlds.play_outs([candidates[i] for i in [0, *live]], min(cfg.batch, cfg.sims - w), cfg.points_weight,
                                           cfg.streams)
            for row in values:
                w += 1
                for i, value in zip(live, row[1:]):
                    gains[i].append(value - row[0])
            if w >= cfg.min_sims:
                live = [i for i in live if any(gains[i]) and _bounds(gains[i], cfg.confidence)[1] > 0]
                if not live:
                    break
            if deadline is not None and time.monotonic() > deadline:
                break
        lower = {i: _bounds(gains[i], cfg.confidence)[0] for i in range(1, len(candidates))}
        best = max(lower, key=lambda i: (lower[i], -i))
        return candidates[best] if lower[best] > 0 else candidates[0]

    def candidates(self, view: SeatView) -> list[Move]:
        """The moves worth searching, the heuristic's choice first."""
        move = self.heuristic.choose_move(view)
        if view.me.laid and not self.config.after_down:
            return [move]
        if view.stage == Stage.DRAW:
            return sorted((m for m in view.legal_moves if isinstance(m, Draw)), key=lambda m: m != move)
        if not isinstance(move, Discard):
            return [move]
        discards = [m for m in view.legal_moves if isinstance(m, Discard)]
        best: list[Move] = [*self.heuristic.ranked_discards(view, discards)[:self.config.width]]
        return best

    def play_out(self, game: Game, move: Move, seat: int) -> float:
        """Play ``move`` in ``game`` (which changes), then let the heuristic play every seat to
        the end of the hand (or :data:`PLAYOUT_HAND_ACTIONS` actions); the hand's worth to ``seat``."""
        hand, phases, scores = game.hand_number, game.phases_completed[:], game.scores[:]
        streams = DeckStreams(game) if self.config.streams else None
        choose = self.heuristic.choose_move
        for _ in range(1 + PLAYOUT_HAND_ACTIONS):  # the move, then the heuristic's
            if streams and type(move) is Draw and not move.from_discard:
                streams.draw(game)
            game.unsafe_apply(move)
            if game.hand_number != hand or game.is_over:
                break
            move = choose(game.view(game.current))
        return self.value(seat, game.is_over, game.winners, game.active, phases, game.phases_completed, scores, game.scores)

    def value(self, seat: int, over: bool, winners: Sequence[int], active: Sequence[bool], phases_before: Sequence[int],
              phases_after: Sequence[int], scores_before: Sequence[int], scores_after: Sequence[int]) -> float:
        """A hand's worth to ``seat``: its phase made less the best opponent's, plus the points
        that opponent added less its own (weighed); a game's end is worth 2 won, -2 lost."""
        if over:
            return 2.0 if seat in winners else -2.0
        n = len(active)
        made = [phases_after[s] - phases_before[s] for s in range(n)]
        added = [scores_after[s] - scores_before[s] for s in range(n)]
        others = [s for s in range(n) if s != seat and active[s]]
        best = max(others, key=lambda s: (made[s], -added[s]))
        return made[seat] - made[best] + self.config.points_weight * (added[best] - added[seat]) / 100


class NativeWorlds:
    """The games a search samples from one view, dealt and played out by the native core: one
    game consistent with the view, loaded into a slot; each sample deals again what the seat
    cannot see, and each candidate plays out its own copy of that sample."""

    def __init__(self, view: SeatView, rng: np.random.Generator) -> None:
        from phase10_env.core.convert import load_game

        self.core, self.view, self.rng = core.native(), view, rng
        self.base = np.zeros((1, core.SLOT_BYTES), dtype=np.uint8)
        load_game(self.base, 0, Game.from_view(view, rng))

    def play_outs(self, moves: list[Move], samples: int, points_weight: float, streams: bool) -> list[list[float]]:
        """The value (:meth:`SearchAgent.value`) of each move in each of ``samples`` new
        samples, ``[sample][move]`` (``streams``: played out by deck streams)."""
        view, k = self.view, len(moves)
        slots = np.repeat(self.base, samples * k, axis=0)
        rows = np.arange(samples * k, dtype=np.int64)
        seeds = np.repeat(self.rng.integers(2**63, size=samples, dtype=np.uint64), k)
        self.core.determinize(slots, rows, np.full(len(rows), view.seat, dtype=np.int64), seeds)
        actions = np.tile([encode(m, view.seat, view.num_players) for m in moves], samples).astype(np.int64)
        if streams:
            self.core.playout_streams(slots, rows, actions)
        else:
            self.core.act(slots, rows, actions, np.empty(len(rows), dtype=np.int8))
            self.core.playout(slots, rows, True, False, seeds)
        values = np.empty(len(rows))
        self.core.hand_values(slots, rows, view.seat, np.array([p.phases_completed for p in view.players], dtype=np.int64),
                              np.array([p.score for p in view.players], dtype=np.int64), points_weight, values)
        table: list[list[float]] = values.reshape(samples, k).tolist()
        return table


def _bounds(gains: list[float], confidence: float) -> tuple[float, float]:
    """The mean gain less and plus ``confidence`` standard errors (unbounded below two samples)."""
    if len(gains) < 2:
        return -np.inf, np.inf
    mean, error = float(np.mean(gains)), float(np.std(gains, ddof=1)) / np.sqrt(len(gains))
    return mean - confidence * error, mean + confidence * error
