"""Turn notices, the digest and the push payload in the recipient's language (app/services/notify)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from app.services.notify.messages import WaitingGame, digest_notice, due_text, invitation_notice, turn_notice
from app.services.notify.push import payload

NOW = datetime(2026, 3, 5, 12, 0, tzinfo=timezone.utc)


def test_a_turn_notice_in_french():
    notice = turn_notice(WaitingGame(12, "Nimalia", NOW + timedelta(days=2, hours=5)), NOW, "fr")
    assert notice.title == "À vous de jouer\u00a0: Nimalia (table 12)"
    assert notice.lines == ("C'est à vous de jouer, à jouer sous 2\u00a0jours.",) and notice.language == "fr"
    assert turn_notice(WaitingGame(12, "Nimalia"), NOW, "en").title == "Your turn in Nimalia (table 12)"


def test_due_texts_follow_french_plurals():
    assert due_text(NOW + timedelta(hours=1, minutes=59), NOW, "fr") == "à jouer sous 1\u00a0heure"
    assert due_text(NOW + timedelta(minutes=2), NOW, "fr") == "à jouer sous 2\u00a0minutes"
    assert due_text(NOW - timedelta(seconds=1), NOW, "fr") == "en retard"


def test_a_digest_and_its_push_payload_in_french():
    games = [WaitingGame(table, "T" * 200) for table in range(1, 60)]
    notice = digest_notice(games, "/players/3", NOW, "fr")
    assert notice.title == "À vous de jouer dans 59\u00a0parties"
    last = json.loads(payload(notice))["body"].split("\n")[-1]
    assert last.startswith("et ") and last.endswith(" autres")


def test_an_invitation_in_french():
    notice = invitation_notice("Ana", WaitingGame(7, "Nomadi"), rematch=True, language="fr")
    assert notice.title == "Ana propose une revanche\u00a0: Nomadi (table 7)"
    assert notice.lines == ("Acceptez ou refusez en haut de n'importe quelle page du site.",)


def test_what_a_tables_players_agree_to_in_french():
    from types import SimpleNamespace

    from app.rulesets.through_the_desert.rules import ThroughTheDesert
    from app.services.tables.terms import terms

    table = SimpleNamespace(seat_count=3, pace="turn_based", move_seconds=2 * 86400, rated=False,
                            options={"piles": "zman", "hide_well_values": False})
    assert terms(ThroughTheDesert(), table, ["Ana", "Bo (asked)"], "fr") == (
        "Ana, Bo (asked) et 1 place libre · au tour par tour · 2\u00a0jours par coup · amicale · "
        "options\u00a0: Chameaux par pile\u00a0: Édition Z-Man, Garder secrets les puits pris\u00a0: non")
    assert terms(ThroughTheDesert(), table, ["Ana", "Bo (asked)"]) == (
        "Ana, Bo (asked) and 1 free seat · turn-based · 2 days per move · friendly · "
        "options: Camels per pile: Z-Man edition, Keep taken wells secret: off")
