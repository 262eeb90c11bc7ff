"""Which language a person reads: Accept-Language by default, the chooser's cookie over it, the
account's setting over both (and the pages set the cookie to it); error messages of the API and
the game socket in that language, their codes English."""

from __future__ import annotations

from app.i18n import LANGUAGE_COOKIE
from app.main import SESSION_COOKIE
from tests.support.players import Player


def root(answer) -> str:
    return answer.text.split(">", 2)[1]  # "<!doctype html>" then the <html ...> element


def test_a_page_speaks_the_browsers_language_then_the_cookies(client):
    assert root(client.get("/")) == '\n<html lang="en" data-language="en"'
    assert root(client.get("/", headers={"accept-language": "fr-FR,fr;q=0.9,en;q=0.5"})) == '\n<html lang="fr" data-language="fr"'
    chosen = client.get("/tables/1", headers={"accept-language": "fr", "cookie": f"{LANGUAGE_COOKIE}=en"})
    assert 'lang="en"' in root(chosen) and LANGUAGE_COOKIE not in chosen.headers.get("set-cookie", "")
    assert "Cookie" in chosen.headers["vary"] and "Accept-Language" in chosen.headers["vary"]
    missing = client.get("/no/such/page", headers={"accept": "text/html", "accept-language": "fr"})
    assert missing.status_code == 404 and 'lang="fr"' in root(missing)


def test_the_account_setting_wins_and_the_page_writes_it_into_the_cookie(client):
    ana = Player(client, "Ana")
    chosen = ana.post("/api/account/settings", {"language": "fr"})
    assert chosen.status_code == 200 and chosen.json()["language"] == "fr"
    assert f"{LANGUAGE_COOKIE}=fr" in chosen.headers["set-cookie"]  # this browser follows at once
    assert ana.get("/api/auth/me").json()["language"] == "fr"
    # another browser of the account, which asks for English: the page is French and keeps it
    elsewhere = client.get("/", headers={"cookie": f"{SESSION_COOKIE}={ana.cookie}; {LANGUAGE_COOKIE}=en",
                                         "accept-language": "en"})
    assert 'lang="fr"' in root(elsewhere) and f"{LANGUAGE_COOKIE}=fr" in elsewhere.headers["set-cookie"]
    back = ana.post("/api/account/settings", {"language": None})
    assert back.json()["language"] is None and f'{LANGUAGE_COOKIE}=""' in back.headers["set-cookie"]


def test_a_language_the_server_does_not_speak_is_refused_and_changes_nothing(client):
    ana = Player(client, "Ana")
    ana.post("/api/account/settings", {"language": "fr"})
    for bad in ("de", "FR", "", 1, ["fr"]):
        refused = ana.post("/api/account/settings", {"language": bad})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_request", bad
    assert ana.get("/api/auth/me").json()["language"] == "fr"


def test_api_errors_are_said_in_the_readers_language_with_english_codes(client):
    english = client.post("/api/account/settings", json={"language": "fr"})
    assert english.json()["error"] == {"code": "unauthorized", "message": "log in first (as a guest or with an account)"}
    french = client.post("/api/account/settings", json={"language": "fr"}, headers={"accept-language": "fr"})
    assert french.status_code == 401
    assert french.json()["error"] == {"code": "unauthorized",
                                      "message": "connectez-vous d'abord (en invité ou avec un compte)"}
    by_cookie = client.get("/api/tables/999999", headers={"cookie": f"{LANGUAGE_COOKIE}=fr"})
    assert by_cookie.status_code == 404 and by_cookie.json()["error"]["code"] == "not_found"
    assert by_cookie.json()["error"]["message"] == "pas de table 999999"


def test_socket_errors_are_said_in_the_language_of_its_handshake(client):
    with client.websocket_connect("/ws/games/abc", headers={"accept-language": "fr-CA"}) as socket:
        frame = socket.receive_json()
    assert frame["type"] == "error" and frame["code"] == "not_found"
    assert frame["message"] == "pas de table 'abc'"


def test_through_the_desert_rules_page_in_french(client):
    french = client.get("/rules/through-the-desert", headers={"accept-language": "fr"})
    assert french.status_code == 200 and '<html lang="fr" data-language="fr">' in french.text
    assert "<h2 id=" in french.text and "Jouer en 2 minutes" in french.text and "How to play in 2 minutes" not in french.text
    assert "Sur cette page" in french.text and "← Retour au salon" in french.text
    assert "les règles numérotées de Through the Desert</a> (en anglais)" in french.text
    assert "Cookie" in french.headers["vary"]
    english = client.get("/rules/through-the-desert")
    assert '<html lang="en"' in english.text and "How to play in 2 minutes" in english.text
    numbered = client.get("/rules/through-the-desert/reference", headers={"accept-language": "fr"})
    assert "About the numbered rules" in numbered.text  # the numbered rules stay English
    other = client.get("/rules/nomadi", headers={"cookie": "caravanserai_lang=fr"})
    assert other.status_code == 200 and "← Retour au salon" in other.text  # the page's frame in French
    index = client.get("/rules", headers={"accept-language": "fr"})
    assert "Règles des jeux" in index.text and "2 à 5 joueurs" in index.text
