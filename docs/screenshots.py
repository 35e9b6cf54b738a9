"""The README's pictures of the documentation site: the site built (``mkdocs build --strict``)
into a temporary folder, served on a free loopback port, and two pages (getting started, the
environment) taken by Debian's chromium under Playwright. A request for anything not on the
local server is refused and stops the run: the site must need nothing from the network.

    python docs/screenshots.py        # writes docs/site-getting-started.png, docs/site-environment.png
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# The page, and where on it: the environment at its generated action table.
PAGES = {"getting-started/": "site-getting-started.png", "environment/#actions": "site-environment.png"}
VIEWPORT = {"width": 1280, "height": 800}


def build_site(target: Path) -> None:
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(target)],
                   cwd=ROOT, check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


@contextmanager
def served(folder: Path) -> Iterator[str]:
    """``folder`` over HTTP on a free loopback port, in a thread; yields its base URL."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        thread.join(10)
        server.server_close()


def open_page(browser: Any, base: str, name: str) -> tuple[Any, list[str]]:
    """The page ``name`` of the site at ``base``, loaded; and the requests it made elsewhere
    (refused)."""
    page = browser.new_page(viewport=VIEWPORT)
    elsewhere: list[str] = []

    def only_local(route: Any) -> None:
        if route.request.url.startswith(base):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_local)
    page.goto(f"{base}/{name}", wait_until="networkidle")
    return page, elsewhere


def take(out_dir: Path) -> list[Path]:
    sys.path.insert(0, str(ROOT))
    from tests.browser.harness import chromium

    written = []
    with tempfile.TemporaryDirectory() as folder:
        build_site(Path(folder))
        with served(Path(folder)) as base, chromium() as browser:
            for name, file in PAGES.items():
                page, elsewhere = open_page(browser, base, name)
                if elsewhere:
                    raise RuntimeError(f"the page {name} asked for {elsewhere}: the site must load nothing from the network")
                path = out_dir / file
                page.screenshot(path=str(path))
                written.append(path)
    try:  # 64 colours draw these flat pages as well as millions, in a third of the bytes
        from PIL import Image

        for path in written:
            Image.open(path).convert("RGB").quantize(64).save(path, optimize=True)
    except ImportError:
        pass
    return written


if __name__ == "__main__":
    for path in take(ROOT / "docs"):
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KB)")
