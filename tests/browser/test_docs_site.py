"""The documentation site builds with ``mkdocs build --strict`` (a broken link, a missing
reference or a docstring that does not render fails it) and its pages load in chromium from a
local server with no request leaving the machine (docs/screenshots.py takes the README's
pictures the same way)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.docs.helpers import docs_module

pytestmark = pytest.mark.browser


SHOTS = docs_module("screenshots")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("mkdocs", reason="the docs extra (pip install -e '.[docs]', in dev too) is not installed")
    folder = tmp_path_factory.mktemp("site")
    SHOTS.build_site(folder)
    with SHOTS.served(folder) as base:
        yield base


@pytest.mark.parametrize("name, shows", [("getting-started/", "Install: the two commands"),
                                         ("environment/#actions", "301-349"),
                                         ("reference/env/", "Phase10VectorEnv"),
                                         ("tutorials/search-agent/", "DiscardSearch")])
def test_a_page_of_the_site_loads_everything_from_the_site(browser: Any, site: str, name: str, shows: str) -> None:
    page, elsewhere = SHOTS.open_page(browser, site, name)
    try:
        assert elsewhere == []
        assert shows in page.inner_text("article")
    finally:
        page.close()
