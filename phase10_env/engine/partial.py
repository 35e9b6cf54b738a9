"""Moves in progress: a lay-down built group by group and card by card, or a hit whose card is
still to be chosen, as frozen values; and the steps that build them.

A player who chooses every card that leaves its hand (R10-R14) builds a lay-down or a hit in
steps: :class:`LayMeld` names a group (what its Wilds stand for, R12), :class:`HitNumber` the
number a hit plays, :class:`ChooseCard` one card of the group or of the hit. :func:`advance`
takes a step and returns the move in progress it leads to (:class:`PartialLayDown`,
:class:`PartialHit`) or, as soon as only one choice of cards is left, the finished engine move
(:class:`~.moves.LayDown`, :class:`~.moves.Hit`). Cards every choice still open takes are
settled at once, so a step is asked for only where there is a real choice. :func:`step_problem`
says why a step is illegal, as :meth:`~.game.Game.illegal_reason` does for moves.

A move in progress is data only: which groups are settled with their cards, which meld is being
filled and which of its cards are settled; or which number waits for its card on which group.
The choices still open follow from it and the hand (:func:`card_choices`, :func:`second_melds`),
so nothing else is stored.

>>> from phase10_env.engine import build_game, parse_card
>>> game = build_game(["R7 B7 G7 Y7 R3 B3 G3 R1 R2 R4 R5", "R6 B6"], discard="G12")
>>> partial = advance(game, None, LayMeld(Meld(GroupKind.SET, 7, 3)))
>>> partial
PartialLayDown(groups=(), meld=Meld(kind=<GroupKind.SET: 0>, value=7, size=3), settled=())
>>> [card_name(k) for k in open_cards(game.hands[0], game.requirements(0), game.rules.natural, partial)]
['R7', 'B7', 'G7', 'Y7']
>>> for card in ("Y7", "G7", "B7"):
...     partial = advance(game, partial, ChooseCard(parse_card(card)))
>>> print(partial)  # R7 stays in hand; the second group is next
a lay-down of set of 3 x 7 (B7 G7 Y7)
>>> print(advance(game, partial, LayMeld(Meld(GroupKind.SET, 3, 3))))
lay down set of 3 x 7 (B7 G7 Y7) and set of 3 x 3 (R3 B3 G3)
>>> step_problem(game, partial, ChooseCard(parse_card("R7")))
'no group or hit is waiting for a card: name the next group of the lay-down'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import final

from .cards import NUM_NATURALS, NUM_NUMBERS, NUMBER_OF, SKIP, card_name, cards_text
from .game import Game
from .melds import arrange, can_fill, first_group_choices, naturals_of, second_group_choices, without
from .moves import Hit, IllegalMoveError, LayDown, Move
from .phases import MELDS, GroupKind, Meld, NaturalRule, Requirement, needs_natural, partner_requirement

__all__ = ["PartialLayDown", "PartialHit", "PartialMove", "LayMeld", "HitNumber", "ChooseCard", "Step", "advance",
           "step_problem", "card_choices", "open_cards", "first_melds", "second_melds", "leads_to", "next_step"]


@final
@dataclass(frozen=True, slots=True)
class PartialLayDown:
    """A lay-down in progress. ``groups``: its groups whose cards are settled, in the order
    named, each a meld and its cards (a sorted tuple of kinds); ``meld``: the group whose cards
    are being chosen, or None when the next group is to be named; ``settled``: the cards of
    ``meld`` settled so far (sorted), those chosen and those every choice still open takes."""

    groups: tuple[tuple[Meld, tuple[int, ...]], ...] = ()
    meld: Meld | None = None
    settled: tuple[int, ...] = ()

    def cards_taken(self) -> list[int]:
        """Every card this lay-down has settled so far, its groups' and its meld's."""
        return [k for _, cards in self.groups for k in cards] + list(self.settled)

    def __str__(self) -> str:
        groups = [f"{meld} ({cards_text(arrange(meld, cards))})" for meld, cards in self.groups]
        if self.meld is not None:
            groups.append(f"{self.meld}" + (f" with {cards_text(self.settled)}" if self.settled else ""))
        return "a lay-down of " + " and ".join(groups)


@final
@dataclass(frozen=True, slots=True)
class PartialHit:
    """A hit with a natural card of ``number`` on seat ``target``'s group ``group``, waiting
    for the choice of the card (the hand holds that number in several colours)."""

    target: int
    group: int
    number: int

    def cards_taken(self) -> list[int]:
        """No card is settled before the hit's card is chosen."""
        return []

    def __str__(self) -> str:
        return f"a hit of a {self.number} on seat {self.target}'s group {self.group}"


PartialMove = PartialLayDown | PartialHit
"""A move in progress: the two kinds are final, so ``type(partial) is PartialHit`` tells them
apart."""


@final
@dataclass(frozen=True, slots=True)
class LayMeld:
    """Name a group of the lay-down: its first (starting one) or the next."""

    meld: Meld

    def __str__(self) -> str:
        return f"lay {self.meld}"


@final
@dataclass(frozen=True, slots=True)
class HitNumber:
    """Start a hit with a natural card of ``number`` on seat ``target``'s group ``group``; the
    card of a colour group's colour, or the one the hand holds, or a choice among them."""

    target: int
    group: int
    number: int

    def __str__(self) -> str:
        return f"hit a {self.number} on seat {self.target}'s group {self.group}"


@final
@dataclass(frozen=True, slots=True)
class ChooseCard:
    """Put ``card`` into the group being chosen, or play it as the hit's card."""

    card: int

    def __str__(self) -> str:
        return f"choose {card_name(self.card)}" if 0 <= self.card <= SKIP else f"choose card {self.card!r}"


Step = LayMeld | HitNumber | ChooseCard


# --------------------------------------------------------------------------- what is open


def card_choices(hand: Sequence[int], requirements: Sequence[Requirement], natural_rule: NaturalRule,
                 partial: PartialMove) -> list[tuple[int, ...]]:
    """Every choice of cards still open for the group or the hit being chosen (sorted tuples of
    kinds, each holding the cards already settled), from ``hand`` (per-kind counts: the hand,
    which a move in progress has not changed); empty when the next group is to be named. Phases
    have one or two groups (R9), so a second group is chosen beside the first one's cards."""
    if type(partial) is PartialHit:
        return [(k,) for k in range(partial.number - 1, NUM_NATURALS, NUM_NUMBERS) if hand[k]]
    meld = partial.meld
    if meld is None:
        return []
    first = partial.groups[0][1] if partial.groups else None
    choices = _group_choices(bytes(hand), tuple(requirements), natural_rule, meld, first)
    if not partial.settled:
        return list(choices)
    settled = Counter(partial.settled)
    return [c for c in choices if _holds(c, settled)]


@lru_cache(maxsize=256)
def _group_choices(hand: bytes, requirements: tuple[Requirement, ...], natural_rule: NaturalRule, meld: Meld,
                   first: tuple[int, ...] | None) -> tuple[tuple[int, ...], ...]:
    """Every choice of cards for ``meld``, the first group of a lay-down or (``first``: the first
    group's cards) its second. Cached: each step of a lay-down asks again, the hand unchanged."""
    if first is None:
        return tuple(first_group_choices(hand, requirements, meld, natural_rule))
    return tuple(second_group_choices(hand, first, meld, natural_rule))


def open_cards(hand: Sequence[int], requirements: Sequence[Requirement], natural_rule: NaturalRule,
               partial: PartialMove) -> list[int]:
    """The cards a :class:`ChooseCard` step may name now (ascending kinds): those some choice
    still open takes beyond the cards settled."""
    settled = Counter(partial.settled) if type(partial) is PartialLayDown else Counter[int]()
    found: set[int] = set()
    for choice in card_choices(hand, requirements, natural_rule, partial):
        for k, count in Counter(choice).items():
            if count > settled[k]:
                found.add(k)
    return sorted(found)


def first_melds(game: Game) -> list[Meld]:
    """The melds that may start a lay-down now: each group of a lay-down the player to act can
    make (:meth:`~.game.Game.laydown_options`), once."""
    options = game.laydown_options()
    if not options:  # most turns: no lay-down to make
        return []
    return list(dict.fromkeys(meld for melds in options for meld in melds))


def second_melds(hand: Sequence[int], requirements: Sequence[Requirement], natural_rule: NaturalRule,
                 partial: PartialLayDown) -> list[Meld]:
    """The melds that complete a lay-down whose first group is settled (``partial.groups``)."""
    (first, cards), = partial.groups
    return list(_second_melds(bytes(hand), tuple(requirements), natural_rule, first, cards))


@lru_cache(maxsize=64)
def _second_melds(hand: bytes, requirements: tuple[Requirement, ...], natural_rule: NaturalRule, first: Meld,
                  cards: tuple[int, ...]) -> tuple[Meld, ...]:
    """:func:`second_melds`, cached: the mask and the step that follows both ask."""
    partner = partner_requirement(requirements, first)
    if partner is None:
        return ()
    left = without(hand, cards)
    need = needs_natural(natural_rule, naturals_of(cards), last=True)
    return tuple(m for m in MELDS[partner.kind, partner.size].values() if can_fill(left, m, need))


# --------------------------------------------------------------------------- steps


def advance(game: Game, partial: PartialMove | None, step: Step) -> Move | PartialMove:
    """Take ``step`` for the player to act, from the move in progress ``partial`` (None: no move
    in progress): the move in progress it leads to, or the finished move once one choice of
    cards is left (the game does not change: play that move with :meth:`~.game.Game.apply`).
    Raises :class:`~.moves.IllegalMoveError` if the step is illegal."""
    result = _take(game, partial, step)
    if isinstance(result, str):
        raise IllegalMoveError(step, result)
    return result


def step_problem(game: Game, partial: PartialMove | None, step: Step) -> str | None:
    """Why ``step`` is illegal from ``partial`` now, or None if it is legal."""
    result = _take(game, partial, step)
    return result if isinstance(result, str) else None


def _take(game: Game, partial: PartialMove | None, step: Step) -> Move | PartialMove | str:
    """:func:`advance`, or the reason the step is illegal (a string)."""
    problem = game.play_problem()
    if problem is not None:
        return problem
    seat = game.current
    hand, reqs, rule = game.hands[seat], game.requirements(seat), game.rules.natural
    if type(step) is ChooseCard:
        return _choose_card(hand, reqs, rule, partial, step.card)
    if type(partial) is PartialHit:
        return f"{partial} waits for its card: choose it first"
    if type(step) is LayMeld:
        return _lay_meld(game, hand, reqs, rule, partial, step.meld)
    if type(step) is HitNumber:
        if partial is not None:
            return f"{partial} is under way: finish it first"
        return _hit_number(game, hand, step)
    return f"not a step: {step!r}"


def _lay_meld(game: Game, hand: Sequence[int], reqs: Sequence[Requirement], rule: NaturalRule,
              partial: PartialLayDown | None, meld: Meld) -> Move | PartialMove | str:
    seat = game.current
    if game.laid[seat]:
        return "the phase is already down this hand (one phase per hand)"
    if not (isinstance(meld, Meld) and meld.is_valid()):
        return f"malformed meld {meld!r}"
    if all((r.kind, r.size) != (meld.kind, meld.size) for r in reqs):
        return f"phase {game.phase_of(seat)} needs exactly {' + '.join(map(str, reqs))} (R13)"
    if partial is None:
        if meld not in first_melds(game):
            return f"{meld} is not part of any lay-down this hand can complete"
        partial = PartialLayDown(meld=meld)
    elif partial.meld is not None:
        return f"the cards of {partial.meld} are being chosen: choose them first"
    elif meld not in second_melds(hand, reqs, rule, partial):
        return f"{meld} does not complete {partial} from this hand"
    else:
        partial = replace(partial, meld=meld)
    return _settle(reqs, partial, card_choices(hand, reqs, rule, partial))


def _hit_number(game: Game, hand: Sequence[int], step: HitNumber) -> Move | PartialMove | str:
    target, g, number = step.target, step.group, step.number
    problem = game.hit_target_problem(target, g)
    if problem is not None:
        return problem
    group = game.table[target][g]
    if not (isinstance(number, int) and number in group.accepted_numbers()):
        return f"no {number!r} fits {group!r} (R14)"
    if group.kind == GroupKind.COLOUR:
        kinds = [k] if hand[k := group.colour * NUM_NUMBERS + number - 1] else []
    else:
        kinds = [k for k in range(number - 1, NUM_NATURALS, NUM_NUMBERS) if hand[k]]
    if not kinds:
        return f"the player holds no {number} that fits {group!r}"
    if len(kinds) == 1:
        return Hit(target, g, kinds[0])
    return PartialHit(target, g, number)


def _choose_card(hand: Sequence[int], reqs: Sequence[Requirement], rule: NaturalRule, partial: PartialMove | None,
                 card: int) -> Move | PartialMove | str:
    if partial is None:
        return "no group or hit is waiting for a card"
    if type(partial) is PartialLayDown and partial.meld is None:
        return "no group or hit is waiting for a card: name the next group of the lay-down"
    if not (isinstance(card, int) and 0 <= card <= SKIP):
        return f"no card {card!r}"
    if type(partial) is PartialHit:
        left: list[tuple[int, ...]] = [c for c in card_choices(hand, reqs, rule, partial) if c == (card,)]
    else:
        settled = Counter(partial.settled)
        settled[card] += 1
        left = [c for c in card_choices(hand, reqs, rule, partial) if _holds(c, settled)]
    if not left:
        return f"{card_name(card)} is not a card any choice still open for {partial} takes"
    return _settle(reqs, partial, left)


def _settle(reqs: Sequence[Requirement], partial: PartialMove, choices: list[tuple[int, ...]]) -> Move | PartialMove | str:
    """The move once one choice of cards is left; else ``partial`` with the cards every choice
    takes settled."""
    if not choices:
        return f"{partial} cannot be completed from this hand"
    if len(choices) > 1:
        if type(partial) is PartialHit:
            return partial
        shared = Counter(choices[0])
        for choice in choices[1:]:
            shared &= Counter(choice)
        return replace(partial, settled=tuple(sorted(shared.elements())))
    (cards,) = choices
    if type(partial) is PartialHit:
        return Hit(partial.target, partial.group, cards[0])
    assert partial.meld is not None  # choices are listed only for a meld being filled
    groups = partial.groups + ((partial.meld, cards),)
    if len(groups) < len(reqs):
        return PartialLayDown(groups=groups)
    return LayDown(tuple(m for m, _ in groups), tuple(tuple(arrange(m, c)) for m, c in groups))


def _holds(choice: tuple[int, ...], cards: Counter[int]) -> bool:
    have = Counter(choice)
    return all(have[k] >= c for k, c in cards.items())


# --------------------------------------------------------------------------- toward a move


def leads_to(partial: PartialMove, move: Move) -> bool:
    """Whether ``move`` (a lay-down naming its cards, or a hit) is one the move in progress can
    still become."""
    if type(partial) is PartialHit:
        return (type(move) is Hit and (move.target, move.group) == (partial.target, partial.group)
                and NUMBER_OF[move.card] == partial.number)
    if type(move) is not LayDown or move.cards is None:
        return False
    rest = [(m, tuple(sorted(c))) for m, c in zip(move.melds, move.cards)]
    for group in partial.groups:
        if group not in rest:
            return False
        rest.remove(group)
    if partial.meld is None:
        return True
    return any(m == partial.meld and not Counter(partial.settled) - Counter(c) for m, c in rest)


def next_step(hand: Sequence[int], requirements: Sequence[Requirement], natural_rule: NaturalRule,
              partial: PartialMove, move: Move) -> Step:
    """The step that takes ``partial`` on toward ``move`` (a legal move it :func:`leads_to`):
    the hit's card, the lay-down's next group, or of the cards its group still needs the one
    that leaves the fewest choices open (the sooner the move is made)."""
    if type(partial) is PartialHit:
        if type(move) is not Hit:
            raise ValueError(f"{partial} cannot become {move}")
        return ChooseCard(move.card)
    if type(move) is not LayDown or move.cards is None or not leads_to(partial, move):
        raise ValueError(f"{partial} cannot become {move}")
    rest = [(m, tuple(sorted(c))) for m, c in zip(move.melds, move.cards)]
    for group in partial.groups:
        rest.remove(group)
    if partial.meld is None:
        return LayMeld(rest[0][0])
    cards = next(c for m, c in rest if m == partial.meld)
    settled = Counter(partial.settled)
    choices = card_choices(hand, requirements, natural_rule, partial)

    def still_open(k: int) -> int:
        return sum(_holds(c, settled + Counter((k,))) for c in choices)

    return ChooseCard(min(sorted((Counter(cards) - settled).elements()), key=still_open))
