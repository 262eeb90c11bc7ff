"""Games across an upgrade, through the REST API (run by scripts/smoke_upgrade.sh). Standard library only.

    python smoke_upgrade_client.py before http://127.0.0.1:PORT STATE_DIR   # on the old release
    python smoke_upgrade_client.py after  http://127.0.0.1:PORT STATE_DIR   # on the new one

``before``: two guests, Ana and Bo, start a two-player game of every ruleset the old release has
and play a few moves of each (each seat's first legal move); their cookies and each game's version
go to ``STATE_DIR``.  ``after``: the same cookies still sign them in, every game is still running at
the version it had, and each accepts one more move from the seat to act.  Exits non-zero with a
message at the first fault.  The API calls used here are the same in both releases.
"""

from __future__ import annotations

import http.cookiejar
import json
import sys
import time
import urllib.request
import uuid
from pathlib import Path

from smoke_client import Site  # the same folder

PLAYERS = ("Ana", "Bo")
MOVES_BEFORE = 6  # per game, both seats together


def site_for(base: str, cookie_file: Path, load: bool) -> Site:
    """A :class:`Site` whose cookies are kept in ``cookie_file`` (read from it when ``load``)."""
    site = Site(base)
    jar = http.cookiejar.LWPCookieJar(str(cookie_file))
    if load:
        jar.load(ignore_discard=True, ignore_expires=True)
    site.jar = jar
    site.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    return site


def play_one(players: dict[str, Site], table_id: int) -> int:
    """The first seat with a legal move plays its first one; returns the new version."""
    for _ in range(100):
        for name, site in players.items():
            game = site.json("GET", f"/api/games/{table_id}")
            if game["status"] != "running":
                raise SystemExit(f"FAIL table {table_id} is {game['status']}, expected running")
            if game["legal"]:
                answer = site.json("POST", f"/api/games/{table_id}/moves",
                                   {"id": str(uuid.uuid4()), "version": game["version"], "move": game["legal"][0]})
                if answer["version"] <= game["version"]:
                    raise SystemExit(f"FAIL table {table_id}: {name}'s move at {game['version']} answered {answer}")
                return answer["version"]
        time.sleep(0.1)  # nobody to act (yet): the server is still working on the last move
    raise SystemExit(f"FAIL table {table_id}: no seat had a legal move for 10 s")


def before(base: str, state: Path) -> None:
    players = {name: site_for(base, state / f"{name}.cookies", load=False) for name in PLAYERS}
    accounts = {name: site.json("POST", "/api/auth/guest", {"name": name})["id"] for name, site in players.items()}
    ana, bo = players["Ana"], players["Bo"]
    rulesets = sorted(ruleset["name"] for ruleset in ana.json("GET", "/api/rulesets"))
    games = []
    for ruleset in rulesets:
        table_id = ana.json("POST", "/api/tables", {"ruleset": ruleset, "seats": 2, "options": {}, "private": False},
                            status=201)["id"]
        bo.json("POST", f"/api/tables/{table_id}/join", {"seat": 1})
        ana.json("POST", f"/api/tables/{table_id}/start")
        version = 0
        for _ in range(MOVES_BEFORE):
            version = play_one(players, table_id)
        games.append({"id": table_id, "ruleset": ruleset, "version": version})
        print(f"ok: {ruleset}: table {table_id} running at version {version}")
    for site in players.values():
        site.jar.save(ignore_discard=True, ignore_expires=True)
    (state / "games.json").write_text(json.dumps({"accounts": accounts, "games": games}))


def after(base: str, state: Path) -> None:
    saved = json.loads((state / "games.json").read_text())
    players = {name: site_for(base, state / f"{name}.cookies", load=True) for name in PLAYERS}
    for name, site in players.items():
        me = site.json("GET", "/api/auth/me")
        if me["id"] != saved["accounts"][name]:
            raise SystemExit(f"FAIL {name}'s cookie from before the upgrade signs in as {me}")
    print("ok: the cookies from before the upgrade still sign Ana and Bo in")
    for game in saved["games"]:
        now = players["Ana"].json("GET", f"/api/games/{game['id']}")
        if now["status"] != "running" or now["version"] != game["version"]:
            raise SystemExit(f"FAIL {game['ruleset']}: table {game['id']} is {now['status']} at version "
                             f"{now['version']}, was running at {game['version']}")
        version = play_one(players, game["id"])
        print(f"ok: {game['ruleset']}: table {game['id']} kept version {game['version']} and took a move "
              f"(now {version})")


if __name__ == "__main__":
    phase, base, folder = sys.argv[1:4]
    {"before": before, "after": after}[phase](base.rstrip("/"), Path(folder))
