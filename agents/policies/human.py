"""A human at the terminal: sees the table from their seat and the legal moves in words, types
the number of a move, and is asked again on bad input; ``help`` / ``?`` explains the card codes
and the commands, ``quit`` / ``q`` leaves the game (:class:`QuitGame`)."""

from __future__ import annotations

from collections.abc import Callable

from phase10_env.engine.cards import cards_text
from phase10_env.engine.config import RulesConfig
from phase10_env.policy import PlayerObservation
from phase10_env.render import action_text, count_text, group_text, pending_text, rules_help, standing_text

LEGEND = ("Cards: a colour letter and a number, R = red, B = blue, G = green, Y = yellow (R7 = red 7, "
          "Y12 = yellow 12); W = Wild, S = Skip.")
HELP = "\n".join([
    LEGEND,
    "Table: DOWN = that player has laid their phase this hand; 'skip pending' = loses their next turn.",
    "Type the number of a move and press Enter. help or ? shows this with the phases and the rules in short; "
    "quit or q leaves the game.",
])


def full_help(rules: RulesConfig) -> str:
    """What ``?`` shows: the legend and the commands, then the phases and the rules in short."""
    return "\n".join([HELP, *rules_help(rules)])


class QuitGame(Exception):
    """The human asked to leave the game."""


def seat_text(obs: PlayerObservation) -> str:
    """The table as the human's seat sees it."""
    view = obs.seat_view()
    top = view.discard_top
    lines = [f"Hand {view.hand_number}{' (tie replay)' if view.replay else ''} | draw pile {view.draw_pile_size} | "
             f"discard top {cards_text([top]) if top is not None else '-'}"]
    for p in view.players:
        if not p.active:
            continue
        who = "you" if p.seat == view.seat else f"player_{p.seat}"
        standing = standing_text(p.phase, p.phases_completed, view.rules.phases_to_win, bool(view.winners))
        lines.append(f"  {who}: {standing}{' DOWN' if p.laid else ''}, score {p.score}, "
                     f"{count_text(p.hand_size, 'card')}{', skip pending' if p.skip_pending else ''}")
        for i, group in enumerate(view.table[p.seat]):
            lines.append(f"      group {i}: {group_text(group)}")
    lines.append(f"  your hand: {cards_text(view.hand)}")
    pending = pending_text(obs.pending)
    if pending is not None:
        lines.append(f"  {pending}")
    return "\n".join(lines)


class HumanAgent:
    name = "human"

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> None:
        self.read, self.write = read, write

    def seed(self, seed: int | None) -> None:
        pass

    def act(self, obs: PlayerObservation) -> int:
        """The legal action the human picks; raises :class:`QuitGame` on ``quit``."""
        view = obs.seat_view()
        legal: list[int] = obs.legal_actions.tolist()
        self.write("\n" + seat_text(obs))
        moves = "\n".join(f"  {i:2d}. {action_text(view, action)}" for i, action in enumerate(legal, 1))
        self.write(moves)
        while True:
            answer = self.read(f"Your move [1-{len(legal)}, ? for help, q to quit]: ").strip().lower()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            if answer in ("q", "quit"):
                raise QuitGame
            if answer in ("?", "help"):
                self.write(full_help(view.rules))
                self.write(moves)
            else:
                self.write(f"Please type a number from 1 to {len(legal)} (? for help, q to quit).")
