"""R1 deck, R2 players, R3 deal, R4 opening card."""

from functools import cache

import pytest

from phase10_env.engine import (
    DECK_COUNTS,
    SKIP,
    WILD,
    Discard,
    Draw,
    Game,
    Stage,
    TurnLost,
    build_game,
    card,
    card_name,
    load_rules,
)
from tests.engine.p10_rules_helpers import (
    Hit,
    all_cards_accounted,
    assert_illegal,
    assert_legal,
    c,
    deck_as_kinds,
    draws_in,
    events_of,
    expected_first_player,
    hand_ended,
    parse_cards,
    play,
)

# ---------------------------------------------------------------- R1 deck


def test_r1_deck_has_two_of_each_number_in_each_colour_eight_wilds_four_skips():
    for colour in range(4):
        for number in range(1, 13):
            assert DECK_COUNTS[card(number, colour)] == 2, (number, colour)
    assert DECK_COUNTS[WILD] == 8
    assert DECK_COUNTS[SKIP] == 4
    assert sum(DECK_COUNTS) == 108
    # 48 coloured kinds + Wild + Skip, nothing else
    assert sum(1 for n in DECK_COUNTS if n) == 50


def test_r1_card_names_are_colour_and_number():
    assert card_name(card(7, 0)) == "R7"
    assert card_name(card(12, 1)) == "B12"
    assert card_name(card(1, 2)) == "G1"
    assert card_name(card(10, 3)) == "Y10"
    assert card_name(WILD) == "W"
    assert card_name(SKIP) == "S"
    assert c("R7") == card(7, 0)
    assert len({card(n, col) for n in range(1, 13) for col in range(4)} | {WILD, SKIP}) == 50


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_r1_a_dealt_game_holds_exactly_the_108_card_deck(num_players, seed):
    game = Game(num_players, seed=seed)
    assert all_cards_accounted(game) == deck_as_kinds()
    assert sum(all_cards_accounted(game).values()) == 108


# ---------------------------------------------------------------- R2 players


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_r2_two_to_six_players_may_play(num_players):
    game = Game(num_players, seed=3)
    assert game.num_players == num_players
    assert len(game.hands) == num_players


@pytest.mark.parametrize("num_players", [0, 1, 7, 8])
def test_r2_fewer_than_two_or_more_than_six_players_rejected(num_players):
    with pytest.raises(ValueError):
        Game(num_players, seed=0)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_r2_play_goes_clockwise_in_seat_order(num_players):
    hands = ["R1 R2 R3", "B1 B2 B3", "G1 G2 G3", "Y1 Y2 Y3", "R4 R5 R6", "B4 B5 B6"][:num_players]
    for seat in range(num_players):
        game = build_game(hands, current=seat, stage="play", discard="G12")
        to_discard = parse_cards(hands[seat])[0]
        game.apply(Discard(to_discard))
        assert game.current == (seat + 1) % num_players
        assert game.stage == Stage.DRAW


def test_r2_full_round_visits_every_seat_once_in_order():
    hands = ["R1 R2 R3 R4", "B1 B2 B3 B4", "G1 G2 G3 G4", "Y1 Y2 Y3 Y4"]
    game = build_game(hands, current=0, stage="draw", discard="G12")
    order = []
    for _ in range(8):
        order.append(game.current)
        game.apply(Draw())
        discard = next(m for m in game.legal_moves() if isinstance(m, Discard) and m.card != SKIP)
        game.apply(discard)
    assert order == [0, 1, 2, 3, 0, 1, 2, 3]


# ---------------------------------------------------------------- R3 deal


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_r3_deal_ten_each_one_up_card_rest_is_draw_pile(num_players):
    game = Game(num_players, seed=11)
    assert list(game.hand_sizes) == [10] * num_players
    assert all(sum(game.hands[s]) == 10 for s in range(num_players))
    assert len(game.discard_pile) == 1
    assert len(game.draw_pile) == 108 - 10 * num_players - 1
    assert game.hand_number == 1
    assert all(len(game.table[s]) == 0 for s in range(num_players))


@cache
def _seed_with_opening(num_players, want_skip, first_dealer=None):
    for seed in range(20000):
        game = Game(num_players, seed=seed, first_dealer=first_dealer)
        if (game.discard_pile[-1] == SKIP) == want_skip:
            return seed
    raise AssertionError("no seed found")


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_r3_player_left_of_dealer_starts(num_players):
    for dealer in range(num_players):
        seed = _seed_with_opening(num_players, False, dealer)
        game = Game(num_players, seed=seed, first_dealer=dealer)
        assert game.dealer == dealer
        assert game.current == (dealer + 1) % num_players
        assert game.stage == Stage.DRAW


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_r3_default_first_dealer_is_last_seat_so_seat_0_starts(num_players):
    seed = _seed_with_opening(num_players, False)
    game = Game(num_players, seed=seed)
    assert game.dealer == num_players - 1
    assert game.current == 0


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_r3_deal_passes_left_each_hand(num_players):
    for dealer in range(num_players):
        goer = (dealer + 1) % num_players
        hands = ["R1 R2", "B1 B2", "G1 G2", "Y1 Y2", "R3 R4", "B3 B4"][:num_players]
        hands[goer] = "R7"
        game = build_game(
            hands,
            table={goer: [("set", 7, "B7 G7 Y7"), ("set", 9, "R9 B9 G9")]},
            phases_completed=[0] * num_players,
            current=goer,
            dealer=dealer,
            stage="play",
        )
        events = game.apply(Hit(goer, 0, c("R7")))
        assert hand_ended(events).result.went_out == goer
        new_dealer = (dealer + 1) % num_players
        assert game.dealer == new_dealer
        assert game.hand_number == 2
        # the new hand is dealt like the first one (R3)
        assert list(game.hand_sizes) == [10] * num_players
        assert len(game.discard_pile) == 1
        assert len(game.draw_pile) == 108 - 10 * num_players - 1
        assert all(len(game.table[s]) == 0 for s in range(num_players))
        assert all_cards_accounted(game) == deck_as_kinds()
        assert game.current == expected_first_player(new_dealer, num_players, game.discard_pile[-1])
        assert game.stage == Stage.DRAW


# ---------------------------------------------------------------- R4 opening card


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_r4_opening_skip_costs_the_first_player_their_first_turn(num_players):
    seed = _seed_with_opening(num_players, True)
    game = Game(num_players, seed=seed)  # dealer is the last seat, so seat 0 would start
    assert game.discard_pile[-1] == SKIP
    assert game.current == 1
    assert game.stage == Stage.DRAW
    assert game.hand_sizes[0] == 10  # the skipped player did nothing
    # the Skip up-card may not be taken (R5)
    assert_illegal(game, Draw(from_discard=True))
    assert draws_in(game) == [Draw(from_discard=False)]


def test_r4_after_opening_skip_the_skipped_player_plays_in_the_next_round_two_players():
    seed = _seed_with_opening(2, True)
    game = Game(2, seed=seed)
    assert game.current == 1
    game.apply(Draw())
    discard = next(m for m in game.legal_moves() if isinstance(m, Discard) and m.card != SKIP)
    events = game.apply(discard)
    assert not events_of(events, TurnLost)
    assert game.current == 0
    assert game.stage == Stage.DRAW


@cache
def _seed_opening_skip_and_seat1_holds_skip(skip_rule):
    for seed in range(50000):
        game = Game(3, rules=load_rules(None, skip_rule=skip_rule), seed=seed)
        if game.discard_pile[-1] == SKIP and game.hands[1][SKIP] > 0:
            return seed
    raise AssertionError("no seed found")


@pytest.mark.parametrize(
    "skip_rule, may_skip_seat0_again",
    [("not_twice_in_a_row", False), ("pending_only", True), ("once_per_hand", False)],
)
def test_r4_first_turn_lost_to_opening_skip_counts_as_turn_lost_to_a_skip(skip_rule, may_skip_seat0_again):
    seed = _seed_opening_skip_and_seat1_holds_skip(skip_rule)
    game = Game(3, rules=load_rules(None, skip_rule=skip_rule), seed=seed)
    assert game.current == 1
    game.apply(Draw())
    # seat 0 lost its first turn to the opening Skip and has not played since
    if may_skip_seat0_again:
        assert_legal(game, Discard(SKIP, 0))
    else:
        assert_illegal(game, Discard(SKIP, 0))
    assert_legal(game, Discard(SKIP, 2))


@pytest.mark.parametrize("num_players", [2, 3, 4, 6])
def test_r4_opening_wild_may_be_taken_by_the_first_player(num_players):
    for seed in range(20000):
        game = Game(num_players, seed=seed)
        if game.discard_pile[-1] == WILD:
            break
    else:
        raise AssertionError("no seed found")
    first = game.current
    assert first == 0
    wilds_before = game.hands[first][WILD]
    play(game, Draw(from_discard=True))
    assert game.hands[first][WILD] == wilds_before + 1
    assert game.hand_sizes[first] == 11
    assert game.discard_pile == []
    assert game.stage == Stage.PLAY


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_r4_opening_skip_in_a_later_hand_costs_that_hands_first_player(num_players):
    # end hand 1 in many shuffles until the next hand's up-card is a Skip
    for seed in range(3000):
        hands = ["R7", "B1 B2", "G1 G2", "Y1 Y2"][:num_players]
        game = build_game(
            hands,
            table={0: [("set", 7, "B7 G7 Y7"), ("set", 9, "R9 B9 G9")]},
            current=0,
            dealer=num_players - 1,
            stage="play",
            seed=seed,
        )
        events = game.apply(Hit(0, 0, c("R7")))
        if game.discard_pile[-1] == SKIP:
            break
    else:
        raise AssertionError("no shuffle found")
    assert game.dealer == 0
    first = 1  # left of the new dealer
    assert TurnLost(first) in events
    assert game.current == (first + 1) % num_players
    assert game.hand_sizes[first] == 10
