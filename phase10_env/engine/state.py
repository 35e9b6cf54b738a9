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
red, blue, green, yellow). Cards are named as :mod:`.cards` says (``^([RBGY]([1-9]|1[0-2])|W|S)$``).

:func:`load_state` accepts the states a game can reach and rejects anything else with a
``ValueError`` naming the field and the bad value: "malformed state: ..." for a wrong key, type
or range (the ``rng`` dict included, before numpy sees it), "inconsistent state: ..." for values
that cannot go together: a card missing or in two places, a group that breaks R10-R12, an
impossible phase number, a hand size no deal and turn lead to, a turn begun at an empty draw pile
with discards to reshuffle (R7), Skips no discard explains (R15), hand results (``history``) that
do not add up to the scores and phases, winners R19/R20 do not name. A position made with
``build_game`` carries ``"built": true``: its hands may hold any number of cards (at least one)
and its discard pile may be empty at the draw stage; everything else is checked as usual.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, TypeVar

import numpy as np

from .cards import DECK_COUNTS, DECK_SIZE, NUM_KINDS, card_name, hand_points, kinds_of, parse_card
from .config import RulesConfig
from .game import DRAW, GAME_OVER, HAND_SIZE, PLAY, STAGE_NAMES, Game, _generator
from .moves import HandResult
from .phases import KIND_NAMES, PHASES, GroupKind, TableGroup
from .seats import Stage, check_num_players

_T = TypeVar("_T")
FORMAT, VERSION = "phase10-state", 1
_TOP_KEYS = {"format", "version", "rules", "num_players", "seed", "rng", "hand_number", "dealer", "current",
             "stage", "replay", "winners", "draw_pile", "discard_pile", "players", "history"}
_PLAYER_KEYS = {"hand", "taken_from_discard", "phase_index", "laid", "score", "active", "skip_pending",
                "lost_turn", "skipped_this_hand", "table"}
_GROUP_KEYS = {"kind", "value", "cards"}
_HISTORY_KEYS = {"hand_number", "went_out", "points", "made_phase", "scores", "phases_completed"}
_RNG_KEYS = {"bit_generator", "state", "has_uint32", "uinteger"}
_PCG64_KEYS = {"state", "inc"}
_UINT128_MAX, _UINT32_MAX = 2**128 - 1, 2**32 - 1


def _names(kinds: Sequence[int]) -> list[str]:
    return [card_name(k) for k in kinds]


def dump_state(game: Game) -> dict[str, Any]:
    state = {
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
    if game.built:
        state["built"] = True
    return state


class _Reader:
    """Typed access to a JSON mapping; every error names the offending path."""

    def __init__(self, data: object, path: str, keys: set[str], optional: frozenset[str] = frozenset()) -> None:
        if not isinstance(data, Mapping):
            raise ValueError(f"malformed state: {path or 'state'} must be an object, not {type(data).__name__}")
        missing, unknown = sorted(keys - set(data)), sorted(set(data) - keys - optional, key=str)
        if missing:
            raise ValueError(f"malformed state: {path or 'state'} lacks {missing}")
        if unknown:
            raise ValueError(f"malformed state: {path or 'state'} has unknown key(s) {unknown}")
        self.data, self.path = data, path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def int(self, key: str, lo: int = 0, hi: int | None = None) -> int:
        return _int(self.data[key], self.where(key), lo, hi)

    def bool(self, key: str) -> bool:
        return _bool(self.data[key], self.where(key))

    def score(self, key: str) -> int:
        return _score(self.data[key], self.where(key))

    def cards(self, key: str) -> list[int]:
        """A list of card names as kinds. No kind may occur more often than the deck has it, so
        the per-kind counters (bytes) the game keeps cannot overflow."""
        v, where = self.data[key], self.where(key)
        if not isinstance(v, list):
            raise ValueError(f"malformed state: {where} must be a list of card names, not {type(v).__name__}")
        if len(v) > DECK_SIZE:
            raise ValueError(f"inconsistent state: {where} lists {len(v)} cards; the deck has {DECK_SIZE}")
        kinds = []
        for i, name in enumerate(v):
            try:
                kinds.append(parse_card(name))
            except ValueError:
                raise ValueError(f"malformed state: {where}[{i}] must be a card name such as 'R7', 'Y12', 'W' or 'S', "
                                 f"not {name!r}") from None
        counts = Counter(kinds)
        for k in sorted(counts):
            if counts[k] > DECK_COUNTS[k]:
                raise ValueError(f"inconsistent state: {where} holds {counts[k]} copies of {card_name(k)}; "
                                 f"the deck has {DECK_COUNTS[k]}")
        return kinds

    def list(self, key: str) -> list:
        v = self.data[key]
        if not isinstance(v, list):
            raise ValueError(f"malformed state: {self.where(key)} must be a list, not {type(v).__name__}")
        return v

    def per_seat(self, key: str, n: int, check: Callable[[object, str], _T]) -> tuple[_T, ...]:
        """A list of one value per player, each passed through ``check(value, path)``."""
        v, where = self.list(key), self.where(key)
        if len(v) != n:
            raise ValueError(f"malformed state: {where} must list one value per player ({n}), not {len(v)}")
        return tuple(check(x, f"{where}[{i}]") for i, x in enumerate(v))


def _int(v: object, where: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        bound = f"from {lo} to {hi}" if hi is not None else f">= {lo}"
        raise ValueError(f"malformed state: {where} must be an integer {bound}, not {v!r}")
    return v


def _bool(v: object, where: str) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"malformed state: {where} must be true or false, not {v!r}")
    return v


def _score(v: object, where: str) -> int:
    v = _int(v, where)
    if v % 5:
        raise ValueError(f"inconsistent state: {where} is {v}, but every card scores 5, 10, 15 or 25 (R17), "
                         f"so points are multiples of 5")
    return v


def load_state(data: Mapping[str, Any]) -> Game:
    top = _Reader(data, "", _TOP_KEYS, optional=frozenset({"built"}))
    version = data["version"]
    if data["format"] != FORMAT or type(version) is not int or version != VERSION:
        raise ValueError(f"malformed state: expected format {FORMAT!r} version {VERSION}, "
                         f"got {data['format']!r} version {version!r}")
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
    game.built = "built" in data and top.bool("built")
    game.seed = top.int("seed")
    game.rng = _load_rng(data["rng"])
    game.hand_number = top.int("hand_number", 1)
    game.dealer = top.int("dealer", 0, n - 1)
    game.current = top.int("current", 0, n - 1)
    if data["stage"] not in STAGE_NAMES:
        raise ValueError(f"malformed state: stage must be one of {list(STAGE_NAMES)}, not {data['stage']!r}")
    game.stage = Stage(STAGE_NAMES.index(data["stage"]))
    game.replay = top.bool("replay")
    winners = tuple(_int(w, f"winners[{i}]", 0, n - 1) for i, w in enumerate(top.list("winners")))
    if len(set(winners)) != len(winners):
        raise ValueError(f"malformed state: winners must be distinct seats, not {list(winners)!r}")
    game.winners = winners
    game.draw_pile = top.cards("draw_pile")
    game.discard_pile = top.cards("discard_pile")
    for card in game.discard_pile:
        game.discard_counts[card] += 1
    players = top.list("players")
    if len(players) != n:
        raise ValueError(f"malformed state: players lists {len(players)} players for num_players={n}")
    for s, pdata in enumerate(players):
        _load_player(game, s, _Reader(pdata, f"players[{s}]", _PLAYER_KEYS))
    game.history = [_load_hand_result(_Reader(h, f"history[{i}]", _HISTORY_KEYS), n, rules.phases_to_win)
                    for i, h in enumerate(top.list("history"))]
    _check_consistency(game)
    from .record import GameRecord

    game.record = GameRecord(n, rules, game.seed, game.dealer, start=dump_state(game))
    return game


def _load_rng(data: object) -> np.random.Generator:
    """A generator in the saved PCG64 state, checked here first: numpy raises ``OverflowError``
    for out-of-range numbers and ignores unknown keys."""
    r = _Reader(data, "rng", _RNG_KEYS)
    if r.data["bit_generator"] != "PCG64":
        raise ValueError(f"malformed state: rng.bit_generator must be 'PCG64', not {r.data['bit_generator']!r}")
    pcg = _Reader(r.data["state"], r.where("state"), _PCG64_KEYS)
    state, inc = pcg.int("state", 0, _UINT128_MAX), pcg.int("inc", 0, _UINT128_MAX)
    if not inc % 2:
        raise ValueError(f"malformed state: rng.state.inc must be odd (numpy's PCG64 streams always are), not {inc}")
    return _generator({"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
                       "has_uint32": r.int("has_uint32", 0, 1), "uinteger": r.int("uinteger", 0, _UINT32_MAX)})


def _load_player(game: Game, s: int, p: _Reader) -> None:
    for card in p.cards("hand"):
        game._add_to_hand(s, card)
    for card in p.cards("taken_from_discard"):
        game.taken_from_discard[s][card] += 1
    game.phase_index[s] = p.int("phase_index", 0, game.rules.phases_to_win)
    game.laid[s] = p.bool("laid")
    game.scores[s] = p.score("score")
    game.active[s] = p.bool("active")
    game.skip_pending[s] = p.bool("skip_pending")
    game.lost_turn[s] = p.bool("lost_turn")
    game.skipped_this_hand[s] = p.bool("skipped_this_hand")
    for i, gdata in enumerate(p.list("table")):
        g = _Reader(gdata, p.where(f"table[{i}]"), _GROUP_KEYS)
        if g.data["kind"] not in KIND_NAMES:
            raise ValueError(f"malformed state: {g.where('kind')} must be one of {list(KIND_NAMES)}, not {g.data['kind']!r}")
        kind = GroupKind(KIND_NAMES.index(g.data["kind"]))
        group = TableGroup(kind, g.int("value"), g.cards("cards"))
        problem = group.problem()
        if problem:
            raise ValueError(f"malformed state: {p.where(f'table[{i}]')}: {problem}")
        game.table[s].append(group)
        for card in group.cards:
            game.table_counts[card] += 1


def _load_hand_result(r: _Reader, n: int, phases_to_win: int) -> HandResult:
    went_out = None if r.data["went_out"] is None else r.int("went_out", 0, n - 1)
    return HandResult(r.int("hand_number", 1), went_out, r.per_seat("points", n, _score),
                      r.per_seat("made_phase", n, _bool), r.per_seat("scores", n, _score),
                      r.per_seat("phases_completed", n, partial(_int, lo=0, hi=phases_to_win)))


def _bad(msg: str) -> ValueError:
    return ValueError(f"inconsistent state: {msg}")


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
            raise _bad(f"card {card_name(k)} appears {counts[k]} times; the deck has {DECK_COUNTS[k]}")

    over = game.stage == GAME_OVER
    if over != bool(game.winners):
        raise _bad("winners must be listed exactly when the stage is game_over")
    if game.replay and sum(game.active) < 2:
        raise _bad("a tie replay needs at least two active players")
    if not game.replay and not all(game.active):
        raise _bad("only a tie replay leaves players inactive")
    if rules.advance_all and game.replay:
        raise _bad("advance_all games have no tie replay")
    if rules.advance_all and not over and max(game.phase_index) >= rules.phases_to_win:
        raise _bad(f"an advance_all game in which a seat completed all {rules.phases_to_win} phases is over (R20)")
    for s in range(n):
        if game.phase_index[s] == rules.phases_to_win and not (over or game.replay):
            raise _bad(f"seat {s} completed the last phase but the game goes on outside a tie replay")
        if game.replay and game.active[s] and game.phase_index[s] != rules.phases_to_win:
            raise _bad(f"seat {s} plays a tie replay without having completed the last phase")
        if not game.active[s] and (game.hand_sizes[s] or game.table[s] or any(game.taken_from_discard[s])
                                   or game.skip_pending[s] or game.lost_turn[s] or game.skipped_this_hand[s]):
            raise _bad(f"seat {s} sits out the tie replay but holds cards, groups or Skips of this hand")
        if any(game.taken_from_discard[s][k] > game.hands[s][k] for k in range(NUM_KINDS)):
            raise _bad(f"seat {s}'s taken_from_discard lists cards not in its hand")
        if (game.skip_pending[s] or game.lost_turn[s]) and not game.skipped_this_hand[s]:
            raise _bad(f"seat {s} has a Skip pending or lost its last turn to one, so it was skipped this hand")
        if game.skip_pending[s] and game.lost_turn[s] and rules.skip_rule != "pending_only":
            raise _bad(f"seat {s} lost its last turn to a Skip and has another pending; skip_rule="
                       f"{rules.skip_rule!r} forbids aiming a Skip at it (R15)")
        if game.laid[s] != bool(game.table[s]):
            raise _bad(f"seat {s}: laid must be true exactly when it has groups on the table")
        if game.table[s]:
            if over and not game.replay and not game.phase_index[s]:
                raise _bad(f"seat {s} laid its phase in the game's last hand but completed no phase (R18)")
            _check_groups(game, s)
    if game.lost_turn[game.current]:
        raise _bad("the current player's turn has begun, so its last turn was not lost to a Skip")
    _check_history(game)
    _check_hands(game)
    if over:
        _check_game_over(game)
        return
    if not game.active[game.current] or not game.active[game.dealer]:
        raise _bad("the current player and the dealer must be active")
    if game.skip_pending[game.current]:
        raise _bad("the current player cannot have a Skip pending (that turn would be lost)")
    if game.stage == DRAW:
        if not game.discard_pile and not game.built:
            raise _bad("the current player is to draw, but the discard pile is empty: a turn begins after a "
                       "discard or after the deal, which turns up a card (R3)")
        if not game.draw_pile and len(game.discard_pile) > 1:
            raise _bad(f"the current player is to draw from an empty draw pile while the discard pile holds "
                       f"{len(game.discard_pile)} cards: the turn would have begun by shuffling all of them but the "
                       f"top card into a new draw pile (R7)")
        if not game.draw_pile and not game.can_draw_discard():
            raise _bad("the current player must draw but no card can be drawn (R7 would have ended the hand)")


def _check_groups(game: Game, s: int) -> None:
    phase = game.table_phase(s)
    groups, reqs = game.table[s], PHASES[phase]
    shapes = sorted((g.kind, len(g.cards)) for g in groups)
    wanted = sorted((r.kind, r.size) for r in reqs)
    # Both lists sort by kind, then size; pairing them in order matches each group to the
    # smallest requirement of its kind it can meet.
    fits = len(shapes) == len(wanted) and all(k == rk and size >= rs for (k, size), (rk, rs) in zip(shapes, wanted))
    if not fits:
        raise _bad(f"seat {s}'s groups do not make phase {phase}")
    naturals = [g.naturals() for g in groups]
    if (game.rules.natural_rule == "per_group" and not all(naturals)) or not any(naturals):
        raise _bad(f"seat {s}'s phase breaks natural_rule={game.rules.natural_rule!r} (R11)")


def _check_hands(game: Game) -> None:
    """Hand sizes a game can reach. Cards leave a hand only by the one discard that follows each
    draw, or onto the table: so a seat that has not laid its phase holds the 10 cards dealt (11
    while it plays its turn, having drawn), one that has laid holds that less the cards it laid
    and hit, and the cards on the table are all those the seats played. An active seat holds a
    card until it goes out, which ends the hand. A built position (``build_game``) was never
    dealt: only that last rule holds there."""
    over = game.stage == GAME_OVER
    went_out = game.history[-1].went_out if over else None
    played = 0
    for s in range(game.num_players):
        if not game.active[s]:
            continue
        size = game.hand_sizes[s]
        if not size and s != went_out:
            raise _bad(f"seat {s} holds no cards, so it went out and the hand should have ended (R16)")
        if game.built:
            continue
        dealt = HAND_SIZE + (not over and s == game.current and game.stage == PLAY)
        if not game.laid[s] and size != dealt:
            drawn = ", plus the card drawn this turn" if dealt > HAND_SIZE else ""
            raise _bad(f"seat {s} holds {size} cards without having laid its phase; it must hold {dealt} (10 dealt{drawn})")
        if game.laid[s]:
            most = dealt - sum(r.size for r in PHASES[game.table_phase(s)])
            if size > most:
                raise _bad(f"seat {s} holds {size} cards after laying its phase, which takes {dealt - most} of its "
                           f"{dealt}; it can hold at most {most}")
        played += dealt - size
    if went_out is not None and game.hand_sizes[went_out]:
        raise _bad(f"seat {went_out} went out in the last hand (history) but holds cards")
    on_table = sum(len(g.cards) for groups in game.table for g in groups)
    # Going out by laying down or hitting the last card skips the discard: one card more played.
    if not game.built and on_table not in ((played, played + 1) if went_out is not None else (played,)):
        raise _bad(f"the table holds {on_table} cards, but the seats' hands are {played} cards short of those "
                   f"dealt and drawn; every card that left a hand other than by a discard went to the table")


def _check_history(game: Game) -> None:
    """The hand results agree with one another and with the state: hands numbered in order,
    scores the running sums of points (R17), phases advancing by at most one (R18)."""
    history, over = game.history, game.stage == GAME_OVER
    if not history:
        if over:
            raise _bad("a finished game must list the result of its last hand in history")
        return
    n = game.num_players
    for i, r in enumerate(history):
        if any(r.points[s] > r.scores[s] for s in range(n)):
            raise _bad(f"history[{i}]: a seat's score is lower than the points it scored in that hand")
        if r.went_out is not None and (r.points[r.went_out] or not r.made_phase[r.went_out]):
            raise _bad(f"history[{i}]: seat {r.went_out} went out, so it made its phase and scored 0 (R16)")
        if not i:
            continue
        before = history[i - 1]
        if r.hand_number != before.hand_number + 1:
            raise _bad(f"history[{i}].hand_number is {r.hand_number}, but the hand before it was {before.hand_number}")
        if any(r.scores[s] != before.scores[s] + r.points[s] for s in range(n)):
            raise _bad(f"history[{i}].scores must be history[{i - 1}].scores plus history[{i}].points (R17)")
        for s in range(n):
            step = r.phases_completed[s] - before.phases_completed[s]
            if step not in (0, 1) or (step and not (r.made_phase[s] or game.rules.advance_all)):
                raise _bad(f"history[{i}].phases_completed: seat {s} goes from {before.phases_completed[s]} to "
                           f"{r.phases_completed[s]}; a seat advances one phase, when it makes its phase (R18)")
    last = history[-1]
    expected = game.hand_number if over else game.hand_number - 1
    if last.hand_number != expected:
        raise _bad(f"the last entry of history is hand {last.hand_number}, but this is hand {game.hand_number}"
                   f"{' and the game is over' if over else ''}, so it must be hand {expected}")
    if list(last.scores) != game.scores:
        raise _bad(f"the players' scores {game.scores} are not those after the last hand in history {list(last.scores)}")
    if list(last.phases_completed) != game.phase_index:
        raise _bad(f"the players' phases completed {game.phase_index} are not those after the last hand in history "
                   f"{list(last.phases_completed)}")


def _check_game_over(game: Game) -> None:
    """The game ended with the last hand in history (R19, R20): the cards still in hand are the
    points it scored, and the winners are those the rules name."""
    n, rules, last = game.num_players, game.rules, game.history[-1]
    for s in range(n):
        if last.points[s] != hand_points(game.hands[s]):
            raise _bad(f"seat {s}'s hand scores {hand_points(game.hands[s])}, but the game's last hand (history) "
                       f"gave it {last.points[s]} points (R17)")
    if list(last.made_phase) != game.laid:
        raise _bad("the seats that laid their phase are not those that made it in the last hand (history)")
    if last.went_out is not None and last.went_out != game.current:
        raise _bad(f"seat {last.went_out} went out, ending the game, so it must be the current player")
    winners = sorted(game.winners)
    if rules.advance_all:
        best = min(game.scores)
        if winners != [s for s in range(n) if game.scores[s] == best]:
            raise _bad(f"an advance_all game is won by every seat with the lowest score, not by seats {winners} (R20)")
        if max(game.phase_index) != rules.phases_to_win:
            raise _bad(f"an advance_all game ends in the hand of the list's last phase, not with phases completed "
                       f"{game.phase_index} of {rules.phases_to_win} (R20)")
    elif game.replay:
        if winners != [last.went_out]:
            raise _bad(f"a tie replay is won by the seat that goes out, not by seats {winners} (R19)")
    else:
        done = [s for s in range(n) if game.laid[s] and game.phase_index[s] == rules.phases_to_win]
        if len(winners) != 1 or winners[0] not in done or any(
                game.scores[s] <= game.scores[winners[0]] for s in done if s != winners[0]):
            raise _bad(f"the game is won by the one seat with the lowest score of those that completed the last "
                       f"phase in the last hand, not by seats {winners} (R19)")
