"""The agreement measure: a student asked at every teacher decision with a choice, counted by
the kind of the teacher's move."""

from __future__ import annotations

from agents.evaluation.agreement import agreement


def test_the_heuristic_agrees_with_itself_on_every_decision() -> None:
    same = agreement("heuristic", "heuristic", games=2)
    assert sum(same.decisions.values()) > 100 and same.agreed == same.decisions and same.rate() == 1.0
    assert {"draw", "discard"} <= set(same.decisions)


def test_random_moves_agree_with_the_heuristic_only_by_chance() -> None:
    chance = agreement("random", "heuristic", games=2)
    assert chance.decisions == agreement("heuristic", "heuristic", games=2).decisions  # the same games
    assert 0.0 < chance.rate() < 0.7
    # chance is one over the legal actions: about one card in ten early in a hand, more as it shrinks
    assert chance.rate("discard") < 0.3
    assert agreement("random", "heuristic", games=2) == chance  # the same seed, the same random choices
    assert "discard" in chance.table() and "all" in chance.table()
