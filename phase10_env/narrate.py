"""A game told in words, one line per move, as one seat sees it (or a spectator).

The terminal game, the web app and replays show these lines beside the table. A line holds only
what the viewer may know: another player's deck draw is "drew from the draw pile", never the
card; only the viewer's own draws name theirs. A spectator (``viewer=None``) hears only what is
public. The narrator replays the record on an engine :class:`Game` of its own, so it knows the
state before each move and what the move caused (turns lost, a hand's end, a tie replay, the
game's end).
"""

from __future__ import annotations

from collections.abc import Sequence

from .engine.cards import COLOURS, SKIP, WILD, card_name, cards_text
from .engine.game import Game
from .engine.moves import Discard, Draw, Event, GameEnded, HandEnded, HandResult, Hit, LayDown, Move, TieReplay, TurnLost
from .engine.phases import GroupKind
from .engine.record import GameRecord
from .engine.table import TableGroup

_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def _count(n: int) -> str:
    return _COUNT_WORDS[n] if 0 <= n < len(_COUNT_WORDS) else str(n)


def _group_name(group: TableGroup) -> str:
    """A group by what it is, without its cards: "set of 9s", "run 4-7", "red group"."""
    if group.kind == GroupKind.SET:
        return f"set of {group.number}s"
    if group.kind == GroupKind.RUN:
        return f"run {group.low}-{group.high}"
    return f"{COLOURS[group.colour]} group"


def meld_words(kind: int, value: int, size: int) -> str:
    """A group in words, as the game is told: "a set of three 9s", "a run 4-7", "seven red cards"."""
    if kind == GroupKind.SET:
        return f"a set of {_count(size)} {value}s"
    if kind == GroupKind.RUN:
        return f"a run {value}-{value + size - 1}"
    return f"{_count(size)} {COLOURS[value]} cards"


def _group_laid(group: TableGroup) -> str:
    """A group just laid, with its cards: "a set of three 9s (R9 B9 W)"."""
    return f"{meld_words(group.kind, group.value, len(group.cards))} ({cards_text(group.cards)})"


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _sentence(line: str) -> str:
    return "You" + line[3:] if line.startswith("you ") else line


class Narrator:
    """Says each new move of a growing :class:`GameRecord` in words, for seat ``viewer``
    (``None``: a spectator). ``names`` gives each seat's name; the viewer is "you"."""

    def __init__(self, record: GameRecord, viewer: int | None, names: Sequence[str]) -> None:
        if len(names) != record.num_players:
            raise ValueError(f"{len(names)} names for {record.num_players} seats")
        if viewer is not None and not 0 <= viewer < record.num_players:
            raise ValueError(f"viewer must be a seat from 0 to {record.num_players - 1} or None, not {viewer!r}")
        self.viewer = viewer
        self.names = list(names)
        self.game = Game.from_record(record, 0)
        self.done = 0
        # A game loaded from a state (``record.start_state()``) begins wherever that state is: no deal to tell.
        self._opening = self._deal_lines(opening_skip=True) if record.start_state() is None else []

    def catch_up(self, record: GameRecord) -> list[str]:
        """The lines of every move of ``record`` not yet narrated, in order (the first call
        of a new game also tells the first deal)."""
        if len(record.moves) < self.done:
            raise ValueError(f"the record has {len(record.moves)} moves, fewer than the {self.done} already narrated")
        lines, self._opening = self._opening, []
        for move in record.moves[self.done:]:
            lines.extend(self._narrate(move))
            self.done += 1
        return lines

    # ------------------------------------------------------------------ words

    def _who(self, seat: int) -> str:
        return "you" if seat == self.viewer else self.names[seat]

    def _whose(self, seat: int) -> str:
        return "your" if seat == self.viewer else f"{self.names[seat]}'s"

    def _deal_lines(self, opening_skip: bool) -> list[str]:
        """The start of the hand just dealt; with ``opening_skip``, the first turn lost to an
        opening Skip (R4), which the deal causes without an event of its own."""
        game = self.game
        top = game.discard_top()
        replay = " (tie replay)" if game.replay else ""
        lines = [f"Hand {game.hand_number}{replay}: {self._who(game.dealer)} dealt; "
                 f"the discard pile starts with {card_name(top) if top is not None else 'nothing'}"]
        if opening_skip and top == SKIP:
            lines += [_sentence(f"{self._who(s)} lost the first turn to the opening Skip")
                      for s in range(game.num_players) if game.lost_turn[s]]
        return lines

    def _narrate(self, move: Move) -> list[str]:
        game = self.game
        seat = game.current
        who = self._who(seat)
        playing = [s for s in range(game.num_players) if game.active[s]]
        if isinstance(move, Draw):
            if move.from_discard:
                line = f"{who} took {card_name(game.discard_pile[-1])} from the discard pile"
            else:
                line = f"{who} drew from the draw pile"
            hand = bytes(game.hands[seat])
            game.apply(move)
            if seat == self.viewer and not move.from_discard:
                drawn = next(k for k, n in enumerate(game.hands[seat]) if n > hand[k])
                line = f"you drew {card_name(drawn)} from the draw pile"
            return [_sentence(line)]
        if isinstance(move, LayDown):
            # The list of the seat's groups outlives a hand's end (a new hand gets a new list),
            # so it still shows what was laid when laying down went out.
            groups = game.table[seat]
            before = len(groups)
            events = game.apply(move)
            line = f"{who} laid down " + _and([_group_laid(g) for g in groups[before:]])
        elif isinstance(move, Hit):
            group = game.table[move.target][move.group]
            owner = ("their own" if seat != self.viewer else "your own") if move.target == seat else self._whose(move.target)
            what = card_name(move.card)
            if move.card == WILD and group.kind == GroupKind.RUN:
                what += f" (as {group.low - 1 if move.low_end else group.high + 1})"
            line = f"{who} hit {what} on {owner} {_group_name(group)}"
            events = game.apply(move)
        elif isinstance(move, Discard):
            if move.card != SKIP:
                line = f"{who} discarded {card_name(move.card)}"
            elif move.target is None:
                line = f"{who} discarded a Skip (no one could be skipped)"
            else:
                line = f"{who} discarded a Skip on {self._who(move.target)}"
            events = game.apply(move)
        else:
            raise TypeError(f"not a move: {move!r}")
        return [_sentence(line)] + self._event_lines(events, playing)

    def _event_lines(self, events: Sequence[Event], playing: list[int]) -> list[str]:
        """Lines for what a move caused; ``playing``: the seats in the hand before the move."""
        lines: list[str] = []
        new_hand = False
        for event in events:
            if isinstance(event, TurnLost):
                if new_hand:  # the turn lost is the first of the new hand: say the deal first
                    lines += self._deal_lines(opening_skip=False)
                    new_hand = False
                    lines.append(_sentence(f"{self._who(event.seat)} lost the first turn to the opening Skip"))
                else:
                    lines.append(_sentence(f"{self._who(event.seat)} lost a turn to a Skip"))
            elif isinstance(event, HandEnded):
                lines.append(self._hand_over(event.result, playing))
                new_hand = True
            elif isinstance(event, TieReplay):
                lines.append(f"Tie: {_and([self._who(s) for s in event.seats])} made the last phase with the same "
                             f"score; they play replay hands, and the first to go out wins")
            elif isinstance(event, GameEnded):
                new_hand = False
                winners = [self._who(s) for s in event.winners]
                if len(winners) > 1:
                    lines.append(f"Game over: {_and(winners)} share the win")
                else:
                    lines.append(f"Game over: {winners[0]} {'win' if winners[0] == 'you' else 'wins'}")
        if new_hand:
            lines += self._deal_lines(opening_skip=False)
        return lines

    def _hand_over(self, result: HandResult, seats: list[int]) -> str:
        out = "no one went out (no card left to draw)" if result.went_out is None else \
            f"{self._who(result.went_out)} went out"
        made = [self._who(s) for s in seats if result.made_phase[s]]
        points = ", ".join(f"{self._who(s)} {result.points[s]}" for s in seats)
        totals = ", ".join(f"{self._who(s)} {score}" for s, score in enumerate(result.scores))
        return (f"Hand {result.hand_number} over: {out}; made their phase: {_and(made) if made else 'no one'}; "
                f"points {points}; totals {totals}")


def narrate_record(record: GameRecord, viewer: int | None, names: Sequence[str]) -> list[list[str]]:
    """The lines of each move of ``record``, in order (for replays); the first move's lines
    begin with how the game started."""
    narrator = Narrator(record, viewer, names)
    opening, narrator._opening = narrator._opening, []
    per_move = [narrator._narrate(move) for move in record.moves]
    if per_move:
        per_move[0] = opening + per_move[0]
    return per_move
