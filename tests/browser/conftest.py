"""Fixtures of the browser tests: they skip when playwright, chromium or the web extra is
missing, except with PHASE10_REQUIRE_BROWSER=1 (CI), where that is a failure."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.harness import REQUIRE_ENV, chromium, live_server, missing_tools


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    missing = missing_tools()
    if missing:
        message = "the browser tests need " + ", ".join(missing)
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{message} ({REQUIRE_ENV}=1)", pytrace=False)
        pytest.skip(message)
    with chromium() as b:
        yield b


@pytest.fixture(scope="session")
def server_url(browser: Any) -> Iterator[str]:
    with live_server() as url:
        yield url


SIZES = {"desktop": {"viewport": {"width": 1200, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
                   "device_scale_factor": 3}}


def open_page(browser: Any, url: str, size: str = "desktop") -> tuple[Any, Any]:
    """A new browser context of ``size`` (SIZES) on ``url``, once the page is ready."""
    context = browser.new_context(**SIZES[size], accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(url)
    page.wait_for_selector('body[data-ready="1"]', state="attached")
    return context, page


@pytest.fixture
def page(browser: Any, server_url: str) -> Iterator[Any]:
    context, page = open_page(browser, server_url)
    yield page
    context.close()


@pytest.fixture(params=list(SIZES))
def any_size_page(request: pytest.FixtureRequest, browser: Any, server_url: str) -> Iterator[Any]:
    """The page at each size: a desktop window and a phone's 390 px."""
    context, page = open_page(browser, server_url, request.param)
    yield page
    context.close()
