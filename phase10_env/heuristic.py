"""A strong rule-based player: the baseline trained agents must beat, and a built-in opponent of
the envs (``opponents="heuristic"`` in the vector env, where the native core plays its C copy,
``phase10_env/core/heuristic.c``, move for move).

It works only from its seat's view (its hand, the table, the discard pile, public counts), and
plays:

* **draw**: takes the discard only when it helps: before its phase is down, when the card
  lowers the number of cards still missing for the phase; once down, when it can be hit at once;
* **lay down** as soon as it can, choosing the lay-down that leaves the fewest points in hand
  after every hit it enables, then the fewest cards;
* **hit** everything it can, each time choosing the hit after which the hits still possible
  leave the fewest points (then cards) in hand, so a Wild goes where another card can follow;
  on ties a natural card before a Wild, a set before a run (moving a run's end opens numbers to
  everyone);
* **discard**, before its phase is down, the card whose loss keeps the phase closest (fewest
  cards missing), then one that does not feed the next player (a card it could hit, being
  down, or a number it has been taking from the pile), then the one that keeps the most
  lay-downs within that many cards, then a card that is not a Wild, then one the lone opponent
  just threw away or let pass (the number of the pile's top two cards, which it takes back
  about 2% of the time, other cards about 20%), then the highest-scoring. Once down: not a
  Wild, then the same feeding, thrown-away and points rules;
* **Skips** go out as soon as drawn, aimed at the leader (most phases completed, then lowest
  score) or, with ``skip_target="next"``, at the next player.

Every rule was kept because it won head-to-head games against the rule it replaced;
:class:`HeuristicConfig` holds the measured alternatives. Together they win 56.0% [54.4, 57.5]
of 2-player games against the bot without them (4,000 games).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .codec import next_action
from .engine import SKIP, WILD, Discard, Draw, Hit, LayDown, Move, SeatView, Stage, TableGroup
from .engine.cards import COLOUR_OF, NUM_COLOURS, NUM_KINDS, NUM_NUMBERS, NUMBER_OF, POINTS, counts_of, hand_points
from .engine.partial import PartialMove, leads_to
from .engine.phases import PHASES, GroupKind, NaturalRule
from .engine.progress import count_laydowns, phase_progress
from .policy import PlayerObservation


@dataclass(frozen=True)
class HeuristicConfig:
    """The bot's knobs. Each default won head-to-head 2-player games against its alternative
    (win rate of the default, 95% interval):

    * ``take_for_ways``: also take a discard that leaves as many cards missing but more ways
      to finish (the default, off, wins 57.5% [54.4, 60.5], 1,000 games);
    * ``skip_target``: ``"leader"`` or ``"next"`` (no difference found at 4 players);
    * ``avoid_feeding``: the feeding rule of the discard (on wins 65.0% [62.0, 67.9]);
    * ``feed_first``: feeding weighs before the ways to finish, not after them (54.8%
      [53.3, 56.4], 4,000 games);
    * ``count_layouts``: ways to finish count whole lay-downs (a value for every group), not
      first groups only (52.4% [50.8, 53.9], 4,000 games);
    * ``read_pile``: prefer a card of the number the lone opponent threw away or let pass
      (51.8% [50.8, 52.8], 10,000 games);
    * ``plan_hits``: choose each hit by what it leaves possible, not naturals first by points
      (51.1% [50.2, 52.1], 11,000 games).
    """

    take_for_ways: bool = False
    skip_target: str = "leader"
    avoid_feeding: bool = True
    feed_first: bool = True
    count_layouts: bool = True
    read_pile: bool = True
    plan_hits: bool = True


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, config: HeuristicConfig | None = None, seed: int | None = None, **options: Any) -> None:
        self.config = replace(config or HeuristicConfig(), **options)
        if self.config.skip_target not in ("leader", "next"):
            raise ValueError(f"skip_target must be 'leader' or 'next', not {self.config.skip_target!r}")

    def seed(self, seed: int | None) -> None:
        """The heuristic is deterministic; accepted so it can stand wherever agents are seeded."""

    def act(self, obs: PlayerObservation) -> int:
        view = obs.seat_view()
        action = next_action(view, self.choose_move(view, obs.pending), obs.pending)
        if not obs.action_mask[action]:
            raise RuntimeError(f"the heuristic chose action {action}, which is not legal here: a bug in the heuristic")
        return action

    # ------------------------------------------------------------------ drawing

    def _wants_discard(self, view: SeatView) -> bool:
        """Take the discard if it can be hit at once (phase down) or brings the phase closer."""
        top = view.discard_pile[-1]  # asked only when the top card may be taken
        if view.me.laid:
            return top == WILD or _fits_anywhere(top, view.table)
        colour = _is_colour(view.me.phase)
        profile = _profile(view.hand, colour)
        before = self._standing(view, profile)
        profile[_slot(top, colour)] += 1
        after = self._standing(view, profile)
        if after[0] < before[0]:
            return True
        return self.config.take_for_ways and after[0] == before[0] and after[1] > before[1]

    def _standing(self, view: SeatView, profile: bytearray) -> tuple[int, int]:
        """(cards missing for the phase, ways to finish with that many)."""
        key = bytes(profile)
        missing, ways = _progress(key, view.me.phase, view.rules.natural)
        return (missing, _layouts(key, view.me.phase, missing)) if self.config.count_layouts else (missing, ways)

    # ------------------------------------------------------------------ playing

    def choose_move(self, view: SeatView, pending: PartialMove | None = None) -> Move:
        """The move it likes best, a draw included (``pending``: the lay-down or hit whose
        actions are under way, which the move must complete)."""
        if view.stage == Stage.DRAW:
            return Draw(view.can_take_discard and self._wants_discard(view))
        moves = view.legal_moves
        laydowns = [m for m in moves if isinstance(m, LayDown)]
        hits = [m for m in moves if isinstance(m, Hit)]
        if pending is not None:
            laydowns = [m for m in laydowns if leads_to(pending, m)]
            hits = [m for m in hits if leads_to(pending, m)]
        if laydowns:
            move: Move = min(laydowns, key=lambda m: _after_laydown(view, m))
        elif hits:
            if self.config.plan_hits:
                move = min(hits, key=lambda m: _after_hit(view, m))
            else:
                move = min(hits, key=lambda m: (m.card == WILD, -POINTS[m.card]))
        else:
            move = self.ranked_discards(view, [m for m in moves if isinstance(m, Discard)])[0]
        return move

    def ranked_discards(self, view: SeatView, discards: list[Discard]) -> list[Discard]:
        """``discards``, one per card, best first: Skips (by target) before every other card,
        the others cheapest first by the ranking in the module docstring."""
        skips = sorted((m for m in discards if m.card == SKIP), key=lambda m: self._skip_priority(view, m.target))
        nxt = _NextPlayer(view)
        feeds = self._feeding(view, nxt) if self.config.avoid_feeding else (lambda card: 0)
        safe = self._thrown_away(view, nxt) if self.config.read_pile else (lambda card: 0)
        keep = (lambda card: ()) if view.me.laid else self._phase_cost(view)

        def cost(card: int) -> tuple[int, ...]:
            phase = keep(card)
            if phase and self.config.feed_first:
                head = (phase[0], feeds(card), phase[1], card == WILD)
            else:
                head = (*phase, card == WILD, feeds(card))
            return (*head, -safe(card), -POINTS[card], card)

        cards = {m.card: m for m in discards if m.card != SKIP}
        return skips + [cards[card] for card in sorted(cards, key=cost)]

    def _phase_cost(self, view: SeatView) -> Callable[[int], tuple[int, int]]:
        """(missing, -ways) of the phase once a card is gone (see :meth:`_standing`)."""
        colour = _is_colour(view.me.phase)
        profile = _profile(view.hand, colour)
        memo: dict[int, tuple[int, int]] = {}

        def cost(card: int) -> tuple[int, int]:
            slot = _slot(card, colour)
            if slot not in memo:
                profile[slot] -= 1
                missing, ways = self._standing(view, profile)
                profile[slot] += 1
                memo[slot] = (missing, -ways)
            return memo[slot]

        return cost

    def _feeding(self, view: SeatView, nxt: _NextPlayer) -> Callable[[int], int]:
        """How much discarding a card would help the next player: 2 if it is down and could
        hit the card, 1 for a number (colour) it has been taking from the discard pile."""
        if nxt.laid:
            return lambda card: 2 if _fits_anywhere(card, view.table) else 0
        key, wanted = nxt.key, nxt.wanted
        return lambda card: 1 if key[card] in wanted else 0

    def _thrown_away(self, view: SeatView, nxt: _NextPlayer) -> Callable[[int], int]:
        """1 for a card of the number (colour) of the pile's top two cards when the next player
        is the only other one and not down: it discarded or passed them, so seldom wants one."""
        if nxt.laid or sum(p.active for p in view.players) != 2:
            return lambda card: 0
        key = nxt.key
        safe = {key[c] for c in view.discard_pile[-2:] if c < WILD} - nxt.wanted
        return lambda card: 1 if card < WILD and key[card] in safe else 0

    def _skip_priority(self, view: SeatView, target: int | None) -> tuple[int, ...]:
        if target is None:
            return (0,)
        if self.config.skip_target == "next":
            return (view.relative(target),)
        p = view.players[target]
        return (-p.phases_completed, p.score, view.relative(target))


class _NextPlayer:
    """What the next player to act shows of its wants: whether it is down, what a card is to
    its phase (number, or colour for a colour phase), and the ones it took from the pile."""

    def __init__(self, view: SeatView) -> None:
        p = view.players[view.next_seat()]
        self.laid = p.laid
        self.key = COLOUR_OF if _is_colour(p.phase) else NUMBER_OF
        self.wanted = {self.key[c] for c in p.taken_from_discard if c < WILD}


# ---------------------------------------------------------------------- phase progress


def _is_colour(phase: int) -> bool:
    return PHASES[phase][0].kind == GroupKind.COLOUR


def _slot(card: int, colour: bool) -> int:
    """A card's place in a profile: 0 for a Wild, else its number (or its colour + 1)."""
    if card == WILD:
        return 0
    return COLOUR_OF[card] + 1 if colour else NUMBER_OF[card]


def _profile(cards: tuple[int, ...], colour: bool) -> bytearray:
    """A hand counted by what a phase asks of it: Wilds, then per number (per colour)."""
    profile = bytearray(NUM_COLOURS + 1 if colour else NUM_NUMBERS + 1)
    for c in cards:
        if c != SKIP:
            profile[_slot(c, colour)] += 1
    return profile


def _hand(profile: bytes, phase: int) -> bytearray:
    """A hand (per-kind counts) with the profile's Wilds and numbers (colours): what the phase's
    rules see of the hand the profile was made from."""
    hand = bytearray(NUM_KINDS)
    hand[WILD] = profile[0]
    colour = _is_colour(phase)
    for slot in range(1, len(profile)):
        hand[(slot - 1) * NUM_NUMBERS if colour else slot - 1] = profile[slot]
    return hand


@lru_cache(maxsize=1 << 16)
def _progress(profile: bytes, phase: int, natural: NaturalRule) -> tuple[int, int]:
    """:func:`phase_progress` of a hand given by its profile, which settles it (cached)."""
    return phase_progress(_hand(profile, phase), PHASES[phase], natural)


@lru_cache(maxsize=1 << 16)
def _layouts(profile: bytes, phase: int, missing: int) -> int:
    """:func:`count_laydowns` of a hand given by its profile (cached)."""
    return count_laydowns(_hand(profile, phase), PHASES[phase], missing)


# ---------------------------------------------------------------------- the table


def _fits_anywhere(card: int, table: tuple[tuple[TableGroup, ...], ...]) -> bool:
    if card == SKIP:
        return False
    return any(g.accepts(card) or (card == WILD and g.kind == GroupKind.RUN and g.accepts(card, True))
               for groups in table for g in groups)


def _after_laydown(view: SeatView, move: LayDown) -> tuple[int, int]:
    """(points, cards) left in hand after laying ``move`` down and hitting all that fits."""
    if move.cards is None:
        raise ValueError(f"{move} names no cards: the legal lay-downs a view lists all do")
    hand = counts_of(view.hand)
    table = [g.copy() for groups_ in view.table for g in groups_]
    for meld, cards in zip(move.melds, move.cards):
        for c in cards:
            hand[c] -= 1
        table.append(TableGroup(meld.kind, meld.value, list(cards)))
    _hit_all(hand, table)
    return hand_points(hand), sum(hand)


def _after_hit(view: SeatView, hit: Hit) -> tuple[int, int, bool, bool]:
    """(points, cards) left in hand after ``hit`` and every hit it leaves possible; then a
    natural card before a Wild, a set before a run."""
    hand = counts_of(view.hand)
    table = [g.copy() for groups in view.table for g in groups]
    target = table[sum(len(groups) for groups in view.table[:hit.target]) + hit.group]
    target.add(hit.card, hit.low_end)
    hand[hit.card] -= 1
    _hit_all(hand, table)
    points = hand_points(hand)
    return points, sum(hand), hit.card == WILD, target.kind == GroupKind.RUN


def _hit_all(hand: bytearray, table: list[TableGroup]) -> None:
    """Hit greedily from ``hand`` onto ``table`` (both change) until no card fits."""
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
