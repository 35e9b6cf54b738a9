"""Deck streams: play-outs of two candidate moves that draw the same cards.

A search plays each candidate move in the same dealt world and compares what the hand is then
worth (common random numbers). With one shared draw pile the comparison is noisier than it need
be: once a seat takes a discard in one world and draws in the other, every later draw of every
seat is another card, and the two worlds part for no reason of the move. Deck streams give each
position of the pile (counted from the top) to a seat, in turn order from the next to draw, and
a seat drawing from the pile takes the topmost card it owns (the top card once it owns none).
Which position is drawn depends only on who draws, never on the cards, and a dealt pile is in
uniformly random order (whatever the other hands were dealt), so each draw is still a uniformly
random card of what is left in the pile: the odds of the game do not change, and a seat draws
the same cards in both worlds as long as it draws as often. On the champion's decisions this cuts the
variance of a candidate's gain by about 40% (``models/champion.md``).

:class:`DeckStreams` is the reference for the native core's streams (``search.c``): the
search agent's Python play-outs (:meth:`agents.policies.mcts.SearchAgent.play_out`, with
``streams``) and the core's ``playout_streams`` are played against each other card for card
in ``tests/core``.
"""

from __future__ import annotations

from phase10_env.engine import Game, Stage
from phase10_env.engine.seats import next_active


class DeckStreams:
    """The owner of each card of ``game``'s draw pile, from the next seat to draw. Meant for a
    world a search dealt: :meth:`draw` reorders that game's pile."""

    def __init__(self, game: Game) -> None:
        first = game.current if game.stage == Stage.DRAW else next_active(game.active, game.current)
        self._assign(game, first)

    def _assign(self, game: Game, first: int) -> None:
        owners: list[int] = []
        seat = first
        for _ in game.draw_pile:
            owners.append(seat)
            seat = next_active(game.active, seat)
        self.owner = owners[::-1]  # as the pile: top last
        self.size = len(game.draw_pile)

    def draw(self, game: Game) -> None:
        """The seat to act is about to draw from the pile: bring its topmost card to the top. A
        pile reshuffled from the discards is owned afresh, from that seat on."""
        seat, pile = game.current, game.draw_pile
        if len(pile) > self.size:
            self._assign(game, seat)
        for i in range(len(pile) - 1, -1, -1):
            if self.owner[i] == seat:
                pile.append(pile.pop(i))
                self.owner.append(self.owner.pop(i))
                break
        self.size = len(pile) - 1
        self.owner.pop()
