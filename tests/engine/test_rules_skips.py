"""R15 Skips, under every skip_rule setting."""

import pytest

from phase10_env.engine import SKIP, Discard, Draw, Stage, TurnLost, build_game
from tests.engine.p10_rules_helpers import (
    SKIP_RULES,
    Hit,
    assert_illegal,
    c,
    events_of,
    hand_counter,
    play,
    skip_targets_allowed,
)

# each seat holds Skips and plain cards; the draw pile is whatever is left
HANDS = ["S S R1 R2 R3", "S B1 B2 B3 B4", "S G1 G2 G3 G4", "Y1 Y2 Y3 Y4 Y5", "R5 R6 R7 R8", "B5 B6 B7 B8"]


def _game(num_players, skip_rule, current=0, stage="play", **kw):
    return build_game(
        HANDS[:num_players],
        rules={"skip_rule": skip_rule},
        current=current,
        stage=stage,
        discard="Y12",
        **kw,
    )


def _plain_turn(game):
    """The current player draws and discards a plain (non-Skip) card."""
    seat = game.current
    play(game, Draw())
    card = next(k for k in range(48) if game.hands[seat][k])
    return play(game, Discard(card))


# ---------------------------------------------------------------- the basic effect


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r15_skip_discard_makes_the_chosen_player_lose_their_next_turn(skip_rule):
    game = _game(3, skip_rule)
    hand1 = hand_counter(game, 1)
    events = play(game, Discard(SKIP, 1))
    assert TurnLost(1) in events
    assert game.current == 2 and game.stage == Stage.DRAW
    assert hand_counter(game, 1) == hand1  # the skipped player did nothing
    assert game.discard_pile[-1] == SKIP


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r15_skip_on_a_later_player_takes_effect_when_their_turn_comes(skip_rule):
    game = _game(4, skip_rule)
    events = play(game, Discard(SKIP, 2))
    assert not events_of(events, TurnLost)
    assert game.current == 1
    hand2 = hand_counter(game, 2)
    events = _plain_turn(game)
    assert TurnLost(2) in events
    assert game.current == 3
    assert hand_counter(game, 2) == hand2


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r15_discarding_a_skip_is_the_turns_discard(skip_rule):
    game = _game(3, skip_rule)
    size = game.hand_sizes[0]
    play(game, Discard(SKIP, 2))
    assert game.hand_sizes[0] == size - 1
    assert game.current == 1
    assert_illegal(game, Discard(c("B1")))  # seat 1 must draw first; seat 0's turn is over


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r15_cannot_skip_yourself_or_a_seat_not_in_the_game(skip_rule):
    game = _game(3, skip_rule)
    assert_illegal(game, Discard(SKIP, 0))
    assert_illegal(game, Discard(SKIP, 3))
    assert skip_targets_allowed(game) == {1, 2}


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r15_must_choose_a_player_when_one_can_be_chosen(skip_rule):
    game = _game(3, skip_rule)
    assert_illegal(game, Discard(SKIP, None))


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r15_two_players_skipping_the_other_means_playing_again_at_once(skip_rule):
    game = _game(2, skip_rule)
    events = play(game, Discard(SKIP, 1))
    assert TurnLost(1) in events
    assert game.current == 0
    assert game.stage == Stage.DRAW  # the next turn starts with a draw
    assert_illegal(game, Discard(c("R1")))
    play(game, Draw())


# ---------------------------------------------------------------- who may be chosen


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r15_player_with_a_skip_already_waiting_cannot_be_chosen(skip_rule):
    # forbidden by every setting (once_per_hand: it would be a second Skip this hand)
    game = _game(4, skip_rule)
    play(game, Discard(SKIP, 2))
    assert game.current == 1
    play(game, Draw())
    assert_illegal(game, Discard(SKIP, 2))
    assert 2 not in skip_targets_allowed(game)
    play(game, Discard(SKIP, 3))


@pytest.mark.parametrize(
    "skip_rule, allowed",
    [("not_twice_in_a_row", False), ("pending_only", True), ("once_per_hand", False)],
)
def test_r15_player_whose_last_turn_was_skipped_and_has_not_played_since(skip_rule, allowed):
    game = _game(3, skip_rule)
    play(game, Discard(SKIP, 1))  # seat 1 loses its turn; seat 2 plays
    assert game.current == 2
    play(game, Draw())
    if allowed:
        play(game, Discard(SKIP, 1))
        assert game.current == 0
        events = _plain_turn(game)
        assert TurnLost(1) in events
        assert game.current == 2
    else:
        assert_illegal(game, Discard(SKIP, 1))
        assert skip_targets_allowed(game) == {0}


@pytest.mark.parametrize(
    "skip_rule, allowed",
    [("not_twice_in_a_row", True), ("pending_only", True), ("once_per_hand", False)],
)
def test_r15_player_skipped_earlier_this_hand_who_has_played_since(skip_rule, allowed):
    game = _game(3, skip_rule)
    play(game, Discard(SKIP, 1))  # seat 1 loses its turn
    _plain_turn(game)  # seat 2
    _plain_turn(game)  # seat 0
    assert game.current == 1
    _plain_turn(game)  # seat 1 plays again
    play(game, Draw())  # seat 2
    if allowed:
        play(game, Discard(SKIP, 1))
        assert game.current == 0
        events = _plain_turn(game)
        assert TurnLost(1) in events
    else:
        assert_illegal(game, Discard(SKIP, 1))
        assert skip_targets_allowed(game) == {0}


@pytest.mark.parametrize(
    "skip_rule, seat1_allowed",
    [("not_twice_in_a_row", False), ("pending_only", True), ("once_per_hand", False)],
)
def test_r15_when_no_player_can_be_chosen_the_skip_is_discarded_to_no_effect(skip_rule, seat1_allowed):
    game = _game(2, skip_rule)
    play(game, Discard(SKIP, 1))  # seat 1 loses its turn; seat 0 plays again at once
    assert game.current == 0
    play(game, Draw())
    if seat1_allowed:
        assert skip_targets_allowed(game) == {1}
        assert_illegal(game, Discard(SKIP, None))
        events = play(game, Discard(SKIP, 1))
        assert TurnLost(1) in events and game.current == 0
    else:
        assert skip_targets_allowed(game) == {None}
        assert_illegal(game, Discard(SKIP, 1))
        size = game.hand_sizes[0]
        events = play(game, Discard(SKIP, None))
        assert not events_of(events, TurnLost)
        assert game.hand_sizes[0] == size - 1
        assert game.current == 1 and game.stage == Stage.DRAW


@pytest.mark.parametrize(
    "skip_rule, allowed",
    [("not_twice_in_a_row", True), ("pending_only", True), ("once_per_hand", False)],
)
def test_r15_two_players_skipping_again_after_the_other_has_played(skip_rule, allowed):
    game = _game(2, skip_rule)
    play(game, Discard(SKIP, 1))
    _plain_turn(game)  # seat 0 again
    assert game.current == 1
    _plain_turn(game)  # seat 1 plays
    play(game, Draw())  # seat 0
    if allowed:
        events = play(game, Discard(SKIP, 1))
        assert TurnLost(1) in events and game.current == 0
    else:
        assert skip_targets_allowed(game) == {None}
        play(game, Discard(SKIP, None))
        assert game.current == 1


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r15_skipping_one_player_leaves_others_choosable(skip_rule):
    game = _game(4, skip_rule)
    play(game, Discard(SKIP, 1))  # seat 1 loses its turn, seat 2 plays
    assert game.current == 2
    play(game, Draw())
    assert {0, 3} <= skip_targets_allowed(game)
    play(game, Discard(SKIP, 3))
    assert game.current == 0  # seat 3 lost its turn


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r15_skipped_player_does_nothing_on_the_lost_turn(skip_rule):
    game = _game(3, skip_rule)
    draw_before = len(game.draw_pile)
    hand1 = hand_counter(game, 1)
    play(game, Discard(SKIP, 1))
    assert hand_counter(game, 1) == hand1
    assert len(game.draw_pile) == draw_before
    assert game.discard_pile[-1] == SKIP
    assert game.current == 2


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
def test_r15_each_new_hand_starts_with_no_one_skipped(skip_rule):
    # seat 1 was skipped this hand; seat 0 goes out and a new hand is dealt
    game = build_game(
        ["R7", "B1 B2 B3"],
        rules={"skip_rule": skip_rule},
        table={0: [("set", 7, "B7 G7 Y7"), ("set", 9, "R9 B9 G9")]},
        phases_completed=[0, 0],
        skipped_this_hand=(1,),
        stage="play",
    )
    play(game, Hit(0, 0, c("R7")))
    assert game.hand_number == 2
    view = game.view(0)
    if game.discard_pile[-1] != SKIP:  # an opening Skip would itself cost the first player (R4)
        assert not any(p.skipped_this_hand for p in view.players)
        assert not any(p.lost_turn for p in view.players)
    assert not any(p.skip_pending for p in view.players)


# (state of seats 1 and 2, expected choosable seats per rule); seat 0 holds a Skip
BLOCKING_STATES = {
    "skip_waiting": (
        dict(skip_pending=(1, 2), skipped_this_hand=(1, 2)),
        {"not_twice_in_a_row": {None}, "pending_only": {None}, "once_per_hand": {None}},
    ),
    "turn_just_lost": (
        dict(lost_turn=(1, 2), skipped_this_hand=(1, 2)),
        {"not_twice_in_a_row": {None}, "pending_only": {1, 2}, "once_per_hand": {None}},
    ),
    "skipped_earlier_played_since": (
        dict(skipped_this_hand=(1, 2)),
        {"not_twice_in_a_row": {1, 2}, "pending_only": {1, 2}, "once_per_hand": {None}},
    ),
    "mixed": (
        dict(skip_pending=(1,), lost_turn=(2,), skipped_this_hand=(1, 2)),
        {"not_twice_in_a_row": {None}, "pending_only": {2}, "once_per_hand": {None}},
    ),
}


@pytest.mark.parametrize("skip_rule", SKIP_RULES)
@pytest.mark.parametrize("state", list(BLOCKING_STATES))
def test_r15_three_players_who_may_be_chosen(skip_rule, state):
    flags, expected = BLOCKING_STATES[state]
    game = _game(3, skip_rule, **flags)
    allowed = expected[skip_rule]
    assert skip_targets_allowed(game) == allowed
    if allowed == {None}:
        assert_illegal(game, Discard(SKIP, 1))
        assert_illegal(game, Discard(SKIP, 2))
        events = play(game, Discard(SKIP, None))
        # this Skip has no effect: only the Skips already waiting make turns lost
        lost = [e.seat for e in events_of(events, TurnLost)]
        assert sorted(lost) == sorted(flags.get("skip_pending", ()))
    else:
        assert_illegal(game, Discard(SKIP, None))
        for seat in (1, 2):
            if seat not in allowed:
                assert_illegal(game, Discard(SKIP, seat))
