"""The parts of the turn notices that need no server: which push endpoints are taken, the words of
a notice, the link tokens and the VAPID key file."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import socket
import stat
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from app.config import Settings
from app.services.notify import notifier as notifier_module
from app.services.errors import AppError
from app.services.notify import vapid
from app.services.notify.messages import WaitingGame, digest_notice, due_text, turn_notice
from app.services.notify.push import (MAX_PAYLOAD_BYTES, PushUnreachable, Subscription, check_subscription, payload,
                                      public_address)
from app.services.notify.transport import PublicOnlyResolver, PushSender
from app.services.notify.tokens import Tokens
from tests.support.push_service import BrowserKeys
from tests.conftest import run_coroutine

NOW = datetime(2027, 1, 10, 9, 0, tzinfo=timezone.utc)


def subscription(endpoint: str) -> Subscription:
    keys = BrowserKeys().subscription(endpoint)["keys"]
    return Subscription(endpoint, keys["p256dh"], keys["auth"])


@pytest.mark.parametrize("endpoint", [
    "https://fcm.googleapis.com/fcm/send/abc:def",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
    "https://web.push.apple.com/QGx",
    "https://[2001:4860:4860::8888]/push",
])
def test_endpoints_of_public_push_services_are_taken(endpoint):
    assert check_subscription(subscription(endpoint), allow_private=False).endpoint == endpoint


@pytest.mark.parametrize("endpoint", [
    "http://fcm.googleapis.com/fcm/send/abc",  # not https
    "https://localhost/push", "https://push.localhost/x", "https://intranet/push",
    "https://127.0.0.1/push", "https://10.0.0.5/push", "https://192.168.1.1/push", "https://169.254.169.254/latest",
    "https://[::1]/push", "https://[fd00::1]/push", "https://0.0.0.0/push",
    "https://user@fcm.googleapis.com/x", "https://fcm.googleapis.com/\u00e9", "https://fcm.googleapis.com/a b",
])
def test_endpoints_on_this_machine_or_a_private_network_or_not_https_are_refused(endpoint):
    with pytest.raises(AppError) as refused:
        check_subscription(subscription(endpoint), allow_private=False)
    assert refused.value.code == "bad_request"


LOOPBACK_IN_DISGUISE = [
    "https://localhost.:8443/push", "https://localhost..:8443/push", "https://LOCALHOST/push",
    "https://localhost.localdomain:8443/push", "https://localhost.localdomain./push", "https://printer.local/push",
    "https://127.1:8443/push", "https://0x7f.1:8443/push", "https://0177.0.0.1:8443/push",
    "https://2130706433:8443/push", "https://0x7f000001/push", "https://127.0.0.1.:8443/push", "https://10.1/push",
    "https://[::127.0.0.1]:8443/push", "https://[::ffff:127.0.0.1]:8443/push", "https://[::ffff:10.0.0.1]/push",
    "https://[64:ff9b::7f00:1]:8443/push", "https://[64:ff9b::a9fe:a9fe]/push", "https://[64:ff9b:1::1]/push",
    "https://[2002:7f00:1::1]:8443/push", "https://[2002:c0a8:101::1]/push",
    "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/push",  # Teredo whose client is 127.0.0.1
]


@pytest.mark.parametrize("endpoint", LOOPBACK_IN_DISGUISE)
def test_every_spelling_of_a_loopback_or_private_address_is_refused(endpoint):
    with pytest.raises(AppError) as refused:
        check_subscription(subscription(endpoint), allow_private=False)
    assert refused.value.code == "bad_request"


@pytest.mark.parametrize("address, public", [
    ("8.8.8.8", True), ("2001:4860:4860::8888", True), ("64:ff9b::808:808", True), ("2002:808:808::1", True),
    ("::ffff:8.8.8.8", True), ("::ffff:127.0.0.1", False),
    ("127.0.0.1", False), ("::1", False), ("::", False), ("::7f00:1", False), ("64:ff9b::a00:1", False),
    ("2002:a9fe:a9fe::", False), ("fe80::1", False), ("224.0.0.1", False), ("ff0e::1", False),
])
def test_an_address_is_public_only_when_every_ipv4_address_inside_it_is(address, public):
    assert public_address(ipaddress.ip_address(address)) is public


@pytest.mark.parametrize("endpoint", ["https://[::ffff:127.0.0.1]:{port}/push", "https://127.1:{port}/push",
                                      "https://[::127.0.0.1]:{port}/push", "https://localhost.:{port}/push"])
def test_a_kept_subscription_to_loopback_is_refused_again_when_sending(endpoint):
    """A subscription stored before the check was tightened: the sender checks the literal again
    (aiohttp asks no resolver for one) and never opens a connection to it."""
    from py_vapid import Vapid

    from tests.support.push_service import TEST_VAPID_KEY

    listener = socket.create_server(("::", 0), family=socket.AF_INET6, dualstack_ipv6=True)
    listener.setblocking(False)
    port = listener.getsockname()[1]

    async def send():
        sender = PushSender(Vapid.from_pem(TEST_VAPID_KEY.encode()), "mailto:host@example.org", 5, allow_private=False)
        await sender.start()
        try:
            return await sender.send(subscription(endpoint.format(port=port)), b"{}", "t")
        finally:
            await sender.close()

    try:
        with pytest.raises(PushUnreachable, match="public address"):
            run_coroutine(send)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody knocked
    finally:
        listener.close()


def test_loopback_http_endpoints_only_when_the_host_allows_them():
    check_subscription(subscription("http://127.0.0.1:8123/push/x"), allow_private=True)
    with pytest.raises(AppError):
        check_subscription(subscription("http://127.0.0.1:8123/push/x"), allow_private=False)


def test_a_name_that_resolves_to_a_private_address_is_never_connected_to():
    async def resolve():
        resolver = PublicOnlyResolver()
        try:
            return await resolver.resolve("localhost", 443)
        finally:
            await resolver.close()

    with pytest.raises(OSError, match="no public address"):
        run_coroutine(resolve)


def test_a_turn_notice_names_the_game_and_table_and_says_when_the_move_is_due():
    game = WaitingGame(12, "Nimalia", NOW + timedelta(days=2, hours=5))
    notice = turn_notice(game, NOW)
    assert notice.title == "Your turn in Nimalia (table 12)"
    assert notice.lines == ("It is your move, due in 2 days.",) and notice.path == "/tables/12"
    assert turn_notice(WaitingGame(12, "Nimalia"), NOW).lines == ("It is your move.",)


def test_due_text_in_words():
    assert due_text(None, NOW) == ""
    assert due_text(NOW - timedelta(seconds=1), NOW) == "overdue"
    assert due_text(NOW + timedelta(hours=1, minutes=59), NOW) == "due in 1 hour"
    assert due_text(NOW + timedelta(minutes=2), NOW) == "due in 2 minutes"
    assert due_text(NOW + timedelta(seconds=30), NOW) == "due in less than a minute"
    assert due_text((NOW + timedelta(days=1)).replace(tzinfo=None), NOW) == "due in 1 day"  # SQLite's naive UTC


def test_a_digest_lists_the_new_turns_first_and_a_long_one_fits_a_push_message():
    games = [WaitingGame(table, "Through the Desert", None, new=table == 7) for table in range(1, 10)]
    notice = digest_notice(games, "/players/3", NOW)
    assert notice.title == "Your turn in 9 games" and notice.path == "/players/3"
    assert notice.lines[0] == "Through the Desert (table 7)"
    many = digest_notice([WaitingGame(table, "T" * 200) for table in range(1, 60)], "/players/3", NOW)
    data = payload(many)
    assert len(data) <= MAX_PAYLOAD_BYTES
    body = json.loads(data)["body"].split("\n")
    assert body[-1].startswith("and ") and body[-1].endswith(" more")
    assert len(body) - 1 + int(body[-1].split()[1]) == 59


def test_link_tokens_name_account_and_address_and_cannot_be_forged_or_swapped():
    tokens = Tokens("one secret")
    assert tokens.read_unsubscribe(tokens.unsubscribe(5, "a@example.org")) == (5, "a@example.org")
    assert tokens.read_confirm(tokens.confirm(5, "a@example.org")) == (5, "a@example.org")
    for bad in (Tokens("another secret").unsubscribe(5, "a@example.org"),  # another server's
                tokens.confirm(5, "a@example.org"),  # a confirmation token is no unsubscribe token
                "garbage"):
        with pytest.raises(AppError):
            tokens.read_unsubscribe(bad)


def test_the_vapid_key_is_made_once_kept_private_and_read_back(tmp_path):
    settings = Settings(secret_key_file=tmp_path / ".caravanserai-secret", _env_file=None)
    assert settings.vapid_key_path == tmp_path / ".caravanserai-vapid.pem"
    with ThreadPoolExecutor(4) as workers:  # several worker processes starting at once
        keys = list(workers.map(lambda _: vapid.public_key(vapid.load_or_create_key(settings)), range(4)))
    assert len(set(keys)) == 1
    assert stat.S_IMODE(os.stat(settings.vapid_key_path).st_mode) == 0o600
    assert vapid.public_key(vapid.load_or_create_key(settings)) == keys[0]
    assert len(keys[0]) == 87  # 65 bytes, base64url without padding


def test_a_vapid_key_that_is_not_p256_is_refused(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    other = ec.generate_private_key(ec.SECP384R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    with pytest.raises(ValueError, match="P-256"):
        vapid.load_or_create_key(Settings(vapid_private_key=other, _env_file=None))


def test_the_vapid_subject_defaults_to_the_https_site_or_the_sender():
    assert vapid.subject(Settings(public_url="https://games.example.org", _env_file=None)) == "https://games.example.org"
    assert vapid.subject(Settings(smtp_from="Caravanserai <games@example.org>", _env_file=None)) == \
        "mailto:games@example.org"
    assert vapid.subject(Settings(vapid_subject="mailto:me@example.org", _env_file=None)) == "mailto:me@example.org"


def test_a_stop_during_a_look_ends_the_notifier_without_cancelling_it(monkeypatch):
    """A stop that arrives while the leader looks at games must end the loop at once; its wake-up
    was cleared after the look, so the loop slept until its next check and was cancelled after the
    5 s grace (every server shutdown and test teardown waited for that)."""
    entered, release = asyncio.Event(), asyncio.Event()

    async def running_games_of_wanting(session, smtp_configured):
        entered.set()
        await release.wait()  # the look is under way when stop() is called
        return []

    class Sessions:
        async def __aenter__(self):
            return None

        async def __aexit__(self, *exc_info):
            return False

    monkeypatch.setattr(notifier_module.preferences, "running_games_of_wanting", running_games_of_wanting)
    settings = Settings(_env_file=None, notify_check_seconds=3600)
    ctx = SimpleNamespace(settings=settings, sessions=Sessions, fanout=SimpleNamespace(subscribe=lambda listener: None))

    async def scenario():
        notifier = notifier_module.Notifier(ctx, [], is_present=None, is_leader=lambda: True)
        await notifier.start()
        await entered.wait()
        stopping = asyncio.create_task(notifier.stop())
        await asyncio.sleep(0)  # stop() has set its flags and waits for the loop
        release.set()
        await stopping
        return notifier._task

    task = run_coroutine(scenario)
    assert task.done() and not task.cancelled()


def test_one_look_asks_once_who_wants_notices_for_every_game_marked_meanwhile(monkeypatch):
    """Every move marks its game, and the look asked the database who wants notices once
    per game (a query per move on a busy server).  Three games marked during one look: one question
    for the three people to act, and turns noted only in the game whose person wants notices."""
    asked, noted = [], []

    async def accounts_wanting(session, account_ids, mail_configured):
        asked.append(set(account_ids))
        return {12}

    async def note(session, game_id, version, acting, wanting, now):
        noted.append((game_id, version, acting))
        return {12}

    class Sessions:
        async def __aenter__(self):
            return None

        async def __aexit__(self, *exc_info):
            return False

    def seat(number, account_id):
        return SimpleNamespace(seat=number, account_id=account_id, played_by_bot=None)

    def game(game_id, version, accounts):  # seat ``version % 2`` is to act
        return SimpleNamespace(game_id=game_id, version=version, status="running", ruleset="two-seats",
                               state={"to_act": version % 2}, seats=[seat(n, a) for n, a in enumerate(accounts)])

    cached = {1: game(1, 4, [10, 11]), 2: game(2, 7, [11, 12]), 3: game(3, 2, [13, 11])}
    monkeypatch.setattr(notifier_module.preferences, "accounts_wanting", accounts_wanting)
    monkeypatch.setattr(notifier_module.turns, "note", note)
    ctx = SimpleNamespace(settings=Settings(_env_file=None), sessions=Sessions,
                          fanout=SimpleNamespace(subscribe=lambda listener: None),
                          cache=SimpleNamespace(get=cached.get),
                          registry=SimpleNamespace(get=lambda name: SimpleNamespace(to_act=lambda s: {s["to_act"]})))
    notifier = notifier_module.Notifier(ctx, [], is_present=None, is_leader=lambda: True)

    owed = run_coroutine(notifier._look, {1: 4, 2: 7, 3: 2})
    assert asked == [{10, 12, 13}]  # game 1: seat 0 (10); game 2: seat 1 (12); game 3: seat 0 (13)
    assert noted == [(2, 7, {1: 12})] and owed == {12}


def test_a_follower_waits_between_looks_instead_of_spinning():
    """A process that is not the leader computed its pause from a check time only the leader moves
    on: once that time had passed the pause was 0, and the loop spun (a fifth of a core per idle
    follower).  Over 0.3 s a follower asks whether it leads once, then waits its poll of 2 s."""
    asked = []

    def is_leader():
        asked.append(1)
        return False

    settings = Settings(_env_file=None, notify_check_seconds=0.01)  # the first check is due at once
    ctx = SimpleNamespace(settings=settings, fanout=SimpleNamespace(subscribe=lambda listener: None))

    async def scenario():
        notifier = notifier_module.Notifier(ctx, [], is_present=None, is_leader=is_leader)
        await notifier.start()
        await asyncio.sleep(0.3)
        await notifier.stop()

    run_coroutine(scenario)
    assert 1 <= len(asked) <= 3, f"the follower's loop ran {len(asked)} times in 0.3 s"
