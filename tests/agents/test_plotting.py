"""Figures need matplotlib, an optional dependency: without it, a tool that draws says which
figure needs it and which extra brings it, instead of a bare ImportError."""

from __future__ import annotations

import importlib.util

import pytest

from agents import plotting


def test_without_matplotlib_a_figure_names_itself_and_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None)
    assert not plotting.can_plot()
    with pytest.raises(ImportError, match=r"the ladder's PNG needs matplotlib \(in the train extra"):
        plotting.pyplot("the ladder's PNG")


def test_with_matplotlib_figures_draw_to_files() -> None:
    pytest.importorskip("matplotlib")
    assert plotting.can_plot()
    assert plotting.pyplot("a figure").get_backend().lower() == "agg"
