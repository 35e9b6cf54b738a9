"""The compiled lay-down search (phase10_env/engine/_search.c) must find exactly the lay-downs,
in the same order, that the Python reference search finds, for every hand and phase."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10_env.engine import search
from phase10_env.engine.cards import NUM_NUMBERS
from phase10_env.engine.phases import PHASES, GroupKind, Meld, NaturalRule, Requirement
from phase10_env.engine.search import search_laydowns

pytestmark = pytest.mark.compiled("lay-down search")

# A hand's natural cards per number (index 0 unused), up to all 8 of a number.
supplies = st.lists(st.integers(0, 8), min_size=NUM_NUMBERS, max_size=NUM_NUMBERS).map(lambda s: [0] + s)
requirement = st.builds(Requirement, st.sampled_from([GroupKind.SET, GroupKind.RUN]), st.integers(1, NUM_NUMBERS))
standard_phases = st.sampled_from([reqs for reqs in PHASES.values() if reqs[0].kind != GroupKind.COLOUR])
any_phase = st.one_of(standard_phases, st.lists(requirement, min_size=1, max_size=2).map(tuple))


@settings(max_examples=2000, deadline=None)
@given(supply=supplies, wilds=st.integers(0, 8), requirements=any_phase, rule=st.sampled_from(list(NaturalRule)))
def test_compiled_search_finds_what_the_reference_finds(supply, wilds, requirements, rule):
    reference_supply = list(supply)
    expected = search_laydowns(reference_supply, wilds, requirements, rule)
    assert reference_supply == supply  # the reference puts back what it borrows
    assert search.laydowns_from_supply(supply, wilds, requirements, rule) == expected


def test_a_hand_with_two_sets_lists_every_pair_once():
    supply = [0] * (NUM_NUMBERS + 1)
    supply[3], supply[7], supply[9] = 3, 3, 2
    found = search.laydowns_from_supply(supply, 1, PHASES[1], NaturalRule.PER_PHASE)
    assert found == [(Meld(0, 3, 3), Meld(0, 7, 3)), (Meld(0, 3, 3), Meld(0, 9, 3)), (Meld(0, 7, 3), Meld(0, 9, 3))]


def test_bad_supply_is_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="supply must hold 13 counts"):
        search.laydowns_from_supply([1, 2, 3], 0, PHASES[1], NaturalRule.PER_PHASE)
