"""A strong rule-based player: the baseline trained agents must beat.

It works only from its seat's view (its hand, the table, public counts), and plays:

* **draw**: takes the discard only when it helps: before its phase is down, when the card
  lowers the number of cards still missing for the phase (or, with ``take_for_ways``, keeps it
  and opens more ways to finish); once down, when the card can be hit at once;
* **lay down** as soon as it can, choosing the lay-down that leaves the fewest points in hand
  after every hit it enables, then the fewest cards;
* **hit** everything it can, natural cards before Wilds (a Wild could block a run's end);
* **discard** its least useful card: the one whose loss keeps the phase closest (fewest
  missing, most ways), then the one that does not feed the next player (a number it has been
  taking from the discard pile, or a card it could hit), then the highest-scoring;
* **Skips** go out as soon as drawn, aimed at the leader (most phases completed, then lowest
  score) or, with ``skip_target="next"``, at the next player.

The knobs in :class:`HeuristicConfig` were settled by measurement (see the README); the
defaults are the variant that won.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from phase10_env.actions import DRAW_DECK, DRAW_DISCARD, MELD_IDS
from phase10_env.codec import encode
from phase10_env.engine import SKIP, WILD, Discard, Hit, LayDown, SeatView, TableGroup, allocate
from phase10_env.engine.cards import COLOUR_OF, NUM_KINDS, NUMBER_OF, POINTS
from phase10_env.engine.game import Stage
from phase10_env.engine.phases import GroupKind, Meld, phase_progress
from phase10_env.policy import PlayerObservation


@dataclass(frozen=True)
class HeuristicConfig:
    take_for_ways: bool = False
    skip_target: str = "leader"
    avoid_feeding: bool = True


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, config: HeuristicConfig | None = None, seed: int | None = None, **options: object) -> None:
        self.config = replace(config or HeuristicConfig(), **options)
        if self.config.skip_target not in ("leader", "next"):
            raise ValueError(f"skip_target must be 'leader' or 'next', not {self.config.skip_target!r}")

    def seed(self, seed: int | None) -> None:
        """The heuristic is deterministic; accepted so it can stand wherever agents are seeded."""

    def act(self, obs: PlayerObservation) -> int:
        view = obs.view()
        legal = set(np.flatnonzero(obs.action_mask).tolist())
        if view.stage == Stage.DRAW:
            action = DRAW_DISCARD if DRAW_DISCARD in legal and self._wants_discard(view) else DRAW_DECK
        else:
            action = self._play(view, obs.pending_meld)
        return action if action in legal else min(legal)

    # ------------------------------------------------------------------ drawing

    def _wants_discard(self, view: SeatView) -> bool:
        top = view.discard_top
        me = view.me
        if me.laid:
            return top == WILD or _fits_anywhere(top, view.table)
        hand = _counts(view.hand)
        before = phase_progress(hand, me.requirements, view.rules.natural)
        hand[top] += 1
        after = phase_progress(hand, me.requirements, view.rules.natural)
        if after[0] < before[0]:
            return True
        return self.config.take_for_ways and after[0] == before[0] and after[1] > before[1]

    # ------------------------------------------------------------------ playing

    def _play(self, view: SeatView, pending: Meld | None) -> int:
        moves = view.legal_moves
        laydowns = [m for m in moves if isinstance(m, LayDown)]
        if pending is not None:
            laydowns = [m for m in laydowns if pending in m.melds]
            best = min(laydowns, key=lambda m: _after_laydown(view, m))
            melds = list(best.melds)
            melds.remove(pending)
            return MELD_IDS[melds[0]]
        if laydowns:
            return encode(min(laydowns, key=lambda m: _after_laydown(view, m)), view.seat, view.num_players)
        hits = [m for m in moves if isinstance(m, Hit)]
        if hits:
            hit = min(hits, key=lambda m: (m.card == WILD, -POINTS[m.card]))
            return encode(hit, view.seat, view.num_players)
        return encode(self._discard(view, [m for m in moves if isinstance(m, Discard)]), view.seat, view.num_players)

    def _discard(self, view: SeatView, discards: list[Discard]) -> Discard:
        skips = [m for m in discards if m.card == SKIP]
        if skips:
            return min(skips, key=lambda m: self._skip_priority(view, m.target))
        hand = _counts(view.hand)
        me = view.me
        feeds = self._feeding(view) if self.config.avoid_feeding else (lambda card: 0)
        candidates = {m.card: m for m in discards}

        def cost(card: int) -> tuple:
            if me.laid:
                progress: tuple = ()
            else:
                hand[card] -= 1
                missing, ways = phase_progress(hand, me.requirements, view.rules.natural)
                hand[card] += 1
                progress = (missing, -ways)
            return (*progress, card == WILD, feeds(card), -POINTS[card], card)

        return candidates[min(candidates, key=cost)]

    def _feeding(self, view: SeatView):
        """How much discarding a card would help the next player."""
        nxt = view.players[_next_active(view)]
        if nxt.laid:
            return lambda card: 2 if _fits_anywhere(card, view.table) else 0
        colour_phase = nxt.requirements[0].kind == GroupKind.COLOUR
        wanted = {COLOUR_OF[c] if colour_phase else NUMBER_OF[c] for c in nxt.taken_from_discard if c < WILD}
        return lambda card: 1 if (COLOUR_OF[card] if colour_phase else NUMBER_OF[card]) in wanted else 0

    def _skip_priority(self, view: SeatView, target: int | None) -> tuple:
        if target is None:
            return (0,)
        if self.config.skip_target == "next":
            return (view.relative(target),)
        p = view.players[target]
        return (-p.phases_completed, p.score, view.relative(target))


def _counts(cards: tuple[int, ...]) -> bytearray:
    counts = bytearray(NUM_KINDS)
    for c in cards:
        counts[c] += 1
    return counts


def _next_active(view: SeatView) -> int:
    seat = view.seat
    for _ in range(view.num_players):
        seat = (seat + 1) % view.num_players
        if view.players[seat].active:
            return seat
    return view.seat


def _fits_anywhere(card: int, table: tuple[tuple[TableGroup, ...], ...]) -> bool:
    if card == SKIP:
        return False
    return any(g.accepts(card) or (card == WILD and g.kind == GroupKind.RUN and g.accepts(card, True))
               for groups in table for g in groups)


def _after_laydown(view: SeatView, move: LayDown) -> tuple[int, int]:
    """(points, cards) left in hand after laying ``move`` down and hitting all that fits."""
    hand = _counts(view.hand)
    groups = allocate(hand, move.melds, view.rules.natural)
    table = [g.copy() for groups_ in view.table for g in groups_]
    for meld, cards in zip(move.melds, groups):
        for c in cards:
            hand[c] -= 1
        table.append(TableGroup(meld.kind, meld.value, list(cards)))
    progress = True
    while progress:
        progress = False
        for card in range(SKIP):
            if not hand[card]:
                continue
            for g in table:
                low = card == WILD and g.kind == GroupKind.RUN and not g.accepts(card) and g.accepts(card, True)
                if g.accepts(card, low):
                    g.add(card, low)
                    hand[card] -= 1
                    progress = True
                    break
    return sum(POINTS[k] * hand[k] for k in range(NUM_KINDS)), sum(hand)
