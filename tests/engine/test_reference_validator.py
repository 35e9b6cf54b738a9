"""The engine's phase validation (``laydowns`` and ``allocate``) against the brute-force
reference in ``reference.py`` (written from docs/rules.md R9-R12 alone), over thousands of random
hands biased towards near-phases, for every phase and both natural rules.

Run with ``-s`` to see how many hands were checked.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from phase10_env.engine import (
    NUM_KINDS,
    PHASES,
    SKIP,
    WILD,
    GroupKind,
    LayDown,
    Meld,
    NaturalRule,
    allocate,
    build_game,
    card,
    cards_text,
    laydowns,
    parse_cards,
)
from tests.engine import reference as ref

NATURALS = {"per_phase": NaturalRule.PER_PHASE, "per_group": NaturalRule.PER_GROUP}
HANDS_CHECKED = Counter()

SETTINGS = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --------------------------------------------------------------------------- the reference itself


def test_reference_phases_match_rules_md_and_engine_data():
    # R9 written twice (reference from docs/rules.md, engine as data): they must agree.
    assert set(PHASES) == set(ref.REFERENCE_PHASES) == set(range(1, 11))
    for p, reqs in PHASES.items():
        assert [(int(r.kind), r.size) for r in reqs] == ref.REFERENCE_PHASES[p]
    assert (ref.SET, ref.RUN, ref.COLOUR) == (GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR)
    assert (ref.WILD, ref.SKIP) == (WILD, SKIP)
    assert all(ref.make_card(n, c) == card(n, c) for n in range(1, 13) for c in range(4))


def test_reference_group_check_by_hand():
    W, S = ref.WILD, ref.SKIP
    c = ref.make_card
    assert ref.forms([c(7, 0), c(7, 1), W], ref.SET, 7, 3)
    assert not ref.forms([c(7, 0), c(8, 1), W], ref.SET, 7, 3)
    assert not ref.forms([c(7, 0), c(7, 1), S], ref.SET, 7, 3)
    assert ref.forms([W, W, W], ref.SET, 12, 3)
    assert ref.forms([c(4, 0), W, c(6, 2), c(7, 3)], ref.RUN, 4, 4)
    assert not ref.forms([c(4, 0), c(4, 1), c(6, 2), c(7, 3)], ref.RUN, 4, 4)  # two 4s in one run
    assert not ref.forms([c(4, 0), W, c(6, 2), c(8, 3)], ref.RUN, 4, 4)
    assert not ref.forms([W, W, W, W], ref.RUN, 10, 4)  # 10-13 leaves 1-12
    assert not ref.forms([W, W, W, W], ref.RUN, 0, 4)
    assert ref.forms([c(1, 2)] + [W] * 6, ref.COLOUR, 2, 7)
    assert not ref.forms([c(1, 2)] + [W] * 6, ref.COLOUR, 1, 7)
    assert not ref.forms([c(1, 2)] + [W] * 5, ref.COLOUR, 2, 7)  # wrong size
    assert sorted(ref.sub_multisets(Counter([1, 1, 2]), 2)) == [(1, 1), (1, 2)]
    assert len(list(ref.sub_multisets(Counter(range(10)), 3))) == 120


TRICKY = [
    # (cards, phase, natural rule, expected) straight from docs/rules.md's "Tricky cases"
    ("R10 B10 G10 Y10 R10 B10", 1, "per_phase", True),      # two sets of the same number
    ("R10 B10 G10 Y10 R10 B10", 1, "per_group", True),
    ("R10 R11 R12 R1 R2 R3 R4", 4, "per_phase", False),     # no wrap from 12 to 1
    ("W W W W R10 B11 G12", 4, "per_phase", True),          # only as 6-12
    ("R1 R2 R3 R4 B5 B6 B7", 8, "per_phase", False),
    ("G1 W W W W W W", 8, "per_phase", True),
    ("R5 B5 G5 Y5 R5 R3 B3 G3", 10, "per_phase", True),     # set of 5 + set of 3
    ("R5 B5 G5 Y5 R3 B3 G3", 10, "per_phase", False),       # a set of 4 + 3 is not phase 10
    ("R5 B5 G5 R7 B7", 1, "per_phase", False),              # the long sheet's wrong example
    ("W W W R7 B7 G7", 1, "per_phase", True),               # a group of all Wilds, per_phase
    ("W W W R7 B7 G7", 1, "per_group", True),               # 7 W W + 7 7 W
    ("W W W W W R7", 1, "per_phase", True),
    ("W W W W W R7", 1, "per_group", False),
    ("W W W W R7 B7", 1, "per_group", True),
    ("S S S R7 B7 G7", 1, "per_phase", False),              # Skips never in a group
]


@pytest.mark.parametrize("cards, phase, natural, expected", TRICKY)
def test_tricky_cases(cards, phase, natural, expected):
    hand = parse_cards(cards)
    assert ref.can_make(hand, ref.REFERENCE_PHASES[phase], natural) == expected
    counts = bytearray(NUM_KINDS)
    for k in hand:
        counts[k] += 1
    assert bool(laydowns(counts, PHASES[phase], NATURALS[natural])) == expected


def test_tricky_run_declarations():
    hand = parse_cards("W W W W R10 B11 G12")
    counts = _counts(hand)
    got = {tuple(tuple(int(x) for x in m) for m in t) for t in laydowns(counts, PHASES[4], NaturalRule.PER_PHASE)}
    assert got == {((ref.RUN, 6, 7),)} == ref.accepted_declarations(hand, ref.REFERENCE_PHASES[4], "per_phase")


# --------------------------------------------------------------------------- hand strategies


def _counts(hand) -> bytearray:
    counts = bytearray(NUM_KINDS)
    for k in hand:
        counts[k] += 1
    return counts


def _cap_to_deck(cards: list[int]) -> list[int]:
    """Drop copies beyond the deck's (2 per natural kind, 8 Wilds, 4 Skips)."""
    limit = {WILD: 8, SKIP: 4}
    seen: Counter = Counter()
    out = []
    for c in cards:
        if seen[c] < limit.get(c, 2):
            seen[c] += 1
            out.append(c)
    return out


@st.composite
def narrow_hands(draw, min_size: int = 6, max_size: int = 12) -> list[int]:
    """Numbers from a narrow window, few colours, 0-4 Wilds, occasionally a Skip or two."""
    size = draw(st.integers(min_size, max_size))
    width = draw(st.sampled_from([1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 10, 12]))
    lo = draw(st.integers(1, 13 - width))
    colours = draw(st.sampled_from([[0], [0], [0, 1], [0, 1], [1, 2, 3], [0, 1, 2, 3]]))
    wilds = draw(st.sampled_from([0, 0, 1, 1, 2, 2, 3, 4]))
    skips = draw(st.sampled_from([0, 0, 0, 0, 0, 1, 2]))
    pool = [card(n, c) for n in range(lo, lo + width) for c in colours]
    k = max(0, size - wilds - skips)
    naturals = draw(st.lists(st.sampled_from(pool), min_size=k, max_size=k))
    return _cap_to_deck(naturals + [WILD] * wilds + [SKIP] * skips)


@st.composite
def near_phase_hands(draw, phase: int) -> list[int]:
    """A hand holding (or nearly holding) a random declaration of ``phase``: the phase's cards,
    some naturals replaced by Wilds, then up to 2 cards dropped and up to 3 near cards added."""
    cards: list[int] = []
    for kind, size in ref.REFERENCE_PHASES[phase]:
        value = draw(st.sampled_from(ref.values_for(kind, size)))
        for i in range(size):
            if kind == ref.SET:
                c = card(value, draw(st.integers(0, 3)))
            elif kind == ref.RUN:
                c = card(value + i, draw(st.integers(0, 3)))
            else:
                c = card(draw(st.integers(1, 12)), value)
            if draw(st.integers(0, 5)) == 0:
                c = WILD
            cards.append(c)
    cards = draw(st.permutations(cards))
    drop = draw(st.integers(0, 2))
    cards = list(cards[drop:])
    extra = draw(st.lists(st.one_of(st.sampled_from([WILD, SKIP]),
                                    st.builds(card, st.integers(1, 12), st.integers(0, 3))), max_size=3))
    cards = _cap_to_deck(cards + extra)
    return cards[:12]


def hands_for(phase: int):
    return st.one_of(narrow_hands(), near_phase_hands(phase))


# --------------------------------------------------------------------------- checking one hand


def _tuple(melds) -> tuple:
    return tuple(tuple(int(x) for x in m) for m in melds)


def check_allocation(hand: list[int], melds, groups, natural: str) -> None:
    """``groups`` (from ``allocate``) use only the hand's cards and form the declared melds."""
    assert len(groups) == len(melds)
    used = Counter(c for g in groups for c in g)
    have = Counter(hand)
    assert all(used[c] <= have[c] for c in used), f"allocate used cards not in the hand: {groups} from {hand}"
    for (kind, value, size), g in zip(melds, groups):
        assert len(g) == size, f"group {g} for {(kind, value, size)} has the wrong size"
        assert SKIP not in g, f"group {g} holds a Skip (R11)"
        for i, c in enumerate(g):
            if c == WILD:
                continue
            assert ref.is_natural(c), f"group {g} holds a non-card {c}"
            if kind == ref.SET:
                assert ref.number_of(c) == value, f"set of {value}s holds {c}"
            elif kind == ref.RUN:
                assert ref.number_of(c) == value + i, f"run from {value} holds {ref.number_of(c)} at place {i}: {g}"
            else:
                assert ref.colour_of(c) == value, f"colour group {value} holds colour {ref.colour_of(c)}"
    assert ref.natural_rule_holds(groups, natural), f"groups {groups} break natural_rule={natural}"


def check_hand(hand: list[int], phase: int, natural: str) -> None:
    reqs = ref.REFERENCE_PHASES[phase]
    counts = _counts(hand)
    before = bytes(counts)
    rule = NATURALS[natural]

    declarable = {d: ref.can_make_declared(hand, d, natural) for d in ref.all_declarations(reqs)}
    accepted = {ref.canonical(d, reqs) for d, ok in declarable.items() if ok}
    possible = bool(accepted)  # == ref.can_make(hand, reqs, natural), without searching twice

    got = laydowns(counts, PHASES[phase], rule)
    assert bytes(counts) == before, "laydowns changed the hand"
    got_t = [_tuple(t) for t in got]
    # non-empty iff the reference can make the phase
    assert bool(got) == possible, (
        f"phase {phase} {natural}: engine says {'yes' if got else 'no'}, reference says {'yes' if possible else 'no'} "
        f"for hand {hand} (reference: {sorted(accepted)[:3]})")
    for t in got_t:
        # in the order of the phase's requirements, each a real declaration the hand can lay
        assert [(k, s) for k, _, s in t] == reqs, f"phase {phase}: laydown {t} not in requirement order"
        assert declarable[t], (
            f"phase {phase} {natural}: engine offers {t} for hand {hand}, which the reference rejects")
    canon = [ref.canonical(t, reqs) for t in got_t]
    assert len(set(canon)) == len(canon), f"phase {phase}: laydowns lists an unordered pair twice: {got_t}"
    missing = accepted - set(canon)
    assert not missing, f"phase {phase} {natural}: hand {hand} can lay {sorted(missing)[:5]} but laydowns omits them"

    for d, ok in declarable.items():
        melds = tuple(Meld(GroupKind(k), v, s) for k, v, s in d)
        groups = allocate(counts, melds, rule)
        assert bytes(counts) == before, "allocate changed the hand"
        assert (groups is not None) == ok, (
            f"phase {phase} {natural}: allocate({hand}, {d}) is {'None' if groups is None else groups}, "
            f"reference says {'declarable' if ok else 'not declarable'} "
            f"(reference groups: {ref.find_declared(hand, d, natural)})")
        if groups is not None:
            check_allocation(hand, d, groups, natural)
        if len(d) == 2:
            # A LayDown may list its melds in any order; allocate must agree either way.
            rev = allocate(counts, melds[::-1], rule)
            assert (rev is not None) == ok, (
                f"phase {phase} {natural}: allocate({hand}, {d[::-1]}) (reversed order) is "
                f"{'None' if rev is None else rev}, reference says {'declarable' if ok else 'not declarable'}")
            if rev is not None:
                check_allocation(hand, d[::-1], rev, natural)
    check_game_path(hand, phase, natural, declarable, accepted)
    HANDS_CHECKED[(phase, natural)] += 1
    HANDS_CHECKED["positive" if possible else "negative"] += 1


def check_game_path(hand: list[int], phase: int, natural: str, declarable: dict, accepted: set) -> None:
    """The same through a Game whose current player holds ``hand`` (the move generator and
    ``is_legal`` may take their own route to the lay-downs)."""
    reqs = ref.REFERENCE_PHASES[phase]
    other = next(k for k in range(WILD) if Counter(hand)[k] < 2)
    game = build_game([cards_text(hand), cards_text([other])], current=0, stage="play",
                      rules={"phases": [phase], "natural_rule": natural})
    options = [ref.canonical(_tuple(t), reqs) for t in game.laydown_options()]
    assert len(set(options)) == len(options), f"phase {phase}: the game lists a lay-down twice: {options}"
    assert set(options) == accepted, (
        f"phase {phase} {natural}: hand {cards_text(hand)}: the game's lay-downs differ from the reference: "
        f"extra {sorted(set(options) - accepted)[:4]}, missing {sorted(accepted - set(options))[:4]}")
    legal_lays = {ref.canonical(_tuple(m.melds), reqs) for m in game.legal_moves() if isinstance(m, LayDown)}
    assert legal_lays == accepted
    # every declaration the hand can make, and a spread of those it cannot
    rejected = [d for d, ok in declarable.items() if not ok]
    for d in [d for d, ok in declarable.items() if ok] + rejected[::7]:
        ok = declarable[d]
        move = LayDown(tuple(Meld(GroupKind(k), v, s) for k, v, s in d))
        assert game.is_legal(move) == ok, (
            f"phase {phase} {natural}: is_legal({move}) for hand {cards_text(hand)} is {not ok}, reference says {ok}")


# --------------------------------------------------------------------------- the properties

MAX_EXAMPLES = 120  # per phase and natural rule: 20 x 120 = 2,400 hands (+ 100 hands x 10 phases below)


@pytest.mark.parametrize("natural", ["per_phase", "per_group"])
@pytest.mark.parametrize("phase", range(1, 11))
@settings(max_examples=MAX_EXAMPLES, **SETTINGS)
@given(data=st.data())
def test_engine_matches_reference(phase, natural, data):
    hand = data.draw(hands_for(phase), label="hand")
    check_hand(hand, phase, natural)


@settings(max_examples=100, **SETTINGS)
@given(hand=narrow_hands(min_size=6, max_size=12), natural=st.sampled_from(["per_phase", "per_group"]))
@example(hand=parse_cards("R10 B10 G10 Y10 R10 B10"), natural="per_group")
@example(hand=parse_cards("W W W W R10 B11 G12"), natural="per_phase")
@example(hand=parse_cards("R5 B5 G5 W W W W"), natural="per_group")
def test_every_phase_on_the_same_hand(hand, natural):
    """One hand against all ten phases (so phases are also compared on each other's hands)."""
    for phase in range(1, 11):
        check_hand(hand, phase, natural)


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    total = HANDS_CHECKED["positive"] + HANDS_CHECKED["negative"]
    print(f"\n[reference validator] {total} (hand, phase, natural rule) checks: "
          f"{HANDS_CHECKED['positive']} could lay the phase, {HANDS_CHECKED['negative']} could not")
