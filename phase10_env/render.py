"""A readable text table of a game, as one seat sees it (or everything, for spectators)."""

from __future__ import annotations

from .actions import ACTIONS, HIT_WILD_HIGH, HIT_WILD_LOW, check_action_id
from .engine.cards import COLOURS, SKIP, card_name, cards_text, kinds_of
from .engine.config import RulesConfig
from .engine.game import STAGE_NAMES, Game
from .engine.melds import arrange
from .engine.partial import PartialHit, PartialMove
from .engine.phases import GroupKind, Meld, phase_text
from .engine.table import TableGroup
from .engine.view import SeatView
from .narrate import meld_words


def count_text(n: int, noun: str) -> str:
    """"1 card", "3 cards"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def standing_text(phase: int, phases_made: int, phases_to_win: int, over: bool) -> str:
    """A player's progress: the phase they play, or, once the game is over (when the table still
    shows the last hand's groups, of the phase just made), how many phases they made."""
    if over:
        return f"made {phases_made} of {count_text(phases_to_win, 'phase')}"
    return f"phase {phase} ({phase_text(phase)})"


def rules_help(rules: RulesConfig) -> list[str]:
    """The rules in short, for a player at the table (the whole of them: docs/rules.md)."""
    played = rules.phases[:rules.phases_to_win]
    if rules.advance_all:
        order = f"One hand per phase, {len(played)} hands; after each, everyone moves to the next phase, made or not."
    else:
        order = "Make the phases in order, at most one per hand; a phase not made is tried again the next hand."
    return [
        "The phases:",
        *(f"  phase {phase}: {phase_text(phase)}" for phase in played),
        order,
        "A turn: draw one card (the draw pile's top, or the discard pile's unless it is a Skip); then you may lay down "
        "your whole phase at once and, once it is down, add cards to any group on the table (hit); then discard one "
        "card.",
        "A set is cards of one number, a run numbers in a row (1-12, no wrapping), a colour group cards of one colour. "
        "A Wild (W) stands for any number or colour; a phase needs at least one natural card. Discarding a Skip (S) "
        "makes a player of your choice lose their next turn.",
        "A hand ends when someone has no card left (goes out); everyone scores the cards they hold: 5 for 1-9, 10 for "
        "10-12, 15 for a Skip, 25 for a Wild.",
        ("The lowest total after the last hand wins." if rules.advance_all else
         "The game ends after the hand in which someone makes the last phase; of those who did, the lowest total "
         "wins."),
        "All the rules: docs/rules.md in the phase10 repository.",
    ]


def group_text(group: TableGroup) -> str:
    if group.kind == GroupKind.SET:
        what = f"set of {group.number}s"
    elif group.kind == GroupKind.RUN:
        what = f"run {group.low}-{group.high}"
    else:
        what = f"{COLOURS[group.colour]}"
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
        standing = standing_text(game.phase_of(s), game.phases_completed[s], game.rules.phases_to_win, game.is_over)
        lines.append(f"{'>' if game.current == s and not game.is_over else ' '} {names[s]}: {standing}"
                     f"{' DOWN' if game.laid[s] else ''}, score {game.scores[s]}, "
                     f"{count_text(game.hand_sizes[s], 'card')}{' [' + ', '.join(marks) + ']' if marks else ''}")
        for i, group in enumerate(game.table[s]):
            lines.append(f"      group {i}: {group_text(group)}")
        if viewer is None or viewer == s:
            lines.append(f"      hand: {cards_text(kinds_of(game.hands[s]))}")
    return "\n".join(lines)


def _meld_text(meld: Meld) -> str:
    return meld_words(meld.kind, meld.value, meld.size)


def pending_text(partial: PartialMove | None) -> str | None:
    """The move the player to act has started and must finish, in words, or None."""
    if partial is None:
        return None
    if type(partial) is PartialHit:
        return f"hitting a {partial.number}: choose which card"
    groups = [f"{_meld_text(meld)} ({cards_text(arrange(meld, cards))})" for meld, cards in partial.groups]
    if partial.meld is not None:
        chosen = _meld_text(partial.meld) + (f" with {cards_text(partial.settled)}" if partial.settled else "")
        return "laying down " + " and ".join([*groups, chosen]) + ": choose its cards"
    return "laying down " + " and ".join(groups) + ": choose the second group"


def action_text(view: SeatView, action: int, names: list[str] | None = None) -> str:
    """An action in words, as the acting seat ``view.seat`` sees it."""
    names = names or [f"player_{s}" for s in range(view.num_players)]
    a = ACTIONS[check_action_id(action)]
    if a.kind == "draw":
        return f"take {card_name(view.discard_pile[-1])} from the discard pile" if a.draw_from_discard else "draw from the deck"
    if a.kind == "lay":
        assert a.meld is not None  # a lay action always has its meld
        return f"lay down {_meld_text(a.meld)}"
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
        what = str(a.hit_card + 1) if group.kind != GroupKind.COLOUR else f"{COLOURS[group.colour]} {a.hit_card + 1}"
    owner = "your" if target == view.seat else f"{names[target]}'s"
    return f"hit {what} on {owner} {group_text(group)}"
