"""The Notifications panel of one's own profile page and the service worker, in real Chromium.

Headless Chromium cannot subscribe to push here: Playwright's contexts are incognito, where
Chromium has no Push API ("Registration failed - permission denied"), and a persistent profile
waits for Google's push service, which this machine cannot reach.  So the browser's push
*subscription* is stood in for by an init script that hands the page a subscription to our
loopback push service with keys the test made (as the browser would); everything else is real:
the permission, the service worker at ``/sw.js`` (its scope, its ``push`` handler fed through the
DevTools protocol), the panel, the server's encrypted push, the SMTP server and the links.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import httpx
import pytest

from tests.e2e.conftest import running_server
from tests.e2e.pages import sign_in
from tests.support.mailbox import Mailbox, link
from tests.support.push_service import BrowserKeys, PushService

pytestmark = pytest.mark.e2e

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

STAND_IN_SUBSCRIPTION = """
(() => {
  const endpoint = %(endpoint)s, keys = %(keys)s, held = "test.pushSubscription";
  const subscription = (options) => ({
    endpoint, expirationTime: null, options,
    toJSON: () => ({ endpoint, expirationTime: null, keys }),
    unsubscribe: async () => { localStorage.removeItem(held); return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    const key = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)));
    localStorage.setItem(held, key);
    return subscription(options);
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem(held) ? subscription({ applicationServerKey: null }) : null;
  };
})();
"""


@pytest.fixture(scope="module")
def services():
    with Mailbox() as mailbox, PushService() as push:
        yield mailbox, push


@pytest.fixture(scope="module")
def server(tmp_path_factory, services):
    mailbox, _ = services

    def settings(base_url):
        return {"CARAVANSERAI_SMTP_HOST": "127.0.0.1", "CARAVANSERAI_SMTP_PORT": str(mailbox.port),
                "CARAVANSERAI_SMTP_FROM": "Caravanserai <games@example.org>", "CARAVANSERAI_SMTP_TLS": "none",
                "CARAVANSERAI_PUSH_ALLOW_PRIVATE_ENDPOINTS": "true", "CARAVANSERAI_PUBLIC_URL": base_url,
                # A closed tab stops counting as present within a second or two, and held-back
                # notices are looked at again every half second: no test waits for long.
                "CARAVANSERAI_PRESENCE_REFRESH_SECONDS": "0.5", "CARAVANSERAI_NOTIFY_CHECK_SECONDS": "0.5"}

    with running_server(tmp_path_factory.mktemp("notify-server"), settings) as base_url:
        yield base_url


def open_panel(page):
    page.click("#my-games")
    page.wait_for_url(re.compile(r"/players/\d+$"))
    expect(page.locator("#notify-section")).to_be_visible()
    expect(page.locator("#notify-push-status")).to_have_attribute("data-state", re.compile(".+"))


def deliver_to_service_worker(page, base: str, data: dict) -> list:
    """Hand ``data`` to the page's service worker as a push message (DevTools protocol); the
    notifications it then shows, as ``[title, body, data]``."""
    cdp = page.context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(100):
        if registrations:
            break
        page.wait_for_timeout(50)  # lets Playwright hand over the protocol's events
    [registration] = [entry for entry in registrations if entry["scopeURL"] == f"{base}/"]
    message = {"origin": base, "registrationId": registration["registrationId"], "data": json.dumps(data)}
    for _ in range(3):  # a message handed over while a busy machine (re)starts the worker can be lost: again
        cdp.send("ServiceWorker.deliverPushMessage", message)
        for _ in range(200):  # the worker shows it a moment later
            shown = page.evaluate("navigator.serviceWorker.ready.then(r => r.getNotifications())"
                                  ".then(found => found.map(n => [n.title, n.body, n.data]))")
            if shown:
                return shown
            page.wait_for_timeout(50)
    return []


def test_turning_on_push_registers_the_service_worker_and_the_turn_is_shown_by_it(chromium, server, services):
    _, push = services
    keys = BrowserKeys()
    ana = sign_in(chromium, server, "Ana")
    ana.context.grant_permissions(["notifications"], origin=server)
    subscription = keys.subscription(push.endpoint("ana-browser"))
    ana.context.add_init_script(STAND_IN_SUBSCRIPTION % {"endpoint": json.dumps(subscription["endpoint"]),
                                                         "keys": json.dumps(subscription["keys"])})
    open_panel(ana)
    expect(ana.locator("#notify-push-status")).to_have_attribute("data-state", "off")
    ana.click("#notify-push-on")
    expect(ana.locator("#notify-push-status")).to_have_attribute("data-state", "on")
    expect(ana.locator("#notify-push-message")).to_have_text("On: you will be told here when it is your turn.")
    scope = ana.evaluate("navigator.serviceWorker.getRegistration('/').then(r => r && r.active && r.scope)")
    assert scope == f"{server}/"
    public_key = ana.request.get(f"{server}/api/notifications").json()["push"]["public_key"]
    given = ana.evaluate("localStorage.getItem('test.pushSubscription')")  # the applicationServerKey passed in
    assert given.rstrip("=").replace("+", "-").replace("/", "_") == public_key

    # Ana waits on her own page; Bo joins and Ana starts: her turn reaches the push service...
    bo = sign_in(chromium, server, "Bo")
    table_id = ana.request.post(f"{server}/api/tables", data={"ruleset": "nimalia", "seats": 2}).json()["id"]
    assert bo.request.post(f"{server}/api/tables/{table_id}/join", data={}).ok
    assert ana.request.post(f"{server}/api/tables/{table_id}/start", data={}).ok
    [request] = push.wait_for("ana-browser")
    notice = keys.decrypt(request.body)
    assert notice["title"] == f"Your turn in Nimalia (table {table_id})" and notice["url"] == f"/tables/{table_id}"

    # ...and the service worker shows it, leading to the table.
    shown = deliver_to_service_worker(ana, server, notice)
    assert shown == [[f"Your turn in Nimalia (table {table_id})", notice["body"], {"url": f"{server}/tables/{table_id}"}]]

    ana.click("#notify-push-off")
    expect(ana.locator("#notify-push-status")).to_have_attribute("data-state", "off")
    assert ana.request.get(f"{server}/api/notifications").json()["push"]["subscriptions"] == []


def test_clear_words_when_push_is_blocked_or_not_supported(chromium, server):
    ana = sign_in(chromium, server, "Ana")
    ana.context.add_init_script("Object.defineProperty(Notification, 'permission', {get: () => 'denied'});")
    open_panel(ana)
    expect(ana.locator("#notify-push-message")).to_contain_text("Notifications are blocked for this site")
    ana.click("#notify-push-on")
    expect(ana.locator("#notify-push-message")).to_contain_text("Allow them in your browser's site settings")
    expect(ana.locator("#notify-push-status")).to_have_attribute("data-state", "off")

    bo = sign_in(chromium, server, "Bo")
    bo.context.add_init_script("delete window.PushManager;")
    open_panel(bo)
    expect(bo.locator("#notify-push-status")).to_have_attribute("data-state", "unsupported")
    expect(bo.locator("#notify-push-status")).to_contain_text("cannot show notifications while the site is closed")
    expect(bo.locator("#notify-push-on")).to_have_count(0)
    expect(bo.locator("#notify-email-status")).to_contain_text("Guests cannot get e-mail")


def test_an_address_is_added_confirmed_from_the_mail_turned_off_and_removed(chromium, server, services):
    mailbox, _ = services
    context = chromium.new_context()
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{server}/")
    page.click("#auth-open")
    page.click("#auth-mode-register")
    page.fill("#auth-name", "Carol")
    page.fill("#auth-password", "correct horse")
    page.click("#auth-submit")
    expect(page.locator("#who-name")).to_have_text("Carol")
    open_panel(page)
    expect(page.locator("#notify-email-status")).to_have_attribute("data-state", "none")
    page.fill("#notify-email", "not an address")
    page.click("#notify-email-save")
    expect(page.locator("#notify-email-message")).to_contain_text("Not an e-mail address")  # the server's words, as a sentence
    page.fill("#notify-email", "carol@example.org")
    page.click("#notify-email-save")
    expect(page.locator("#notify-email-message")).to_have_text(
        "We sent a link to carol@example.org. Follow it to get turn e-mails there.")
    expect(page.locator("#notify-email-status")).to_have_attribute("data-state", "unconfirmed")

    [mail] = mailbox.wait_for("carol@example.org")
    confirm = context.new_page()  # the mail program opens the link in a new tab
    confirm.goto(link(mail, "/notifications/confirm"))
    expect(confirm.locator("#notice-title")).to_have_text("Address confirmed")
    page.reload()
    expect(page.locator("#notify-email-status")).to_have_attribute("data-state", "on")
    page.uncheck("#notify-email-enabled")
    expect(page.locator("#notify-email-status")).to_have_attribute("data-state", "off")
    assert page.request.get(f"{server}/api/notifications").json()["email"]["enabled"] is False

    page.click("#notify-email-remove")
    page.click('dialog [data-dialog="ok"]')
    expect(page.locator("#notify-email-status")).to_have_attribute("data-state", "none")
    assert urlsplit(page.url).path.startswith("/players/")


def test_logging_out_turns_this_browsers_notices_off(chromium, server, services):
    _, push = services
    context = chromium.new_context()
    context.set_default_timeout(10_000)
    context.grant_permissions(["notifications"], origin=server)
    subscription = BrowserKeys().subscription(push.endpoint("dana-browser"))
    context.add_init_script(STAND_IN_SUBSCRIPTION % {"endpoint": json.dumps(subscription["endpoint"]),
                                                     "keys": json.dumps(subscription["keys"])})
    page = context.new_page()
    page.goto(f"{server}/")
    credentials = {"name": "Dana", "password": "correct horse"}
    assert page.request.post(f"{server}/api/auth/register", data=credentials).ok
    page.reload()
    open_panel(page)
    page.click("#notify-push-on")
    expect(page.locator("#notify-push-status")).to_have_attribute("data-state", "on")
    page.click("#logout")
    expect(page.locator("#guest-name")).to_be_visible()
    assert page.request.post(f"{server}/api/auth/login", data=credentials).ok
    assert page.request.get(f"{server}/api/notifications").json()["push"]["subscriptions"] == []
    assert page.evaluate("localStorage.getItem('test.pushSubscription')") is None  # unsubscribed in the browser too


def register_with_notices(chromium, base: str, name: str, push, mailbox):
    """A browser of ``name``'s own: registered, push turned on (the stand-in subscription) and an
    e-mail address added and confirmed from the mail, all through the page; returns
    ``(page, keys, address)``."""
    context = chromium.new_context()
    context.set_default_timeout(10_000)
    context.grant_permissions(["notifications"], origin=base)
    keys = BrowserKeys()
    subscription = keys.subscription(push.endpoint(f"{name}-browser"))
    context.add_init_script(STAND_IN_SUBSCRIPTION % {"endpoint": json.dumps(subscription["endpoint"]),
                                                     "keys": json.dumps(subscription["keys"])})
    page = context.new_page()
    page.goto(f"{base}/")
    page.click("#auth-open")
    page.click("#auth-mode-register")
    page.fill("#auth-name", name)
    page.fill("#auth-password", "correct horse")
    page.click("#auth-submit")
    expect(page.locator("#who-name")).to_have_text(name, timeout=60_000)  # password hashing on a busy machine
    open_panel(page)
    page.click("#notify-push-on")
    expect(page.locator("#notify-push-status")).to_have_attribute("data-state", "on")
    address = f"{name.lower()}@example.org"
    page.fill("#notify-email", address)
    page.click("#notify-email-save")
    [mail] = mailbox.wait_for(address)
    page.goto(link(mail, "/notifications/confirm"))
    expect(page.locator("#notice-title")).to_have_text("Address confirmed")
    page.goto(f"{base}/")
    return page, keys, address


def test_three_people_start_a_turn_based_game_in_browsers_close_their_tabs_and_each_is_told(chromium, server, services):
    """Three people start a turn-based Through the Desert game in their
    browsers and close their tabs; each is then told by push and by e-mail when it is their turn.
    The first round is played here; a whole game over simulated days is
    ``tests/api/test_notify_whole_game.py`` (the server's clock cannot be moved in a process of its own)."""
    mailbox, push = services
    people = {name: register_with_notices(chromium, server, name, push, mailbox) for name in ("Ava", "Ben", "Cem")}
    ava = people["Ava"][0]
    ava.select_option("#ruleset", "through-the-desert")
    ava.select_option("#seats", "3")
    ava.select_option("#pace", "turn_based")
    ava.select_option("#move-seconds", str(86400))
    ava.click("#create-table")
    ava.wait_for_url(re.compile(r"/tables/\d+$"))
    table_id = ava.url.rsplit("/", 1)[1]
    for name in ("Ben", "Cem"):
        page = people[name][0]
        page.reload()
        page.locator(f'[data-table-id="{table_id}"] [data-action="join"]').click()
        page.wait_for_url(re.compile(rf"/tables/{table_id}$"))
    ava.click('[data-action="start"]')
    expect(ava.locator("#game")).to_have_attribute("data-status", "running")
    cookies = {}
    for name, (page, _, _) in people.items():  # each keeps their session, and closes the tab
        [cookie] = [c for c in page.context.cookies() if c["name"] == "caravanserai_session"]
        cookies[name] = cookie["value"]
        page.context.close()

    names = ["Ava", "Ben", "Cem"]  # seats in the order they sat down
    told = {name: 0 for name in names}
    with httpx.Client(base_url=server, timeout=30) as http:
        def as_(name):
            return {"Cookie": f"caravanserai_session={cookies[name]}"}

        game = http.get(f"/api/games/{table_id}", headers=as_("Ava")).json()
        last_mover = None
        while min(told.values()) < 2:
            [seat] = game["to_act"]
            name = names[seat]
            _, keys, address = people[name]
            if seat != last_mover:  # a new turn: told on both channels, once
                told[name] += 1
                [*_, request] = push.wait_for(f"{name}-browser", told[name])
                notice = keys.decrypt(request.body)
                assert notice["title"] == f"Your turn in Through the Desert (table {table_id})"
                assert notice["url"] == f"/tables/{table_id}"
                [*_, mail] = mailbox.wait_for(address, 1 + told[name])  # after the confirmation mail
                assert mail["Subject"] == notice["title"]
            mine = http.get(f"/api/games/{table_id}", headers=as_(name)).json()
            answer = http.post(f"/api/games/{table_id}/moves", headers=as_(name),
                               json={"id": f"{name}-{mine['version']}", "version": mine["version"], "move": mine["legal"][0]})
            assert answer.status_code == 200, answer.text
            last_mover = seat
            game = http.get(f"/api/games/{table_id}", headers=as_("Ava")).json()
    [seat] = game["to_act"]
    if seat != last_mover:  # the last move began someone's next turn: they are told of it too
        told[names[seat]] += 1
        push.wait_for(f"{names[seat]}-browser", told[names[seat]])
        mailbox.wait_for(people[names[seat]][2], 1 + told[names[seat]])
    for name in names:  # once per turn on each channel
        assert len(push.received(f"{name}-browser")) == told[name]
        assert len(mailbox.to(people[name][2])) == 1 + told[name]
