#!/usr/bin/env python
"""Screenshots of each game's table for docs/playing.md (run from the repository root).

    python docs/make_screenshots.py

Starts the server on a fresh SQLite file (tests/support/server.py), seats two guests at a table
of each game (one guest against the Enemy for Heroes solo), plays some random legal moves through
the REST API, and photographs the page of the player to act in Debian's Chromium at the two sizes
every game must fit without scrolling the board (desktop 1280 x 800, phone 390 x 844), in the
light and the dark colour scheme, into docs/screenshots/<game>[-phone][-dark].png.  When
``pngquant`` is on the PATH the pictures are reduced to 256 colours (a fifth of the bytes).
Nothing here runs in the test suite.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.support.server import ServerProcess  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
GAMES = {  # picture name -> (ruleset, seats, table options, random moves to play before the picture)
    "through-the-desert": ("through-the-desert", 2, {}, 24),
    "nimalia": ("nimalia", 2, {}, 14),
    "nomadi": ("nomadi", 2, {"first_player": "host"}, 40),
    "heroes": ("heroes", 2, {"first_player": "host"}, 30),
    "heroes-solo": ("heroes", 1, {}, 12),
}
SIZES = {  # file suffix -> browser context
    "": {"viewport": {"width": 1280, "height": 800}},
    "-phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
SCHEMES = {"": "light", "-dark": "dark"}


def guest(browser, base: str, name: str, **context):
    """A page of a new browser context signed in as guest ``name``."""
    page = browser.new_context(**context).new_page()
    page.goto(f"{base}/")
    page.fill("#guest-name", name)
    page.click("#guest-login")
    page.wait_for_selector("#who-name")
    return page


def play(pages, base: str, table_id: int, moves: int, rng: random.Random) -> None:
    """Up to ``moves`` random legal moves by whichever of ``pages`` may move."""
    for _ in range(moves):
        games = [page.request.get(f"{base}/api/games/{table_id}").json() for page in pages]
        movers = [(page, game) for page, game in zip(pages, games) if game["legal"]]
        if not movers or games[0]["status"] != "running":
            return
        page, game = movers[0]
        page.request.post(f"{base}/api/games/{table_id}/moves",
                          data={"id": str(uuid.uuid4()), "version": game["version"], "move": rng.choice(game["legal"])})


def shrink(path: Path) -> None:
    """Reduce ``path`` to 256 colours in place with pngquant, if it is installed."""
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--ext", ".png", "256", str(path)], check=False)


def photograph(browser, base: str, name: str, setup: tuple) -> None:
    """One table of the game, played a little, then every size and colour scheme of its page,
    each in a new browser context signed in as the player to act."""
    ruleset, seats, options, moves = setup
    pages = [guest(browser, base, who) for who in ("Ana", "Bo")[:seats]]
    table_id = pages[0].request.post(f"{base}/api/tables",
                                     data={"ruleset": ruleset, "seats": seats, "options": options}).json()["id"]
    for page in pages[1:]:
        page.request.post(f"{base}/api/tables/{table_id}/join", data={})
    pages[0].request.post(f"{base}/api/tables/{table_id}/start", data={})
    play(pages, base, table_id, moves, random.Random(7))
    game = pages[0].request.get(f"{base}/api/games/{table_id}").json()
    player = pages[0] if game["legal"] or len(pages) == 1 else pages[1]
    signed_in = player.context.storage_state()
    for size, context in SIZES.items():
        for scheme_suffix, scheme in SCHEMES.items():
            page = browser.new_context(storage_state=signed_in, color_scheme=scheme, **context).new_page()
            page.goto(f"{base}/tables/{table_id}")
            page.wait_for_selector('body[data-connection="live"]')
            page.wait_for_timeout(800)  # the last move's highlight settles
            target = OUT / f"{name}{size}{scheme_suffix}.png"
            page.screenshot(path=str(target))
            shrink(target)
            print(f"wrote {target.relative_to(ROOT)}")
            page.context.close()
    for page in pages:
        page.context.close()


def main() -> None:
    """Photograph the games named on the command line, or all of them."""
    OUT.mkdir(parents=True, exist_ok=True)
    wanted = sys.argv[1:] or list(GAMES)
    with tempfile.TemporaryDirectory() as scratch:
        server = ServerProcess(f"sqlite+aiosqlite:///{scratch}/shots.db", workdir=Path(scratch)).start(timeout=240)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                for name in wanted:
                    photograph(browser, server.base_url, name, GAMES[name])
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
