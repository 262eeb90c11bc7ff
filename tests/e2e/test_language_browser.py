"""The language a person reads, in real Chromium: a French browser gets French pages (its
Accept-Language), the header's chooser switches this browser and the account, and the account's
choice follows the person into another browser that asks for English."""

from __future__ import annotations

import pytest

from tests.e2e.pages import api, sign_in

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def test_the_chooser_switches_the_page_and_the_account_which_another_browser_follows(live_server, chromium):
    page = sign_in(chromium, live_server, "Amelie", locale="fr-FR")  # Accept-Language: fr-FR
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    chooser = page.locator("#language-chooser")
    expect(chooser).to_have_value("auto")  # nothing chosen: the browser's language
    expect(chooser).to_have_accessible_name("Language · Langue")

    chooser.select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")  # the page loaded again in English
    expect(page.locator("#language-chooser")).to_have_value("en")
    assert api(page, live_server, "GET", "/api/auth/me")["language"] == "en"
    cookies = {cookie["name"]: cookie["value"] for cookie in page.context.cookies()}
    assert cookies["caravanserai_lang"] == "en"

    page.locator("#language-chooser").select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert api(page, live_server, "GET", "/api/auth/me")["language"] == "fr"
    page.goto(f"{live_server}/rules/through-the-desert")
    expect(page.locator("h2").first).to_have_text("Jouer en 2 minutes")

    # The same account in an English browser: the account's French wins and is kept there too.
    session = next(cookie for cookie in page.context.cookies() if cookie["name"] != "caravanserai_lang")
    other = chromium.new_context(locale="en-US")
    other.add_cookies([session])
    elsewhere = other.new_page()
    elsewhere.goto(f"{live_server}/")
    expect(elsewhere.locator("html")).to_have_attribute("lang", "fr")
    assert {cookie["name"]: cookie["value"] for cookie in other.cookies()}["caravanserai_lang"] == "fr"


def test_on_a_phone_the_account_panel_chooses_the_language(live_server, chromium):
    """A phone's header has no room for the chooser (hidden at 480 px and less); the person's own
    profile page offers the same choice in its Account panel, which saves the account's setting."""
    page = sign_in(chromium, live_server, "Nadia", width=390, height=844, locale="en-US")
    expect(page.locator("#language-chooser")).to_be_hidden()
    me = api(page, live_server, "GET", "/api/auth/me")
    page.goto(f"{live_server}/players/{me['id']}")
    chooser = page.get_by_label("Language of the site")
    expect(chooser).to_be_visible()
    expect(chooser).to_have_value("auto")
    chooser.select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")  # the page loaded again in French
    expect(page.locator("#account-title")).to_have_text("Compte")
    expect(page.get_by_label("Langue du site")).to_have_value("fr")
    assert api(page, live_server, "GET", "/api/auth/me")["language"] == "fr"


def test_french_elides_before_a_name_or_word_that_starts_with_a_vowel(live_server, chromium):
    """A template says "En attente de {name}" once; filled with "Amélie" it must read "d'Amélie"
    (and "qu'", "l'"), never before a consonant or an "h" (mute or aspirated: left as written),
    and never in English."""
    probe = """async () => {
        const { elided } = await import('/static/js/i18n.js');
        return [elided('En attente de ', 'Amélie'), elided('En attente de ', 'Bruno'),
                elided('Connecté en tant que ', 'Ève'), elided('la ', 'Hache'), elided('vers la ', 'Oasis'),
                elided('de ', '3 PV'), elided('Monde ', 'Ana')];
    }"""
    french = sign_in(chromium, live_server, "Elise", locale="fr-FR")
    expect(french.locator("html")).to_have_attribute("lang", "fr")
    assert french.evaluate(probe) == ["En attente d'", "En attente de ", "Connecté en tant qu'", "la ", "vers l'",
                                      "de ", "Monde "]
    english = sign_in(chromium, live_server, "Ellis", locale="en-US")
    assert english.evaluate(probe)[0] == "En attente de "  # an English page elides nothing
