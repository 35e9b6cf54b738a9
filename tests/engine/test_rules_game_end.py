"""R19 end of the game and tie replay; R20 variants in play (phases, phases_to_win, advance_all)."""

import pytest

from phase10_env.engine import (
    SKIP,
    Discard,
    Draw,
    GameEnded,
    HandEnded,
    Stage,
    TieReplay,
    build_game,
    load_rules,
)
from tests.engine.p10_rules_helpers import (
    SET,
    assert_illegal,
    c,
    events_of,
    expected_first_player,
    hand_ended,
    hand_points,
    lay,
    play,
    rest_of_deck,
    skip_targets_allowed,
)

# layouts for a seat whose phase is down; A and B use disjoint cards
DOWN_A = {
    1: [("set", 3, "R3 B3 G3"), ("set", 5, "R5 B5 G5")],
    2: [("set", 3, "R3 B3 G3"), ("run", 5, "R5 R6 R7 R8")],
    3: [("set", 3, "R3 B3 G3 Y3"), ("run", 5, "R5 R6 R7 R8")],
    4: [("run", 1, "R1 R2 R3 R4 R5 R6 R7")],
    5: [("run", 1, "R1 R2 R3 R4 R5 R6 R7 R8")],
    6: [("run", 1, "R1 R2 R3 R4 R5 R6 R7 R8 R9")],
    7: [("set", 3, "R3 B3 G3 Y3"), ("set", 5, "R5 B5 G5 Y5")],
    8: [("colour", 0, "R1 R2 R4 R5 R6 R7 R8")],
    9: [("set", 3, "R3 B3 G3 Y3 R3"), ("set", 5, "R5 B5")],
    10: [("set", 3, "R3 B3 G3 Y3 R3"), ("set", 5, "R5 B5 G5")],
}
DOWN_B = {
    1: [("set", 10, "G10 Y10 B10"), ("set", 11, "G11 Y11 B11")],
    2: [("set", 10, "G10 Y10 B10"), ("run", 9, "B9 B10 B11 B12")],
    3: [("set", 10, "G10 Y10 B10 R10"), ("run", 9, "B9 B10 B11 B12")],
    4: [("run", 6, "G6 G7 G8 G9 G10 G11 G12")],
    5: [("run", 5, "G5 G6 G7 G8 G9 G10 G11 G12")],
    6: [("run", 4, "G4 G5 G6 G7 G8 G9 G10 G11 G12")],
    7: [("set", 11, "Y11 B11 G11 R11"), ("set", 12, "R12 B12 G12 Y12")],
    8: [("colour", 2, "G1 G2 G4 G5 G6 G7 G8")],
    9: [("set", 11, "Y11 B11 G11 Y11 R11"), ("set", 12, "R12 B12")],
    10: [("set", 11, "Y11 B11 G11 Y11 R11"), ("set", 12, "R12 B12 G12")],
}

# (rules, phase number that is the last one to make, its index in the list)
LAST_PHASE_CONFIGS = [
    ({}, 10, 9),
    ({"phases": "even"}, 10, 4),
    ({"phases_to_win": 5}, 5, 4),
    ({"phases": "even", "phases_to_win": 2}, 4, 1),
    ({"phases": [2, 4, 8], "phases_to_win": 3}, 8, 2),
]
CONFIG_IDS = ["default", "even", "short_game", "even_first_two", "list_2_4_8"]


def _go_out_game(rules, phase_idx, other_idx, other_down=False, scores=(0, 0), other_hand="R9 B9", seats=2, **kw):
    """Seat 0 has its phase down and one card (Y1) left to discard; seat 1 may have its phase down."""
    cfg = load_rules(rules)
    p0 = cfg.phases[phase_idx]
    p1 = cfg.phases[other_idx] if other_idx < len(cfg.phases) else None
    table = {0: DOWN_A[p0]}
    if other_down:
        table[1] = DOWN_B[p1]
    hands = ["Y1", other_hand] + ["Y2 Y4"] * (seats - 2)
    return build_game(
        hands,
        rules=cfg,
        table=table,
        phases_completed=[phase_idx, other_idx] + [0] * (seats - 2),
        scores=list(scores) + [0] * (seats - 2),
        stage="play",
        **kw,
    )


# ---------------------------------------------------------------- R19


@pytest.mark.parametrize("rules, last, idx", LAST_PHASE_CONFIGS, ids=CONFIG_IDS)
def test_r19_completing_the_last_phase_ends_the_game(rules, last, idx):
    game = _go_out_game(rules, idx, 0)
    assert game.phase_of(0) == last
    events = play(game, Discard(c("Y1")))
    assert hand_ended(events).result.made_phase[0]
    assert GameEnded((0,)) in events
    assert game.is_over
    assert game.stage == Stage.GAME_OVER
    assert tuple(game.winners) == (0,)
    assert not game.legal_moves()
    assert_illegal(game, Draw())


@pytest.mark.parametrize("rules, last, idx", LAST_PHASE_CONFIGS, ids=CONFIG_IDS)
def test_r19_completing_the_phase_before_the_last_does_not_end_the_game(rules, last, idx):
    game = _go_out_game(rules, idx - 1, 0)
    events = play(game, Discard(c("Y1")))
    assert hand_ended(events)
    assert not events_of(events, GameEnded)
    assert not game.is_over
    assert game.phase_of(0) == last
    assert game.hand_number == 2


@pytest.mark.parametrize("rules, last, idx", LAST_PHASE_CONFIGS, ids=CONFIG_IDS)
def test_r19_last_phase_laid_by_a_player_who_did_not_go_out_still_ends_the_game(rules, last, idx):
    # seat 1 is on the last phase with it down; seat 0 (an earlier phase) goes out
    cfg = load_rules(rules)
    game = build_game(
        ["Y1", "R9 B9"],
        rules=cfg,
        table={0: DOWN_A[cfg.phases[0]], 1: DOWN_B[last]},
        phases_completed=[0, idx],
        scores=[0, 50],
        stage="play",
    )
    events = play(game, Discard(c("Y1")))
    assert GameEnded((1,)) in events
    assert tuple(game.winners) == (1,)
    assert game.is_over


def test_r19_game_goes_on_until_the_hand_with_the_last_phase_ends():
    # seat 0 lays phase 10 but keeps cards: the hand (and the game) goes on
    game = build_game(["R3 B3 G3 Y3 R3 R5 B5 G5 Y1 Y2", "R9 B9"], phases_completed=[9, 0], stage="play")
    events = play(game, lay(SET(3, 5), SET(5, 3)))
    assert not events_of(events, HandEnded) and not events_of(events, GameEnded)
    play(game, Discard(c("Y1")))
    assert not game.is_over and game.current == 1
    play(game, Draw())
    assert game.stage == Stage.PLAY


def test_r19_player_on_last_phase_who_did_not_lay_it_does_not_end_the_game():
    game = _go_out_game({}, 4, 9)  # seat 1 is on phase 10 but has not laid it
    events = play(game, Discard(c("Y1")))
    assert not events_of(events, GameEnded)
    assert not game.is_over
    assert game.phase_of(1) == 10


@pytest.mark.parametrize("rules, last, idx", LAST_PHASE_CONFIGS, ids=CONFIG_IDS)
@pytest.mark.parametrize(
    "scores, winner",
    [((200, 100), 1), ((100, 200), 0), ((100, 85), 1), ((100, 95), 0)],
)
def test_r19_several_completed_the_last_phase_lowest_total_wins(rules, last, idx, scores, winner):
    # seat 0 goes out (0 points), seat 1 is left with R9 B9 (10 points); both made the last phase
    game = _go_out_game(rules, idx, idx, other_down=True, scores=scores)
    events = play(game, Discard(c("Y1")))
    result = hand_ended(events).result
    assert list(result.scores) == [scores[0], scores[1] + 10]
    assert GameEnded((winner,)) in events
    assert tuple(game.winners) == (winner,)
    assert not events_of(events, TieReplay)


def test_r19_player_who_completed_last_phase_beats_lower_total_of_player_who_did_not():
    # seat 1 has far fewer points but did not complete phase 10
    game = _go_out_game({}, 9, 9, scores=(300, 0))
    events = play(game, Discard(c("Y1")))
    assert GameEnded((0,)) in events


def _tie_game(rules, idx, seats=3, dealer=None):
    """Seats 0 and 2 made the last phase this hand; seat 0 goes out; totals end up equal."""
    cfg = load_rules(rules)
    last = cfg.phases[idx]
    hands = ["Y1", "B1 B2", "R9 B9"][:seats] if seats == 3 else ["Y1", "R9 B9"]
    other = 2 if seats == 3 else 1
    table = {0: DOWN_A[last], other: DOWN_B[last]}
    phases_completed = [idx, 0, idx] if seats == 3 else [idx, idx]
    scores = [110, 40, 100] if seats == 3 else [110, 100]
    return build_game(hands, rules=cfg, table=table, phases_completed=phases_completed, scores=scores, stage="play",
                      dealer=dealer), other


@pytest.mark.parametrize("rules, last, idx", LAST_PHASE_CONFIGS, ids=CONFIG_IDS)
def test_r19_equal_lowest_totals_are_replayed_by_the_tied_players_only(rules, last, idx):
    game, other = _tie_game(rules, idx)
    events = play(game, Discard(c("Y1")))
    result = hand_ended(events).result
    assert list(result.scores) == [110, 50, 110]
    assert TieReplay((0, 2)) in events
    assert not events_of(events, GameEnded)
    assert not game.is_over
    assert game.replay
    assert list(game.active) == [True, False, True]
    # a replay hand of the last phase, dealt as usual to the tied players only
    assert game.phase_of(0) == last and game.phase_of(2) == last
    assert game.hand_sizes[0] == 10 and game.hand_sizes[2] == 10
    assert game.hand_sizes[1] == 0
    assert len(game.discard_pile) == 1
    assert len(game.draw_pile) == 108 - 20 - 1
    assert list(game.scores) == [110, 50, 110]  # scores carry on


def test_r19_tie_replay_deal_passes_left_among_the_tied_players():
    game, _ = _tie_game({}, 9, dealer=2)  # seat 0 plays, seat 2 dealt this hand
    play(game, Discard(c("Y1")))
    assert game.replay
    # next dealer: left of seat 2 among the tied players {0, 2} is seat 0; seat 2 plays first
    assert game.dealer == 0
    assert game.current == expected_first_player(0, 3, game.discard_pile[-1], active=[True, False, True])


def test_r19_tie_replay_left_out_player_never_plays_nor_is_skipped():
    game, _ = _tie_game({}, 9)
    play(game, Discard(c("Y1")))
    assert game.replay
    for _ in range(12):
        if game.is_over or not game.replay:
            break
        assert game.current in (0, 2)
        assert game.stage == Stage.DRAW
        play(game, Draw())
        assert 1 not in skip_targets_allowed(game)
        assert_illegal(game, Discard(SKIP, 1))
        plain = next((m for m in game.legal_moves() if isinstance(m, Discard) and m.card != SKIP), None)
        if plain is None:
            break
        play(game, plain)
        assert game.hand_sizes[1] == 0


def _replay_position(scores, seat0_down=True):
    # a replay hand of phase 10 between seats 0 and 2; seat 1 sits out
    table = {0: DOWN_A[10]} if seat0_down else {}
    return build_game(
        ["Y1" if seat0_down else "Y1 Y2", "", "R9 B9 W"],
        table=table,
        phases_completed=[10, 4, 10],
        scores=list(scores),
        active=[True, False, True],
        replay=True,
        stage="play",
    )


@pytest.mark.parametrize("scores", [(110, 50, 110), (150, 50, 110)])
def test_r19_first_to_go_out_in_a_replay_hand_wins(scores):
    game = _replay_position(scores)
    events = play(game, Discard(c("Y1")))
    result = hand_ended(events).result
    assert result.went_out == 0
    assert GameEnded((0,)) in events
    assert tuple(game.winners) == (0,)
    # scores keep adding up during replay hands
    assert list(game.scores) == [scores[0], scores[1], scores[2] + 35]


def test_r19_replay_hand_in_which_no_one_goes_out_is_replayed():
    # every card is in seat 0's or seat 2's hand or on the table; seat 0 discards a Skip onto
    # the empty discard pile so that no card can be drawn (R7): no one goes out.
    hand2 = "B1 B2"
    hand0 = "S " + rest_of_deck("S", hand2, "R3 B3 G3 Y3 R3 R5 B5 G5")
    game = build_game(
        [hand0, "", hand2],
        table={0: DOWN_A[10]},
        phases_completed=[10, 4, 10],
        scores=[110, 50, 110],
        active=[True, False, True],
        replay=True,
        stage="play",
        dealer=2,
    )
    assert game.draw_pile == [] and game.discard_pile == []
    events = play(game, Discard(SKIP, 2))
    result = hand_ended(events).result
    assert result.went_out is None
    assert not events_of(events, GameEnded)
    assert not game.is_over
    assert game.replay
    assert list(game.active) == [True, False, True]
    assert game.phase_of(0) == 10 and game.phase_of(2) == 10
    assert game.scores[2] == 110 + hand_points(hand2)
    assert game.scores[0] == 110 + hand_points(" ".join(x for x in hand0.split()[1:]))
    assert game.hand_sizes[0] == 10 and game.hand_sizes[2] == 10 and game.hand_sizes[1] == 0
    # the deal passes left among the tied players
    assert game.dealer == 0
    assert game.current == expected_first_player(0, 3, game.discard_pile[-1], active=[True, False, True])


def test_r19_two_player_tie_replays_between_both():
    game, _ = _tie_game({}, 9, seats=2)
    events = play(game, Discard(c("Y1")))
    assert TieReplay((0, 1)) in events
    assert list(game.active) == [True, True]
    assert game.replay and not game.is_over


# ---------------------------------------------------------------- R20 advance_all in play


def _advance_all_game(hand_number, idx, scores, rules=None, seat1_down=False):
    cfg = load_rules(rules or {}, advance_all=True)
    p = cfg.phases[idx]
    table = {0: DOWN_A[p]}
    if seat1_down:
        table[1] = DOWN_B[p]
    return build_game(
        ["Y1", "R9 B9"],
        rules=cfg,
        table=table,
        phases_completed=[idx, idx],
        scores=list(scores),
        hand_number=hand_number,
        stage="play",
    )


@pytest.mark.parametrize("seat1_down", [False, True])
def test_r20_advance_all_everyone_advances_whether_or_not_they_made_their_phase(seat1_down):
    game = _advance_all_game(3, 2, (0, 0), seat1_down=seat1_down)
    result = hand_ended(play(game, Discard(c("Y1")))).result
    assert list(result.made_phase) == [True, seat1_down]
    assert list(game.phases_completed) == [3, 3]
    assert game.phase_of(0) == 4 and game.phase_of(1) == 4
    assert not game.is_over


def test_r20_advance_all_game_does_not_end_before_the_last_hand():
    game = _advance_all_game(9, 8, (0, 0))
    events = play(game, Discard(c("Y1")))
    assert not events_of(events, GameEnded)
    assert game.hand_number == 10
    assert game.phase_of(0) == 10 and game.phase_of(1) == 10


@pytest.mark.parametrize(
    "rules, hands_in_game",
    [({}, 10), ({"phases": "even"}, 5)],
    ids=["all_ten", "even"],
)
@pytest.mark.parametrize("scores, winners", [((50, 30), (1,)), ((50, 45), (0,)), ((50, 40), (0, 1)), ((20, 40), (0,))])
def test_r20_advance_all_lowest_total_after_the_last_hand_wins_ties_share(rules, hands_in_game, scores, winners):
    # seat 0 goes out, seat 1 scores 10 (R9 B9) and did not make the phase
    game = _advance_all_game(hands_in_game, hands_in_game - 1, scores, rules=rules)
    events = play(game, Discard(c("Y1")))
    assert list(hand_ended(events).result.scores) == [scores[0], scores[1] + 10]
    assert GameEnded(tuple(winners)) in events
    assert tuple(game.winners) == tuple(winners)
    assert not events_of(events, TieReplay)
    assert game.is_over


def test_r20_advance_all_hand_ended_by_empty_piles_still_advances_everyone():
    hand1 = "B1 B2"
    hand0 = "S " + rest_of_deck("S", hand1, "R3 B3 G3 R5 R6 R7 R8")
    game = build_game(
        [hand0, hand1],
        rules={"advance_all": True},
        table={0: DOWN_A[2]},
        phases_completed=[1, 1],
        hand_number=2,
        stage="play",
    )
    result = hand_ended(play(game, Discard(SKIP, 1))).result
    assert result.went_out is None
    assert list(game.phases_completed) == [2, 2]


# ---------------------------------------------------------------- R20 phase lists in play


@pytest.mark.parametrize(
    "rules, sequence",
    [
        ({}, [1, 2, 3]),
        ({"phases": "even"}, [2, 4, 6]),
        ({"phases": [2, 4, 8]}, [2, 4, 8]),
        ({"phases": [1, 5, 9, 10]}, [1, 5, 9]),
    ],
)
def test_r20_phases_are_played_in_the_listed_order(rules, sequence):
    from phase10_env.engine import Game

    game = Game(2, rules=rules, seed=5)
    assert game.phase_of(0) == sequence[0] and game.phase_of(1) == sequence[0]
    cfg = load_rules(rules)
    for step, phase in enumerate(sequence[:-1]):
        layout = DOWN_A[phase]
        game = build_game(["Y1", "R9 B9"], rules=cfg, table={0: layout}, phases_completed=[step, step], stage="play")
        assert game.phase_of(0) == phase
        play(game, Discard(c("Y1")))
        assert game.phase_of(0) == sequence[step + 1]
        assert game.phase_of(1) == phase


DOWN_C10 = [("set", 8, "R8 B8 G8 Y8 R8"), ("set", 6, "B6 G6 Y6")]


@pytest.mark.parametrize(
    "scores, totals, outcome, seats",
    [
        ((100, 90, 95), (100, 100, 100), "replay", (0, 1, 2)),
        ((100, 90, 100), (100, 100, 105), "replay", (0, 1)),
        ((100, 95, 100), (100, 105, 105), "win", (0,)),
        ((100, 80, 90), (100, 90, 95), "win", (1,)),
    ],
)
def test_r19_three_completed_only_the_tied_lowest_replay(scores, totals, outcome, seats):
    # all three laid phase 10; seat 0 goes out, seat 1 keeps 10 points, seat 2 keeps 5
    game = build_game(
        ["Y1", "R10", "B2"],
        table={0: DOWN_A[10], 1: DOWN_B[10], 2: DOWN_C10},
        phases_completed=[9, 9, 9],
        scores=list(scores),
        stage="play",
    )
    events = play(game, Discard(c("Y1")))
    assert tuple(hand_ended(events).result.scores) == totals
    if outcome == "replay":
        assert TieReplay(seats) in events
        assert not events_of(events, GameEnded)
        assert not game.is_over
        assert tuple(s for s in range(3) if game.active[s]) == seats
    else:
        assert GameEnded(seats) in events
        assert not events_of(events, TieReplay)
        assert game.is_over


@pytest.mark.parametrize("rules, last, idx", LAST_PHASE_CONFIGS, ids=CONFIG_IDS)
def test_r19_last_phase_laid_in_a_hand_no_one_goes_out_still_ends_the_game(rules, last, idx):
    # R7 + R19: seat 0 laid the last phase; the hand ends with no card to draw
    cfg = load_rules(rules)
    layout = DOWN_A[last]
    on_table = " ".join(cards for _, _, cards in layout)
    hand1 = "B1 B2"
    hand0 = "S " + rest_of_deck("S", hand1, on_table)
    game = build_game(
        [hand0, hand1],
        rules=cfg,
        table={0: layout},
        phases_completed=[idx, idx],
        scores=[500, 0],
        stage="play",
    )
    events = play(game, Discard(SKIP, 1))
    result = hand_ended(events).result
    assert result.went_out is None
    assert GameEnded((0,)) in events  # the only one who completed the last phase
    assert game.is_over


def test_r20_advance_all_last_hand_ends_the_game_even_if_no_one_made_the_phase():
    hand1 = "B1 B2"
    hand0 = "S Y1 " + rest_of_deck("S Y1", hand1)
    game = build_game(
        [hand0, hand1],
        rules={"advance_all": True},
        phases_completed=[9, 9],
        hand_number=10,
        scores=[0, 500],
        stage="play",
    )
    events = play(game, Discard(SKIP, 1))
    result = hand_ended(events).result
    assert result.went_out is None and list(result.made_phase) == [False, False]
    totals = [hand_points(hand0) - 15, 500 + hand_points(hand1)]
    assert list(result.scores) == totals
    winner = 0 if totals[0] < totals[1] else 1
    assert GameEnded((winner,)) in events
    assert game.is_over
