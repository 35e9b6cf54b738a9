"""The rules of a whole Phase 10 game: deal, turns, skips, hands, scoring and the end.

``Game`` is a :class:`~.state.GameState` (the position, as data) with the rules of play on top.
It changes the state only through :meth:`Game.apply`, which first checks the move and raises
:class:`IllegalMoveError` (leaving the state untouched) if the rules forbid it. All randomness
comes from the game's own ``numpy.random.Generator``, used only to shuffle; so a seed and the
list of moves replay a game exactly (its :class:`~.record.GameRecord`, :meth:`Game.from_record`).

Build a game with ``Game(num_players, rules, seed)`` (a new game, dealt), :meth:`Game.from_state`
(play on from a position), :meth:`Game.from_json` (a saved state) or :meth:`Game.from_view` (a
game consistent with what one seat sees).

>>> game = Game(num_players=2, seed=7)
>>> game
Game(2 players, hand 1, seat 0 to draw, phases [1, 1], scores [0, 0])
>>> game.legal_moves()
[Draw(from_discard=False), Draw(from_discard=True)]
>>> game.illegal_reason(Discard(3))
'the player must draw first (R5)'
>>> game.apply(Draw())
()
>>> game.apply(Draw())
Traceback (most recent call last):
...
phase10_env.engine.moves.IllegalMoveError: illegal move draw from the draw pile: this player has already drawn this turn
>>> len(game.view(0).hand), game.view(1).legal_moves  # what each seat may see
(11, ())
>>> Game.from_json(game.to_json()).to_json() == game.to_json() == Game.from_record(game.record).to_json()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .cards import DECK_COUNTS, NUM_NATURALS, NUM_NUMBERS, SKIP, WILD, card_name, hand_points
from .config import RulesSpec, load_rules
from .determinize import state_from_view
from .loader import load_state
from .melds import allocate, arrange, laydown_card_choices, laydown_card_problem
from .moves import (
    Discard,
    Draw,
    Event,
    GameEnded,
    HandEnded,
    HandResult,
    Hit,
    IllegalMoveError,
    LayDown,
    Move,
    SeenMove,
    TieReplay,
    TurnLost,
    can_take_discard,
)
from .phases import PHASES, GroupKind, Meld, matches_requirements
from .record import GameRecord
from .search import laydowns, laydowns_from_supply
from .seats import check_num_players, next_active
from .state import DRAW_STAGE, GAME_OVER, HAND_SIZE, PLAY_STAGE, STAGE_NAMES, GameState
from .table import TableGroup
from .view import SeatView, seat_view

__all__ = ["Game", "DRAW_STAGE", "PLAY_STAGE", "GAME_OVER", "HAND_SIZE", "STAGE_NAMES", "DECK"]

#: The 108 cards as kinds, in a fixed order; each deal permutes this.
DECK: tuple[int, ...] = tuple(k for k, c in enumerate(DECK_COUNTS) for _ in range(c))
_DECK_ARRAY = np.array(DECK, dtype=np.int64)
_NO_EVENTS: tuple[Event, ...] = ()


class Game(GameState):
    """One game of Phase 10 between ``num_players`` seats.

    Read the state through the public attributes of :class:`~.state.GameState` (never modify
    them) or through :meth:`view`, which gives exactly what one seat may see. ``record`` is the
    game's :class:`GameRecord`.
    """

    record: GameRecord
    _events: list[Event]
    _laydown_moves_cache: tuple[list[tuple[Meld, ...]], list[LayDown]] | None
    _laydown_cache: tuple[bytes, int, list[tuple[Meld, ...]]] | None

    def __init__(self, num_players: int = 2, rules: RulesSpec = None,
                 seed: int | None = None, first_dealer: int | None = None,
                 start_phases: Sequence[int] | None = None) -> None:
        """A new game, its first hand dealt. ``start_phases`` optionally gives each seat's
        phases already completed (an index into ``rules.phases``), to start mid-game."""
        n = check_num_players(num_players)
        config = load_rules(rules)
        if seed is None:
            seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]  # numpy types entropy loosely
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
        if first_dealer is None:
            first_dealer = n - 1
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, (int, np.integer)) or not 0 <= first_dealer < n:
            raise ValueError(f"first_dealer must be a seat from 0 to {n - 1}, not {first_dealer!r}")
        phases: list[int] | None = None
        if start_phases is not None:
            phases = [int(p) for p in start_phases]
            if len(phases) != n or not all(0 <= p < config.phases_to_win for p in phases):
                raise ValueError(f"start_phases must give {n} values from 0 to {config.phases_to_win - 1}, "
                                 f"not {phases!r}")
        super().__init__(config, n)
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        if phases is not None:
            self.phases_completed = phases
        self.dealer = int(first_dealer)
        self._begin(GameRecord(n, config, self.seed, self.dealer, start_phases=phases))
        self._deal()

    def _begin(self, record: GameRecord) -> None:
        """Set what a game keeps besides its state: its record, the hand's public log, events
        and caches."""
        self.record = record
        self.hand_log: list[SeenMove] = []
        self._events = []
        self._laydown_moves_cache = None
        self._laydown_cache = None

    @classmethod
    def _start(cls, state: GameState) -> Game:
        """A game that plays on from a copy of ``state``, which its record keeps as its start:
        nobody may change ``state`` afterwards."""
        game = cls.__new__(cls)
        state._copy_to(game)
        game._begin(GameRecord(state.num_players, state.rules, state.seed, state.dealer, start_game=state))
        return game

    @classmethod
    def from_state(cls, state: GameState) -> Game:
        """A game that plays on from ``state`` (a consistent position, such as
        :func:`~.loader.load_state` gives, or another game), with its own copy of the data and a
        record that starts there. ``state`` is left as it is."""
        return cls._start(state.copy())

    @classmethod
    def from_record(cls, record: GameRecord, upto: int | None = None) -> Game:
        """The game ``record`` describes, after its first ``upto`` moves (all by default); a
        move the rules refuse raises :class:`IllegalMoveError`."""
        if record.start_game is not None:
            game = cls._start(record.start_game)
        else:
            game = cls(record.num_players, record.rules, seed=record.seed, first_dealer=record.first_dealer,
                       start_phases=record.start_phases)
        for move in record.moves[:upto]:
            game.apply(move)
        return game

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        """Load a state written by :meth:`to_json`; raises ``ValueError`` if it is malformed
        or inconsistent (see :mod:`~.state`)."""
        return cls._start(load_state(data))

    # ------------------------------------------------------------------ queries

    def skip_targets(self) -> list[int]:
        """Seats the current player may aim a Skip at (R15)."""
        me, rule = self.current, self.rules.skip_rule
        pending, lost, once = self.skip_pending, self.lost_turn, self.skipped_this_hand
        targets = []
        for s in range(self.num_players):
            if s == me or not self.active[s] or pending[s]:
                continue
            if rule == "not_twice_in_a_row" and lost[s]:
                continue
            if rule == "once_per_hand" and once[s]:
                continue
            targets.append(s)
        return targets

    def laydown_options(self) -> list[tuple[Meld, ...]]:
        """Every phase lay-down (tuple of melds) the current player may make now."""
        seat = self.current
        if self.stage != PLAY_STAGE or self.laid[seat]:
            return []
        hand = self.hands[seat]
        key = bytes(hand)
        phase = self.phase_of(seat)
        cache = self._laydown_cache
        if cache is None or cache[0] != key or cache[1] != phase:
            reqs = PHASES[phase]
            if reqs[0].kind == GroupKind.COLOUR:
                options = laydowns(hand, reqs, self.rules.natural)
            else:
                options = laydowns_from_supply(self.number_counts[seat], hand[WILD], reqs, self.rules.natural)
            cache = self._laydown_cache = (key, phase, options)
        return cache[2]

    def laydown_moves(self) -> list[LayDown]:
        """Every lay-down the current player may make now, each choice of cards its own move
        (two groups of the same meld listed once). Do not change the list: it is cached."""
        seat = self.current
        if self.stage != PLAY_STAGE or self.laid[seat]:
            return []
        options = self.laydown_options()
        cache = self._laydown_moves_cache
        if cache is not None and cache[0] is options:
            return cache[1]
        hand, reqs, rule = self.hands[seat], self.requirements(seat), self.rules.natural
        moves: list[LayDown] = []
        for melds in options:
            for cards in laydown_card_choices(hand, melds, reqs, rule):
                if len(melds) == 2 and melds[0] == melds[1] and cards[0] > cards[1]:
                    continue
                moves.append(LayDown(melds, tuple(tuple(arrange(m, c)) for m, c in zip(melds, cards))))
        self._laydown_moves_cache = (options, moves)
        return moves

    def hit_moves(self) -> list[Hit]:
        """Every hit the current player may make now (R14)."""
        seat = self.current
        if self.stage != PLAY_STAGE or not self.laid[seat]:
            return []
        hand = self.hands[seat]
        moves: list[Hit] = []
        for target in range(self.num_players):
            for g, group in enumerate(self.table[target]):
                if hand[WILD]:
                    if group.accepts(WILD):
                        moves.append(Hit(target, g, WILD))
                    if group.kind == GroupKind.RUN and group.accepts(WILD, True):
                        moves.append(Hit(target, g, WILD, True))
                for number in group.accepted_numbers():
                    if group.kind == GroupKind.COLOUR:
                        cards: range | tuple[int] = (group.colour * NUM_NUMBERS + number - 1,)
                    else:
                        cards = range(number - 1, NUM_NATURALS, NUM_NUMBERS)
                    moves.extend(Hit(target, g, k) for k in cards if hand[k])
        return moves

    def legal_moves(self) -> list[Move]:
        """Every legal move for the current player (empty once the game is over)."""
        if self.stage == DRAW_STAGE:
            draws: list[Move] = [Draw(False)] if self.draw_pile else []
            if self.can_draw_discard():
                draws.append(Draw(True))
            return draws
        if self.stage != PLAY_STAGE:
            return []
        moves: list[Move] = list(self.laydown_moves())
        moves.extend(self.hit_moves())
        hand = self.hands[self.current]
        moves.extend(Discard(k) for k in range(SKIP) if hand[k])
        if hand[SKIP]:
            targets = self.skip_targets()
            if targets:
                moves.extend(Discard(SKIP, t) for t in targets)
            else:
                moves.append(Discard(SKIP))
        return moves

    def illegal_reason(self, move: Move) -> str | None:
        """Why ``move`` is illegal now, or None if it is legal."""
        stage = self.stage
        if stage == GAME_OVER:
            return "the game is over"
        if type(move) is Draw:
            if stage != DRAW_STAGE:
                return "this player has already drawn this turn"
            if move.from_discard:
                if not self.discard_pile:
                    return "the discard pile is empty"
                if not can_take_discard(self.discard_pile):
                    return "a Skip can never be taken from the discard pile (R5)"
            elif not self.draw_pile:
                return "the draw pile is empty; only the discard pile's top card can be taken (R7)"
            return None
        if type(move) not in (LayDown, Hit, Discard):
            return f"not a move: {move!r}"
        problem = self.play_problem()
        if problem is not None:
            return problem
        seat = self.current
        hand = self.hands[seat]
        if type(move) is Discard:
            card, target = move.card, move.target
            if not (isinstance(card, int) and 0 <= card <= SKIP) or not hand[card]:
                return f"card {card!r} is not in the player's hand"
            if card != SKIP:
                return None if target is None else "only a Skip names a target"
            targets = self.skip_targets()
            if target is None:
                return None if not targets else f"a Skip must name a player while one may be chosen (seats {targets})"
            if target not in targets:
                return (f"seat {target!r} cannot be skipped now under skip_rule={self.rules.skip_rule!r} "
                        f"(may skip: {targets or 'no one'})")
            return None
        if type(move) is Hit:
            target, g, card = move.target, move.group, move.card
            problem = self.hit_target_problem(target, g)
            if problem is not None:
                return problem
            if not (isinstance(card, int) and 0 <= card <= WILD) or not hand[card]:
                return f"card {card!r} is not in the player's hand (or is a Skip)"
            if not self.table[target][g].accepts(card, move.low_end):
                return f"{card_name(card)} does not fit {self.table[target][g]!r} (R14)"
            return None
        # LayDown
        if self.laid[seat]:
            return "the phase is already down this hand (one phase per hand)"
        reqs = self.requirements(seat)
        melds = move.melds
        if not isinstance(melds, tuple) or not all(hasattr(m, "is_valid") and m.is_valid() for m in melds):
            return f"malformed melds {melds!r}"
        if not matches_requirements(melds, reqs):
            return f"phase {self.phase_of(seat)} needs exactly {' + '.join(map(str, reqs))} (R13)"
        if move.cards is not None:
            if not (isinstance(move.cards, tuple) and all(
                    isinstance(c, tuple) and all(isinstance(k, int) and 0 <= k <= SKIP for k in c) for c in move.cards)):
                return f"malformed cards {move.cards!r}"
            problem = laydown_card_problem(hand, melds, move.cards, self.rules.natural)
            return None if problem is None else f"{problem} (natural_rule={self.rules.natural_rule!r})"
        if allocate(hand, melds, self.rules.natural) is None:
            return f"the hand cannot make these groups (natural_rule={self.rules.natural_rule!r})"
        return None

    def hit_target_problem(self, target: int, group: int) -> str | None:
        """Why the player to act cannot hit seat ``target``'s group ``group`` now, whatever the
        card (R14: its own phase is not down, or there is no such group), or None."""
        if not self.laid[self.current]:
            return "hitting is allowed only once the player's own phase is down (R14)"
        if not (isinstance(target, int) and 0 <= target < self.num_players
                and isinstance(group, int) and 0 <= group < len(self.table[target])):
            return f"seat {target!r} has no group {group!r} on the table"
        return None

    def play_problem(self) -> str | None:
        """Why the player to act cannot make a move of the play stage now (lay down, hit,
        discard, or a step of a move in progress, :mod:`.partial`), or None."""
        if self.stage == GAME_OVER:
            return "the game is over"
        if self.stage != PLAY_STAGE:
            return "the player must draw first (R5)"
        return None

    def is_legal(self, move: Move) -> bool:
        return self.illegal_reason(move) is None

    # ------------------------------------------------------------------ moves

    def apply(self, move: Move) -> tuple[Event, ...]:
        """Play ``move`` for the current player; returns what it caused (turns lost, hand and
        game ends). Raises :class:`IllegalMoveError` and changes nothing if it is illegal."""
        reason = self.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(move, reason)
        return self.unsafe_apply(move)

    def unsafe_apply(self, move: Move) -> tuple[Event, ...]:
        """UNSAFE: :meth:`apply` without the legality check, for a move the caller has already
        found legal (the environment's exact masks do). An illegal move corrupts the game."""
        self.record.moves.append(move)
        seat = self.current
        self.hand_log.append(SeenMove(seat, move, self.discard_pile[-1] if self.discard_pile else None))
        if type(move) is Draw:
            if move.from_discard:
                card = self.discard_pile.pop()
                self.discard_counts[card] -= 1
                self.taken_from_discard[seat][card] += 1
            else:
                card = self.draw_pile.pop()
            self.add_to_hand(seat, card)
            self.stage = PLAY_STAGE
            return _NO_EVENTS
        events: list[Event] = []
        self._events = events
        if type(move) is Discard:
            card = move.card
            self._take_from_hand(seat, card)
            self.discard_pile.append(card)
            self.discard_counts[card] += 1
            if move.target is not None:
                self.skip_pending[move.target] = True
                self.skipped_this_hand[move.target] = True
            if self.hand_sizes[seat]:
                self._next_turn()
                return tuple(events) if events else _NO_EVENTS
        elif type(move) is Hit:
            self._take_from_hand(seat, move.card)
            self.table[move.target][move.group].add(move.card, move.low_end)
            self.table_counts[move.card] += 1
        else:
            if move.cards is None:
                allocated = allocate(self.hands[seat], move.melds, self.rules.natural)
                if allocated is None:
                    raise IllegalMoveError(move, "the hand cannot make these groups (the game is now corrupt)")
                groups = allocated
            else:
                groups = [arrange(m, c) for m, c in zip(move.melds, move.cards)]
            for meld, cards in zip(move.melds, groups):
                for card in cards:
                    self._take_from_hand(seat, card)
                    self.table_counts[card] += 1
                self.table[seat].append(TableGroup(meld.kind, meld.value, cards))
            self.laid[seat] = True
        if not self.hand_sizes[seat]:
            self._end_hand(went_out=seat)
        return tuple(events)

    def _take_from_hand(self, seat: int, card: int) -> None:
        self.hands[seat][card] -= 1
        self.hand_sizes[seat] -= 1
        if card < NUM_NATURALS:
            self.number_counts[seat][card % NUM_NUMBERS + 1] -= 1
        known = self.taken_from_discard[seat]
        if known[card]:
            known[card] -= 1

    # ------------------------------------------------------------------ flow

    def _next_turn(self) -> None:
        seat = next_active(self.active, self.current)
        while self.skip_pending[seat]:
            self.skip_pending[seat] = False
            self.lost_turn[seat] = True
            self._events.append(TurnLost(seat))
            seat = self.next_seat(seat)
        self._start_turn(seat)

    def _start_turn(self, seat: int) -> None:
        self.current = seat
        self.lost_turn[seat] = False
        self.stage = DRAW_STAGE
        if not self.draw_pile:
            self._reshuffle()
            if not self.draw_pile and not self.can_draw_discard():
                self._end_hand(went_out=None)

    def _reshuffle(self) -> None:
        """R7: all of the discard pile but its top card becomes the new draw pile."""
        pile = self.discard_pile
        if len(pile) <= 1:
            return
        rest = pile[:-1]
        del pile[:-1]
        for card in rest:
            self.discard_counts[card] -= 1
        self.draw_pile = [rest[i] for i in self.rng.permutation(len(rest))]

    def _deal(self) -> None:
        n = self.num_players
        self.hand_number += 1
        self.hand_log = []
        for s in range(n):
            self.hands[s][:] = bytes(len(DECK_COUNTS))
            self.taken_from_discard[s][:] = bytes(len(DECK_COUNTS))
            self.hand_sizes[s] = 0
            self.number_counts[s] = [0] * (NUM_NUMBERS + 1)
            self.table[s] = []
            self.laid[s] = False
            self.skip_pending[s] = False
            self.lost_turn[s] = False
            self.skipped_this_hand[s] = False
        self.discard_counts[:] = bytes(len(DECK_COUNTS))
        self.table_counts[:] = bytes(len(DECK_COUNTS))
        deck = _DECK_ARRAY[self.rng.permutation(len(DECK))].tolist()
        order = []
        seat = self.dealer
        for _ in range(sum(self.active)):
            seat = self.next_seat(seat)
            order.append(seat)
        for _ in range(HAND_SIZE):
            for s in order:
                self.add_to_hand(s, deck.pop())
        top = deck.pop()
        self.discard_pile = [top]
        self.discard_counts[top] = 1
        self.draw_pile = deck
        first = order[0]
        if top == SKIP:
            # R4: the first player loses the first turn; it counts as a turn lost to a Skip.
            self.lost_turn[first] = True
            self.skipped_this_hand[first] = True
            self._events.append(TurnLost(first))
            first = self.next_seat(first)
        self._start_turn(first)

    def _end_hand(self, went_out: int | None) -> None:
        n, rules = self.num_players, self.rules
        points = tuple(hand_points(self.hands[s]) if self.active[s] else 0 for s in range(n))
        made = tuple(self.laid)
        last = rules.phases_to_win - 1
        completed = [s for s in range(n) if made[s] and self.phases_completed[s] == last and not self.replay]
        for s in range(n):
            self.scores[s] += points[s]
            if self.active[s] and not self.replay and (made[s] or rules.advance_all):
                self.phases_completed[s] += 1
        result = HandResult(self.hand_number, went_out, points, made, tuple(self.scores), tuple(self.phases_completed))
        self.history.append(result)
        self._events.append(HandEnded(result))
        winners: tuple[int, ...] = ()
        if self.replay:
            if went_out is not None:
                winners = (went_out,)
        elif rules.advance_all:
            if max(self.phases_completed) >= rules.phases_to_win:  # one hand per phase: the list is played out
                best = min(self.scores)
                winners = tuple(s for s in range(n) if self.scores[s] == best)
        elif completed:
            best = min(self.scores[s] for s in completed)
            tied = tuple(s for s in completed if self.scores[s] == best)
            if len(tied) == 1:
                winners = tied
            else:
                self.replay = True
                self.active = [s in tied for s in range(n)]
                self._events.append(TieReplay(tied))
        if winners:
            self.winners = winners
            self.stage = GAME_OVER
            self._events.append(GameEnded(winners))
            return
        self.dealer = self.next_seat(self.dealer)
        self._deal()

    # ------------------------------------------------------------------ views and copies

    def view(self, seat: int) -> SeatView:
        """What seat ``seat`` may see (a :class:`SeatView`)."""
        return seat_view(self, seat, tuple(self.legal_moves()) if seat == self.current else (), tuple(self.hand_log))

    def copy(self) -> Game:
        """An independent copy that plays on identically (its own random generator in the same
        state, its own record), sharing no mutable state with this game. For search: about the
        cost of a few environment steps."""
        new = type(self).__new__(type(self))
        self._copy_to(new)
        new.record = self.record.copy()
        new.hand_log = self.hand_log.copy()
        new._events = []
        return new

    def determinize(self, seat: int, rng: np.random.Generator) -> Game:
        """A game ``seat`` cannot tell from this one: :meth:`from_view` of its view."""
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be a seat from 0 to {self.num_players - 1}, not {seat!r}")
        return Game.from_view(self.view(int(seat)), rng)

    @classmethod
    def from_view(cls, view: SeatView, rng: np.random.Generator) -> Game:
        """A whole game consistent with everything one seat may know (its :class:`SeatView`),
        every card it cannot see dealt at random by ``rng``
        (:func:`~.determinize.state_from_view`). Search agents, which see only their view,
        sample games so. Nothing hidden can enter: the view holds none of it."""
        game = cls._start(state_from_view(view, rng))
        game.hand_log = list(view.hand_log)
        return game

    def __repr__(self) -> str:
        return (f"Game({self.num_players} players, hand {self.hand_number}, seat {self.current} to "
                f"{STAGE_NAMES[self.stage]}, phases {[self.phase_of(s) for s in range(self.num_players)]}, scores {self.scores})")
