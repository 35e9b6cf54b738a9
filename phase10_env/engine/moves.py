"""Moves a player makes (R5-R8, R13-R16) and the events a move can cause.

A turn is a sequence of moves by the player to act: one ``Draw``; then, in any order allowed
by the rules, at most one ``LayDown`` and any number of ``Hit``; then one ``Discard``, which ends
the turn (unless the player went out first). Seats are absolute (0 .. num_players-1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, final

from .cards import SKIP, WILD, card_name, cards_text, parse_card
from .phases import KIND_NAMES, GroupKind, Meld


@final
@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the draw pile, or of the discard pile (``from_discard``)."""

    from_discard: bool = False

    def __str__(self) -> str:
        return "draw from the discard pile" if self.from_discard else "draw from the draw pile"


@final
@dataclass(frozen=True, slots=True)
class LayDown:
    """Lay down the whole phase: one meld per group of the phase, in any order (the first
    becomes the player's group 0). ``cards`` names the cards of each meld (a run's in the
    order of its numbers, each Wild in the place it stands for); without it the engine takes
    natural cards before Wilds (see :func:`~phase10_env.engine.phases.allocate`)."""

    melds: tuple[Meld, ...]
    cards: tuple[tuple[int, ...], ...] | None = None

    def __str__(self) -> str:
        if self.cards is None:
            return "lay down " + " and ".join(str(m) for m in self.melds)
        return "lay down " + " and ".join(f"{m} ({cards_text(c)})" for m, c in zip(self.melds, self.cards))


@final
@dataclass(frozen=True, slots=True)
class Hit:
    """Add ``card`` from hand to group ``group`` of seat ``target``'s table. ``low_end`` puts a
    Wild at the low end of a run (otherwise a Wild goes to the high end)."""

    target: int
    group: int
    card: int
    low_end: bool = False

    def __str__(self) -> str:
        end = " at the low end" if self.low_end else (" at the high end" if self.card == WILD else "")
        return f"hit {card_name(self.card)}{end} on seat {self.target}'s group {self.group}"


@final
@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``card``. A Skip names the seat that loses its next turn (``target``), or
    ``None`` when no seat may be chosen (R15)."""

    card: int
    target: int | None = None

    def __str__(self) -> str:
        if self.card != SKIP:
            return f"discard {card_name(self.card)}"
        return "discard a Skip to no effect" if self.target is None else f"discard a Skip on seat {self.target}"


Move = Draw | LayDown | Hit | Discard
"""A move. The four kinds are final, so ``type(move) is Draw`` tells them apart (and narrows
the type for checkers) as fast as anything can."""


def move_to_json(move: Move) -> dict[str, Any]:
    if isinstance(move, Draw):
        return {"move": "draw", "from_discard": move.from_discard}
    if isinstance(move, LayDown):
        data: dict[str, Any] = {"move": "lay_down", "melds": [[KIND_NAMES[m.kind], m.value, m.size] for m in move.melds]}
        if move.cards is not None:
            data["cards"] = [[card_name(k) for k in group] for group in move.cards]
        return data
    if isinstance(move, Hit):
        return {"move": "hit", "target": move.target, "group": move.group, "card": card_name(move.card), "low_end": move.low_end}
    if isinstance(move, Discard):
        return {"move": "discard", "card": card_name(move.card), "target": move.target}
    raise TypeError(f"not a move: {move!r}")


def move_from_json(data: dict[str, Any]) -> Move:
    try:
        kind = data["move"]
        if kind == "draw":
            return Draw(bool(data["from_discard"]))
        if kind == "lay_down":
            melds = tuple(Meld(GroupKind(KIND_NAMES.index(k)), int(v), int(s)) for k, v, s in data["melds"])
            cards = data.get("cards")
            return LayDown(melds, None if cards is None else tuple(tuple(parse_card(c) for c in group) for group in cards))
        if kind == "hit":
            return Hit(int(data["target"]), int(data["group"]), parse_card(data["card"]), bool(data.get("low_end", False)))
        if kind == "discard":
            target = data.get("target")
            return Discard(parse_card(data["card"]), None if target is None else int(target))
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"malformed move {data!r}: {e}") from None
    raise ValueError(f"malformed move {data!r}: unknown move kind {kind!r}")


class IllegalMoveError(ValueError):
    """A move the rules do not allow in the current state; the state is unchanged."""

    def __init__(self, move: object, reason: str) -> None:
        try:
            text = str(move)
        except (ValueError, TypeError, IndexError):  # a move naming no real card
            text = repr(move)
        super().__init__(f"illegal move {text}: {reason}")
        self.move = move
        self.reason = reason


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended (R16-R18)."""

    hand_number: int
    went_out: int | None
    points: tuple[int, ...]
    made_phase: tuple[bool, ...]
    scores: tuple[int, ...]
    phases_completed: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"hand_number": self.hand_number, "went_out": self.went_out, "points": list(self.points),
                "made_phase": list(self.made_phase), "scores": list(self.scores),
                "phases_completed": list(self.phases_completed)}


@dataclass(frozen=True, slots=True)
class TurnLost:
    """``seat`` lost a turn to a Skip (R15), or its first turn to the opening Skip (R4)."""

    seat: int


@dataclass(frozen=True, slots=True)
class HandEnded:
    result: HandResult


@dataclass(frozen=True, slots=True)
class TieReplay:
    """R19: the game continues with replay hands among ``seats`` only."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]


Event = TurnLost | HandEnded | TieReplay | GameEnded
