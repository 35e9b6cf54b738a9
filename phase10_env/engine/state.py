"""The game state as JSON data, and its strict loader.

The schema is ``state_schema.json`` beside this module. In short::

    {"format": "phase10-state", "version": 1,
     "rules": {...RulesConfig options...}, "num_players": 2, "seed": 7,
     "rng": {...numpy PCG64 bit-generator state...},
     "hand_number": 1, "dealer": 1, "current": 0, "stage": "draw" | "play" | "game_over",
     "replay": false, "winners": [],
     "draw_pile": ["R7", ...], "discard_pile": ["W", ...],          # bottom first, top last
     "players": [{"hand": [...], "taken_from_discard": [...], "phase_index": 0, "laid": false,
                  "score": 0, "active": true, "skip_pending": false, "lost_turn": false,
                  "skipped_this_hand": false,
                  "table": [{"kind": "set" | "run" | "colour", "value": 7, "cards": ["R7", "W", "B7"]}]}],
     "history": [{"hand_number": 1, "went_out": 0, "points": [...], "made_phase": [...],
                  "scores": [...], "phases_completed": [...]}]}

A run's ``value`` is its lowest number and its cards are listed from low to high, so each Wild's
number is its position; a set's ``value`` is its number, a colour group's its colour (0-3 for
red, blue, green, yellow). :func:`load_state` rejects anything malformed or inconsistent (a
card missing or in two places, a group that breaks R10-R12, an impossible phase number) with a
``ValueError`` naming what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import DECK_COUNTS, NUM_KINDS, card_name, kinds_of, parse_card
from .config import RulesConfig
from .game import DRAW, GAME_OVER, PLAY, STAGE_NAMES, Game, check_num_players
from .moves import HandResult
from .phases import KIND_NAMES, PHASES, GroupKind, TableGroup

FORMAT, VERSION = "phase10-state", 1
_TOP_KEYS = {"format", "version", "rules", "num_players", "seed", "rng", "hand_number", "dealer", "current",
             "stage", "replay", "winners", "draw_pile", "discard_pile", "players", "history"}
_PLAYER_KEYS = {"hand", "taken_from_discard", "phase_index", "laid", "score", "active", "skip_pending",
                "lost_turn", "skipped_this_hand", "table"}
_GROUP_KEYS = {"kind", "value", "cards"}


def _names(kinds: Sequence[int]) -> list[str]:
    return [card_name(k) for k in kinds]


def dump_state(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "num_players": game.num_players,
        "seed": game.seed,
        "rng": game.rng.bit_generator.state,
        "hand_number": game.hand_number,
        "dealer": game.dealer,
        "current": game.current,
        "stage": STAGE_NAMES[game.stage],
        "replay": game.replay,
        "winners": list(game.winners),
        "draw_pile": _names(game.draw_pile),
        "discard_pile": _names(game.discard_pile),
        "players": [
            {
                "hand": _names(kinds_of(game.hands[s])),
                "taken_from_discard": _names(kinds_of(game.taken_from_discard[s])),
                "phase_index": game.phase_index[s],
                "laid": game.laid[s],
                "score": game.scores[s],
                "active": game.active[s],
                "skip_pending": game.skip_pending[s],
                "lost_turn": game.lost_turn[s],
                "skipped_this_hand": game.skipped_this_hand[s],
                "table": [{"kind": KIND_NAMES[g.kind], "value": g.value, "cards": _names(g.cards)} for g in game.table[s]],
            }
            for s in range(game.num_players)
        ],
        "history": [r.to_json() for r in game.history],
    }


class _Reader:
    """Typed access to a JSON mapping; every error names the offending path."""

    def __init__(self, data: object, path: str, keys: set[str]) -> None:
        if not isinstance(data, Mapping):
            raise ValueError(f"malformed state: {path or 'state'} must be an object, not {type(data).__name__}")
        missing, unknown = sorted(keys - set(data)), sorted(set(data) - keys)
        if missing:
            raise ValueError(f"malformed state: {path or 'state'} lacks {missing}")
        if unknown:
            raise ValueError(f"malformed state: {path or 'state'} has unknown key(s) {unknown}")
        self.data, self.path = data, path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def int(self, key: str, lo: int = 0, hi: int | None = None) -> int:
        v = self.data[key]
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            bound = f"from {lo} to {hi}" if hi is not None else f">= {lo}"
            raise ValueError(f"malformed state: {self.where(key)} must be an integer {bound}, not {v!r}")
        return v

    def bool(self, key: str) -> bool:
        v = self.data[key]
        if not isinstance(v, bool):
            raise ValueError(f"malformed state: {self.where(key)} must be true or false, not {v!r}")
        return v

    def cards(self, key: str) -> list[int]:
        v = self.data[key]
        if not isinstance(v, list):
            raise ValueError(f"malformed state: {self.where(key)} must be a list of card names")
        try:
            return [parse_card(c) if isinstance(c, str) else parse_card(repr(c)) for c in v]
        except ValueError as e:
            raise ValueError(f"malformed state: {self.where(key)}: {e}") from None

    def list(self, key: str) -> list:
        v = self.data[key]
        if not isinstance(v, list):
            raise ValueError(f"malformed state: {self.where(key)} must be a list")
        return v


def load_state(data: Mapping[str, Any]) -> Game:
    top = _Reader(data, "", _TOP_KEYS)
    if data["format"] != FORMAT or data["version"] != VERSION:
        raise ValueError(f"malformed state: expected format {FORMAT!r} version {VERSION}, got {data['format']!r} version {data['version']!r}")
    try:
        rules = RulesConfig.from_dict(data["rules"])
    except ValueError as e:
        raise ValueError(f"malformed state: rules: {e}") from None
    try:
        n = check_num_players(data["num_players"])
    except ValueError as e:
        raise ValueError(f"malformed state: {e}") from None
    game = Game.__new__(Game)
    game.rules = rules
    game._init_empty(n)
    game.seed = top.int("seed")
    game.rng = _load_rng(data["rng"])
    game.hand_number = top.int("hand_number", 1)
    game.dealer = top.int("dealer", 0, n - 1)
    game.current = top.int("current", 0, n - 1)
    if data["stage"] not in STAGE_NAMES:
        raise ValueError(f"malformed state: stage must be one of {list(STAGE_NAMES)}, not {data['stage']!r}")
    game.stage = STAGE_NAMES.index(data["stage"])
    game.replay = top.bool("replay")
    winners = top.list("winners")
    if any(isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < n for w in winners) or len(set(winners)) != len(winners):
        raise ValueError(f"malformed state: winners must be distinct seats 0-{n - 1}, not {winners!r}")
    game.winners = tuple(winners)
    game.draw_pile = top.cards("draw_pile")
    game.discard_pile = top.cards("discard_pile")
    for card in game.discard_pile:
        game.discard_counts[card] += 1
    players = top.list("players")
    if len(players) != n:
        raise ValueError(f"malformed state: players lists {len(players)} players for num_players={n}")
    for s, pdata in enumerate(players):
        _load_player(game, s, _Reader(pdata, f"players[{s}]", _PLAYER_KEYS))
    try:
        game.history = [HandResult.from_json(h) for h in top.list("history")]
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"malformed state: history: {e}") from None
    _check_consistency(game)
    from .record import GameRecord

    game.record = GameRecord(n, rules, game.seed, game.dealer, start=dump_state(game))
    return game


def _load_rng(state: object):
    import numpy as np

    rng = np.random.default_rng(0)
    try:
        rng.bit_generator.state = state
    except (TypeError, ValueError, KeyError) as e:
        raise ValueError(f"malformed state: rng is not a PCG64 bit-generator state ({e})") from None
    return rng


def _load_player(game: Game, s: int, p: _Reader) -> None:
    for card in p.cards("hand"):
        game._add_to_hand(s, card)
    for card in p.cards("taken_from_discard"):
        game.taken_from_discard[s][card] += 1
    game.phase_index[s] = p.int("phase_index", 0, game.rules.phases_to_win)
    game.laid[s] = p.bool("laid")
    game.scores[s] = p.int("score")
    game.active[s] = p.bool("active")
    game.skip_pending[s] = p.bool("skip_pending")
    game.lost_turn[s] = p.bool("lost_turn")
    game.skipped_this_hand[s] = p.bool("skipped_this_hand")
    for i, gdata in enumerate(p.list("table")):
        g = _Reader(gdata, p.where(f"table[{i}]"), _GROUP_KEYS)
        if g.data["kind"] not in KIND_NAMES:
            raise ValueError(f"malformed state: {g.where('kind')} must be one of {list(KIND_NAMES)}")
        kind = GroupKind(KIND_NAMES.index(g.data["kind"]))
        group = TableGroup(kind, g.int("value"), g.cards("cards"))
        problem = group.problem()
        if problem:
            raise ValueError(f"malformed state: {p.where(f'table[{i}]')}: {problem}")
        game.table[s].append(group)
        for card in group.cards:
            game.table_counts[card] += 1


def _check_consistency(game: Game) -> None:
    n, rules = game.num_players, game.rules
    counts = [0] * NUM_KINDS
    for pile in (game.draw_pile, game.discard_pile):
        for card in pile:
            counts[card] += 1
    for s in range(n):
        for k in range(NUM_KINDS):
            counts[k] += game.hands[s][k] + sum(g.cards.count(k) for g in game.table[s])
    for k in range(NUM_KINDS):
        if counts[k] != DECK_COUNTS[k]:
            raise ValueError(f"inconsistent state: card {card_name(k)} appears {counts[k]} times; the deck has {DECK_COUNTS[k]}")

    def bad(msg: str) -> ValueError:
        return ValueError(f"inconsistent state: {msg}")

    over = game.stage == GAME_OVER
    if over != bool(game.winners):
        raise bad("winners must be listed exactly when the stage is game_over")
    if game.replay and sum(game.active) < 2:
        raise bad("a tie replay needs at least two active players")
    if not game.replay and not all(game.active):
        raise bad("only a tie replay leaves players inactive")
    if rules.advance_all and game.replay:
        raise bad("advance_all games have no tie replay")
    for s in range(n):
        if game.phase_index[s] == rules.phases_to_win and not (over or game.replay):
            raise bad(f"seat {s} completed the last phase but the game goes on outside a tie replay")
        if game.replay and game.active[s] and game.phase_index[s] != rules.phases_to_win:
            raise bad(f"seat {s} plays a tie replay without having completed the last phase")
        if not game.active[s] and (game.hand_sizes[s] or game.table[s] or game.skip_pending[s]):
            raise bad(f"inactive seat {s} holds cards, groups or a pending Skip")
        if any(game.taken_from_discard[s][k] > game.hands[s][k] for k in range(NUM_KINDS)):
            raise bad(f"seat {s}'s taken_from_discard lists cards not in its hand")
        if game.laid[s] != bool(game.table[s]):
            raise bad(f"seat {s}: laid must be true exactly when it has groups on the table")
        if game.table[s]:
            _check_groups(game, s)
    if not over:
        if not game.active[game.current] or not game.active[game.dealer]:
            raise bad("the current player and the dealer must be active")
        if game.skip_pending[game.current]:
            raise bad("the current player cannot have a Skip pending (that turn would be lost)")
        if game.stage == DRAW and not game.draw_pile and not game.can_draw_discard():
            raise bad("the current player must draw but no card can be drawn (R7 would have ended the hand)")
        if game.stage == PLAY and not game.hand_sizes[game.current]:
            raise bad("the current player has drawn but holds no cards")
        if any(not game.hand_sizes[s] for s in range(n) if game.active[s] and s != game.current):
            raise bad("an active player holds no cards, so the hand should have ended")


def _check_groups(game: Game, s: int) -> None:
    phase = game.table_phase(s)
    groups, reqs = game.table[s], PHASES[phase]
    shapes = sorted((g.kind, len(g.cards)) for g in groups)
    wanted = sorted((r.kind, r.size) for r in reqs)
    # Both lists sort by kind, then size; pairing them in order matches each group to the
    # smallest requirement of its kind it can meet.
    fits = len(shapes) == len(wanted) and all(k == rk and size >= rs for (k, size), (rk, rs) in zip(shapes, wanted))
    if not fits:
        raise ValueError(f"inconsistent state: seat {s}'s groups do not make phase {phase}")
    naturals = [g.naturals() for g in groups]
    if (game.rules.natural_rule == "per_group" and not all(naturals)) or not any(naturals):
        raise ValueError(f"inconsistent state: seat {s}'s phase breaks natural_rule={game.rules.natural_rule!r} (R11)")
