#!/usr/bin/env python
"""Pictures of the moments where a page used to be hard to read or did not fit (run from the
repository root):

    python docs/make_moment_screenshots.py after     # or: before

Starts the server on a fresh SQLite file, sets up the moments of tests/e2e/moments.py and writes
docs/screenshots/moment-<name>-<label>.png: the waiting player's banner in dark colours, Heroes'
resource chips and Action Bar in dark colours, Nimalia's first draft at 1280 x 800, a Nomadi card
offer with Trading at 1280 x 800 and on a 390 x 844 phone, and a rules page's first screen.
When ``pngquant`` is on the PATH the pictures are reduced to 256 colours. Not run by the tests.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from docs.make_screenshots import shrink  # noqa: E402
from tests.e2e.moments import set_up  # noqa: E402
from tests.support.server import ServerProcess  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PICTURES = {  # picture name -> (moment, browser context, colour scheme)
    "waiting-dark": ("waiting", DESKTOP, "dark"),
    "heroes-chips-dark": ("heroes-core", DESKTOP, "dark"),
    "nimalia-first-draft": ("nimalia-draft", DESKTOP, "light"),
    "nomadi-offer": ("nomadi-offer", DESKTOP, "light"),
    "nomadi-offer-phone": ("nomadi-offer", PHONE, "light"),
    "through-the-desert-phone": ("through-the-desert", PHONE, "light"),
    "heroes-battle": ("heroes-battle", DESKTOP, "light"),
    "rules": ("rules", DESKTOP, "light"),
}


def main() -> None:
    """Photograph every picture of PICTURES, named with the label given on the command line."""
    label = sys.argv[1] if len(sys.argv) > 1 else "after"
    with tempfile.TemporaryDirectory() as scratch:
        server = ServerProcess(f"sqlite+aiosqlite:///{scratch}/shots.db", workdir=Path(scratch)).start(timeout=240)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                moments = set_up(browser, server.base_url)
                for name, (moment, context, scheme) in PICTURES.items():
                    who, path = moments.pages[moment]
                    page = browser.new_context(storage_state=moments.storage[who], color_scheme=scheme, **context).new_page()
                    page.goto(f"{server.base_url}{path}")
                    if path.startswith("/tables/"):
                        page.wait_for_selector('body[data-connection="live"]')
                    page.wait_for_timeout(800)
                    target = OUT / f"moment-{name}-{label}.png"
                    page.screenshot(path=str(target))
                    shrink(target)
                    print(f"wrote {target.relative_to(ROOT)} ({target.stat().st_size // 1024} KB)")
                    page.context.close()
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
