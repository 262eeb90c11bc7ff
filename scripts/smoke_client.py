"""Smoke test of a running server, as a visitor and a player would use it (issue 18; run by
scripts/smoke_wheel.sh against the installed wheel). Standard library only.

    python smoke_client.py http://127.0.0.1:8000

Checks the pages, every static file they name, the rules pages, then plays one whole game of
every installed ruleset through the REST API: the player's seat moves by script (the first
legal move), a bot takes the other seat. Exits non-zero with a message at the first fault.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import sys
import time
import urllib.error
import urllib.request
import uuid

EXPECTED_RULESETS = {"heroes", "nimalia", "nomadi", "through-the-desert"}
SCRIPTED_MOVES = 20  # then the player leaves: a bot plays the seat on, inside the server
GAME_SECONDS = 120


class Site:
    """One visitor (one cookie jar) of the server at ``base``."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def request(self, method: str, path: str, body: object = None, accept: str = "*/*") -> tuple[int, dict, bytes]:
        """(status, headers, body) of one request; HTTP errors are answers too."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"accept": accept}
        if data is not None:
            headers["content-type"] = "application/json"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def expect(self, method: str, path: str, status: int = 200, body: object = None, accept: str = "*/*") -> bytes:
        got, headers, content = self.request(method, path, body, accept)
        for _ in range(20):  # a quick machine outruns the site's per-second limits: wait, as a client must
            if got != 429 or status == 429:
                break
            time.sleep(1.1)
            got, headers, content = self.request(method, path, body, accept)
        if got != status:
            raise SystemExit(f"FAIL {method} {path}: {got}, expected {status}: {content[:300]!r}")
        return content

    def json(self, method: str, path: str, body: object = None, status: int = 200):
        return json.loads(self.expect(method, path, status, body, accept="application/json"))


def check_pages(site: Site, rulesets: list[str]) -> None:
    """Every page answers (GET and HEAD), with every /static/ file it names."""
    static = set()
    # a table that does not exist: its page (the same one every table has) answers 404 and explains itself
    pages = {"/": 200, "/tables/999999": 404, "/rules": 200, **{f"/rules/{name}": 200 for name in rulesets}}
    for path, status in pages.items():
        page = site.expect("GET", path, status, accept="text/html").decode()
        site.expect("HEAD", path, status, accept="text/html")
        static.update(re.findall(r'(?:src|href)="(/static/[^"]+)"', page))
    # The modules the pages import, and each game's board renderer (loaded by the table page).
    static.update(["/static/js/lobby.js", "/static/js/table.js", "/static/js/player.js"])
    static.update(f"/static/js/renderers/{name}.js" for name in EXPECTED_RULESETS | {"generic"})
    static.update(f"/static/js/renderers/{name}.css" for name in EXPECTED_RULESETS | {"generic"})  # each one's look
    for path in sorted(static):
        site.expect("GET", path)
    site.expect("GET", "/sw.js")  # the push notices' service worker, served from the root for its scope
    missing = site.expect("GET", "/no-such-page", status=404, accept="text/html").decode()
    if "<html" not in missing.lower():
        raise SystemExit("FAIL the 404 page is not the HTML page")
    print(f"ok: {len(rulesets) + 3} pages and {len(static)} static files")


def play_whole_game(site: Site, ruleset: str) -> None:
    """Seat 0 plays its first legal move each turn and a bot seat 1; after ``SCRIPTED_MOVES`` the
    player leaves, so a bot plays seat 0 too (a long game then ends quickly), and the game must end."""
    table = site.json("POST", "/api/tables", {"ruleset": ruleset, "seats": 2, "options": {}, "private": False},
                      status=201)
    table_id = table["id"]
    site.json("POST", f"/api/tables/{table_id}/bots", {"seat": 1, "level": "random"})
    site.json("POST", f"/api/tables/{table_id}/start")
    started = time.monotonic()
    scripted, handed_over = 0, False
    while time.monotonic() < started + GAME_SECONDS:
        game = site.json("GET", f"/api/games/{table_id}")
        if game["status"] == "finished":
            print(f"ok: {ruleset}: finished at version {game['version']} ({scripted} moves by script) in "
                  f"{time.monotonic() - started:.1f} s, scores {json.dumps(game['result'].get('scores'))}")
            return
        if game["legal"] and not handed_over and scripted < SCRIPTED_MOVES:
            answer = site.json("POST", f"/api/games/{table_id}/moves",
                               {"id": str(uuid.uuid4()), "version": game["version"], "move": game["legal"][0]})
            if answer["version"] <= game["version"]:  # not == +1: in simultaneous turns the bot moves meanwhile
                raise SystemExit(f"FAIL {ruleset}: the move at version {game['version']} answered {answer}")
            scripted += 1
            continue
        if game["legal"] and not handed_over:
            site.json("POST", f"/api/tables/{table_id}/leave")  # a bot plays the seat from here on
            handed_over = True
        time.sleep(0.05)  # a bot's turn
    raise SystemExit(f"FAIL {ruleset}: the game did not finish within {GAME_SECONDS} s")


def main(base: str) -> None:
    site = Site(base)
    health = site.json("GET", "/healthz")
    if health.get("status") != "ok" or not health.get("version") or not health.get("revision"):
        raise SystemExit(f"FAIL /healthz: {health}")
    site.expect("HEAD", "/healthz")
    rulesets = sorted(ruleset["name"] for ruleset in site.json("GET", "/api/rulesets"))
    if not EXPECTED_RULESETS <= set(rulesets):
        raise SystemExit(f"FAIL rulesets loaded: {rulesets}, expected at least {sorted(EXPECTED_RULESETS)}")
    print(f"ok: rulesets {', '.join(rulesets)}")
    check_pages(site, rulesets)
    site.json("POST", "/api/auth/guest", {"name": "Smoke"})
    for ruleset in rulesets:
        play_whole_game(site, ruleset)
    metrics = site.expect("GET", "/metrics").decode()
    if not re.search(r"^caravanserai_\w+", metrics, re.MULTILINE):
        raise SystemExit("FAIL /metrics has no caravanserai_ series")
    print("ok: /metrics")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
