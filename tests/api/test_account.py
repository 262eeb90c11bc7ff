"""/api/account: a guest keeps its account, a registered person changes password
and name (unique ignoring case and NFKC look-alikes), anyone deletes their own account; bad input
is a clear error and changes nothing."""

import pytest

from app.main import SESSION_COOKIE
from tests.support.accounts import Member
from tests.support.players import Player, hello, started_table


def new_cookie(client, answer) -> str:
    cookie = answer.cookies[SESSION_COOKIE]
    client.cookies.clear()
    return cookie


def test_a_guest_keeps_its_games_and_seats_by_registering(client):
    Member(client, "Ada")  # the site's first registered account: the admin
    gus, bo = Player(client, "Gus"), Player(client, "Bo")
    running = started_table(gus, [bo])
    waiting = gus.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    taken = gus.post("/api/account/register", {"name": "ａｄａ", "password": "long-enough-1"})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "conflict"
    short = gus.post("/api/account/register", {"name": "Gus", "password": "short"})
    assert short.status_code == 400
    assert gus.get("/api/auth/me").json() == {"id": gus.id, "name": "Gus", "guest": True, "admin": False,
                                              "confirm_moves": None, "language": None}
    kept = gus.post("/api/account/register", {"name": "Gustav", "password": "long-enough-1"})
    assert kept.status_code == 200
    assert kept.json() == {"id": gus.id, "name": "Gustav", "guest": False, "admin": False,
                           "confirm_moves": None, "language": None}
    assert gus.post("/api/account/register", {"name": "Gustav2", "password": "long-enough-1"}).status_code == 409
    gus.post("/api/auth/logout")
    again = client.post("/api/auth/login", json={"name": "GUSTAV", "password": "long-enough-1"})
    assert again.status_code == 200 and again.json()["id"] == gus.id
    gus.cookie = new_cookie(client, again)
    assert {table["id"]: table["my_seat"] for table in gus.get("/api/tables/mine").json()} == {waiting: 0, running: 0}
    with gus.websocket(running) as socket:
        assert hello(socket)["seat"] == 0


def test_a_guest_on_a_fresh_site_becomes_its_admin_by_registering(client):
    gus = Player(client, "Gus")
    assert gus.post("/api/account/register", {"name": "Gus", "password": "long-enough-1"}).json()["admin"] is True


def test_changing_the_password_needs_the_current_one_and_ends_other_sessions(client):
    ada = Member(client, "Ada", "first-password")
    other_device = ada.login()
    other_cookie = new_cookie(client, other_device)
    wrong = ada.post("/api/account/password", {"current_password": "not-it-at-all", "new_password": "second-password"})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "forbidden"
    short = ada.post("/api/account/password", {"current_password": "first-password", "new_password": "short"})
    assert short.status_code == 400 and short.json()["error"]["code"] == "bad_request"
    assert client.get("/api/auth/me", headers={"cookie": f"{SESSION_COOKIE}={other_cookie}"}).status_code == 200
    changed = ada.post("/api/account/password", {"current_password": "first-password",
                                                 "new_password": "second-password"})
    assert changed.status_code == 200
    ada.cookie = new_cookie(client, changed)
    assert ada.get("/api/auth/me").json()["name"] == "Ada"  # this browser stays in
    assert client.get("/api/auth/me", headers={"cookie": f"{SESSION_COOKIE}={other_cookie}"}).status_code == 401
    assert ada.login("first-password").status_code == 401
    assert ada.login("second-password").status_code == 200
    guest = Player(client, "Gus")
    refused = guest.post("/api/account/password", {"current_password": "", "new_password": "second-password"})
    assert refused.status_code == 409


@pytest.mark.parametrize("blank", [" " * 8, "\t" * 10, "  abc   ", "\u00a0" * 8 + "abcdefg"])
def test_a_password_of_white_space_is_refused_at_sign_up_and_at_a_change(client, blank):
    """Eight spaces are eight characters, yet no password: fewer than 8 characters left once the
    white space at its ends is taken off is refused wherever a password is chosen, in the usual
    error shape, and changes nothing."""
    refused = client.post("/api/auth/register", json={"name": "Blank", "password": blank})
    assert refused.status_code == 400
    assert refused.json() == {"error": {"code": "bad_request",
                                        "message": "a password needs 8 characters besides any spaces at its start and end"}}
    assert client.post("/api/auth/login", json={"name": "Blank", "password": blank}).status_code == 401  # no account was made
    gus = Player(client, "Gus")
    assert gus.post("/api/account/register", {"name": "Gus", "password": blank}).json()["error"]["code"] == "bad_request"
    ada = Member(client, "Ada", "first-password")
    changed = ada.post("/api/account/password", {"current_password": "first-password", "new_password": blank})
    assert changed.status_code == 400 and changed.json()["error"]["code"] == "bad_request"
    assert ada.login("first-password").status_code == 200


def test_spaces_inside_a_password_count_and_it_is_kept_as_typed(client):
    """A passphrase's inner spaces are part of it; spaces at its ends are kept too (the password is
    hashed as typed), they only do not count towards the 8 characters."""
    assert Member(client, "Ana", "camel caravan").login("camel caravan").status_code == 200
    bo = Member(client, "Bo", "  12345678  ")
    assert bo.login("  12345678  ").status_code == 200
    assert bo.login("12345678").status_code == 401
    french = client.post("/api/auth/register", json={"name": "Cy", "password": " " * 9},
                         headers={"Accept-Language": "fr"})
    assert french.json()["error"]["message"] == "un mot de passe doit avoir 8 caractères en plus des espaces au début et à la fin"


def test_renaming_keeps_names_unique_ignoring_case_and_look_alikes(client):
    ada, bo = Member(client, "Ada"), Member(client, "Bo")
    table_id = started_table(bo, [Player(client, "Cy")])
    for look_alike in ("ADA", "ａｄａ", "Ａda"):
        refused = bo.post("/api/account/name", {"name": look_alike})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "conflict", look_alike
    for bad in ("", "x" * 33, "Bo (bot)", "Deleted Player"):
        assert bo.post("/api/account/name", {"name": bad}).status_code == 400, bad
    assert bo.get("/api/auth/me").json()["name"] == "Bo"
    assert bo.post("/api/account/name", {"name": "BO"}).json()["name"] == "BO"  # its own name, another case
    assert bo.post("/api/account/name", {"name": "Bodil"}).json()["name"] == "Bodil"
    assert [seat["name"] for seat in bo.get(f"/api/tables/{table_id}").json()["seats"]] == ["Bodil", "Cy"]
    assert bo.login(name="bodil").status_code == 200
    assert bo.login(name="Bo").status_code == 401
    assert ada.post("/api/account/name", {"name": "Bo"}).json()["name"] == "Bo"  # free again


def test_names_that_look_like_a_registered_one_in_another_alphabet_are_refused(client):
    Member(client, "Anna")
    gus, bo = Player(client, "Gus"), Member(client, "Bo")
    mixed = bo.post("/api/account/name", {"name": "\u0410nna"})  # a Cyrillic A before Latin "nna"
    assert mixed.status_code == 400 and "mix alphabets" in mixed.json()["error"]["message"]
    cyrillic = bo.post("/api/account/name", {"name": "\u0410\u043f\u043f\u0430"})  # Cyrillic letters only
    assert cyrillic.status_code == 200  # no Latin look-alike of every letter: a name of its own
    twin = "\u0410\u043e\u0440"  # Cyrillic "Аор", read as Latin "Aop"
    Member(client, "Aop")
    refused = gus.post("/api/account/register", {"name": twin, "password": "long-enough"})
    assert refused.status_code == 409 and refused.json()["error"] == {
        "code": "conflict", "message": f"the name {twin!r} looks like the registered name 'Aop'"}
    assert gus.get("/api/auth/me").json()["guest"] is True
    assert bo.post("/api/account/name", {"name": twin}).status_code == 409
    assert bo.get("/api/auth/me").json()["name"] == "\u0410\u043f\u043f\u0430"
    assert bo.post("/api/account/name", {"name": "Олег"}).status_code == 200  # Cyrillic, like no Latin name


def test_deleting_an_account_keeps_its_games_under_deleted_player(client):
    ada, bo = Member(client, "Ada"), Player(client, "Bo")
    running = started_table(ada, [bo])
    ada.post(f"/api/tables/{running}/chat", {"text": "good game"})
    hosted = ada.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()["id"]
    wrong = ada.post("/api/account/delete", {"password": "not-the-password"})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "forbidden"
    assert ada.post("/api/account/delete", {}).status_code == 403
    assert ada.get("/api/auth/me").status_code == 200
    assert ada.post("/api/account/delete", {"password": ada.password}).json() == {}
    assert ada.get("/api/auth/me").status_code == 401
    assert ada.login().status_code == 401
    table = bo.get(f"/api/tables/{running}").json()
    assert [(seat["account_id"], seat["name"], seat["takeover"]) for seat in table["seats"]] == [
        (ada.id, "deleted player", "resigned"), (bo.id, "Bo", None)]
    assert [message["name"] for message in bo.get(f"/api/tables/{running}/chat").json()["messages"]] == ["deleted player"]
    assert bo.get(f"/api/tables/{hosted}").json()["status"] == "closed"
    profile = bo.get(f"/api/players/{ada.id}").json()
    assert (profile["name"], profile["deleted"], profile["guest"], [game["id"] for game in profile["games"]]) == (
        "deleted player", True, False, [running])
    assert Member(client, "Ada").id != ada.id  # the name is free again


def test_a_guest_deletes_its_account_without_a_password(client):
    gus = Player(client, "Gus")
    assert gus.post("/api/account/delete", {}).json() == {}
    assert gus.get("/api/auth/me").status_code == 401


def test_confirm_my_moves_is_kept_with_the_account_and_read_on_every_device(client):
    """The setting is the account's, so a second device (another session of the
    same account) reads what the first one chose; null gives the choice back to each device."""
    ada, bo = Member(client, "Ada"), Member(client, "Bo")
    phone = new_cookie(client, ada.login())
    on_the_phone = {"cookie": f"{SESSION_COOKIE}={phone}"}
    assert ada.get("/api/auth/me").json()["confirm_moves"] is None  # every device decides at first
    chosen = ada.post("/api/account/settings", {"confirm_moves": True})
    assert chosen.status_code == 200 and chosen.json()["confirm_moves"] is True
    assert client.get("/api/auth/me", headers=on_the_phone).json()["confirm_moves"] is True
    assert ada.login().json()["confirm_moves"] is True  # a new sign-in brings it along
    assert bo.get("/api/auth/me").json()["confirm_moves"] is None  # nobody else's
    off = client.post("/api/account/settings", json={"confirm_moves": False}, headers=on_the_phone)
    assert off.json()["confirm_moves"] is False
    assert ada.get("/api/auth/me").json()["confirm_moves"] is False
    assert ada.post("/api/account/settings", {"confirm_moves": None}).json()["confirm_moves"] is None
    assert client.get("/api/auth/me", headers=on_the_phone).json()["confirm_moves"] is None


def test_a_guest_keeps_the_setting_too_and_bad_settings_change_nothing(client):
    gus = Player(client, "Gus")
    assert gus.post("/api/account/settings", {"confirm_moves": True}).json()["confirm_moves"] is True
    for bad in ({"confirm_moves": "false"}, {"confirm_moves": 0}, {"confirm_moves": []}, {},
                {"confirm_moves": False, "confirm": False}, {"dark_mode": True}, [False], None):
        refused = gus.post("/api/account/settings", bad)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_request", bad
        assert gus.get("/api/auth/me").json()["confirm_moves"] is True, bad
    assert client.post("/api/account/settings", json={"confirm_moves": False}).status_code == 401
    assert gus.get("/api/auth/me").json()["confirm_moves"] is True
