"""The busiest moments of every page, set up once through the REST API for the look tests
(tests/e2e/test_look_and_fit_browser.py) and the before/after pictures (docs/make_screenshots.py).

A moment is a page address and the guest who looks at it: the lobby, a profile, a rules page, a
replay, and each game's main states (Through the Desert and Nimalia against a bot, a Nomadi card
offer with Trading on, a waiting player's banner, Heroes core and full, a Heroes battle's tactic
choice, a Heroes solo table). Tables are steered by legal moves only (the rules stay on the server).
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field

from tests.support.nomadi_steering import steer as steer_nomadi

NAMES = ("Ana", "Ben", "Cy")
MAX_STEERED_MOVES = 600


@dataclass
class Moments:
    """Signed-in guests (``storage`` by name, Playwright storage states) and the moments:
    ``pages[moment] = (guest name, path)``; ``boards[moment]`` the CSS selector of its board."""

    base: str
    storage: dict[str, dict] = field(default_factory=dict)
    pages: dict[str, tuple[str, str]] = field(default_factory=dict)
    boards: dict[str, str] = field(default_factory=dict)


def _post(request, base: str, path: str, body: dict | None = None) -> dict:
    answer = request.post(f"{base}{path}", data=body or {})
    assert answer.ok, f"POST {path}: {answer.status} {answer.text()}"
    return answer.json()


def _game(request, base: str, table_id: int) -> dict:
    return request.get(f"{base}/api/games/{table_id}").json()


def _move(request, base: str, table_id: int, game: dict, move: dict) -> None:
    _post(request, base, f"/api/games/{table_id}/moves", {"id": str(uuid.uuid4()), "version": game["version"], "move": move})


def _table(requests, base: str, ruleset: str, options: dict, bots: int = 0) -> int:
    """A started table of ``ruleset``: the guests of ``requests`` (host first) and ``bots`` bots."""
    host = requests[0]
    seats = len(requests) + bots
    table_id = _post(host, base, "/api/tables", {"ruleset": ruleset, "seats": seats, "options": options})["id"]
    for request in requests[1:]:
        _post(request, base, f"/api/tables/{table_id}/join")
    for seat in range(len(requests), seats):
        _post(host, base, f"/api/tables/{table_id}/bots", {"seat": seat})
    _post(host, base, f"/api/tables/{table_id}/start")
    return table_id


def _steer_nomadi_to_an_offer(requests, base: str, table_id: int) -> int:
    """Steered legal moves until a card is to be offered; the seat that offers it."""
    rng = random.Random(5)
    for _ in range(MAX_STEERED_MOVES):
        games = [_game(request, base, table_id) for request in requests]
        if games[0]["view"]["phase"] == "claim":
            return games[0]["view"]["current"]
        assert games[0]["status"] == "running", "the game ended before a card was offered"
        request, game = next((request, game) for request, game in zip(requests, games) if game["legal"])
        _move(request, base, table_id, game, steer_nomadi(game, rng))
    raise AssertionError(f"no card was offered within {MAX_STEERED_MOVES} moves")


def _steer_heroes_to_a_battle(requests, base: str) -> tuple[int, int]:
    """A 3-player core table steered until a battle's tactic choice; its id and a seat in the battle."""
    from tests.e2e.test_heroes_browser import BATTLE_PHASES, steer_to_battle

    table_id = _table(requests, base, "heroes", {"first_player": "host", "nomads": "none", "edition": "core"})
    enemies = {0: 1, 1: 0, 2: None}
    for _ in range(MAX_STEERED_MOVES):
        games = [_game(request, base, table_id) for request in requests]
        assert games[0]["status"] == "running", "the game ended before a battle"
        if games[0]["view"]["phase"] in BATTLE_PHASES:
            return table_id, games[0]["view"]["pending"]["battle"]["defender"]
        seat = min(games[0]["to_act"])
        _move(requests[seat], base, table_id, games[seat], steer_to_battle(games[seat], seat, enemies[seat]))
    raise AssertionError(f"no battle within {MAX_STEERED_MOVES} moves")


def set_up(chromium, base: str) -> Moments:
    """Sign in the guests and set up every moment (about half a minute on a quiet machine)."""
    moments = Moments(base)
    requests = {}
    for name in NAMES:
        context = chromium.new_context()
        _post(context.request, base, "/api/auth/guest", {"name": name})
        requests[name] = context.request
        moments.storage[name] = context.storage_state()
    ana, ben, cy = (requests[name] for name in NAMES)
    me = ana.get(f"{base}/api/auth/me").json()
    account = me["id"]

    ttd = _table([ana], base, "through-the-desert", {}, bots=1)
    nimalia = _table([ana], base, "nimalia", {}, bots=1)
    nomadi = _table([ana, ben], base, "nomadi", {"trading": True, "first_player": "host"})
    offering = _steer_nomadi_to_an_offer([ana, ben], base, nomadi)
    core = _table([ana], base, "heroes", {"edition": "core", "first_player": "host"}, bots=1)
    full = _table([ana], base, "heroes", {"edition": "full", "first_player": "host"}, bots=1)
    solo = _table([ana], base, "heroes", {"edition": "full"})
    battle, defender = _steer_heroes_to_a_battle([ana, ben, cy], base)

    moments.pages = {
        "lobby": ("Ana", "/"),
        "profile": ("Ana", f"/players/{account}"),
        "rules": ("Ana", "/rules/through-the-desert"),
        "replay": ("Ana", f"/tables/{nomadi}?version=3"),
        "through-the-desert": ("Ana", f"/tables/{ttd}"),
        "nimalia-draft": ("Ana", f"/tables/{nimalia}"),
        "nomadi-offer": (NAMES[offering], f"/tables/{nomadi}"),
        "waiting": (NAMES[1 - offering], f"/tables/{nomadi}"),
        "heroes-core": ("Ana", f"/tables/{core}"),
        "heroes-full": ("Ana", f"/tables/{full}"),
        "heroes-solo": ("Ana", f"/tables/{solo}"),
        "heroes-battle": (NAMES[defender], f"/tables/{battle}"),
    }
    moments.boards = {
        "replay": "#replay-board svg.nomadi-board",
        "through-the-desert": "#board svg.ttd-board",
        "nimalia-draft": "#board .nim-mine .nim-grid",
        "nomadi-offer": "#board svg.nomadi-board",
        "waiting": "#board svg.nomadi-board",
        "heroes-core": "#board svg.hx-map",
        "heroes-full": "#board svg.hx-map",
        "heroes-solo": "#board svg.hx-map",
        "heroes-battle": "#board svg.hx-map",
    }
    return moments
