#!/usr/bin/env python
"""Screenshots of each game's table for docs/playing.md (run from the repository root).

    python docs/make_screenshots.py

Starts the server on a fresh SQLite file (tests/support/server.py), seats two guests at a table
of each game, plays some random legal moves through the REST API, and photographs the page of
the player to act in Debian's Chromium (desktop 1280 x 900, and a 375 px phone), into
docs/screenshots/<game>.png and <game>-phone.png.  Nothing here runs in the test suite.
"""

from __future__ import annotations

import random
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.support.server import ServerProcess  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
GAMES = {  # ruleset -> (table options, random moves to play before the picture)
    "through-the-desert": ({}, 24),
    "nimalia": ({}, 14),
    "nomadi": ({"first_player": "host"}, 40),
    "heroes": ({"first_player": "host"}, 30),
}


def guest(browser, base: str, name: str, **context):
    page = browser.new_context(**context).new_page()
    page.goto(f"{base}/")
    page.fill("#guest-name", name)
    page.click("#guest-login")
    page.wait_for_selector("#who-name")
    return page


def play(pages, base: str, table_id: int, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        games = [page.request.get(f"{base}/api/games/{table_id}").json() for page in pages]
        movers = [(page, game) for page, game in zip(pages, games) if game["legal"]]
        if not movers or games[0]["status"] != "running":
            return
        page, game = movers[0]
        page.request.post(f"{base}/api/games/{table_id}/moves",
                          data={"id": str(uuid.uuid4()), "version": game["version"], "move": rng.choice(game["legal"])})


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        server = ServerProcess(f"sqlite+aiosqlite:///{scratch}/shots.db", workdir=Path(scratch)).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                for ruleset, (options, moves) in GAMES.items():
                    for suffix, context in (("", {"viewport": {"width": 1280, "height": 900}}),
                                            ("-phone", {"viewport": {"width": 375, "height": 812}, "is_mobile": True,
                                                        "has_touch": True, "device_scale_factor": 2})):
                        ana, bo = guest(browser, server.base_url, "Ana", **context), guest(browser, server.base_url, "Bo", **context)
                        table_id = ana.request.post(f"{server.base_url}/api/tables",
                                                    data={"ruleset": ruleset, "seats": 2, "options": options}).json()["id"]
                        bo.request.post(f"{server.base_url}/api/tables/{table_id}/join", data={})
                        ana.request.post(f"{server.base_url}/api/tables/{table_id}/start", data={})
                        play([ana, bo], server.base_url, table_id, moves, random.Random(7))
                        game = ana.request.get(f"{server.base_url}/api/games/{table_id}").json()
                        page = ana if game["legal"] or not bo else bo
                        page.goto(f"{server.base_url}/tables/{table_id}")
                        page.wait_for_selector('body[data-connection="live"]')
                        page.wait_for_timeout(800)  # the last move's highlight settles
                        target = OUT / f"{ruleset}{suffix}.png"
                        page.screenshot(path=str(target), full_page=suffix == "-phone")
                        print(f"wrote {target.relative_to(ROOT)}")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
