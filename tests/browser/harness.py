"""What the browser tests (and the README's screenshot) need: the web app served on a free
loopback port in a thread, and Debian's chromium driven headless by Playwright (its own browser
download cannot work offline).

    python tests/browser/harness.py docs/serve.png     # re-takes the README's screenshot
"""

from __future__ import annotations

import os
import shutil
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
REQUIRE_ENV = "PHASE10_REQUIRE_BROWSER"


def missing_tools() -> list[str]:
    """What the browser tests need and this machine lacks, as install hints."""
    missing = []
    for module, hint in (("playwright", "pip install playwright"), ("uvicorn", "pip install -e '.[web]'"),
                         ("starlette", "pip install -e '.[web]'")):
        try:
            __import__(module)
        except ImportError:
            missing.append(f"{module} ({hint})")
    if shutil.which("chromium") is None:
        missing.append("chromium (apt-get install -y chromium)")
    return missing


@contextmanager
def live_server(**app_options: Any) -> Iterator[str]:
    """The app (``build_app(**app_options)``) served by uvicorn in a thread; yields its base URL."""
    import uvicorn

    from agents.web.app import build_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(build_app(**app_options), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the web app's server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Debian chromium under Playwright (a ``Browser``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def wait_ready(page: Any) -> None:
    """Wait until the page has no request under way (it marks ``body[data-ready="1"]``)."""
    page.wait_for_selector('body[data-ready="1"]', state="attached")


def click_action(page: Any, index: int = 0) -> str:
    """Click the ``index``-th legal action button; returns its words."""
    button = page.locator("#actions button").nth(index)
    words = button.inner_text()
    button.click()
    wait_ready(page)
    return words


def screenshot(path: str) -> None:
    """The README's picture: a 3-player game against two heuristic bots, the human's phase down."""
    with live_server(agents=["human", "heuristic", "heuristic"], seed=4) as url, chromium() as browser:
        page = browser.new_page(viewport={"width": 1180, "height": 760})
        page.goto(url)
        wait_ready(page)
        for _ in range(200):  # until the human (who plays the first legal action) has laid down
            first = page.locator("#actions button").first.inner_text()
            if page.locator(".player.me .group").count() and first == "draw from the deck":
                break
            click_action(page)
        page.screenshot(path=path)
    try:  # 64 colours draw this flat page as well as millions, in a third of the bytes
        from PIL import Image

        Image.open(path).convert("RGB").quantize(64).save(path, optimize=True)
    except ImportError:
        pass
    print(f"wrote {path} ({Path(path).stat().st_size // 1024} KB)")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    os.chdir(Path(__file__).resolve().parents[2])
    screenshot(sys.argv[1] if len(sys.argv) > 1 else "docs/serve.png")
