"""Set up a concrete table in a few lines, for tests, puzzles and examples.

>>> game = build_game(["R7 B7 G7 Y3 B3 W R1 R2 R4 R5 B9", "R3 G3 Y3 R11 B11 G11 W W S"],
...                   discard="G12", current=0, stage="play")
>>> [str(meld) for meld in game.laydown_options()[0]]
['set of 3 x 3', 'set of 3 x 7']

Every card not named goes to the draw pile (shuffled with ``seed``, with ``draw_top`` on top),
and the result is checked like any loaded state, so an impossible layout (a card used three
times, a run out of sequence) is a clear ``ValueError``. Only what a deal and the turns before
would have settled is left free, so that a test names just the cards that matter: a hand may hold
any number of cards (at least one; a huge hand empties the draw pile), and the discard pile may be
empty at the draw stage. The state says so (``"built": true``, which ``to_json`` keeps).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .cards import DECK_COUNTS, card_name, parse_cards
from .config import RulesSpec, load_rules
from .game import Game
from .state import FORMAT, VERSION

GroupSpec = tuple[str, int, str]
"""``(kind, value, cards)``: ``("set", 7, "R7 B7 W")``, ``("run", 3, "R3 W R5 R6")`` (cards from
low to high), ``("colour", 0, "R1 R5 W ...")`` (colours 0-3: red, blue, green, yellow)."""


def build_game(hands: Sequence[str], *, rules: RulesSpec = None,
               table: Mapping[int, Sequence[GroupSpec]] | None = None, discard: str = "", draw_top: str = "",
               phases_completed: Sequence[int] | None = None, scores: Sequence[int] | None = None, current: int = 0,
               dealer: int | None = None, stage: str = "play", seed: int = 0, hand_number: int = 1,
               skip_pending: Sequence[int] = (), lost_turn: Sequence[int] = (), skipped_this_hand: Sequence[int] = (),
               active: Sequence[bool] | None = None, replay: bool = False,
               taken_from_discard: Mapping[int, str] | None = None) -> Game:
    """A game in the given position. ``hands[s]`` and the piles are card names (piles listed
    bottom first, so the last card is the top); seat lists name seats."""
    config = load_rules(rules)
    n = len(hands)
    table = table or {}
    remaining = list(DECK_COUNTS)

    def use(text: str) -> list[str]:
        cards = parse_cards(text)
        for c in cards:
            remaining[c] -= 1
        return [card_name(c) for c in cards]

    players = []
    for s in range(n):
        groups = [{"kind": kind, "value": value, "cards": use(cards)} for kind, value, cards in table.get(s, ())]
        players.append({
            "hand": use(hands[s]),
            "taken_from_discard": [card_name(c) for c in parse_cards((taken_from_discard or {}).get(s, ""))],
            "phases_completed": (phases_completed or [0] * n)[s],
            "laid": bool(groups),
            "score": (scores or [0] * n)[s],
            "active": True if active is None else bool(active[s]),
            "skip_pending": s in skip_pending,
            "lost_turn": s in lost_turn,
            "skipped_this_hand": s in skipped_this_hand,
            "table": groups,
        })
    discard_pile = use(discard)
    top = use(draw_top)
    if any(r < 0 for r in remaining):
        over = [card_name(k) for k, r in enumerate(remaining) if r < 0]
        raise ValueError(f"the layout uses more copies of {over} than the deck has")
    rng = np.random.default_rng(seed)
    rest = [card_name(k) for k, r in enumerate(remaining) for _ in range(r)]
    rest = [rest[i] for i in rng.permutation(len(rest))]
    state = {
        "format": FORMAT, "version": VERSION, "rules": config.to_dict(), "num_players": n, "seed": seed,
        "rng": rng.bit_generator.state, "hand_number": hand_number,
        "dealer": (current - 1) % n if dealer is None else dealer, "current": current, "stage": stage,
        "replay": replay, "winners": [], "draw_pile": rest + top, "discard_pile": discard_pile,
        "players": players, "history": [], "built": True,
    }
    return Game.from_json(state)


__all__ = ["build_game", "Game", "GroupSpec"]
