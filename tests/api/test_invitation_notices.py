"""Invitation notices (seen in the lobby, and told by push and e-mail):
a friend's invitation to a table reaches the invitee's browsers and confirmed address, as they
chose for turn notices, once per table, never from someone they blocked, and never holding up the
invitation itself.

Through the same loopback push service and SMTP server as the turn notices
(``tests/api/test_notifications.py``); "nothing more was sent" is asserted after
:meth:`InvitationNotices.settle`, which returns once every notice under way has left.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.test_notifications import Registered, confirm_address, metric, notify_settings, subscribe
from tests.support.mailbox import link, text_of
from tests.support.players import Player, started_table


@pytest.fixture
def client(database_url, mailbox):
    with TestClient(create_app(notify_settings(database_url, mailbox))) as test_client:
        yield test_client


def settle(client):
    client.portal.call(client.app.state.notify.invitations.settle)


def open_table(host: Player, private: bool = False) -> int:
    created = host.post("/api/tables", {"ruleset": "toy-sealed-bids", "seats": 3, "private": private})
    assert created.status_code == 201, created.text
    return created.json()["id"]


def befriend(follower: Player, friend: Player) -> None:
    assert follower.post(f"/api/players/{friend.id}/follow").status_code == 201


def invite(host: Player, table_id: int, friend: Player):
    return host.post(f"/api/tables/{table_id}/invitations", {"account_id": friend.id})


def test_the_invitee_is_told_by_push_and_by_mail_with_a_link_to_the_lobby(client, mailbox, push_service):
    ana, bo = Registered(client, "Ana"), Registered(client, "Bo")
    bo_keys = subscribe(bo, push_service, "bo")
    confirm_address(bo, mailbox, "bo@example.org")
    befriend(ana, bo)
    table_id = open_table(ana, private=True)
    code = ana.get(f"/api/tables/{table_id}").json()["invite_code"]

    assert invite(ana, table_id, bo).status_code == 201

    [request] = push_service.wait_for("bo")
    assert bo_keys.decrypt(request.body) == {
        "title": f"Ana invites you to Toy sealed bids (table {table_id})",
        "body": "Ana and 2 free seats · live · no time limit · rated · standard options\n"
                "Join or decline at the top of any page of the site.", "url": "/", "tag": f"invitation-{table_id}"}
    [_, mail] = mailbox.wait_for("bo@example.org", 2)  # the confirmation, then the invitation
    assert mail["Subject"] == f"Ana invites you to Toy sealed bids (table {table_id})"
    text = text_of(mail)
    assert text.startswith("Hello Bo,") and "Join or decline at the top of any page" in text
    assert "  http://testserver/" in text.splitlines()  # the lobby: the private table's code stays out of mailboxes
    assert code and code not in text
    assert "when a friend invites you to a table" in text
    assert mail["List-Unsubscribe"] == f"<{link(mail, '/notifications/unsubscribe')}>"
    settle(client)
    assert metric(client, "caravanserai_notifications_sent_total", channel="push") == 1
    assert metric(client, "caravanserai_notifications_sent_total", channel="email") == 1
    assert [invitation["table_id"] for invitation in bo.get("/api/friends").json()["invitations"]] == [table_id]


def test_only_the_channels_the_invitee_chose(client, mailbox, push_service):
    ana, bo, cy = Registered(client, "Ana"), Registered(client, "Bo"), Registered(client, "Cy")
    subscribe(bo, push_service, "bo")
    confirm_address(bo, mailbox, "bo@example.org")
    assert bo.patch("/api/notifications/email", {"enabled": False}).json()["enabled"] is False  # mails paused
    for friend in (bo, cy):
        befriend(ana, friend)
    table_id = open_table(ana)

    assert invite(ana, table_id, bo).status_code == 201
    assert invite(ana, table_id, cy).status_code == 201  # Cy chose nothing
    push_service.wait_for("bo")
    settle(client)

    assert len(mailbox.to("bo@example.org")) == 1  # the confirmation only
    assert [request.name for request in push_service.requests] == ["bo"]
    assert metric(client, "caravanserai_notifications_sent_total", channel="email") == 0
    assert [invitation["table_id"] for invitation in cy.get("/api/friends").json()["invitations"]] == [table_id]


def test_a_repeated_invitation_to_the_same_table_is_told_once(client, push_service):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    subscribe(bo, push_service, "bo")
    for host in (ana, cy):
        befriend(host, bo)
    table_id = open_table(ana)
    assert cy.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    first = invite(ana, table_id, bo)
    assert first.status_code == 201
    push_service.wait_for("bo")

    assert invite(ana, table_id, bo).status_code == 409  # again while it waits
    assert invite(cy, table_id, bo).status_code == 409  # another player of the table
    withdrawn = ana.client.delete(f"/api/invitations/{first.json()['id']}", headers=ana.headers)
    assert withdrawn.status_code == 200
    assert invite(ana, table_id, bo).status_code == 201  # withdrawn and made again: shown in the lobby ...
    settle(client)

    assert len(push_service.received("bo")) == 1  # ... but not told again
    assert len(bo.get("/api/friends").json()["invitations"]) == 1

    other_table = open_table(cy)
    assert invite(cy, other_table, bo).status_code == 201  # another table is another invitation
    push_service.wait_for("bo", 2)
    settle(client)
    assert len(push_service.received("bo")) == 2


def test_a_blocked_inviter_never_reaches_the_invitee(client, push_service):
    ana, bo = Player(client, "Ana"), Player(client, "Bo")
    subscribe(bo, push_service, "bo")
    befriend(ana, bo)
    assert bo.post(f"/api/players/{ana.id}/block").status_code == 201

    table_id = open_table(ana)
    refused = invite(ana, table_id, bo)
    settle(client)

    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "forbidden")
    assert push_service.received("bo") == []
    assert bo.get("/api/friends").json()["invitations"] == []


def test_an_invitation_blocked_or_declined_before_its_notice_leaves_is_not_told(client, push_service, monkeypatch):
    """The notice leaves after the invitation's answer: if meanwhile the invitee blocked the inviter
    (which drops the invitation) or declined it, nothing is sent; an invitation still waiting is told."""
    ana, bo, cy, di = (Player(client, name) for name in ("Ana", "Bo", "Cy", "Di"))
    for friend in (bo, cy, di):
        subscribe(friend, push_service, friend.name)
        befriend(ana, friend)
    notices = client.app.state.notify.invitations
    held: list[int] = []
    monkeypatch.setattr(notices, "tell", held.append)  # the notices wait
    table_id = open_table(ana)
    for friend in (bo, cy, di):
        assert invite(ana, table_id, friend).status_code == 201
    assert bo.post(f"/api/players/{ana.id}/block").status_code == 201
    [declined] = cy.get("/api/friends").json()["invitations"]
    assert cy.client.delete(f"/api/invitations/{declined['id']}", headers=cy.headers).status_code == 200

    monkeypatch.undo()
    for invitation_id in held:
        client.portal.call(_tell, notices, invitation_id)
    push_service.wait_for("Di")
    settle(client)

    assert len(held) == 3
    assert [request.name for request in push_service.requests] == ["Di"]


async def _tell(notices, invitation_id: int) -> None:
    notices.tell(invitation_id)


def test_a_failing_or_hanging_push_service_never_holds_up_or_fails_the_invitation(client, push_service):
    ana, bo, cy = Player(client, "Ana"), Player(client, "Bo"), Player(client, "Cy")
    subscribe(bo, push_service, "bo-hangs", answer="hang")
    subscribe(cy, push_service, "cy-fails", answer=500)
    for friend in (bo, cy):
        befriend(ana, friend)
    table_id = open_table(ana)

    assert invite(ana, table_id, bo).status_code == 201
    [hanging] = push_service.wait_for("bo-hangs")
    assert invite(ana, table_id, cy).status_code == 201  # answered while Bo's notice is still under way
    assert not hanging.answered.is_set()
    push_service.wait_for("cy-fails")
    push_service.release()
    settle(client)

    assert hanging.answered.wait(20)  # marked by the service's thread just after it wrote the answer
    assert metric(client, "caravanserai_notifications_failed_total", channel="push", reason="refused") == 1
    assert metric(client, "caravanserai_notifications_sent_total", channel="push") == 1
    assert [invitation["table_id"] for invitation in cy.get("/api/friends").json()["invitations"]] == [table_id]


def test_a_rematch_offer_reaches_the_invited_player_as_an_invitation_does(client, mailbox, push_service):
    """No following needed: the players of the finished game are asked, on the channels they chose."""
    ana, bo = Registered(client, "Ana"), Registered(client, "Bo")
    old_id = started_table(ana, [bo])
    for version, amount in enumerate([3, 3, 3, 1]):  # the toy race: Bo reaches 10 and wins
        assert (ana, bo)[version % 2].move(old_id, version, {"type": "add", "amount": amount}).status_code == 200
    bo_keys = subscribe(bo, push_service, "bo")  # after the game: no turn notice of it comes in between
    new_id = ana.post(f"/api/tables/{old_id}/rematch").json()["id"]
    [request] = push_service.wait_for("bo")
    assert bo_keys.decrypt(request.body) == {
        "title": f"Ana offers a rematch: Toy race (table {new_id})",
        "body": "Ana, Bo (asked) · live · no time limit · rated · standard options\n"
                "Join or decline at the top of any page of the site.", "url": "/", "tag": f"invitation-{new_id}"}
