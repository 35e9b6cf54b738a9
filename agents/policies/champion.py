"""The champion: rollout search in the native core over deals a learned belief model finds likely.

At each draw and each discard (before its phase is down only, with ``after_down=false``),
the agent deals the cards it cannot see many times, plays every candidate move (both draws;
every discard) in each deal, lets the heuristic play all seats to the end of the hand, judges
where the hand ended by the chance to win the game from there (a second learned model, the win
model: :mod:`agents.training.win_model`), and plays the candidate whose gain over the
heuristic's own choice clears ``confidence`` standard errors (the heuristic's choice
otherwise): :mod:`agents.policies.mcts`'s method, whole in C (``search`` of
:mod:`phase10_env.core`), so a decision affords hundreds of play-outs. Lay-downs and hits are
the heuristic's.

What makes it more than that search is where the deals come from. A uniform deal gives an
opponent any card the agent has not seen; a real opponent's hand is not uniform: it kept what
suits its phase, threw away what does not, and left on the discard pile what it did not want.
A belief model (a small network, :class:`BeliefModel`, trained on heuristic games played in
the core: :mod:`agents.training.belief`) reads what the agent may know about one opponent
(its own hand, the unseen cards, the piles and the table, and from the hand's public log the
cards that opponent discarded, passed over and took) and gives, for each kind of card, the
chance that one unseen copy of it is in that opponent's hand; deals draw each opponent's
hidden cards with those weights.

Spec: ``champion`` or ``champion:samples=512,confidence=1.5`` (:class:`ChampionConfig`); the
models are ``models/champion.npz`` and ``models/champion_wins.npz`` (numpy arrays, loaded
without unpickling; their card is ``models/champion.md``). Needs the native core.
Deterministic for a seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from phase10_env import core
from phase10_env.codec import next_action
from phase10_env.core.convert import hand_log_rows, load_game
from phase10_env.engine import Discard, Draw, Game, SeatView
from phase10_env.engine.cards import SKIP
from phase10_env.heuristic import HeuristicAgent
from phase10_env.policy import PlayerObservation

from ..training.win_model import layers
from .options import check_ranges, parse_options

MODEL = Path(__file__).resolve().parents[2] / "models" / "champion.npz"


@dataclass(frozen=True)
class ChampionConfig:
    """The search's knobs, each within :data:`OPTION_RANGES`.

    * ``samples``: at most this many deals per decision;
    * ``min_samples``: deals before a candidate may leave the race (one whose gain over the
      heuristic's choice is below zero by ``confidence`` standard errors leaves);
    * ``confidence``: the standard errors a candidate's mean gain must clear to be played;
    * ``points_weight``: with ``wins=false``, what 100 points added to one's score weigh against
      one phase made;
    * ``belief``: deal opponents' cards by the belief model (``false``: uniformly, the plain
      search, for comparison);
    * ``after_down``: search the discards after the phase is down too (the race to go out;
      ``false``: the heuristic's);
    * ``plays``: search a lay-down, a hit or a Skip of the heuristic's too, against every
      discard (holding the play back this turn) and every other Skip target (``false``: the
      heuristic's);
    * ``consistent``: deal each sample again, up to this many times, until every other seat's
      last discard is the one the heuristic would make from the hand dealt to it (0: keep
      every deal). At most 64: a web client may choose it, and at 4,096 samples 64 tries
      take a decision from about 0.7 s to 1.1 s here (1,000 would take 6 s);
    * ``history``: weigh each other seat's dealt hands by its moves this hand, from this many
      replays of the hand (:mod:`phase10_env.core`'s ``history.c``: a replay unwinds a dealt
      world to the hand's start and asks the heuristic, at each of that seat's moves, what it
      would have done; 0: deal without it). Up to 4,096 replays; 1,024 add about 110 ms a
      turn at 4 players here;
    * ``slip``: with ``history``, the weight a dealt hand keeps for each of its seat's moves this
      hand that the heuristic would not have made from it (1: the moves count for nothing);
    * ``streams``: play-outs draw the pile by deck streams (:mod:`agents.policies.streams`:
      the same odds, about 40% less variance in a candidate's gain);
    * ``wins``: judge a play-out by the chance to win the game it leaves, from the win model
      ``models/champion_wins.npz`` (:mod:`agents.training.win_model`) (``false``: count phases
      made less the best opponent's, and points weighed by ``points_weight``, the judge before).
    """

    samples: int = 1024
    min_samples: int = 32
    confidence: float = 2.0
    points_weight: float = 0.25
    belief: bool = True
    after_down: bool = True
    plays: bool = False
    consistent: int = 0
    history: int = 0
    slip: float = 0.03
    streams: bool = False
    wins: bool = True

    def __post_init__(self) -> None:
        check_ranges(self, OPTION_RANGES, "champion")
        if self.history and self.consistent:
            raise ValueError("champion options history and consistent do not combine: history weighs every move "
                             "of the hand, consistent only each seat's last discard; choose one")


OPTION_RANGES: dict[str, tuple[float, float]] = {
    "samples": (1, 4096), "min_samples": (2, 4096), "confidence": (0, 10), "points_weight": (0, 100),
    "consistent": (0, 64), "history": (0, 4096), "slip": (0, 1)}


def parse_champion_options(text: str) -> ChampionConfig:
    """The config a spec's ``key=value,...`` part gives (``samples=512``)."""
    return parse_options(text, ChampionConfig, "champion")


WIN_MODEL = Path(__file__).resolve().parents[2] / "models" / "champion_wins.npz"


@dataclass(frozen=True)
class WinModel:
    """The win model (:mod:`agents.training.win_model`): per seat count, a monotone network's
    flat weights, all with ``hidden`` units a layer."""

    by_players: dict[int, np.ndarray]
    hidden: int


def load_win_model(path: str | Path = WIN_MODEL) -> WinModel:
    """The win model stored as ``n2``, ``n3``, ... and ``hidden`` in an ``.npz`` file, read
    without unpickling; a ValueError if an array does not fit its seat count or a weight is
    negative (the network would not be monotone)."""
    with np.load(path, allow_pickle=False) as data:
        models = {int(name[1:]): np.ascontiguousarray(data[name], dtype=np.float64) for name in data.files
                  if name[:1] == "n" and name[1:].isdigit()}
        hidden = int(data["hidden"]) if "hidden" in data.files else 0
    if not models or hidden < 1:
        raise ValueError(f"{path} is not a win model: it must hold hidden and arrays named n2, n3, ...")
    for players, model in models.items():
        try:
            w0, _, w1, _, w2, _ = layers(model, hidden)
        except ValueError as e:
            raise ValueError(f"{path} is not a win model: n{players}: {e}") from None
        if min(w0.min(), w1.min(), w2.min()) < 0:
            raise ValueError(f"{path} is not a win model: n{players} has negative weights")
    return WinModel(models, hidden)


class BeliefModel:
    """A multilayer perceptron over :func:`belief features <phase10_env.core>` (ReLU between
    layers, a sigmoid out): for each kind of card, the chance that one unseen copy of it is in
    the opponent's hidden hand. Stored as ``w0, b0, w1, b1, ...`` in an ``.npz`` file."""

    def __init__(self, path: str | Path = MODEL) -> None:
        with np.load(path, allow_pickle=False) as data:
            count = sum(1 for name in data.files if name.startswith("w"))
            self.layers = [(data[f"w{i}"].astype(np.float64), data[f"b{i}"].astype(np.float64)) for i in range(count)]
        features = core.native().BELIEF_FEATURES
        if not self.layers or self.layers[0][0].shape[0] != features or self.layers[-1][0].shape[1] != 50:
            raise ValueError(f"{path} is not a belief model: it must map {features} features to 50 kinds")

    def __call__(self, features: np.ndarray) -> np.ndarray:
        h = features.astype(np.float64)
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        out: np.ndarray = 1.0 / (1.0 + np.exp(-h))
        return out


def remember_hand(slots: np.ndarray, row: int, view: SeatView) -> None:
    """Write what the view's hand log shows each seat did into slot ``row``'s public memory
    (the cards it discarded, those it left on the discard pile at a draw, its last discard
    but a Skip), as the core keeps it while it plays."""
    g = slots.view(core.SLOT)[row, 0]["g"]
    for seat, move, top in view.hand_log:
        if type(move) is Draw and not move.from_discard and top is not None:
            g["passed"][seat][top] += 1
        elif type(move) is Discard:
            g["discarded"][seat][move.card] += 1
            g["last_discard"][seat] = -1 if move.card == SKIP else move.card


class ChampionAgent:
    """Plays from its seat's view only (module docstring)."""

    name = "champion"

    def __init__(self, config: ChampionConfig | None = None, seed: int | None = None,
                 model: str | Path = MODEL, win_model: str | Path = WIN_MODEL) -> None:
        self.config = config or ChampionConfig()
        self.core = core.native()
        self.belief = BeliefModel(model) if self.config.belief else None
        self.win_model = load_win_model(win_model) if self.config.wins else None
        self.heuristic = HeuristicAgent()
        self.rng = np.random.default_rng(seed)
        self.slot = np.zeros((1, core.SLOT_BYTES), dtype=np.uint8)
        self.row = np.zeros(1, dtype=np.int64)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: PlayerObservation) -> int:
        view = obs.seat_view()
        if obs.pending is not None:  # a lay-down or hit under way: the heuristic's, to its end
            return next_action(view, self.heuristic.choose_move(view, obs.pending), obs.pending)
        action = self.search(view)
        if not obs.action_mask[action]:
            raise RuntimeError(f"champion chose action {action}, which is not legal here: a bug in the search")
        return action

    def search(self, view: SeatView) -> int:
        """The action the search picks from ``view`` (whose seat is to act, nothing under way)."""
        return self.race(view)[0]

    def race(self, view: SeatView) -> tuple[int, int]:
        """:meth:`search`'s action and the deals it drew (0: one candidate, nothing searched;
        ``samples``: a candidate was still undecided at the cap)."""
        return self.race_from(Game.from_view(view, self.rng), view)

    def race_from(self, world: Game, view: SeatView, peek: bool = False) -> tuple[int, int]:
        """:meth:`race` from ``world`` (read, not changed), a game ``view`` could be seen from.
        With ``peek`` the search deals only the draw pile and keeps every hand of ``world`` as
        it is: given the true game, that is a search with a perfect belief, for
        :mod:`agents.evaluation.peek` (an agent never does it)."""
        self.load(world, view)
        cfg = self.config
        out, drawn = np.empty(1, dtype=np.int64), np.empty(1, dtype=np.int64)
        seeds = self.rng.integers(2**63, size=1, dtype=np.uint64)
        log = hand_log_rows(view.hand_log) if cfg.history and not peek else None
        self.core.search(self.slot, self.row, cfg.samples, cfg.min_samples, cfg.confidence, cfg.points_weight,
                         seeds, out, drawn, None if peek else self.weights(view), cfg.after_down, cfg.consistent, cfg.streams,
                         self.judge(view.num_players), self.win_model.hidden if self.win_model else 0, cfg.plays,
                         peek, log, cfg.history, cfg.slip)
        return int(out[0]), int(drawn[0])

    def load(self, world: Game, view: SeatView) -> None:
        """Put ``world`` in the agent's slot with the public memory of ``view``'s hand."""
        load_game(self.slot, 0, world)
        remember_hand(self.slot, 0, view)

    def replays(self, view: SeatView, replays: int) -> tuple[np.ndarray, np.ndarray]:
        """What ``history`` weighs, from ``view``: ``replays`` worlds the seat cannot tell apart,
        dealt as this agent deals (its belief model, or uniformly with ``belief=false``), each
        replayed through the hand's log. Every hand of each world, ``(R, 6, 50)``, and each seat's
        moves the heuristic would not have made there, ``(R, 6)``; no rows where there is nothing
        to weigh (no move yet this hand, or a reshuffled pile). For
        :mod:`agents.evaluation.belief_overlap`."""
        self.load(Game.from_view(view, self.rng), view)
        weights = self.weights(view)
        hands, unlike = np.zeros((replays, 6, 50), dtype=np.uint8), np.zeros((replays, 6), dtype=np.int16)
        count = self.core.history(self.slot, 0, int(self.rng.integers(2**63)), hand_log_rows(view.hand_log), replays, 1.0,
                                  hands, unlike, None if weights is None else weights[0])
        return hands[:count], unlike[:count]

    def judge(self, players: int) -> np.ndarray | None:
        """The win model's weights for ``players`` seats (None: the search counts phases and points)."""
        if self.win_model is None:
            return None
        if players not in self.win_model.by_players:
            raise ValueError(f"champion option wins: the win model has no model for {players} players "
                             f"(it has {sorted(self.win_model.by_players)})")
        return self.win_model.by_players[players]

    def weights(self, view: SeatView) -> np.ndarray | None:
        """The belief model's weights per seat and kind, ``(1, 6, 50)`` (1 for this seat)."""
        if self.belief is None:
            return None
        others = np.array([s for s in range(view.num_players) if s != view.seat and view.players[s].active], dtype=np.int64)
        weights = np.ones((1, 6, 50))
        if len(others):
            features = np.empty((len(others), self.core.BELIEF_FEATURES), dtype=np.float32)
            self.core.belief_features(np.repeat(self.slot, len(others), axis=0), np.arange(len(others), dtype=np.int64),
                                      np.full(len(others), view.seat, dtype=np.int64), others, features, None, None)
            weights[0, others] = self.belief(features)
        return weights
