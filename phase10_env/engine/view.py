"""What one seat may see of a game: its own hand and everything public.

Agents and renderers work from a :class:`SeatView`; it holds nothing another player's hand or
the draw pile's order would reveal. Cards a player took from the discard pile are public (every
player saw them taken), counted in ``PlayerInfo.taken_from_discard`` until that player plays a
card of the same kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import kinds_of
from .config import RulesConfig
from .moves import HandResult, Move, SeenMove, can_take_discard
from .phases import PHASES, Requirement
from .seats import Stage, next_active
from .state import GameState
from .table import TableGroup


@dataclass(frozen=True)
class PlayerInfo:
    seat: int
    phase: int
    phases_completed: int
    laid: bool
    hand_size: int
    score: int
    skip_pending: bool
    lost_turn: bool
    skipped_this_hand: bool
    active: bool
    taken_from_discard: tuple[int, ...]

    @property
    def requirements(self) -> tuple[Requirement, ...]:
        return PHASES[self.phase]


@dataclass(frozen=True)
class SeatView:
    seat: int
    num_players: int
    rules: RulesConfig
    hand: tuple[int, ...]
    discard_pile: tuple[int, ...]
    draw_pile_size: int
    table: tuple[tuple[TableGroup, ...], ...]
    players: tuple[PlayerInfo, ...]
    current: int
    stage: Stage
    dealer: int
    hand_number: int
    replay: bool
    winners: tuple[int, ...]
    history: tuple[HandResult, ...]
    legal_moves: tuple[Move, ...]
    #: The moves of this hand so far, as everyone saw them (a game restored from a saved state
    #: starts its log there: the saved state keeps the position, not how the hand came to it).
    hand_log: tuple[SeenMove, ...] = ()

    @property
    def me(self) -> PlayerInfo:
        return self.players[self.seat]

    @property
    def discard_top(self) -> int | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def can_take_discard(self) -> bool:
        """Whether the discard pile's top card may be drawn (R5), whoever is to act."""
        return can_take_discard(self.discard_pile)

    def relative(self, seat: int) -> int:
        """Seat offset from this view's seat in play order (1 = next player)."""
        return (seat - self.seat) % self.num_players

    def next_seat(self, seat: int | None = None) -> int:
        """The next active seat after ``seat`` (default: this view's) in play order."""
        return next_active([p.active for p in self.players], self.seat if seat is None else seat)


def seat_view(state: GameState, seat: int, legal_moves: tuple[Move, ...], hand_log: tuple[SeenMove, ...] = ()) -> SeatView:
    """What seat ``seat`` may see of ``state``; ``legal_moves`` are its legal moves (none unless
    it is to act) and ``hand_log`` the hand's moves so far, which the caller, knowing the rules
    of play and the hand's course, supplies."""
    n = state.num_players
    if not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} in a {n}-player game")
    players = tuple(
        PlayerInfo(
            seat=s,
            phase=state.phase_of(s),
            phases_completed=state.phases_completed[s],
            laid=state.laid[s],
            hand_size=state.hand_sizes[s],
            score=state.scores[s],
            skip_pending=state.skip_pending[s],
            lost_turn=state.lost_turn[s],
            skipped_this_hand=state.skipped_this_hand[s],
            active=state.active[s],
            taken_from_discard=tuple(kinds_of(state.taken_from_discard[s])),
        )
        for s in range(n)
    )
    return SeatView(
        seat=seat,
        num_players=n,
        rules=state.rules,
        hand=tuple(kinds_of(state.hands[seat])),
        discard_pile=tuple(state.discard_pile),
        draw_pile_size=len(state.draw_pile),
        table=tuple(tuple(g.copy() for g in groups) for groups in state.table),
        players=players,
        current=state.current,
        stage=state.stage,
        dealer=state.dealer,
        hand_number=state.hand_number,
        replay=state.replay,
        winners=state.winners,
        history=tuple(state.history),
        legal_moves=legal_moves,
        hand_log=hand_log,
    )
