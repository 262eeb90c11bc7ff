"""One's own profile page holds the account panel: a guest keeps the account
with a password, a wrong current password is refused in words, and the account is deleted only
after a confirmation; in real Chromium."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.e2e.pages import sign_in

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def test_a_guest_keeps_the_account_then_deletes_it_after_confirming(live_server, chromium):
    name = f"Keeper{uuid.uuid4().hex[:6]}"
    page = sign_in(chromium, live_server, "Guest")
    page.click("#my-games")
    page.wait_for_url(re.compile(r"/players/\d+$"))
    expect(page.locator("#account-section")).to_be_visible()
    page.fill("#account-keep-name", name)
    page.fill("#account-keep-password", "short")
    page.click("#account-keep button[type=submit]")
    expect(page.locator("#account-keep [role=alert]")).to_have_text("A password has 8 to 128 characters.")
    page.fill("#account-keep-password", "a-good-password")
    page.click("#account-keep button[type=submit]")
    expect(page.locator("#player-summary")).to_contain_text("Registered player")
    expect(page.locator("#who-name")).to_have_text(name)

    page.fill("#account-current-password", "not-my-password")
    page.fill("#account-new-password", "another-password")
    page.click("#account-password button[type=submit]")
    expect(page.locator("#account-password [role=alert]")).to_have_text("The current password is wrong")

    page.fill("#account-delete-password", "a-good-password")
    page.click("#account-delete-button")
    page.click('dialog [data-dialog="cancel"]')  # thought better of it: nothing happens
    expect(page.locator("#who-name")).to_have_text(name)
    page.click("#account-delete-button")
    page.click('dialog [data-dialog="ok"]')
    page.wait_for_url(f"{live_server}/")
    expect(page.locator("#guest-name")).to_be_visible()
    assert page.request.post(f"{live_server}/api/auth/login", data={"name": name, "password": "a-good-password"}).status == 401

    # Signed out: each form's error replaces the other's, so an old error never reads as the new one's.
    page.fill("#guest-name", "deleted player")
    page.click("#guest-login")
    guest_error = page.locator("#guest-form [role=alert]")
    expect(guest_error).to_be_visible()
    page.click("#auth-open")
    page.click("#auth-mode-register")
    page.fill("#auth-name", name)
    page.fill("#auth-password", "short")
    page.click("#auth-submit")
    expect(page.locator("#auth-message")).to_have_text("A password has 8 to 128 characters.")
    expect(guest_error).to_be_hidden()
    # a longer one (pasted, or a password manager's) is not cut to 128 by the field without a word
    page.fill("#auth-password", "p" * 200)
    expect(page.locator("#auth-password")).to_have_value("p" * 200)
    page.click("#auth-submit")
    expect(page.locator("#auth-message")).to_have_text("A password has 8 to 128 characters.")
    page.click("#guest-login")  # the same bad name again
    expect(guest_error).to_be_visible()
    page.click("#auth-open")  # the panel closed on the click outside it; opened again, its error is gone
    expect(page.locator("#auth-panel")).to_be_visible()
    expect(page.locator("#auth-message")).to_be_hidden()


@pytest.mark.parametrize(("locale", "blank", "unknown"), [
    ("en-GB", "A password needs 8 characters besides any spaces at its start and end", "Unknown name or wrong password"),
    ("fr-FR", "Un mot de passe doit avoir 8 caractères en plus des espaces au début et à la fin",
     "Nom inconnu ou mot de passe incorrect"),
])
def test_the_servers_refusals_read_as_sentences_in_the_sign_in_form(live_server, chromium, locale, blank, unknown):
    """The server writes its refusals to follow "...: " (lower case first); shown on their own, as
    the sign-in form shows them, they start with a capital, in English and in French. A password of
    spaces only is one of them: the browser's own length check lets it through, the server refuses it."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/")
    page.click("#auth-open")
    page.click("#auth-mode-register")
    page.fill("#auth-name", f"Blank{uuid.uuid4().hex[:6]}")
    page.fill("#auth-password", " " * 8)
    page.click("#auth-submit")
    expect(page.locator("#auth-message")).to_have_text(blank)
    page.click("#auth-mode-login")
    page.fill("#auth-name", f"Nobody{uuid.uuid4().hex[:6]}")
    page.fill("#auth-password", "not-a-password")
    page.click("#auth-submit")
    expect(page.locator("#auth-message")).to_have_text(unknown)


def test_a_signed_out_visitor_gets_no_console_error_for_not_being_signed_in(live_server, chromium):
    """Every page asks who the visitor is; for someone not signed in that is an answer, not a failed
    request: no 401 and no console error on the lobby, a table or a player's page."""
    host = sign_in(chromium, live_server, "Hostess")
    table_id = host.request.post(f"{live_server}/api/tables", data={"ruleset": "nimalia", "seats": 2, "options": {},
                                                                     "private": False}).json()["id"]
    player_id = host.request.get(f"{live_server}/api/auth/me").json()["id"]
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors, refused = [], []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("response", lambda answer: refused.append(f"{answer.status} {answer.url}") if answer.status >= 400 else None)
    for path, ready in (("/", "#guest-name"), (f"/tables/{table_id}", "#waiting-room"), (f"/players/{player_id}", "#player-name")):
        with page.expect_response(lambda answer: "/api/auth/" in answer.url) as asked:
            page.goto(f"{live_server}{path}")
        assert asked.value.status == 200, path
        expect(page.locator(ready)).to_be_visible()
        expect(page.locator("#guest-name")).to_be_visible()  # the page knows nobody is signed in
    assert refused == [] and errors == [], (refused, errors)


def test_a_password_is_measured_in_characters_as_the_server_does(live_server, chromium):
    """65 camels are 65 characters (130 UTF-16 units): the form lets the server take them."""
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{live_server}/")
    name = f"Camel{uuid.uuid4().hex[:6]}"
    page.click("#auth-open")
    page.click("#auth-mode-register")
    page.fill("#auth-name", name)
    page.fill("#auth-password", "🐪" * 65)
    page.click("#auth-submit")
    expect(page.locator("#who-name")).to_have_text(name)
