"""Moves a player makes (R5-R8, R13-R16) and the events a move can cause.

A turn is a sequence of moves by the player to act: one ``Draw``; then, in any order allowed
by the rules, at most one ``LayDown`` and any number of ``Hit``; then one ``Discard``, which ends
the turn (unless the player went out first). Seats are absolute (0 .. num_players-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, final

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
    natural cards before Wilds (see :func:`~phase10_env.engine.melds.allocate`)."""

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


_MOVE_KEYS = {"draw": ({"from_discard"}, set()), "lay_down": ({"melds"}, {"cards"}),
              "hit": ({"target", "group", "card"}, {"low_end"}), "discard": ({"card"}, {"target"})}


def move_from_json(data: object, where: str = "move") -> Move:
    """The move ``data`` (:func:`move_to_json` data) describes; a ``ValueError`` naming the
    field (``where`` is the move's own name, such as ``moves[12]``) for a missing or unknown key
    or a value of the wrong type. Nothing is coerced: ``"3"`` is no seat, ``1.0`` no group."""
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be an object, not {type(data).__name__}")
    kind = data.get("move")
    if kind not in _MOVE_KEYS:
        raise ValueError(f"{where}.move must be one of {list(_MOVE_KEYS)}, not {kind!r}")
    required, optional = _MOVE_KEYS[kind]
    missing, unknown = sorted(required - set(data)), sorted(set(data) - required - optional - {"move"})
    if missing or unknown:
        raise ValueError(f"{where} ({kind}) " + ("lacks " + str(missing) if missing else f"has unknown key(s) {unknown}"))

    def integer(key: str) -> int:
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{where}.{key} must be a non-negative integer, not {value!r}")
        return value

    def flag(key: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise ValueError(f"{where}.{key} must be true or false, not {value!r}")
        return value

    def card(value: object, at: str) -> int:
        try:
            if isinstance(value, str):
                return parse_card(value)
        except ValueError:
            pass
        raise ValueError(f"{at} must be a card name such as 'R7', 'W' or 'S', not {value!r}")

    def items(value: object, at: str) -> list[Any]:
        if not isinstance(value, list):
            raise ValueError(f"{at} must be a list, not {type(value).__name__}")
        return value

    if kind == "draw":
        return Draw(flag("from_discard"))
    if kind == "lay_down":
        melds = []
        for i, meld in enumerate(items(data["melds"], f"{where}.melds")):
            at = f"{where}.melds[{i}]"
            parts = items(meld, at)
            if len(parts) != 3 or parts[0] not in KIND_NAMES or any(isinstance(x, bool) or not isinstance(x, int)
                                                                     for x in parts[1:]):
                raise ValueError(f"{at} must be [kind, value, size] with a kind in {list(KIND_NAMES)} and two integers, "
                                 f"not {meld!r}")
            melds.append(Meld(GroupKind(KIND_NAMES.index(parts[0])), parts[1], parts[2]))
        cards = data.get("cards")
        if cards is not None:
            cards = tuple(tuple(card(c, f"{where}.cards[{i}][{j}]") for j, c in enumerate(items(group, f"{where}.cards[{i}]")))
                          for i, group in enumerate(items(cards, f"{where}.cards")))
        return LayDown(tuple(melds), cards)
    if kind == "hit":
        return Hit(integer("target"), integer("group"), card(data["card"], f"{where}.card"), flag("low_end"))
    target = data.get("target")
    return Discard(card(data["card"], f"{where}.card"), None if target is None else integer("target"))


def can_take_discard(discard_pile: Sequence[int]) -> bool:
    """R5: whether the discard pile's top card may be drawn: there is one, and it is not a Skip.

    >>> can_take_discard([3, WILD]), can_take_discard([3, SKIP]), can_take_discard([])
    (True, False, False)
    """
    return bool(discard_pile) and discard_pile[-1] != SKIP


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


class SeenMove(NamedTuple):
    """A move of this hand as every player saw it: who made it, and the discard pile's top card
    just before (for a draw from the draw pile, the card that player chose to leave there).
    Nothing in it is hidden: a draw from the draw pile does not say which card came."""

    seat: int
    move: Move
    discard_top: int | None


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
