"""E-mails and their link pages in the recipient's language (the account's setting), whatever the
language of whoever caused them: the confirmation mail, its page, and a turn mail, in French for
a French account and in English for the other player of the same game."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.test_notifications import Registered, follow, notify_settings
from tests.support.mailbox import link, text_of
from tests.support.players import started_table


@pytest.fixture
def client(database_url, mailbox):
    with TestClient(create_app(notify_settings(database_url, mailbox))) as test_client:
        yield test_client


def test_mails_are_written_in_the_recipients_language(client, mailbox):
    cy, dee = Registered(client, "Cy"), Registered(client, "Dee")
    assert cy.post("/api/account/settings", {"language": "fr"}).json()["language"] == "fr"

    assert cy.put("/api/notifications/email", {"address": "cy@example.org"}).status_code == 200
    [confirmation] = mailbox.wait_for("cy@example.org")
    assert confirmation["Subject"] == "Confirmez votre adresse pour Caravanserai"
    assert text_of(confirmation).replace("\r\n", "\n").startswith("Bonjour Cy,\n\nPour recevoir un e-mail de Caravanserai quand c'est votre tour")
    page = follow(client, link(confirmation, "/notifications/confirm"))  # from the mail: no cookie, no Accept-Language
    assert page.status_code == 200 and '<html lang="fr"' in page.text and "Adresse confirmée" in page.text

    assert dee.put("/api/notifications/email", {"address": "dee@example.net"}).status_code == 200
    [english] = mailbox.wait_for("dee@example.net")
    assert english["Subject"] == "Confirm your address for Caravanserai"
    follow(client, link(english, "/notifications/confirm"))

    table_id = started_table(cy, [dee])  # Cy's turn first
    [_, turn_mail] = mailbox.wait_for("cy@example.org", 2)
    assert turn_mail["Subject"] == f"À vous de jouer\u00a0: Toy race (table {table_id})"
    text = text_of(turn_mail).replace("\r\n", "\n")
    assert text.startswith("Bonjour Cy,") and "C'est à vous de jouer." in text
    assert "Pour ne plus recevoir ces e-mails, suivez ce lien\u00a0: http://testserver/notifications/unsubscribe" in text

    assert cy.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
    [_, dees_turn] = mailbox.wait_for("dee@example.net", 2)
    assert dees_turn["Subject"] == f"Your turn in Toy race (table {table_id})"
    assert text_of(dees_turn).startswith("Hello Dee,") and "It is your move." in text_of(dees_turn)
