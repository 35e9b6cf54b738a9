"""The strict loader of saved states: :func:`load_state` reads :meth:`~.state.GameState.to_json`
data (version 1 or 2, see :mod:`.state`) back into a :class:`~.state.GameState`.

It accepts the states a game can reach and rejects anything else with a ``ValueError`` naming the
field and the bad value: "malformed state: ..." for a wrong key, type or range (the ``rng`` dict
included, before numpy sees it), "inconsistent state: ..." for values that cannot go together: a
card missing or in two places, a group that breaks R10-R12, an impossible phase number, a hand
size no deal and turn lead to, a turn begun at an empty draw pile with discards to reshuffle (R7),
Skips no discard explains (R15), hand results (``history``) that do not add up to the scores and
phases, winners R19/R20 do not name. A position made with ``build_game`` carries ``"built":
true``: its hands may hold any number of cards (at least one) and its discard pile may be empty at
the draw stage; everything else is checked as usual.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, TypeVar

import numpy as np

from .cards import DECK_COUNTS, DECK_SIZE, NUM_KINDS, card_name, hand_points, parse_card
from .config import RulesConfig
from .moves import HandResult
from .phases import KIND_NAMES, PHASES, GroupKind, missing_naturals
from .seats import Stage, check_num_players
from .state import DRAW_STAGE, FORMAT, GAME_OVER, HAND_SIZE, PLAY_STAGE, STAGE_NAMES, GameState, pcg64_generator
from .table import TableGroup

_T = TypeVar("_T")
#: The key of a player's phases completed in each format version (renamed in version 2).
_PHASES_KEY = {1: "phase_index", 2: "phases_completed"}
_TOP_KEYS = {"format", "version", "rules", "num_players", "seed", "rng", "hand_number", "dealer", "current",
             "stage", "replay", "winners", "draw_pile", "discard_pile", "players", "history"}
_PLAYER_KEYS = {"hand", "taken_from_discard", "laid", "score", "active", "skip_pending", "lost_turn",
                "skipped_this_hand", "table"}
_GROUP_KEYS = {"kind", "value", "cards"}
_HISTORY_KEYS = {"hand_number", "went_out", "points", "made_phase", "scores", "phases_completed"}
_RNG_KEYS = {"bit_generator", "state", "has_uint32", "uinteger"}
_PCG64_KEYS = {"state", "inc"}
_UINT128_MAX, _UINT32_MAX = 2**128 - 1, 2**32 - 1



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
        self.data: Mapping[str, Any] = data
        self.path = path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def integer(self, key: str, lo: int = 0, hi: int | None = None) -> int:
        return _int(self.data[key], self.where(key), lo, hi)

    def boolean(self, key: str) -> bool:
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

    def items(self, key: str) -> list[object]:
        """The JSON list under ``key``."""
        v = self.data[key]
        if not isinstance(v, list):
            raise ValueError(f"malformed state: {self.where(key)} must be a list, not {type(v).__name__}")
        return v

    def per_seat(self, key: str, n: int, check: Callable[[object, str], _T]) -> tuple[_T, ...]:
        """A list of one value per player, each passed through ``check(value, path)``."""
        v, where = self.items(key), self.where(key)
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


def load_state(data: Mapping[str, Any]) -> GameState:
    """The state ``data`` (``GameState.to_json`` data, version 1 or 2) describes, checked as the
    module docstring says; raises ``ValueError`` if it is malformed or inconsistent."""
    top = _Reader(data, "", _TOP_KEYS, optional=frozenset({"built"}))
    version = data["version"]
    if data["format"] != FORMAT or type(version) is not int or version not in _PHASES_KEY:
        raise ValueError(f"malformed state: expected format {FORMAT!r} version {' or '.join(map(str, _PHASES_KEY))}, "
                         f"got {data['format']!r} version {version!r}")
    try:
        rules = RulesConfig.from_dict(data["rules"])
    except ValueError as e:
        raise ValueError(f"malformed state: rules: {e}") from None
    try:
        n = check_num_players(data["num_players"])
    except ValueError as e:
        raise ValueError(f"malformed state: {e}") from None
    state = GameState(rules, n)
    state.built = "built" in data and top.boolean("built")
    state.seed = top.integer("seed")
    state.rng = _load_rng(data["rng"])
    state.hand_number = top.integer("hand_number", 1)
    state.dealer = top.integer("dealer", 0, n - 1)
    state.current = top.integer("current", 0, n - 1)
    if data["stage"] not in STAGE_NAMES:
        raise ValueError(f"malformed state: stage must be one of {list(STAGE_NAMES)}, not {data['stage']!r}")
    state.stage = Stage(STAGE_NAMES.index(data["stage"]))
    state.replay = top.boolean("replay")
    winners = tuple(_int(w, f"winners[{i}]", 0, n - 1) for i, w in enumerate(top.items("winners")))
    if len(set(winners)) != len(winners):
        raise ValueError(f"malformed state: winners must be distinct seats, not {list(winners)!r}")
    state.winners = winners
    state.draw_pile = top.cards("draw_pile")
    state.discard_pile = top.cards("discard_pile")
    for card in state.discard_pile:
        state.discard_counts[card] += 1
    players = top.items("players")
    if len(players) != n:
        raise ValueError(f"malformed state: players lists {len(players)} players for num_players={n}")
    phases_key = _PHASES_KEY[version]
    for s, pdata in enumerate(players):
        _load_player(state, s, _Reader(pdata, f"players[{s}]", _PLAYER_KEYS | {phases_key}), phases_key)
    state.history = [_load_hand_result(_Reader(h, f"history[{i}]", _HISTORY_KEYS), n, rules.phases_to_win)
                     for i, h in enumerate(top.items("history"))]
    _check_consistency(state)
    return state


def _load_rng(data: object) -> np.random.Generator:
    """A generator in the saved PCG64 state, checked here first: numpy raises ``OverflowError``
    for out-of-range numbers and ignores unknown keys."""
    r = _Reader(data, "rng", _RNG_KEYS)
    if r.data["bit_generator"] != "PCG64":
        raise ValueError(f"malformed state: rng.bit_generator must be 'PCG64', not {r.data['bit_generator']!r}")
    pcg = _Reader(r.data["state"], r.where("state"), _PCG64_KEYS)
    state, inc = pcg.integer("state", 0, _UINT128_MAX), pcg.integer("inc", 0, _UINT128_MAX)
    if not inc % 2:
        raise ValueError(f"malformed state: rng.state.inc must be odd (numpy's PCG64 streams always are), not {inc}")
    return pcg64_generator({"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
                       "has_uint32": r.integer("has_uint32", 0, 1), "uinteger": r.integer("uinteger", 0, _UINT32_MAX)})


def _load_player(state: GameState, s: int, p: _Reader, phases_key: str) -> None:
    for card in p.cards("hand"):
        state.add_to_hand(s, card)
    for card in p.cards("taken_from_discard"):
        state.taken_from_discard[s][card] += 1
    state.phases_completed[s] = p.integer(phases_key, 0, state.rules.phases_to_win)
    state.laid[s] = p.boolean("laid")
    state.scores[s] = p.score("score")
    state.active[s] = p.boolean("active")
    state.skip_pending[s] = p.boolean("skip_pending")
    state.lost_turn[s] = p.boolean("lost_turn")
    state.skipped_this_hand[s] = p.boolean("skipped_this_hand")
    for i, gdata in enumerate(p.items("table")):
        g = _Reader(gdata, p.where(f"table[{i}]"), _GROUP_KEYS)
        if g.data["kind"] not in KIND_NAMES:
            raise ValueError(f"malformed state: {g.where('kind')} must be one of {list(KIND_NAMES)}, not {g.data['kind']!r}")
        kind = GroupKind(KIND_NAMES.index(g.data["kind"]))
        group = TableGroup(kind, g.integer("value"), g.cards("cards"))
        problem = group.problem()
        if problem:
            raise ValueError(f"malformed state: {p.where(f'table[{i}]')}: {problem}")
        state.table[s].append(group)
        for card in group.cards:
            state.table_counts[card] += 1


def _load_hand_result(r: _Reader, n: int, phases_to_win: int) -> HandResult:
    went_out = None if r.data["went_out"] is None else r.integer("went_out", 0, n - 1)
    return HandResult(r.integer("hand_number", 1), went_out, r.per_seat("points", n, _score),
                      r.per_seat("made_phase", n, _bool), r.per_seat("scores", n, _score),
                      r.per_seat("phases_completed", n, partial(_int, lo=0, hi=phases_to_win)))


def _bad(msg: str) -> ValueError:
    return ValueError(f"inconsistent state: {msg}")


def _check_consistency(state: GameState) -> None:
    n, rules = state.num_players, state.rules
    counts = [0] * NUM_KINDS
    for pile in (state.draw_pile, state.discard_pile):
        for card in pile:
            counts[card] += 1
    for s in range(n):
        for k in range(NUM_KINDS):
            counts[k] += state.hands[s][k] + sum(g.cards.count(k) for g in state.table[s])
    for k in range(NUM_KINDS):
        if counts[k] != DECK_COUNTS[k]:
            raise _bad(f"card {card_name(k)} appears {counts[k]} times; the deck has {DECK_COUNTS[k]}")

    over = state.stage == GAME_OVER
    if over != bool(state.winners):
        raise _bad("winners must be listed exactly when the stage is game_over")
    if state.replay and sum(state.active) < 2:
        raise _bad("a tie replay needs at least two active players")
    if not state.replay and not all(state.active):
        raise _bad("only a tie replay leaves players inactive")
    if rules.advance_all and state.replay:
        raise _bad("advance_all games have no tie replay")
    if rules.advance_all and not over and max(state.phases_completed) >= rules.phases_to_win:
        raise _bad(f"an advance_all game in which a seat completed all {rules.phases_to_win} phases is over (R20)")
    for s in range(n):
        if state.phases_completed[s] == rules.phases_to_win and not (over or state.replay):
            raise _bad(f"seat {s} completed the last phase but the game goes on outside a tie replay")
        if state.replay and state.active[s] and state.phases_completed[s] != rules.phases_to_win:
            raise _bad(f"seat {s} plays a tie replay without having completed the last phase")
        if not state.active[s] and (state.hand_sizes[s] or state.table[s] or any(state.taken_from_discard[s])
                                   or state.skip_pending[s] or state.lost_turn[s] or state.skipped_this_hand[s]):
            raise _bad(f"seat {s} sits out the tie replay but holds cards, groups or Skips of this hand")
        if any(state.taken_from_discard[s][k] > state.hands[s][k] for k in range(NUM_KINDS)):
            raise _bad(f"seat {s}'s taken_from_discard lists cards not in its hand")
        if (state.skip_pending[s] or state.lost_turn[s]) and not state.skipped_this_hand[s]:
            raise _bad(f"seat {s} has a Skip pending or lost its last turn to one, so it was skipped this hand")
        if state.skip_pending[s] and state.lost_turn[s] and rules.skip_rule != "pending_only":
            raise _bad(f"seat {s} lost its last turn to a Skip and has another pending; skip_rule="
                       f"{rules.skip_rule!r} forbids aiming a Skip at it (R15)")
        if state.laid[s] != bool(state.table[s]):
            raise _bad(f"seat {s}: laid must be true exactly when it has groups on the table")
        if state.table[s]:
            if over and not state.replay and not state.phases_completed[s]:
                raise _bad(f"seat {s} laid its phase in the game's last hand but completed no phase (R18)")
            _check_groups(state, s)
    if state.lost_turn[state.current]:
        raise _bad("the current player's turn has begun, so its last turn was not lost to a Skip")
    _check_history(state)
    _check_hands(state)
    if over:
        _check_game_over(state)
        return
    if not state.active[state.current] or not state.active[state.dealer]:
        raise _bad("the current player and the dealer must be active")
    if state.skip_pending[state.current]:
        raise _bad("the current player cannot have a Skip pending (that turn would be lost)")
    if state.stage == DRAW_STAGE:
        if not state.discard_pile and not state.built:
            raise _bad("the current player is to draw, but the discard pile is empty: a turn begins after a "
                       "discard or after the deal, which turns up a card (R3)")
        if not state.draw_pile and len(state.discard_pile) > 1:
            raise _bad(f"the current player is to draw from an empty draw pile while the discard pile holds "
                       f"{len(state.discard_pile)} cards: the turn would have begun by shuffling all of them but the "
                       f"top card into a new draw pile (R7)")
        if not state.draw_pile and not state.can_draw_discard():
            raise _bad("the current player must draw but no card can be drawn (R7 would have ended the hand)")


def _check_groups(state: GameState, s: int) -> None:
    phase = state.table_phase(s)
    groups, reqs = state.table[s], PHASES[phase]
    shapes = sorted((g.kind, len(g.cards)) for g in groups)
    wanted = sorted((r.kind, r.size) for r in reqs)
    # Both lists sort by kind, then size; pairing them in order matches each group to the
    # smallest requirement of its kind it can meet.
    fits = len(shapes) == len(wanted) and all(k == rk and size >= rs for (k, size), (rk, rs) in zip(shapes, wanted))
    if not fits:
        raise _bad(f"seat {s}'s groups do not make phase {phase}")
    if missing_naturals(state.rules.natural, [g.naturals() for g in groups]):
        raise _bad(f"seat {s}'s phase breaks natural_rule={state.rules.natural_rule!r} (R11)")


def _check_hands(state: GameState) -> None:
    """Hand sizes a game can reach. Cards leave a hand only by the one discard that follows each
    draw, or onto the table: so a seat that has not laid its phase holds the 10 cards dealt (11
    while it plays its turn, having drawn), one that has laid holds that less the cards it laid
    and hit, and the cards on the table are all those the seats played. An active seat holds a
    card until it goes out, which ends the hand. A built position (``build_game``) was never
    dealt: only that last rule holds there."""
    over = state.stage == GAME_OVER
    went_out = state.history[-1].went_out if over else None
    played = 0
    for s in range(state.num_players):
        if not state.active[s]:
            continue
        size = state.hand_sizes[s]
        if not size and s != went_out:
            raise _bad(f"seat {s} holds no cards, so it went out and the hand should have ended (R16)")
        if state.built:
            continue
        dealt = HAND_SIZE + (not over and s == state.current and state.stage == PLAY_STAGE)
        if not state.laid[s] and size != dealt:
            drawn = ", plus the card drawn this turn" if dealt > HAND_SIZE else ""
            raise _bad(f"seat {s} holds {size} cards without having laid its phase; it must hold {dealt} (10 dealt{drawn})")
        if state.laid[s]:
            most = dealt - sum(r.size for r in PHASES[state.table_phase(s)])
            if size > most:
                raise _bad(f"seat {s} holds {size} cards after laying its phase, which takes {dealt - most} of its "
                           f"{dealt}; it can hold at most {most}")
        played += dealt - size
    if went_out is not None and state.hand_sizes[went_out]:
        raise _bad(f"seat {went_out} went out in the last hand (history) but holds cards")
    on_table = sum(len(g.cards) for groups in state.table for g in groups)
    # Going out by laying down or hitting the last card skips the discard: one card more played.
    if not state.built and on_table not in ((played, played + 1) if went_out is not None else (played,)):
        raise _bad(f"the table holds {on_table} cards, but the seats' hands are {played} cards short of those "
                   f"dealt and drawn; every card that left a hand other than by a discard went to the table")


def _check_history(state: GameState) -> None:
    """The hand results agree with one another and with the state: hands numbered in order,
    scores the running sums of points (R17), phases advancing by at most one (R18)."""
    history, over = state.history, state.stage == GAME_OVER
    if not history:
        if over:
            raise _bad("a finished game must list the result of its last hand in history")
        return
    n = state.num_players
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
            if step not in (0, 1) or (step and not (r.made_phase[s] or state.rules.advance_all)):
                raise _bad(f"history[{i}].phases_completed: seat {s} goes from {before.phases_completed[s]} to "
                           f"{r.phases_completed[s]}; a seat advances one phase, when it makes its phase (R18)")
    last = history[-1]
    expected = state.hand_number if over else state.hand_number - 1
    if last.hand_number != expected:
        raise _bad(f"the last entry of history is hand {last.hand_number}, but this is hand {state.hand_number}"
                   f"{' and the game is over' if over else ''}, so it must be hand {expected}")
    if list(last.scores) != state.scores:
        raise _bad(f"the players' scores {state.scores} are not those after the last hand in history {list(last.scores)}")
    if list(last.phases_completed) != state.phases_completed:
        raise _bad(f"the players' phases completed {state.phases_completed} are not those after the last hand in history "
                   f"{list(last.phases_completed)}")


def _check_game_over(state: GameState) -> None:
    """The game ended with the last hand in history (R19, R20): the cards still in hand are the
    points it scored, and the winners are those the rules name."""
    n, rules, last = state.num_players, state.rules, state.history[-1]
    for s in range(n):
        if last.points[s] != hand_points(state.hands[s]):
            raise _bad(f"seat {s}'s hand scores {hand_points(state.hands[s])}, but the game's last hand (history) "
                       f"gave it {last.points[s]} points (R17)")
    if list(last.made_phase) != state.laid:
        raise _bad("the seats that laid their phase are not those that made it in the last hand (history)")
    if last.went_out is not None and last.went_out != state.current:
        raise _bad(f"seat {last.went_out} went out, ending the game, so it must be the current player")
    winners = sorted(state.winners)
    if rules.advance_all:
        best = min(state.scores)
        if winners != [s for s in range(n) if state.scores[s] == best]:
            raise _bad(f"an advance_all game is won by every seat with the lowest score, not by seats {winners} (R20)")
        if max(state.phases_completed) != rules.phases_to_win:
            raise _bad(f"an advance_all game ends in the hand of the list's last phase, not with phases completed "
                       f"{state.phases_completed} of {rules.phases_to_win} (R20)")
    elif state.replay:
        if winners != [last.went_out]:
            raise _bad(f"a tie replay is won by the seat that goes out, not by seats {winners} (R19)")
    else:
        done = [s for s in range(n) if state.laid[s] and state.phases_completed[s] == rules.phases_to_win]
        if len(winners) != 1 or winners[0] not in done or any(
                state.scores[s] <= state.scores[winners[0]] for s in done if s != winners[0]):
            raise _bad(f"the game is won by the one seat with the lowest score of those that completed the last "
                       f"phase in the last hand, not by seats {winners} (R19)")
