// Invitations where you are: a notice under the page header on every page with a session corner
// (lobby, table, profile), for each invitation to an open table (a friend's, or a rematch offer).
// Each says who asks, the game and what its players agree to (players, pace, clock, rated,
// options), with Join (takes the seat in one click, then opens the table) and Decline.

import { api } from "./api.js";
import { h, replaceChildren, whileBusy } from "./dom.js";
import { tablePath } from "./links.js";
import { t } from "./i18n.js";
import { termsText } from "./options-form.js";
import { fill, gameWord } from "./words.js";

const REFRESH_MS = 20_000;

/**
 * Put the notices after `header` (the page's top bar). Returns `{ setAccount(account or null) }`:
 * call it at every sign-in and sign-out; notices are fetched while someone is signed in and the
 * page is visible.
 */
export function mountInvitations(header) {
  const box = h("aside", { id: "invitations", class: "invitation-notices", "aria-label": t("Invitations"), "aria-live": "polite", hidden: true });
  header.after(box);
  let account = null;
  let timer = null;
  let drawn = "";
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });

  function setAccount(next) {
    account = next;
    clearInterval(timer);
    timer = null;
    drawn = "";
    if (!account) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    timer = setInterval(() => {
      if (!document.hidden) refresh();
    }, REFRESH_MS);
    refresh();
  }

  async function refresh() {
    if (!account) return;
    let invitations;
    try {
      invitations = await api("GET", "/api/invitations");
    } catch {
      return; // the next refresh tries again; a notice is no reason for an error on the page
    }
    // The page of the very table shows its own Accept (the waiting room): no notice for it.
    const here = window.location.pathname.match(/^\/tables\/(\d+)/);
    const shown = invitations.filter((invitation) => !here || String(invitation.table_id) !== here[1]);
    const key = JSON.stringify(shown);
    if (key === drawn) return;
    drawn = key;
    box.hidden = !shown.length;
    replaceChildren(box, shown.map(notice));
  }

  function notice(invitation) {
    const link = tablePath(invitation.table_id, invitation.invite_code);
    const join = h("button", { type: "button", class: "primary small", "data-action": "join-invitation" }, invitation.rematch ? t("Accept") : t("Join"));
    const decline = h("button", { type: "button", class: "small", "data-action": "decline-invitation" }, t("Decline"));
    const message = h("span", { class: "message", role: "alert", hidden: true });
    join.addEventListener("click", async () => {
      try {
        await whileBusy(join, () => api("POST", `/api/tables/${encodeURIComponent(invitation.table_id)}/join`, invitation.invite_code ? { invite_code: invitation.invite_code } : {}), t("Joining…"));
        window.location.assign(link);
      } catch (error) {
        // The list is polled, so a notice may outlive its invitation (the host started with a bot
        // in the seat, or filled it): look again, and say so rather than show the refusal.
        if (await withdrawn(invitation.id)) {
          replaceChildren(node, h("p", { "data-invitation-withdrawn": "" }, t("This invitation was withdrawn.")));
          drawn = ""; // the next refresh drops it
          return;
        }
        message.hidden = false;
        message.textContent = t("Could not join: {reason}", { reason: error.message });
      }
    });
    decline.addEventListener("click", async () => {
      try {
        await whileBusy(decline, () => api("DELETE", `/api/invitations/${encodeURIComponent(invitation.id)}`), t("Declining…"));
        drawn = "";
        refresh();
      } catch (error) {
        message.hidden = false;
        message.textContent = t("Could not decline: {reason}", { reason: error.message });
      }
    });
    const parts = {
      who: invitation.from.name,
      game: h("a", { href: link }, t("{game} (table {id})", { game: gameWord(invitation.ruleset, invitation.title), id: invitation.table_id })),
      terms: h("span", { class: "invitation-terms", "data-invitation-terms": "" }, invitation.table ? termsText(invitation.table) : invitation.terms),
    };
    const asks = invitation.rematch
      ? t("{who} offers a rematch of {game}: {terms}", { who: "{who}", game: "{game}", terms: "{terms}" })
      : t("{who} invites you to {game}: {terms}", { who: "{who}", game: "{game}", terms: "{terms}" });
    const node = h(
      "div",
      { class: "invitation-notice", "data-invitation-id": String(invitation.id), "data-table-id": String(invitation.table_id) },
      h("p", {}, fill(asks, parts)),
      h("span", { class: "actions" }, join, decline),
      message,
    );
    return node;
  }

  return { setAccount };
}

/** Whether invitation `id` is no longer among the caller's open ones (false when the list cannot be read). */
export async function withdrawn(id) {
  try {
    const open = await api("GET", "/api/invitations");
    return !open.some((invitation) => invitation.id === id);
  } catch {
    return false;
  }
}
