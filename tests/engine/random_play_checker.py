"""Helpers for the random-play tests (``test_random_*``): the independent checker of random
legal play over many games, all player counts (2-6) and rule variants, checking the
rules' invariants after every move against an independent bookkeeping of the game (docs/rules.md).

What is checked (the full checker, ``Checker(level="full")``):

* R1: every one of the 108 cards is in exactly one place after every move (hands, draw pile,
  discard pile, table groups); the engine's redundant counters agree;
* ``legal_moves()`` is non-empty until the game is over, every listed move ``is_legal``, and the
  lists equal what the rules allow, computed here independently: draws (R5, R7), discards and
  Skip targets (R15, tracking pending/lost/once-per-hand Skips from the moves and ``TurnLost``
  events), hits (R14) and, at sampled moments, lay-downs (against ``reference.py``);
* random illegal moves raise ``IllegalMoveError`` and leave ``to_json()`` unchanged;
* turn order (R2, R3, R4, R15), the reshuffle (R7), groups on the table stay valid (R10-R12);
* scores change only at hand ends, by the R17 points of the cards left in hand; phases advance
  only at hand ends, by one for those who laid their phase (R18) or everyone (advance_all);
  the phase asked for is the right one (R9, R20);
* the game ends (a move cap), with the winners R19 / R20 name (tie replays tracked here);
* save / load (also through ``json``) continues identically; the same seed gives the same
  game; the game record replays to the same state; states validate against
  ``state_schema.json`` if it exists; corrupted states are rejected with ``ValueError``.

Run with ``-s`` to see how many games and moves were played. ``pytest -m slow`` runs the long
test (thousands of games with the cheap checks).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck

import phase10_env.engine as engine
from phase10_env.engine import (
    DECK_COUNTS,
    NUM_KINDS,
    SKIP,
    WILD,
    Discard,
    Draw,
    Game,
    GameEnded,
    GroupKind,
    HandEnded,
    Hit,
    IllegalMoveError,
    LayDown,
    Meld,
    TieReplay,
    TurnLost,
)
from tests.engine import reference as ref

SCHEMA_PATH = Path(engine.__file__).resolve().parent / "state_schema.json"
MOVE_CAP = 200_000
HYP = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))

VARIANTS = ["default", "even_phases", "advance_all", "short_game", "strict_naturals",
            "skip_once_per_hand", "skip_pending_only"]

#: What the tests of this module played (printed at the end of the module with ``-s``).
STATS: Counter = Counter()

_DECK = np.array(DECK_COUNTS, dtype=np.int64)


# --------------------------------------------------------------------------- independent rules


def points(kind: int) -> int:
    """R17, written out again: 1-9 = 5, 10-12 = 10, Skip = 15, Wild = 25."""
    if kind == WILD:
        return 25
    if kind == SKIP:
        return 15
    return 5 if ref.number_of(kind) <= 9 else 10


def hand_points(counts) -> int:
    return sum(c * points(k) for k, c in enumerate(counts) if c)


def group_ok(kind: int, value: int, cards: list[int]) -> bool:
    """R10-R12 for a group on the table; a run's cards are listed low to high from ``value``."""
    if not cards or not ref.forms(cards, int(kind), value, len(cards)):
        return False
    if kind == ref.RUN:
        return all(c == WILD or ref.number_of(c) == value + i for i, c in enumerate(cards))
    return True


def r14_hits(game: Game, seat: int) -> set:
    """Every hit R14 allows ``seat`` now (its phase must be down)."""
    hand = game.hands[seat]
    out = set()
    for t in range(game.num_players):
        for g, group in enumerate(game.table[t]):
            kind, value, n = int(group.kind), group.value, len(group.cards)
            for k in range(SKIP):
                if not hand[k]:
                    continue
                if k == WILD:
                    if kind == ref.RUN:
                        if value + n - 1 < 12:
                            out.add(Hit(t, g, WILD, False))
                        if value > 1:
                            out.add(Hit(t, g, WILD, True))
                    else:
                        out.add(Hit(t, g, WILD, False))
                elif kind == ref.SET:
                    if ref.number_of(k) == value:
                        out.add(Hit(t, g, k, False))
                elif kind == ref.RUN:
                    if ref.number_of(k) in (value - 1, value + n):
                        out.add(Hit(t, g, k, False))
                elif ref.colour_of(k) == value:
                    out.add(Hit(t, g, k, False))
    return out


def _bincount(cards: list[int]) -> np.ndarray:
    return np.bincount(np.asarray(cards, dtype=np.int64), minlength=NUM_KINDS)


def check_cards(game: Game, counters: bool = True) -> None:
    """R1: all 108 cards accounted for exactly once (and, with ``counters``, the engine's own
    per-kind counters of hands, discard pile and table agree with the cards)."""
    n = game.num_players
    table = []
    for row in game.table:
        for group in row:
            table += group.cards
    hands = np.frombuffer(b"".join(game.hands), dtype=np.uint8).reshape(n, NUM_KINDS).astype(np.int64)
    discard, on_table = _bincount(game.discard_pile), _bincount(table)
    total = hands.sum(0) + _bincount(game.draw_pile) + discard + on_table
    if not np.array_equal(total, _DECK):
        bad = {engine.card_name(k): int(total[k]) for k in range(NUM_KINDS) if total[k] != _DECK[k]}
        raise AssertionError(f"cards not accounted for exactly once (kind: count): {bad}")
    if counters:
        assert hands.sum(1).tolist() == list(game.hand_sizes), "hand_sizes disagree with the hands"
        assert np.array_equal(np.frombuffer(game.discard_counts, dtype=np.uint8), discard), "discard_counts is off"
        assert np.array_equal(np.frombuffer(game.table_counts, dtype=np.uint8), on_table), "table_counts is off"


_validator = None


def saved_and_loaded(game: Game) -> tuple[dict, Game]:
    """The game's state (checked against the schema) and a game loaded from it through JSON
    text; a state that does not load raises ``ValueError``."""
    state = game.to_json()
    validate_schema(state)
    return state, Game.from_json(json.loads(json.dumps(state)))


def validate_schema(state: dict) -> None:
    """Validate against the published state_schema.json."""
    global _validator
    if _validator is None:
        import jsonschema

        schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        _validator = cls(schema)
    errors = sorted(_validator.iter_errors(state), key=lambda e: list(e.path))
    assert not errors, f"state breaks state_schema.json: {[(list(e.path), e.message) for e in errors[:3]]}"
    STATS["schema_validations"] += 1


def next_active(active: list[bool], seat: int) -> int:
    n = len(active)
    seat = (seat + 1) % n
    while not active[seat]:
        seat = (seat + 1) % n
    return seat


# --------------------------------------------------------------------------- the checker


def r19_r20_verdict(*, advance_all: bool, phases_to_win: int, replay: bool, phases_done: list[int],
                    scores: list[int], went_out: int | None, active: list[bool]) -> tuple[str, tuple[int, ...]]:
    """What docs/rules.md says follows a hand, from the standings after it (R18 applied):
    ``("won", winners)``, ``("replay", tied seats)`` or ``("go on", ())``.

    * R19, in a replay hand: the first of the tied players to go out wins; a replay hand in
      which no one goes out is replayed.
    * R20 ``advance_all``: one hand per phase of the list; after the hand of the last phase (for
      a game started mid-list, the first player's last), the lowest total wins, equal totals
      sharing the win.
    * R19: a player who has now completed the last phase finished in this hand; if several
      did, the lowest total wins, and equal lowest totals play replay hands among themselves.
    """
    if replay:
        tied = tuple(s for s, playing in enumerate(active) if playing)
        return ("won", (went_out,)) if went_out is not None else ("replay", tied)
    if advance_all:
        if max(phases_done) < phases_to_win:  # one hand per phase of the list
            return ("go on", ())
        lowest = min(scores)
        return ("won", tuple(s for s, total in enumerate(scores) if total == lowest))
    finished = [s for s, done in enumerate(phases_done) if done >= phases_to_win]
    if not finished:
        return ("go on", ())
    lowest = min(scores[s] for s in finished)
    best = tuple(s for s in finished if scores[s] == lowest)
    return ("won", best) if len(best) == 1 else ("replay", best)


class Checker:
    """Follows one game move by move, keeping its own record of what the rules say must hold,
    and checks the engine against it. ``level="cheap"`` checks only cards, non-empty legal
    moves, hand ends (scores, phases) and the winners."""

    def __init__(self, game: Game, rng: np.random.Generator, level: str = "full",
                 probe_rate: float = 0.02, laydown_rate: float = 0.05) -> None:
        self.game, self.rng, self.full = game, rng, level == "full"
        self.probe_rate, self.laydown_rate = probe_rate, laydown_rate
        n = self.n = game.num_players
        self.rules = game.rules
        self.ptw = self.rules.phases_to_win
        # independent bookkeeping
        self.phases_done = [0] * n       # phases each seat has completed (R18)
        self.laid = [False] * n           # laid its phase this hand
        self.pending = [False] * n        # R15: a Skip waiting
        self.lost = [False] * n           # R15: last turn lost to a Skip, not played since
        self.skipped = [False] * n        # R15: skipped this hand
        self.active = [True] * n
        self.replay = False
        self.scores = [0] * n
        self.moves = 0
        self.dealer = game.dealer
        check_cards(game, self.full)
        self._check_new_deal(game, events_after=(), initial=True)

    # ---------------------------------------------------------------- helpers

    def expected_phase(self, seat: int) -> int:
        return self.rules.phases[min(self.phases_done[seat], self.ptw - 1)]

    def skip_targets(self, me: int) -> set[int]:
        rule = self.rules.skip_rule
        out = set()
        for s in range(self.n):
            if s == me or not self.active[s] or self.pending[s]:
                continue
            if rule == "not_twice_in_a_row" and self.lost[s]:
                continue
            if rule == "once_per_hand" and self.skipped[s]:
                continue
            out.add(s)
        return out

    def _check_new_deal(self, game: Game, events_after, initial: bool = False) -> None:
        """R3, R4: a fresh hand: 10 cards each (active seats), one up-card, turn order."""
        active = self.active
        if not initial:
            assert game.dealer == next_active(active, self.dealer), "R3: the deal passes left each hand"
        self.dealer = game.dealer
        assert game.dealer == self.dealer and active[game.dealer]
        for s in range(self.n):
            assert game.hand_sizes[s] == (10 if active[s] else 0), f"R3: seat {s} dealt {game.hand_sizes[s]} cards"
            assert not game.table[s]
        assert len(game.discard_pile) == 1
        assert len(game.draw_pile) == 108 - 10 * sum(active) - 1
        first = next_active(active, game.dealer)
        self.laid = [False] * self.n
        self.pending = [False] * self.n
        self.lost = [False] * self.n
        self.skipped = [False] * self.n
        lost_events = [e.seat for e in events_after if isinstance(e, TurnLost)]
        if game.discard_pile[0] == SKIP:  # R4
            STATS["opening_skips"] += 1
            if not initial:
                assert lost_events == [first], f"R4: opening Skip should cost seat {first} its turn, events {lost_events}"
            self.lost[first] = self.skipped[first] = True
            first = next_active(active, first)
        elif not initial:
            assert lost_events == [], f"no turn lost at a deal without an opening Skip: {lost_events}"
        assert game.current == first, f"R3/R4: seat {first} should start, not {game.current}"
        assert game.stage == engine.Stage.DRAW
        self.lost[first] = False

    # ---------------------------------------------------------------- per move

    def legal_checks(self, game: Game, legal: list) -> None:
        me = game.current
        assert game.active[me]
        if game.stage == engine.Stage.DRAW:
            want = set()
            if game.draw_pile:
                want.add(Draw(False))
            if game.discard_pile and game.discard_pile[-1] != SKIP:  # R5
                want.add(Draw(True))
            assert set(legal) == want, f"R5/R7 draws: engine {legal}, rules {want}"
            return
        hand = game.hands[me]
        want = {Discard(k) for k in range(SKIP) if hand[k]}
        if hand[SKIP]:
            targets = self.skip_targets(me)
            want |= {Discard(SKIP, t) for t in targets} if targets else {Discard(SKIP)}
        got_discards = {m for m in legal if isinstance(m, Discard)}
        assert got_discards == want, f"R6/R15 discards: engine {sorted(map(str, got_discards))}, rules {sorted(map(str, want))}"
        got_hits = {m for m in legal if isinstance(m, Hit)}
        if self.laid[me]:
            want_hits = r14_hits(game, me)
            assert got_hits == want_hits, (f"R14 hits: engine lacks {sorted(map(str, want_hits - got_hits))}, "
                                           f"offers extra {sorted(map(str, got_hits - want_hits))}")
        else:
            assert not got_hits, "R14: no hits before the phase is down"
        lays = [m for m in legal if isinstance(m, LayDown)]
        if self.laid[me]:
            assert not lays, "one phase per hand"
        else:
            reqs = ref.REFERENCE_PHASES[self.expected_phase(me)]
            for m in lays:
                assert [(int(x.kind), x.size) for x in m.melds] == reqs, (
                    f"R9/R18: seat {me} offered {m} but must make phase {self.expected_phase(me)}")
            if self.rng.random() < self.laydown_rate:
                STATS["laydown_sets_checked"] += 1
                hand_cards = ref.hand_list(hand, counts=True)
                want_lays = ref.accepted_declarations(hand_cards, reqs, self.rules.natural_rule)
                got_lays = {ref.canonical(tuple(tuple(int(x) for x in mm) for mm in m.melds), reqs) for m in lays}
                assert got_lays == want_lays, (
                    f"R9-R13 lay-downs for {engine.cards_text(hand_cards)}, phase {self.expected_phase(me)}: "
                    f"engine extra {sorted(got_lays - want_lays)}, missing {sorted(want_lays - got_lays)}")
                # R10-R12: every choice of cards for each declaration, each offered once.
                by_declaration: dict[tuple, list] = {}
                for m in lays:
                    by_declaration.setdefault(tuple(tuple(int(x) for x in mm) for mm in m.melds), []).append(
                        tuple(tuple(sorted(c)) for c in m.cards))
                for melds, choices in by_declaration.items():
                    want_choices = ref.declared_card_choices(hand_cards, melds, self.rules.natural_rule)
                    if melds[0] == melds[-1] and len(melds) == 2:  # the same group twice: unordered
                        want_choices = {tuple(sorted(c)) for c in want_choices}
                        choices = [tuple(sorted(c)) for c in choices]
                    assert len(set(choices)) == len(choices), f"duplicate card choices for {melds}: {choices}"
                    assert set(choices) == want_choices, (
                        f"R10-R12 card choices for {melds} from {engine.cards_text(hand_cards)}: engine extra "
                        f"{sorted(set(choices) - want_choices)}, missing {sorted(want_choices - set(choices))}")
        assert len(got_discards) + len(got_hits) + len(lays) == len(legal), f"unknown moves in {legal}"

    def illegal_probes(self, game: Game, legal: list) -> None:
        """Some moves the rules forbid now: each must raise and change nothing."""
        me, hand = game.current, game.hands[game.current]
        rng = self.rng
        cands = []
        if game.stage == engine.Stage.DRAW:
            kinds = [k for k in range(NUM_KINDS) if hand[k]]
            cands.append(Discard(int(rng.choice(kinds))))
            cands.append(LayDown((Meld(GroupKind.SET, 1, 3), Meld(GroupKind.SET, 1, 3))))
            if any(game.table):
                t = next(s for s in range(self.n) if game.table[s])
                cands.append(Hit(t, 0, WILD))
            if game.discard_pile and game.discard_pile[-1] == SKIP:
                cands.append(Draw(True))
            if not game.draw_pile:
                cands.append(Draw(False))
        else:
            cands += [Draw(False), Draw(True)]
            missing = [k for k in range(NUM_KINDS) if not hand[k]]
            if missing:
                cands.append(Discard(int(rng.choice(missing))))
            # (moves naming no card at all, Discard(50) etc., are in test_moves_naming_no_card)
            cands += [Hit(self.n, 0, WILD), Hit(me, 99, WILD)]
            naturals = [k for k in range(WILD) if hand[k]]
            if naturals:
                cands.append(Discard(int(rng.choice(naturals)), (me + 1) % self.n))  # only a Skip names a target
            if hand[SKIP]:
                targets = self.skip_targets(me)
                cands.append(Discard(SKIP, me))
                cands.append(Discard(SKIP, self.n))
                bad = [s for s in range(self.n) if s not in targets and s != me]
                if bad:
                    cands.append(Discard(SKIP, int(rng.choice(bad))))
                if targets:
                    cands.append(Discard(SKIP, None))
            tabled = [(t, g) for t in range(self.n) for g in range(len(game.table[t]))]
            in_hand = [k for k in range(SKIP) if hand[k]]
            if not self.laid[me]:
                # R14: no hit before the phase is down, even a fitting one
                for t, g in tabled[:3]:
                    for k in in_hand[:4]:
                        cands.append(Hit(t, g, k))
                reqs = ref.REFERENCE_PHASES[self.expected_phase(me)]
                decl = ref.all_declarations(reqs)
                d = decl[int(rng.integers(len(decl)))]
                if not ref.can_make_declared(ref.hand_list(hand, counts=True), d, self.rules.natural_rule):
                    cands.append(LayDown(tuple(Meld(GroupKind(k), v, s) for k, v, s in d)))
                # the wrong shape: an extra group (R13), or a group below the phase's size
                melds = [Meld(GroupKind(k), v, s) for k, v, s in d]
                cands.append(LayDown(tuple(melds + [Meld(GroupKind.SET, 1 + int(rng.integers(12)), 3)])))
                k, v, s = d[0]
                cands.append(LayDown(tuple([Meld(GroupKind(k), v, s - 1)] + melds[1:])))
                if len(melds) == 2:
                    cands.append(LayDown((melds[int(rng.integers(2))],)))
            else:
                cands.append(LayDown((Meld(GroupKind.SET, 1, 3), Meld(GroupKind.SET, 1, 3))))
                allowed = r14_hits(game, me)
                for t, g in tabled:
                    is_run = game.table[t][g].kind == GroupKind.RUN
                    for k in in_hand:
                        for low in ((False, True) if k == WILD and is_run else (False,)):
                            h = Hit(t, g, k, low)
                            if h not in allowed:
                                cands.append(h)
                    if hand[SKIP]:
                        cands.append(Hit(t, g, SKIP))  # R11: Skips are never part of a group
            for k in missing[:3]:
                if tabled:
                    cands.append(Hit(tabled[0][0], tabled[0][1], k))
        if not cands:
            return
        legal_set = set(legal)
        picks = [cands[i] for i in rng.permutation(len(cands))[:8]]
        before = game.to_json()
        if rng.random() < 0.2:
            validate_schema(before)
        n_moves = len(game.record.moves)
        for m in picks:
            assert m not in legal_set, f"{m} is listed as legal but the rules forbid it"
            assert not game.is_legal(m), f"is_legal({m}) but the rules forbid it"
            with pytest.raises(IllegalMoveError):
                game.apply(m)
            STATS["illegal_probes"] += 1
        assert game.to_json() == before, "an illegal move changed the state"
        assert len(game.record.moves) == n_moves, "an illegal move was recorded"

    def step(self, move=None):
        """Choose (if not given) and play one move, checking everything around it."""
        game = self.game
        assert not game.is_over
        legal = game.legal_moves()
        assert legal, f"no legal move while the game is not over: {game!r}"
        if self.full:
            assert len(set(legal)) == len(legal), f"legal_moves lists a move twice: {legal}"
        if move is None:
            move = legal[int(self.rng.integers(len(legal)))]
        if self.full:
            for m in legal:
                assert game.is_legal(m), f"legal_moves lists {m} but is_legal says no: {game.illegal_reason(m)}"
            self.legal_checks(game, legal)
            if self.rng.random() < self.probe_rate:
                self.illegal_probes(game, legal)
        me = game.current
        pre_hands = [bytes(h) for h in game.hands]
        pre_sizes = (len(game.draw_pile), len(game.discard_pile))
        pre_discard = list(game.discard_pile) if self.full else None
        pre_scores = list(game.scores)
        pre_phase = list(game.phases_completed)
        pre_hand_number = game.hand_number
        pre_draw = list(game.draw_pile) if self.full else None
        pre_groups = [[(g.kind, g.value, list(g.cards)) for g in row] for row in game.table] if self.full else None

        events = game.apply(move)
        self.moves += 1
        STATS["moves"] += 1
        check_cards(game, self.full)

        hand_end = [e for e in events if isinstance(e, HandEnded)]
        assert len(hand_end) <= 1
        cut = events.index(hand_end[0]) if hand_end else len(events)
        before_end, after_end = events[:cut], events[cut + 1:]

        # the mover's own cards
        played = Counter()
        if isinstance(move, LayDown):
            assert not self.laid[me]
            want = sorted((k, s) for k, s in ref.REFERENCE_PHASES[self.expected_phase(me)])
            got = sorted((int(m.kind), m.size) for m in move.melds)
            assert got == want, f"R9/R13: {move} is not phase {self.expected_phase(me)}"
            self.laid[me] = True
            STATS["laydowns"] += 1
        elif isinstance(move, (Hit, Discard)):
            played[move.card] += 1
            if isinstance(move, Hit):
                STATS["hits"] += 1
                assert self.laid[me], "R14: hit before the phase is down"
            elif move.card == SKIP:
                STATS["skips"] += 1
                if move.target is not None:
                    self.pending[move.target] = True
                    self.skipped[move.target] = True

        if self.full and not hand_end:
            self._check_move_effect(game, move, me, pre_hands, pre_draw, pre_discard, pre_groups)

        if not hand_end:
            assert game.scores == pre_scores, "scores change only at the end of a hand (R17)"
            assert game.phases_completed == pre_phase, "phases change only at the end of a hand (R18)"
            assert game.hand_number == pre_hand_number
            assert not any(isinstance(e, (GameEnded, TieReplay)) for e in events)
            if isinstance(move, Discard):
                self._check_turn_passes(game, me, before_end)
            else:
                assert not events and game.current == me
            return events

        # ------------------------------------------------------------ the hand ended
        res = hand_end[0].result
        STATS["hands"] += 1
        assert res.hand_number == pre_hand_number
        end_hands = [bytearray(h) for h in pre_hands]
        if isinstance(move, LayDown):
            assert res.went_out == me, "laying down every card goes out (R16)"
            end_hands[me] = bytearray(NUM_KINDS)
        else:
            end_hands[me][move.card] -= 1
        if res.went_out is None:
            # R7: after a discard, no card could be drawn at all
            STATS["hands_without_going_out"] += 1
            assert isinstance(move, Discard) and sum(end_hands[me]), "a hand ends without going out only by R7"
            assert pre_sizes == (0, 0) and move.card == SKIP, (
                f"R7: the hand ended though a card could be drawn (draw pile {pre_sizes[0]}, discard pile "
                f"{pre_sizes[1]} + {engine.card_name(move.card)})")
            self._check_turn_passes(game, me, before_end, ended=True)
        else:
            assert res.went_out == me and not sum(end_hands[me]), "R16: the one to go out has no cards left"
            assert not before_end
        want_points = tuple(hand_points(end_hands[s]) if self.active[s] else 0 for s in range(self.n))
        assert res.points == want_points, f"R17 points: engine {res.points}, rules {want_points}"
        assert res.made_phase == tuple(self.laid), f"made_phase {res.made_phase}, laid this hand {self.laid}"
        self.scores = [a + b for a, b in zip(pre_scores, want_points)]
        assert all(a >= b for a, b in zip(game.scores, pre_scores)), "scores never decrease"
        assert list(res.scores) == self.scores == game.scores, "scores add up the hand's points (R17)"
        advance_all = self.rules.advance_all
        if not self.replay:  # R18 (and R20: everyone advances)
            for s in range(self.n):
                if self.active[s] and (self.laid[s] or advance_all):
                    self.phases_done[s] += 1
        assert list(res.phases_completed) == self.phases_done == game.phases_completed, (
            f"R18 phases: engine {game.phases_completed}, rules {self.phases_done} (laid {self.laid}, before {pre_phase})")

        verdict, seats = r19_r20_verdict(advance_all=advance_all, phases_to_win=self.ptw, replay=self.replay,
                                         phases_done=self.phases_done, scores=self.scores, went_out=res.went_out,
                                         active=self.active)
        winners = seats if verdict == "won" else None
        if verdict == "replay" and not self.replay:
            ties = [e for e in after_end if isinstance(e, TieReplay)]
            assert ties and ties[0].seats == seats, f"R19: tie between {seats} should start a replay, events {after_end}"
            self.replay = True
            self.active = [s in seats for s in range(self.n)]
            STATS["tie_replays"] += 1
        elif verdict == "replay":
            STATS["replay_hands_replayed"] += 1
        ended = [e for e in after_end if isinstance(e, GameEnded)]
        if winners is not None:
            assert ended and ended[0].winners == winners and game.winners == winners, (
                f"R19/R20 winners: rules {winners}, engine {ended} {game.winners}")
            assert game.is_over and game.legal_moves() == []
            STATS["games_finished"] += 1
            return events
        assert not ended and not game.is_over, f"the game ended ({ended}) but the rules say it goes on"
        assert game.active == self.active
        self._check_new_deal(game, after_end)
        return events

    def _check_turn_passes(self, game: Game, me: int, lost_events, ended: bool = False) -> None:
        """R2, R15: after a discard, play passes left; seats with a Skip waiting lose the turn."""
        seat = next_active(self.active, me)
        want_lost = []
        while self.pending[seat]:
            self.pending[seat] = False
            self.lost[seat] = True
            want_lost.append(seat)
            seat = next_active(self.active, seat)
        got_lost = [e.seat for e in lost_events if isinstance(e, TurnLost)]
        assert got_lost == want_lost, f"R15 turns lost: engine {got_lost}, rules {want_lost}"
        self.lost[seat] = False
        if ended:
            return
        assert game.current == seat, f"R2/R15: seat {seat} should play next, not {game.current}"
        assert game.stage == engine.Stage.DRAW

    def _check_move_effect(self, game, move, me, pre_hands, pre_draw, pre_discard, pre_groups) -> None:
        hand = game.hands[me]
        for s in range(self.n):
            if s != me:
                assert game.hands[s] == pre_hands[s], "only the mover's hand changes"
        if isinstance(move, Draw):
            card = pre_discard[-1] if move.from_discard else pre_draw[-1]
            diff = [k for k in range(NUM_KINDS) if hand[k] != pre_hands[me][k]]
            assert diff == [card] and hand[card] == pre_hands[me][card] + 1, "R5: the drawn card is the top card"
            assert game.stage == engine.Stage.PLAY and game.current == me
        elif isinstance(move, LayDown):
            groups = game.table[me]
            assert len(groups) == len(move.melds)
            used = Counter()
            for i, (meld, g) in enumerate(zip(move.melds, groups)):
                assert (int(g.kind), g.value, len(g.cards)) == (int(meld.kind), meld.value, meld.size), f"{g} is not {meld}"
                if move.cards is not None:
                    assert sorted(g.cards) == sorted(move.cards[i]), f"{g} is not the named cards {move.cards[i]}"
                assert group_ok(g.kind, g.value, g.cards), f"laid group {g} breaks R10-R12"
                used.update(g.cards)
            naturals = [sum(1 for c in g.cards if c != WILD) for g in groups]
            if self.rules.natural_rule == "per_group":
                assert all(naturals), f"R11 per_group: {groups}"
            assert any(naturals), f"R11: a lay-down needs a natural card: {groups}"
            for k in range(NUM_KINDS):
                assert pre_hands[me][k] - hand[k] == used[k], "the laid cards come from the hand"
        elif isinstance(move, Hit):
            g0 = pre_groups[move.target][move.group]
            g = game.table[move.target][move.group]
            if g0[0] == ref.RUN and (move.low_end or (move.card != WILD and ref.number_of(move.card) == g0[1] - 1)):
                assert g.cards == [move.card] + g0[2] and g.value == g0[1] - 1, "R14: a hit at the low end"
            else:
                assert g.cards == g0[2] + [move.card] and g.value == g0[1], "R14: a hit at the high end"
            assert group_ok(g.kind, g.value, g.cards), f"group {g} breaks R10-R12 after {move}"
        elif isinstance(move, Discard):
            assert game.discard_pile[-1] == move.card, "the discard goes on top of the discard pile"
            if not pre_draw:
                # R7: at the next turn, all of the discard pile but its top is the new draw pile
                STATS["reshuffles"] += 1
                assert game.discard_pile == [move.card], "R7: the discard top stays"
                assert Counter(game.draw_pile) == Counter(pre_discard), "R7: the rest of the discard pile is reshuffled"
            else:
                assert game.discard_pile == pre_discard + [move.card]
                assert game.draw_pile == pre_draw, "the draw pile changes only by drawing or reshuffling"
        # every other seat's table is untouched
        if isinstance(move, (Draw, Discard)):
            assert len(game.table[me]) == len(pre_groups[me])
            return
        for s in range(self.n):
            for i, g in enumerate(game.table[s]):
                if isinstance(move, Hit) and (s, i) == (move.target, move.group):
                    continue
                if isinstance(move, LayDown) and s == me:
                    continue
                assert (g.kind, g.value, g.cards) == pre_groups[s][i]

    def finish_checks(self) -> None:
        game = self.game
        assert game.is_over
        with pytest.raises(IllegalMoveError):
            game.apply(Draw(False))
