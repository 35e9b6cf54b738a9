"""The Phase 10 rules engine: pure game logic, no observations, masks or rewards.

Start with :class:`Game` (a game you drive with :class:`Move` objects), :class:`RulesConfig`
(the rule options) and :func:`build_game` (a concrete position for tests and examples).

Inside, imports run one way: cards, seats, phases, config and moves; then the state as data and
its JSON form (:mod:`.state`: :class:`GameState`, :func:`load_state`); the seat view; ``Game``
and its record (:mod:`.game`); then :mod:`.record` and :mod:`.scenario`.
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
from .game import Game, GameRecord
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
    TieReplay,
    TurnLost,
)
from .phases import PHASES, GroupKind, Meld, NaturalRule, Requirement, phase_text
from .scenario import build_game
from .search import laydowns
from .seats import MAX_PLAYERS, MIN_PLAYERS, Stage
from .state import GameState, load_state
from .table import TableGroup
from .view import PlayerInfo, SeatView

__all__ = [
    "COLOURS", "DECK_COUNTS", "NUM_KINDS", "SKIP", "WILD", "card", "card_name", "cards_text", "parse_card",
    "parse_cards", "RulesConfig", "load_rules", "MAX_PLAYERS", "MIN_PLAYERS", "Game", "Stage", "Discard", "Draw",
    "Event", "GameEnded", "HandEnded", "HandResult", "Hit", "IllegalMoveError", "LayDown", "Move", "TieReplay",
    "TurnLost", "PHASES", "GroupKind", "Meld", "NaturalRule", "Requirement", "TableGroup", "allocate", "laydowns",
    "phase_text", "GameRecord", "GameState", "load_state", "build_game", "PlayerInfo", "SeatView",
]
