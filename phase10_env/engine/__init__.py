"""The Phase 10 rules engine: pure game logic, no observations, masks or rewards.

Start with :class:`Game` (a game you drive with :class:`Move` objects), :class:`RulesConfig`
(the rule options) and :func:`build_game` (a concrete position for tests and examples).

Inside, imports run one way (``tests/test_layers.py`` checks it): cards, seats, phases (the
phase data and R11), config and moves at the bottom; the groups: :mod:`.melds` (which cards form
a meld), :mod:`.search` (which lay-downs a hand can make), :mod:`.progress`, :mod:`.table`
(what laid groups accept); the state as data and its JSON form (:mod:`.state`), its strict
loader (:mod:`.loader`); the seat view, determinization and the game record (:mod:`.record`, a
record is data); ``Game`` (:mod:`.game`, the rules of play); then the moves in progress
(:mod:`.partial`) and :mod:`.scenario`.
"""

from .cards import (
    COLOURS,
    DECK_COUNTS,
    NUM_KINDS,
    SKIP,
    WILD,
    card,
    card_name,
    cards_text,
    parse_card,
    parse_cards,
)
from .config import RulesConfig, load_rules
from .game import Game
from .loader import load_state
from .melds import allocate
from .moves import (
    Discard,
    Draw,
    Event,
    GameEnded,
    HandEnded,
    HandResult,
    Hit,
    IllegalMoveError,
    LayDown,
    Move,
    SeenMove,
    TieReplay,
    TurnLost,
)
from .phases import PHASES, GroupKind, Meld, NaturalRule, Requirement, phase_text
from .record import GameRecord
from .scenario import build_game
from .search import laydowns
from .seats import MAX_PLAYERS, MIN_PLAYERS, Stage
from .state import GameState
from .table import TableGroup
from .view import PlayerInfo, SeatView

__all__ = [
    "COLOURS", "DECK_COUNTS", "NUM_KINDS", "SKIP", "WILD", "card", "card_name", "cards_text", "parse_card",
    "parse_cards", "RulesConfig", "load_rules", "MAX_PLAYERS", "MIN_PLAYERS", "Game", "Stage", "Discard", "Draw",
    "Event", "GameEnded", "HandEnded", "HandResult", "Hit", "IllegalMoveError", "LayDown", "Move", "SeenMove", "TieReplay",
    "TurnLost", "PHASES", "GroupKind", "Meld", "NaturalRule", "Requirement", "TableGroup", "allocate", "laydowns",
    "phase_text", "GameRecord", "GameState", "load_state", "build_game", "PlayerInfo", "SeatView",
]
