"""A strong rule-based player: the baseline trained agents must beat.

(docstring to be rewritten once the measurements are in)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from phase10_env.actions import DRAW_DECK, DRAW_DISCARD, MELD_IDS
from phase10_env.codec import encode
from phase10_env.engine import SKIP, WILD, Discard, Hit, LayDown, SeatView, TableGroup, allocate
from phase10_env.engine.cards import COLOUR_OF, DECK_COUNTS, NUM_COLOURS, NUM_KINDS, NUM_NUMBERS, NUMBER_OF, POINTS
from phase10_env.engine.game import Stage
from phase10_env.engine.phases import PHASES, GroupKind, Meld, NaturalRule, phase_progress
from phase10_env.policy import PlayerObservation


@dataclass(frozen=True)
class HeuristicConfig:
    take_for_ways: bool = False
    skip_target: str = "leader"
    avoid_feeding: bool = True
    discard_rank: str = "ways"
    laid_discard: str = "points"


_CHOICES = {"skip_target": ("leader", "next"), "discard_rank": ("ways", "outs"), "laid_discard": ("points", "soon")}


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, config: HeuristicConfig | None = None, seed: int | None = None, **options: object) -> None:
        self.config = replace(config or HeuristicConfig(), **options)
        for key, allowed in _CHOICES.items():
            if getattr(self.config, key) not in allowed:
                raise ValueError(f"{key} must be one of {list(allowed)}, not {getattr(self.config, key)!r}")

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
        """Take the discard if it can be hit at once (phase down) or brings the phase closer."""
        top = view.discard_top
        me = view.me
        if me.laid:
            return top == WILD or _fits_anywhere(top, view.table)
        colour = _is_colour(me.phase)
        profile = _profile(view.hand, colour)
        before = _progress(bytes(profile), me.phase, view.rules.natural)
        profile[_slot(top, colour)] += 1
        after = _progress(bytes(profile), me.phase, view.rules.natural)
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
        """Skips first; else the card whose loss costs least (see :meth:`_phase_cost` and
        :meth:`_laid_cost`), then one that does not feed the next player, then the highest."""
        skips = [m for m in discards if m.card == SKIP]
        if skips:
            return min(skips, key=lambda m: self._skip_priority(view, m.target))
        feeds = self._feeding(view) if self.config.avoid_feeding else (lambda card: 0)
        candidates = {m.card: m for m in discards}
        keep = self._laid_cost(view) if view.me.laid else self._phase_cost(view)
        return candidates[min(candidates, key=lambda c: (*keep(c), c == WILD, feeds(c), -POINTS[c], c))]

    def _phase_cost(self, view: SeatView) -> Callable[[int], tuple[int, ...]]:
        """Before the phase is down: how far losing a card leaves the phase, as (missing, -ways)
        or, with ``discard_rank="outs"``, (missing, -unseen cards that would bring it closer)."""
        me = view.me
        natural = view.rules.natural
        colour = _is_colour(me.phase)
        profile = _profile(view.hand, colour)
        unseen = _unseen(view, colour) if self.config.discard_rank == "outs" else None
        memo: dict[int, tuple[int, ...]] = {}

        def cost(card: int) -> tuple[int, ...]:
            slot = _slot(card, colour)
            if slot not in memo:
                profile[slot] -= 1
                missing, ways = _progress(bytes(profile), me.phase, natural)
                memo[slot] = (missing, -(ways if unseen is None else _outs(profile, missing, unseen, me.phase, natural)))
                profile[slot] += 1
            return memo[slot]

        return cost

    def _laid_cost(self, view: SeatView) -> Callable[[int], tuple[int, ...]]:
        """Once down: nothing to weigh, or with ``laid_discard="soon"`` keep a card one step
        from a run's end (it fits once someone hits the card between)."""
        if self.config.laid_discard == "points":
            return lambda card: ()
        ends = {n for groups in view.table for g in groups if g.kind == GroupKind.RUN for n in (g.low - 2, g.high + 2)}
        return lambda card: (-(card != WILD and NUMBER_OF[card] in ends),)

    def _feeding(self, view: SeatView) -> Callable[[int], int]:
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


def _is_colour(phase: int) -> bool:
    return PHASES[phase][0].kind == GroupKind.COLOUR


def _slot(card: int, colour: bool) -> int:
    """A card's place in a profile: 0 for a Wild, else its number (or its colour + 1)."""
    if card == WILD:
        return 0
    return COLOUR_OF[card] + 1 if colour else NUMBER_OF[card]


def _profile(cards: tuple[int, ...] | list[int], colour: bool) -> bytearray:
    """Cards counted by what a phase asks of them: Wilds, then per number (per colour)."""
    profile = bytearray(NUM_COLOURS + 1 if colour else NUM_NUMBERS + 1)
    for c in cards:
        if c != SKIP:
            profile[_slot(c, colour)] += 1
    return profile


@lru_cache(maxsize=1 << 16)
def _progress(profile: bytes, phase: int, natural: NaturalRule) -> tuple[int, int]:
    """:func:`phase_progress` of a hand given by its profile (which settles it)."""
    hand = bytearray(NUM_KINDS)
    hand[WILD] = profile[0]
    colour = _is_colour(phase)
    for slot in range(1, len(profile)):
        hand[(slot - 1) * NUM_NUMBERS if colour else slot - 1] = profile[slot]
    return phase_progress(hand, PHASES[phase], natural)


def _unseen(view: SeatView, colour: bool) -> bytearray:
    """Per profile slot, the cards this seat has not seen: not in its hand, the discard pile,
    the table, nor known to be in another hand (taken from the discard pile)."""
    seen: list[int] = [*view.hand, *view.discard_pile]
    for groups in view.table:
        for g in groups:
            seen += g.cards
    for p in view.players:
        if p.seat != view.seat:
            seen += p.taken_from_discard
    total = _profile([k for k in range(SKIP) for _ in range(DECK_COUNTS[k])], colour)
    for s, n in enumerate(_profile(seen, colour)):
        total[s] = max(0, total[s] - n)
    return total


def _outs(profile: bytearray, missing: int, unseen: bytearray, phase: int, natural: NaturalRule) -> int:
    """How many unseen cards would each bring the phase one card closer."""
    if missing == 0:
        return 0
    outs = 0
    for slot, left in enumerate(unseen):
        if left:
            profile[slot] += 1
            if _progress(bytes(profile), phase, natural)[0] < missing:
                outs += left
            profile[slot] -= 1
    return outs


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
