"""Determinization: a whole game state consistent with what one seat may know, the cards it
cannot see dealt at random. Search agents, which see only their seat's view, sample games so
(``Game.from_view``, ``Game.determinize``).

Nothing hidden can enter: the function reads only a :class:`~.view.SeatView`, which holds none
of it.
"""

from __future__ import annotations

import numpy as np

from .cards import DECK_COUNTS, counts_of
from .search import number_supply
from .state import GameState
from .view import SeatView


def state_from_view(view: SeatView, rng: np.random.Generator) -> GameState:
    """A game state consistent with everything ``view`` shows: its seat's hand, the table, the
    discard pile, every hand's size, the cards others are known to hold because they took them
    from the discard pile, pile sizes, scores, phases, skips, the turn, the rules. Every card the
    seat cannot see is dealt by ``rng`` among the other hands and the draw pile, and the state
    gets a new random generator (from ``rng``) for the deals and reshuffles to come."""
    if view.winners:
        raise ValueError("the game is over: there is nothing hidden left to sample")
    n, seat = view.num_players, view.seat
    state = GameState(view.rules, n)
    unknown = bytearray(DECK_COUNTS)
    for k in (*view.hand, *view.discard_pile, *(k for groups in view.table for g in groups for k in g.cards)):
        unknown[k] -= 1
    for p in view.players:
        state.taken_from_discard[p.seat] = counts_of(p.taken_from_discard)
        if p.seat != seat:
            for k in p.taken_from_discard:
                unknown[k] -= 1
    pool = [k for k, c in enumerate(unknown) for _ in range(c)]
    order = rng.permutation(len(pool)).tolist()
    start = 0
    for p in view.players:
        if p.seat == seat:
            hand = counts_of(view.hand)
        else:
            hand = bytearray(state.taken_from_discard[p.seat])
            hidden = p.hand_size - len(p.taken_from_discard)
            for i in order[start:start + hidden]:
                hand[pool[i]] += 1
            start += hidden
        state.hands[p.seat] = hand
        state.hand_sizes[p.seat] = p.hand_size
        state.number_counts[p.seat] = number_supply(hand)
        state.phases_completed[p.seat] = p.phases_completed
        state.laid[p.seat] = p.laid
        state.scores[p.seat] = p.score
        state.skip_pending[p.seat] = p.skip_pending
        state.lost_turn[p.seat] = p.lost_turn
        state.skipped_this_hand[p.seat] = p.skipped_this_hand
        state.active[p.seat] = p.active
    state.draw_pile = [pool[i] for i in order[start:]]
    state.discard_pile = list(view.discard_pile)
    for k in state.discard_pile:
        state.discard_counts[k] += 1
    state.table = [[g.copy() for g in groups] for groups in view.table]
    for groups in state.table:
        for g in groups:
            for k in g.cards:
                state.table_counts[k] += 1
    state.dealer, state.current, state.stage = view.dealer, view.current, view.stage
    state.hand_number, state.replay, state.history = view.hand_number, view.replay, list(view.history)
    state.seed = int(rng.integers(2**63))
    state.rng = np.random.default_rng(state.seed)
    return state
