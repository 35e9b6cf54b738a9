"""A readable text table of a game, as one seat sees it (or everything, for spectators)."""

from __future__ import annotations

from .actions import ACTIONS, HIT_WILD_HIGH, HIT_WILD_LOW, check_action_id
from .codec import Pending
from .engine.cards import COLOURS, SKIP, card_name, cards_text, kinds_of
from .engine.game import STAGE_NAMES, Game
from .engine.phases import GroupKind, TableGroup, arrange, phase_text
from .engine.view import SeatView


def group_text(group: TableGroup) -> str:
    if group.kind == GroupKind.SET:
        what = f"set of {group.value}s"
    elif group.kind == GroupKind.RUN:
        what = f"run {group.low}-{group.high}"
    else:
        what = f"{COLOURS[group.value]}"
    return f"{what}: {cards_text(group.cards)}"


def render_text(game: Game, viewer: int | None = None, names: list[str] | None = None) -> str:
    """The table as text. ``viewer`` is the seat whose hand is shown; ``None`` shows all hands
    (a spectator's or a debugger's view)."""
    n = game.num_players
    names = names or [f"player_{s}" for s in range(n)]
    top = game.discard_top()
    lines = [
        f"Hand {game.hand_number}{' (tie replay)' if game.replay else ''} | dealer {names[game.dealer]} | "
        f"draw pile {len(game.draw_pile)} | discard top {cards_text([top]) if top is not None else '-'}",
    ]
    for s in range(n):
        if not game.active[s]:
            lines.append(f"  {names[s]}: out of the tie replay, score {game.scores[s]}")
            continue
        marks = []
        if game.current == s and not game.is_over:
            marks.append(f"to {STAGE_NAMES[game.stage]}")
        if game.skip_pending[s]:
            marks.append("skip pending")
        phase = game.phase_of(s)
        lines.append(f"{'>' if game.current == s and not game.is_over else ' '} {names[s]}: phase {phase} "
                     f"({phase_text(phase)}){' DOWN' if game.laid[s] else ''}, score {game.scores[s]}, "
                     f"{game.hand_sizes[s]} cards{' [' + ', '.join(marks) + ']' if marks else ''}")
        for i, group in enumerate(game.table[s]):
            lines.append(f"      group {i}: {group_text(group)}")
        if viewer is None or viewer == s:
            lines.append(f"      hand: {cards_text(kinds_of(game.hands[s]))}")
    if game.is_over:
        lines.append("Game over: " + ", ".join(names[w] for w in game.winners) + " won")
    return "\n".join(lines)


def pending_text(pending: Pending | None) -> str | None:
    """The move the player to act has started and must finish, in words, or None."""
    if pending is None:
        return None
    if pending.hit is not None:
        return f"hitting a {pending.hit[2]}: choose which card"
    groups = [f"{meld} ({cards_text(arrange(meld, cards))})" for meld, cards in pending.laid]
    if pending.meld is not None:
        chosen = f"{pending.meld}" + (f" with {cards_text(pending.picked)}" if pending.picked else "")
        return "laying down " + " and ".join([*groups, chosen]) + ": choose its cards"
    return "laying down " + " and ".join(groups) + ": choose the second group"


def action_text(view: SeatView, action: int, names: list[str] | None = None) -> str:
    """An action in words, as the acting seat ``view.seat`` sees it."""
    names = names or [f"player_{s}" for s in range(view.num_players)]
    a = ACTIONS[check_action_id(action)]
    if a.kind == "draw":
        return f"take {card_name(view.discard_top)} from the discard pile" if a.draw_from_discard else "draw from the deck"
    if a.kind == "lay":
        return f"lay down {a.meld}"
    if a.kind == "discard":
        return f"discard {card_name(a.card)}"
    if a.kind == "choose":
        return f"use {card_name(a.card)}"
    if a.kind == "skip":
        if a.skip_offset is None:
            return f"discard {card_name(SKIP)} (no one can be skipped)"
        return f"discard {card_name(SKIP)}: {names[(view.seat + a.skip_offset) % view.num_players]} loses a turn"
    target = (view.seat + a.seat_offset) % view.num_players
    group = view.table[target][a.group]
    if a.hit_card == HIT_WILD_HIGH:
        what = "W" + (" (high end)" if group.kind == GroupKind.RUN else "")
    elif a.hit_card == HIT_WILD_LOW:
        what = "W (low end)"
    else:
        what = str(a.hit_card + 1) if group.kind != GroupKind.COLOUR else f"{COLOURS[group.value]} {a.hit_card + 1}"
    owner = "your" if target == view.seat else f"{names[target]}'s"
    return f"hit {what} on {owner} {group_text(group)}"
