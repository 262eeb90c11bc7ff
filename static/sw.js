// The service worker of Caravanserai (served at /sw.js, so its scope is the whole site): it shows
// the "your turn" notices that the server pushes while no tab of the site is open, and a click on
// one opens (or focuses) the table. The payload is {title, body, url, tag} (app/services/notify/push.py).

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function sameSite(url) {
  try {
    const target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : new URL("/", self.location.origin).href;
  } catch {
    return new URL("/", self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = { body: event.data ? event.data.text() : "" };
  }
  const title = notice.title || "Your turn at Caravanserai";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: notice.body || "",
      tag: notice.tag || "caravanserai-turn",
      renotify: true,
      icon: "/static/favicon-turn.svg",
      badge: "/static/favicon-turn.svg",
      data: { url: sameSite(notice.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url && "focus" in client);
      if (open) return open.focus();
      return self.clients.openWindow(url);
    }),
  );
});

// The push service renewed the subscription: tell the server the new one (the old one answers 410).
self.addEventListener("pushsubscriptionchange", (event) => {
  const options = event.oldSubscription ? event.oldSubscription.options : null;
  if (!options) return;
  event.waitUntil(
    self.registration.pushManager.subscribe(options).then((subscription) =>
      fetch("/api/notifications/push", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(subscription.toJSON()),
      }),
    ),
  );
});
