"""The games the web app holds: played by a human against agents, watched, or replayed from a
record. Each has its own id and its own env; nothing here knows HTTP (``app.py`` does), so the
rules of what a browser may see and do are testable without a server.

What a client is sent comes from one seat's :class:`SeatView` (its own hand, everything public);
other hands only in a replay or in a bot game watched with ``reveal``.

What the server holds is bounded (:class:`Sessions`): at most ``MAX_SESSIONS`` games and
replays, the least recently used dropped first; any left unused for ``IDLE_SECONDS`` dropped;
a game or an uploaded record of at most ``MAX_GAME_MOVES`` moves, and ``MAX_HELD_MOVES`` moves
in all. So is the work of one request: an agent's thinking per move (:mod:`.menu`), and a
watched game's advance, which stops after ``ADVANCE_SECONDS``.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from phase10_env import raw_env
from phase10_env.actions import IllegalActionError
from phase10_env.engine.cards import card_name, kinds_of
from phase10_env.engine.game import STAGE_NAMES, Game
from phase10_env.engine.phases import phase_text
from phase10_env.engine.record import GameRecord
from phase10_env.engine.seats import MAX_PLAYERS, MIN_PLAYERS
from phase10_env.engine.seeds import seed_from_json, seed_to_json
from phase10_env.engine.view import SeatView
from phase10_env.narrate import Narrator, narrate_record
from phase10_env.play import play, policy_chooser
from phase10_env.render import action_text, group_text, pending_text

from .menu import HUMAN, AgentMenu

MAX_ADVANCE = 1000
ADVANCE_SECONDS = 5.0
MAX_SESSIONS = 200
IDLE_SECONDS = 3600.0
MAX_GAME_MOVES = 20_000
MAX_HELD_MOVES = 1_000_000


class WebError(Exception):
    """A request the app refuses; ``status`` is the HTTP status to answer with (4xx)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _cards(kinds: Sequence[int]) -> list[str]:
    return [card_name(k) for k in kinds]


def table_json(view: SeatView, names: Sequence[str], hands: Mapping[int, Sequence[int]],
               agents: Sequence[str]) -> dict[str, Any]:
    """The table from ``view``'s public parts, with the hands in ``hands`` (seat -> kinds) and no
    other: the one place that decides which cards a client is sent."""
    over = bool(view.winners)
    return {
        "hand_number": view.hand_number,
        "tie_replay": view.replay,
        "dealer": view.dealer,
        "current": None if over else view.current,
        "stage": STAGE_NAMES[view.stage],
        "draw_pile": view.draw_pile_size,
        "discard_top": None if view.discard_top is None else card_name(view.discard_top),
        "discard_size": len(view.discard_pile),
        "over": over,
        "winners": [names[s] for s in view.winners],
        "phases_to_win": view.rules.phases_to_win,
        "players": [{
            "seat": p.seat, "name": names[p.seat], "agent": agents[p.seat], "active": p.active,
            "phase": p.phase, "phase_text": phase_text(p.phase), "phases_made": p.phases_completed, "laid": p.laid,
            "hand_size": p.hand_size,
            "score": p.score, "skip_pending": p.skip_pending, "skipped_this_hand": p.skipped_this_hand,
            "to_act": not over and view.current == p.seat,
            "groups": [{"text": group_text(g), "cards": _cards(g.cards)} for g in view.table[p.seat]],
            "hand": _cards(hands[p.seat]) if p.seat in hands else None,
        } for p in view.players],
    }


def _all_hands(game: Game) -> dict[int, list[int]]:
    return {s: kinds_of(game.hands[s]) for s in range(game.num_players)}


def _check_agents(agents: Any) -> list[str]:
    if not isinstance(agents, list) or not all(isinstance(a, str) and a.strip() for a in agents):
        raise WebError(400, "agents must be a list of agent specs, one per seat, e.g. [\"human\", \"heuristic\"]")
    if not MIN_PLAYERS <= len(agents) <= MAX_PLAYERS:
        raise WebError(400, f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} seats; {len(agents)} agents were given")
    specs: list[str] = [a.strip() for a in agents]
    if specs.count(HUMAN) > 1:
        raise WebError(400, "at most one seat can be human: the page plays one seat")
    return specs


class PlaySession:
    """A game between agents, with at most one human seat played through :meth:`act`. With no
    human it is a bot game to watch, moved on by :meth:`advance` at the page's pace."""

    kind = "game"

    def __init__(self, agents: Any, seed: Any = None, menu: AgentMenu | None = None) -> None:
        self.agents = _check_agents(agents)
        try:
            self.seed = secrets.randbelow(2**32) if seed is None else seed_from_json(seed)
        except ValueError as e:
            raise WebError(400, f"{e}, or null for a random deal") from None
        menu = menu or AgentMenu()
        n = len(self.agents)
        self.names = [HUMAN if spec == HUMAN else f"player_{s} ({spec})" for s, spec in enumerate(self.agents)]
        self.human = self.agents.index(HUMAN) if HUMAN in self.agents else None
        policies = {}
        for s, spec in enumerate(self.agents):
            if spec == HUMAN:
                continue
            try:
                policies[f"player_{s}"] = menu.build(spec, seed=self.seed + s)
            except (ValueError, ImportError) as e:
                raise WebError(400, f"seat {s}: cannot seat {spec!r}: {e}") from None
        self.env = raw_env(num_players=n)
        self.env.reset(seed=self.seed)
        self.choose_bot = policy_chooser(self.env, policies)
        self.narrator = Narrator(self.game.record, self.human, self.names)
        self.lock = threading.Lock()
        self._run_bots()
        self.lines: list[str] = self.narrator.catch_up(self.game.record)
        """The lines told by the last action or advance (new to the client)."""
        self.news: list[str] = list(self.lines)
        """With a human: the lines since the human's last turn ended (the others' moves, then
        the human's own this turn); watching: the last advance's."""

    @property
    def game(self) -> Game:
        return self.env.game  # set by the reset in __init__

    @property
    def mode(self) -> str:
        return "play" if self.human is not None else "watch"

    def _human_agent(self) -> str:
        return f"player_{self.human}"

    def _humans_turn(self) -> bool:
        return self.human is not None and bool(self.env.agents) and self.env.agent_selection == self._human_agent()

    def _run_bots(self) -> int:
        """In a game with a human, bots act until the human is to act or the game is over (the
        human never waits on the page for a bot). Returns how many actions they took."""
        actions = 0
        while self.human is not None and self.env.agents and not self._humans_turn():
            actions += play(self.env, self.choose_bot, limit=1)
        return actions

    def act(self, action: Any) -> dict[str, Any]:
        """The human plays ``action`` (an action id from the state's ``legal`` list); then the
        bots play until the human's next decision."""
        if self.human is None:
            raise WebError(409, "no human plays in this game: it is a bot game to watch")
        if isinstance(action, bool) or not isinstance(action, int):
            raise WebError(400, f"action must be an integer action id from the legal list, not {action!r}")
        with self.lock:
            if not self._humans_turn():
                raise WebError(409, "the game is over" if not self.env.agents else "it is not your turn")
            try:
                play(self.env, lambda agent: action, limit=1)
            except IllegalActionError as e:
                raise WebError(422, f"illegal action: {e}") from None
            passed = self._run_bots() > 0
            self.lines = self.narrator.catch_up(self.game.record)
            self.news = self.lines if passed else self.news + self.lines
            return self.state()

    def advance(self, steps: Any, reveal: bool = False) -> dict[str, Any]:
        """A watched bot game goes on by ``steps`` actions (fewer if it ends, or once the request
        has taken ``ADVANCE_SECONDS``); the state after, every hand shown with ``reveal``."""
        if self.human is not None:
            raise WebError(409, "this game has a human seat; bots move on their own after each of its actions")
        if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= MAX_ADVANCE:
            raise WebError(400, f"steps must be an integer from 1 to {MAX_ADVANCE}, not {steps!r}")
        with self.lock:
            if self.env.agents and len(self.game.record.moves) >= MAX_GAME_MOVES:
                raise WebError(409, f"this game has reached {MAX_GAME_MOVES} moves, the most a game here may last")
            deadline = time.monotonic() + ADVANCE_SECONDS
            for _ in range(min(steps, MAX_GAME_MOVES - len(self.game.record.moves))):
                if not self.env.agents or play(self.env, self.choose_bot, limit=1) == 0 or time.monotonic() > deadline:
                    break
            self.lines = self.news = self.narrator.catch_up(self.game.record)
            return self.state(reveal)

    def size(self) -> int:
        """Moves held (what the memory a game takes grows with)."""
        return len(self.game.record.moves)

    def record(self) -> dict[str, Any]:
        """The game record (seed and moves: every hand can be rebuilt from it), only once no
        hidden card is left to hide: the game is over, or no human plays."""
        if self.human is not None and self.env.agents:
            raise WebError(409, "the record reveals every hand and the deck; it is available when the game is over")
        return self.game.record.to_json()

    def state(self, reveal: bool = False) -> dict[str, Any]:
        """What the client may see: the human's seat (play), or a spectator's view, with every
        hand when ``reveal`` (watch only)."""
        if reveal and self.human is not None:
            raise WebError(403, "reveal is only for spectators of bot games: a human plays in this game")
        game = self.game
        viewer = self.human if self.human is not None else 0
        view = game.view(viewer)
        hands: Mapping[int, Sequence[int]] = {}
        if self.human is not None:
            hands = {self.human: view.hand}
        elif reveal:
            hands = _all_hands(game)
        state = {"id": None, "mode": self.mode, "viewer": self.human, "names": self.names, "seed": seed_to_json(self.seed),
                 "moves": len(game.record.moves), "lines": self.lines, "news": self.news, "legal": [], "pending": None,
                 **table_json(view, self.names, hands, self.agents)}
        if self.human is None:
            state["pending"] = pending_text(self.env.pending)
        elif self._humans_turn():
            seen = self.env.player_observation(self._human_agent())
            state["legal"] = [{"id": int(a), "text": action_text(view, int(a), self.names)}
                              for a in seen.legal_actions]
            state["pending"] = pending_text(seen.pending)
        return state


class ReplaySession:
    """A saved game record, stepped through move by move with every hand shown."""

    kind = "replay"

    def __init__(self, record: Any) -> None:
        moves = record.get("moves") if isinstance(record, dict) else None
        if isinstance(moves, list) and len(moves) > MAX_GAME_MOVES:
            raise WebError(413, f"the record has {len(moves)} moves; this server replays records of at most "
                                f"{MAX_GAME_MOVES}")
        try:
            self.record = GameRecord.from_json(record)
            Game.from_record(self.record)  # a record whose moves do not replay is refused now, not mid-way
            self.names = [f"player_{s}" for s in range(self.record.num_players)]
            self.told = narrate_record(self.record, None, self.names)
        except (ValueError, TypeError, KeyError, IndexError) as e:
            raise WebError(400, f"not a phase10 game record: {e}") from None
        self.lock = threading.Lock()

    def size(self) -> int:
        return len(self.record.moves)

    @property
    def last(self) -> int:
        return len(self.record.moves)

    def state(self, move: Any) -> dict[str, Any]:
        """The table after the first ``move`` moves, every hand shown, and that move in words."""
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move <= self.last:
            raise WebError(400, f"move must be an integer from 0 to {self.last}, not {move!r}")
        with self.lock:
            game = Game.from_record(self.record, move)
        agents = ["replay"] * game.num_players
        lines = self.told[move - 1] if move else []
        return {"id": None, "mode": "replay", "viewer": None, "names": self.names, "moves": move, "last": self.last,
                "lines": lines, "news": lines, "legal": [], "pending": None,
                **table_json(game.view(0), self.names, _all_hands(game), agents)}


class Sessions:
    """Every game and replay by id, within the limits of the module docstring: the least
    recently used are dropped first, beyond ``limit`` sessions or ``held`` moves in all, and
    any left unused for ``idle`` seconds (``clock`` tells the time)."""

    def __init__(self, limit: int = MAX_SESSIONS, held: int = MAX_HELD_MOVES, idle: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.held, self.idle, self.clock = limit, held, idle, clock
        self._items: OrderedDict[str, tuple[PlaySession | ReplaySession, float]] = OrderedDict()  # by last use
        self._lock = threading.Lock()

    def _trim(self) -> None:
        """Drop the idle, then the least recently used while over a limit (under the lock)."""
        now = self.clock()
        for sid in [sid for sid, (_, used) in self._items.items() if now - used > self.idle]:
            del self._items[sid]
        total = sum(session.size() for session, _ in self._items.values())
        while len(self._items) > 1 and (len(self._items) > self.limit or total > self.held):
            session, _ = self._items.popitem(last=False)[1]
            total -= session.size()

    def add(self, session: PlaySession | ReplaySession) -> str:
        with self._lock:
            sid = secrets.token_hex(8)
            self._items[sid] = (session, self.clock())
            self._trim()
            return sid

    def get(self, sid: str, kind: str) -> Any:
        with self._lock:
            self._trim()
            entry = self._items.get(sid)
            if entry is not None:
                self._items[sid] = (entry[0], self.clock())
                self._items.move_to_end(sid)
        if entry is None or entry[0].kind != kind:
            raise WebError(404, f"no {kind} with id {sid!r} (unknown, or dropped: unused too long, or the oldest "
                                "when the server held too much)")
        return entry[0]

    def __len__(self) -> int:
        return len(self._items)
