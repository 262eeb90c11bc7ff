"""Turn notices through real components: a loopback push service that decrypts
what it gets with the browser's keys (http_ece), and a local SMTP server (aiosmtpd).

Time for digests comes from the notifier's injected clock; "nothing more was sent" is asserted
after :meth:`Notifier.settle`, which returns once every marked game was looked at and every
notice left, never after a pause.
"""

from __future__ import annotations

import time
import uuid
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db.models import NotifyTurn
from app.main import SESSION_COOKIE, create_app
from app.services.notify import preferences, turns
from tests.conftest import make_settings
from tests.support.mailbox import Mailbox, link, text_of
from tests.support.players import Player, hello, receive_until, started_table
from tests.support.push_service import BrowserKeys, check_vapid

SENDER = "Caravanserai <games@example.org>"


class Registered(Player):
    """A registered account (name + password) logged in on ``client``."""

    def __init__(self, client: TestClient, name: str) -> None:  # noqa: super().__init__ makes a guest
        self.client = client
        response = client.post("/api/auth/register", json={"name": name, "password": "correct horse"})
        assert response.status_code == 200, response.text
        self.cookie = response.cookies[SESSION_COOKIE]
        client.cookies.clear()
        self.id = response.json()["id"]
        self.name = name

    def put(self, path, json=None):
        return self.client.put(path, json=json, headers=self.headers)

    def patch(self, path, json=None):
        return self.client.patch(path, json=json, headers=self.headers)

    def delete(self, path):
        return self.client.delete(path, headers=self.headers)


class Clock:
    """The notifier's clock, moved by hand (from the real time: move deadlines are real times)."""

    def __init__(self) -> None:
        self.now = datetime.now(timezone.utc)

    def __call__(self) -> datetime:
        return self.now


def notify_settings(database_url, mailbox=None, **overrides):
    mail = {"smtp_host": "127.0.0.1", "smtp_port": mailbox.port, "smtp_from": SENDER, "smtp_tls": "none"} if mailbox else {}
    # A send limit far above any test's duration: a test asserting "still under way" never races it.
    # A short presence refresh: a closed tab stops counting as "at the table" a few refreshes after
    # it closed (15 s with the default refresh of 5 s).
    overrides = {"public_url": "http://testserver", "push_allow_private_endpoints": True, "notify_check_seconds": 3600,
                 "notify_digest_minutes": 60, "notify_send_timeout_seconds": 300, "presence_refresh_seconds": 0.2,
                 **mail, **overrides}
    return make_settings(database_url, **overrides)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def client(database_url, mailbox, clock):
    app = create_app(notify_settings(database_url, mailbox))
    with TestClient(app) as test_client:
        app.state.notify.notifier.clock = clock
        yield test_client


def settle(client):
    client.portal.call(client.app.state.notify.notifier.settle)


def check(client):
    """The notifier's periodic look (held-back notices), now."""
    client.portal.call(client.app.state.notify.notifier.check)
    settle(client)


def check_until(client, push_service, name, count=1, seconds=20.0):
    """Run the periodic look until endpoint ``name`` got ``count`` requests (a socket closing is
    noticed by the server a moment after the client closed it)."""
    deadline = time.monotonic() + seconds
    while len(push_service.received(name)) < count:
        assert time.monotonic() < deadline, f"{name} got {len(push_service.received(name))} notices, expected {count}"
        check(client)
        time.sleep(0.02)
    return push_service.received(name)


def subscribe(player, push_service, name, answer=201):
    keys = BrowserKeys()
    answer = player.post("/api/notifications/push", keys.subscription(push_service.endpoint(name, answer)))
    assert answer.status_code == 201, answer.text
    return keys


def confirm_address(player, mailbox, address):
    answer = player.put("/api/notifications/email", {"address": address})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"address": address, "confirmed": False, "enabled": True, "available": True,
                             "allowed": True}
    [mail] = mailbox.wait_for(address)
    assert mail["Subject"] == "Confirm your address for Caravanserai"
    page = player.client.get(urlsplit(link(mail, "/notifications/confirm")).path + "?" +
                             urlsplit(link(mail, "/notifications/confirm")).query)
    assert page.status_code == 200 and "Address confirmed" in page.text
    assert player.get("/api/notifications").json()["email"]["confirmed"] is True


def follow(client, url):
    parts = urlsplit(url)
    return client.get(f"{parts.path}?{parts.query}")


def metric(client, name, **labels):
    text = client.get("/metrics").text
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    for line in text.splitlines():
        if line.startswith(f"{name}{{{wanted}}}"):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_push_notice_is_encrypted_for_the_browser_and_says_whose_turn_with_the_table_link(client, push_service):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    ana_keys, bo_keys = subscribe(ana, push_service, "ana"), subscribe(bo, push_service, "bo")
    table_id = started_table(ana, [bo])

    [request] = push_service.wait_for("ana")  # Ana (seat 0) moves first
    notice = ana_keys.decrypt(request.body)
    assert notice == {"title": f"Your turn in Toy race (table {table_id})", "body": "It is your move.",
                      "url": f"/tables/{table_id}", "tag": f"turn-{table_id}"}
    assert request.headers["content-encoding"] == "aes128gcm" and int(request.headers["ttl"]) > 0
    public_key = client.get("/api/notifications", headers=ana.headers).json()["push"]["public_key"]
    audience = "http://" + urlsplit(push_service.endpoint("ana")).netloc
    claims = check_vapid(request, public_key, audience)
    assert claims["sub"].startswith("mailto:")
    with pytest.raises(Exception):  # encrypted for Ana's browser: Bo's keys cannot read it
        bo_keys.decrypt(request.body)

    assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
    [to_bo] = push_service.wait_for("bo")
    assert bo_keys.decrypt(to_bo.body)["title"] == f"Your turn in Toy race (table {table_id})"
    settle(client)
    assert len(push_service.received("ana")) == 1 and len(push_service.received("bo")) == 1
    assert metric(client, "caravanserai_notifications_sent_total", channel="push") == 2


def test_mail_notice_reaches_the_confirmed_address_and_its_unsubscribe_link_stops_the_mails(client, mailbox):
    cy, dee = Registered(client, "Cy"), Registered(client, "Dee")
    confirm_address(cy, mailbox, "cy@example.org")
    confirm_address(dee, mailbox, "dee@example.net")
    table_id = started_table(cy, [dee])

    [_, turn_mail] = mailbox.wait_for("cy@example.org", 2)
    assert turn_mail["To"] == "cy@example.org" and turn_mail["From"] == SENDER
    assert turn_mail["Subject"] == f"Your turn in Toy race (table {table_id})"
    text = text_of(turn_mail)
    assert text.startswith("Hello Cy,") and "It is your move." in text
    assert f"http://testserver/tables/{table_id}" in text
    unsubscribe = link(turn_mail, "/notifications/unsubscribe")
    assert turn_mail["List-Unsubscribe"] == f"<{unsubscribe}>"
    assert turn_mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    page = follow(client, unsubscribe)  # from the mail, with no session
    assert page.status_code == 200 and "no more turn or invitation e-mails at cy@example.org" in page.text
    assert cy.get("/api/notifications").json()["email"]["enabled"] is False

    # A whole round: Dee is told of hers, Cy no longer of his.
    assert cy.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
    mailbox.wait_for("dee@example.net", 2)
    assert dee.move(table_id, 1, {"type": "add", "amount": 1}).status_code == 200
    settle(client)
    assert len(mailbox.to("cy@example.org")) == 2  # the confirmation and the first turn
    assert metric(client, "caravanserai_notifications_sent_total", channel="email") == 2

    # Turned on again in the page, the next turn is mailed again.
    assert cy.patch("/api/notifications/email", {"enabled": True}).json()["enabled"] is True
    assert cy.move(table_id, 2, {"type": "add", "amount": 1}).status_code == 200
    assert dee.move(table_id, 3, {"type": "add", "amount": 1}).status_code == 200
    mailbox.wait_for("cy@example.org", 3)


def test_one_click_unsubscribe_by_a_mail_program(client, mailbox):
    cy, dee = Registered(client, "Cy"), Registered(client, "Dee")
    confirm_address(cy, mailbox, "cy@example.org")
    started_table(cy, [dee])
    [_, turn_mail] = mailbox.wait_for("cy@example.org", 2)
    parts = urlsplit(link(turn_mail, "/notifications/unsubscribe"))
    answer = client.post(f"{parts.path}?{parts.query}", content=b"List-Unsubscribe=One-Click",
                         headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 200
    assert cy.get("/api/notifications").json()["email"]["enabled"] is False


def test_confirmation_and_unsubscribe_links_that_are_forged_or_for_an_old_address_change_nothing(client, mailbox):
    cy = Registered(client, "Cy")
    assert cy.put("/api/notifications/email", {"address": "cy@example.org"}).status_code == 200
    [mail] = mailbox.wait_for("cy@example.org")
    confirm = link(mail, "/notifications/confirm")
    forged = follow(client, confirm[:-3] + ("AAA" if not confirm.endswith("AAA") else "BBB"))
    assert forged.status_code == 400 and "not valid" in forged.text
    assert follow(client, "http://testserver/notifications/unsubscribe?token=nonsense").status_code == 400

    assert cy.delete("/api/notifications/email").json()["address"] is None
    stale = follow(client, confirm)  # the link of an address the account no longer has
    assert stale.status_code == 409
    assert cy.get("/api/notifications").json()["email"] == {"address": None, "confirmed": False, "enabled": False,
                                                            "available": True, "allowed": True}


def test_an_address_is_refused_for_guests_when_malformed_or_too_long_and_nothing_is_mailed(client, mailbox):
    guest, cy = Player(client, "Gus"), Registered(client, "Cy")
    answer = client.put("/api/notifications/email", json={"address": "gus@example.org"}, headers=guest.headers)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"
    for address in ("not an address", "cy@localhost", "cy@example.org\r\nBcc: all@example.org", "a" * 250 + "@example.org",
                    "Cy <cy@example.org>", ""):
        answer = cy.put("/api/notifications/email", {"address": address})
        assert answer.status_code == 400, (address, answer.text)
        assert answer.json()["error"]["code"] == "bad_request"
    assert cy.get("/api/notifications").json()["email"]["address"] is None
    assert cy.patch("/api/notifications/email", {"enabled": True}).json()["error"]["code"] == "conflict"
    assert cy.patch("/api/notifications/email", {"enabled": "yes"}).status_code == 400
    assert mailbox.received == []


def test_a_second_confirmation_mail_waits_ten_minutes(client, mailbox, clock):
    cy = Registered(client, "Cy")
    assert cy.put("/api/notifications/email", {"address": "cy@example.org"}).status_code == 200
    again = cy.put("/api/notifications/email", {"address": "cy2@example.org"})
    assert again.status_code == 429 and again.json()["error"]["code"] == "rate_limited"
    assert cy.get("/api/notifications").json()["email"]["address"] == "cy@example.org"
    clock.now += timedelta(minutes=10)
    assert cy.put("/api/notifications/email", {"address": "cy2@example.org"}).status_code == 200
    assert len(mailbox.received) == 2


def test_the_link_works_the_moment_the_mail_arrives(database_url, mailbox):
    """The address is stored before the confirmation mail leaves: a reader (or a mail scanner)
    following the link while the mail is still being handed over confirms it (it once answered
    "Address changed", seen in a browser test on a busy machine)."""
    settings = notify_settings(database_url, mailbox)
    app = create_app(settings)
    with TestClient(app) as client:
        cy = Registered(client, "Cy")
        mailer = app.state.notify.mailer
        handed_over = mailer.send
        followed = []

        async def send_and_follow_at_once(message):
            await handed_over(message)
            token = parse_qs(urlsplit(link(message, "/notifications/confirm")).query)["token"][0]
            account_id, address = app.state.notify.tokens.read_confirm(token)
            async with app.state.ctx.sessions() as session:
                followed.append(await preferences.confirm_address(session, account_id, address))

        mailer.send = send_and_follow_at_once
        assert cy.put("/api/notifications/email", {"address": "cy@example.org"}).status_code == 200
        assert followed == [True]
        assert cy.get("/api/notifications").json()["email"]["confirmed"] is True


def test_without_smtp_no_address_is_taken(database_url):
    with TestClient(create_app(notify_settings(database_url))) as client:
        cy = Registered(client, "Cy")
        answer = cy.put("/api/notifications/email", {"address": "cy@example.org"})
        assert answer.status_code == 409 and "sends no e-mail" in answer.json()["error"]["message"]
        assert cy.get("/api/notifications").json()["email"]["available"] is False


def test_mail_server_down_refuses_the_address_and_changes_nothing(database_url):
    with Mailbox() as closed:
        port = closed.port
    settings = notify_settings(database_url, smtp_host="127.0.0.1", smtp_port=port, smtp_from=SENDER, smtp_tls="none")
    with TestClient(create_app(settings)) as client:
        cy = Registered(client, "Cy")
        answer = cy.put("/api/notifications/email", {"address": "cy@example.org"})
        assert answer.status_code == 503 and answer.json()["error"]["code"] == "unavailable"
        assert cy.get("/api/notifications").json()["email"]["address"] is None


def test_malformed_or_too_long_subscriptions_are_refused(client, push_service):
    ana = Player(client, "Ana")
    good = BrowserKeys().subscription(push_service.endpoint("ana"))
    broken = [
        {**good, "endpoint": "ftp://127.0.0.1/push/x"},
        {**good, "endpoint": "not a url"},
        {**good, "endpoint": "https://user:pw@push.example.org/x"},
        {**good, "endpoint": "https://push.example.org/" + "x" * 1000},
        {**good, "keys": {**good["keys"], "p256dh": "AAAA"}},
        {**good, "keys": {**good["keys"], "p256dh": "BA" + "A" * 85}},  # 65 bytes, not on the curve
        {**good, "keys": {**good["keys"], "auth": "c2hvcnQ"}},
        {**good, "keys": {**good["keys"], "auth": "!!!!!!!!!!!!!!!!!!!!!!"}},
        {"endpoint": good["endpoint"]},
        {**good, "keys": {**good["keys"], "p256dh": "B" * 101}},
    ]
    for body in broken:
        answer = ana.post("/api/notifications/push", body)
        assert answer.status_code == 400, (body, answer.text)
        assert answer.json()["error"]["code"] == "bad_request"
    assert ana.get("/api/notifications").json()["push"]["subscriptions"] == []


def test_a_subscription_of_another_account_is_refused(client, push_service):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    keys = BrowserKeys()
    first = ana.post("/api/notifications/push", keys.subscription(push_service.endpoint("shared")))
    assert first.status_code == 201
    assert ana.post("/api/notifications/push", keys.subscription(push_service.endpoint("shared"))).status_code == 200
    taken = bo.post("/api/notifications/push", BrowserKeys().subscription(push_service.endpoint("shared")))
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "conflict"
    gone = client.delete(f"/api/notifications/push/{first.json()['id']}", headers=bo.headers)
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_found"
    assert [sub["id"] for sub in ana.get("/api/notifications").json()["push"]["subscriptions"]] == [first.json()["id"]]
    assert bo.get("/api/notifications").json()["push"]["subscriptions"] == []
    assert client.delete(f"/api/notifications/push/{first.json()['id']}", headers=ana.headers).status_code == 200
    assert ana.get("/api/notifications").json()["push"]["subscriptions"] == []


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_whose_service_says_gone_is_dropped(client, push_service, status):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    subscribe(ana, push_service, "expired", answer=status)
    subscribe(ana, push_service, "alive")
    started_table(ana, [bo])
    push_service.wait_for("expired")
    push_service.wait_for("alive")
    settle(client)
    assert [urlsplit(sub["endpoint"]).path for sub in ana.get("/api/notifications").json()["push"]["subscriptions"]] \
        == ["/push/alive"]
    assert metric(client, "caravanserai_notifications_failed_total", channel="push", reason="gone") == 1
    assert metric(client, "caravanserai_notifications_sent_total", channel="push") == 1


def test_a_hanging_push_service_never_holds_up_a_move_or_other_notices(client, push_service):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    subscribe(ana, push_service, "ana")
    subscribe(bo, push_service, "bo-hangs", answer="hang")
    table_id = started_table(ana, [bo])
    push_service.wait_for("ana")
    assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
    [hanging] = push_service.wait_for("bo-hangs")  # the push service holds this request open

    with bo.websocket(table_id) as socket:
        hello(socket)
        move_id = str(uuid.uuid4())
        socket.send_json({"type": "move", "id": move_id, "version": 1, "move": {"type": "add", "amount": 1}})
        ack, _ = receive_until(socket, "ack")
        # Acknowledged while the notice of Bo's turn is still under way: neither answered nor timed out.
        assert ack == {"type": "ack", "id": move_id, "version": 2}
        assert not hanging.answered.is_set()
        assert metric(client, "caravanserai_notifications_failed_total", channel="push", reason="timeout") == 0
    push_service.wait_for("ana", 2)  # Ana's next turn is told meanwhile
    assert not hanging.answered.is_set()
    push_service.release()
    settle(client)
    # The service's thread marks the request answered just after writing the answer the notifier read.
    assert hanging.answered.wait(20)
    assert metric(client, "caravanserai_notifications_sent_total", channel="push") == 3


def test_a_push_service_slower_than_the_limit_fails_that_notice_and_keeps_the_subscription(database_url, push_service):
    with TestClient(create_app(notify_settings(database_url, notify_send_timeout_seconds=0.5))) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        subscribe(ana, push_service, "slow", answer="hang")
        started_table(ana, [bo])
        push_service.wait_for("slow")
        settle(client)  # returns once the send gave up
        assert metric(client, "caravanserai_notifications_failed_total", channel="push", reason="timeout") == 1
        assert len(ana.get("/api/notifications").json()["push"]["subscriptions"]) == 1
        push_service.release()


def test_no_notice_while_the_table_is_open_and_one_after_leaving_it(client, push_service):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    subscribe(bo, push_service, "bo")
    table_id = started_table(ana, [bo])
    with bo.websocket(table_id) as socket:
        hello(socket)
        assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
        receive_until(socket, "state")
        settle(client)
        check(client)
        assert push_service.received("bo") == []
    check_until(client, push_service, "bo")  # Bo closed the table without moving: the turn is told now
    check(client)
    assert len(push_service.received("bo")) == 1


def test_no_notice_for_a_seat_a_bot_plays(client, push_service):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    subscribe(bo, push_service, "bo")
    table_id = started_table(ana, [bo])
    assert bo.post(f"/api/tables/{table_id}/resign").status_code == 200
    assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
    settle(client)
    check(client)
    assert push_service.received("bo") == []


def test_one_notice_per_turn_in_a_simultaneous_step(client, push_service):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    subscribe(ana, push_service, "ana")
    subscribe(bo, push_service, "bo")
    table_id = started_table(ana, [bo], ruleset="toy-sealed-bids")
    push_service.wait_for("ana"), push_service.wait_for("bo")
    assert ana.move(table_id, 0, {"type": "bid", "amount": 2}).status_code == 200
    settle(client)
    assert len(push_service.received("bo")) == 1  # still the same turn of Bo's: the round's bid
    assert bo.move(table_id, 1, {"type": "bid", "amount": 3}).status_code == 200
    push_service.wait_for("ana", 2)  # round 2: a new turn for Ana
    assert bo.move(table_id, 2, {"type": "bid", "amount": 1}).status_code == 200
    assert ana.move(table_id, 3, {"type": "bid", "amount": 1}).status_code == 200
    push_service.wait_for("bo", 2)  # round 3, opened by Ana's bid: a new turn for Bo
    settle(client)
    # Bo opened round 2 by his own bid and Ana round 3 by hers: they were there, so not told again.
    assert len(push_service.received("ana")) == 2 and len(push_service.received("bo")) == 2


def test_a_version_looked_at_after_the_game_went_on_owes_no_notice(client, push_service, clock):
    """The notifier may look at version 3 only after Ana's bid of version 4 is stored: her turn of
    round 2 (told at version 2) is still the same turn at version 3, whatever came after it."""
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    subscribe(ana, push_service, "ana")
    table_id = started_table(ana, [bo], ruleset="toy-sealed-bids")
    push_service.wait_for("ana")
    assert ana.move(table_id, 0, {"type": "bid", "amount": 2}).status_code == 200
    assert bo.move(table_id, 1, {"type": "bid", "amount": 3}).status_code == 200  # round 2: Ana told
    push_service.wait_for("ana", 2)
    assert bo.move(table_id, 2, {"type": "bid", "amount": 1}).status_code == 200
    assert ana.move(table_id, 3, {"type": "bid", "amount": 1}).status_code == 200  # version 4: round 3
    settle(client)
    ctx = client.app.state.ctx

    async def look_at_version_3():
        async with ctx.sessions() as session:  # Ana's row as the notifier had it at version 3
            await session.execute(update(NotifyTurn).where(NotifyTurn.account_id == ana.id).values(turn_version=2))
            await session.commit()
            return await turns.note(session, int(table_id), 3, {0: ana.id}, {ana.id}, clock())

    assert client.portal.call(look_at_version_3) == set()


def test_several_waiting_games_make_a_digest_at_most_every_digest_interval(client, push_service, clock):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    keys = subscribe(ana, push_service, "ana")
    first = started_table(ana, [bo])
    [single] = push_service.wait_for("ana")
    assert keys.decrypt(single.body)["title"] == f"Your turn in Toy race (table {first})"

    second = started_table(ana, [bo])
    [_, digest] = push_service.wait_for("ana", 2)
    notice = keys.decrypt(digest.body)
    assert notice["title"] == "Your turn in 2 games"
    assert notice["body"] == f"Toy race (table {second})\nToy race (table {first})"  # the new one first
    assert notice["url"] == f"/players/{ana.id}"

    third = started_table(ana, [bo])
    settle(client)
    check(client)
    assert len(push_service.received("ana")) == 2  # the next digest waits

    clock.now += timedelta(minutes=59)
    check(client)
    assert len(push_service.received("ana")) == 2
    clock.now += timedelta(minutes=1)
    check(client)
    [*_, later] = push_service.wait_for("ana", 3)
    assert keys.decrypt(later.body)["body"].split("\n") == [f"Toy race (table {third})", f"Toy race (table {first})",
                                                             f"Toy race (table {second})"]
    check(client)
    assert len(push_service.received("ana")) == 3  # each turn once


def test_turns_told_are_remembered_across_a_restart(database_url, mailbox, push_service):
    settings = notify_settings(database_url, mailbox)
    with TestClient(create_app(settings)) as client:
        ana, bo = Player(client, "Ana"), Player(client, "Bo")
        subscribe(ana, push_service, "ana")
        subscribe(bo, push_service, "bo")
        table_id = started_table(ana, [bo])
        push_service.wait_for("ana")
        settle(client)
    with TestClient(create_app(settings)) as client:  # the next process catches up with running games
        ana.client = bo.client = client
        settle(client)
        check(client)
        assert len(push_service.received("ana")) == 1
        assert ana.move(table_id, 0, {"type": "add", "amount": 1}).status_code == 200
        push_service.wait_for("bo")


def test_the_service_worker_is_served_from_the_root(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert 'addEventListener("push"' in answer.text and "openWindow" in answer.text


def test_notification_choices_need_a_login(client):
    for method, path in (("GET", "/api/notifications"), ("POST", "/api/notifications/push"),
                         ("PUT", "/api/notifications/email"), ("DELETE", "/api/notifications/push")):
        answer = client.request(method, path, json={} if method in ("POST", "PUT") else None)
        assert answer.status_code in (400, 401), (method, path, answer.text)
    assert client.get("/api/notifications").json()["error"]["code"] == "unauthorized"


def test_only_the_leader_tells_and_a_new_leader_catches_up(client, push_service):
    notifier = client.app.state.notify.notifier
    notifier.is_leader = lambda: False
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    subscribe(ana, push_service, "ana")
    started_table(ana, [bo])
    settle(client)
    check(client)
    assert push_service.received("ana") == []  # another process leads: it tells
    notifier.is_leader = lambda: True  # this process took the lead over
    notifier.nudge()
    push_service.wait_for("ana")
    settle(client)
    assert len(push_service.received("ana")) == 1


@pytest.mark.postgres
def test_two_processes_on_one_database_tell_each_turn_once(postgres_database, mailbox, push_service):
    """Before the lead wires the leadership, every process is a leader: the claims in the database
    still let one notice leave per turn."""
    settings = notify_settings(postgres_database, mailbox)
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        ana, bo = Player(one, "Ana"), Player(two, "Bo")
        subscribe(ana, push_service, "ana")
        subscribe(bo, push_service, "bo")
        created = ana.post("/api/tables", {"ruleset": "toy-race", "seats": 2}).json()
        table_id = created["id"]
        assert bo.post(f"/api/tables/{table_id}/join", {}).status_code == 200
        assert ana.post(f"/api/tables/{table_id}/start").status_code == 200
        for version in range(6):  # Ana on one process, Bo on the other
            mover = (ana, bo)[version % 2]
            push_service.wait_for(("ana", "bo")[version % 2], version // 2 + 1)
            assert mover.move(table_id, version, {"type": "add", "amount": 1}).status_code == 200
        push_service.wait_for("ana", 4)
        for client in (one, two):
            settle(client)
            check(client)
        assert len(push_service.received("ana")) == 4 and len(push_service.received("bo")) == 3


def test_a_turn_is_claimed_once_however_many_processes_try(client, push_service, clock):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    subscribe(ana, push_service, "ana")
    started_table(ana, [bo])
    push_service.wait_for("ana")
    settle(client)
    ctx = client.app.state.ctx

    async def claim_again():
        async with ctx.sessions() as session:
            [turn] = await turns.of_account(session, ana.id)
            assert turn.notified_at is not None
            owed_again = turns.Turn(turn.account_id, turn.table_id, turn.seat, turn.turn_version, None)
            return await turns.claim(session, owed_again, clock())

    assert client.portal.call(claim_again) is False  # a second process that read the turn as owed
