// Rematch as an offer: a "Rematch" button for the players of a finished game; once someone offered
// it (the server's "rematch" frame, or the table's rematch_id), each player it was offered to sees
// who offers it with Accept and Decline, and everyone else a link to the new table. Nobody is
// seated at the new game without their own Accept.

import { api, withInvite } from "./api.js";
import { h, replaceChildren, whileBusy } from "./dom.js";
import { tablePath } from "./links.js";
import { t } from "./i18n.js";

const OFFER_REFRESH_MS = 10000;

/**
 * Mount the rematch controls into #rematch (inside the result card of table.html).
 *
 * `table` is the table as GET /api/tables/{id} answered it; `account` the signed-in account (or
 * null). Returns `{ receive(frame) }`: give it every socket frame; it uses "state" (finished?
 * seated?) and "rematch" frames. The player who offers goes to the new table's waiting room.
 */
export function mountRematch({ table, inviteCode, account, onError }) {
  const box = document.getElementById("rematch");
  const code = inviteCode || table.invite_code;
  let rematchId = table.rematch_id || null;
  let offer = null; // the rematch table, as GET /api/tables/{id} answers it
  let declined = false;
  let offered = false;
  let refresh = undefined; // the next look at an offer held for me (it may be withdrawn meanwhile)
  if (rematchId) loadOffer();
  else draw();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && heldForMe() && !declined) loadOffer();
  });

  async function loadOffer() {
    clearTimeout(refresh);
    try {
      offer = await api("GET", withInvite(`/api/tables/${encodeURIComponent(rematchId)}`, code));
    } catch {
      offer = null; // the link still leads there
    }
    draw();
  }

  function heldForMe() {
    if (!offer || !account || offer.status !== "open") return null;
    return offer.seats.find((seat) => seat.held_for && seat.held_for.account_id === account.id) || null;
  }

  function draw() {
    const held = heldForMe();
    if (held && !declined) {
      const host = offer.seats.find((seat) => seat.account_id === offer.creator_id);
      const accept = h("button", { type: "button", class: "primary", id: "rematch-accept", "data-action": "rematch-accept" }, t("Accept"));
      const decline = h("button", { type: "button", id: "rematch-decline", "data-action": "rematch-decline" }, t("Decline"));
      accept.addEventListener("click", () => answer(accept, () => api("POST", `/api/tables/${encodeURIComponent(rematchId)}/join`, code ? { invite_code: code } : {}), true));
      decline.addEventListener("click", () => answer(decline, () => api("DELETE", `/api/invitations/${encodeURIComponent(held.held_for.invitation_id)}`), false));
      const offers = host ? t("{name} offers a rematch.", { name: host.name }) : t("A player offers a rematch.");
      show(h("span", { id: "rematch-offer" }, `${offers} `), accept, " ", decline);
      // No frame says that the seat held for me went to someone else (the host may fill it), so
      // look again now and then while Accept is offered, rather than let a click find out.
      clearTimeout(refresh);
      refresh = setTimeout(loadOffer, OFFER_REFRESH_MS);
    } else if (rematchId) {
      const seated = offer && account && offer.seats.some((seat) => seat.account_id === account.id);
      const text = declined ? t("You declined the rematch (table {id})", { id: rematchId })
        : seated ? t("Go to the rematch (table {id})", { id: rematchId }) : t("Rematch offered: table {id}", { id: rematchId });
      show(h("a", { class: `button${seated ? " primary" : ""}`, id: "rematch-link", href: tablePath(rematchId, code) }, text));
    } else if (offered) {
      const button = h("button", { type: "button", class: "primary", id: "rematch-button", "data-action": "rematch" }, t("Rematch"));
      button.addEventListener("click", () => ask(button));
      show(button);
    } else {
      box.hidden = true;
      box.replaceChildren();
    }
  }

  function show(...children) {
    box.hidden = false;
    box.dataset.rematchId = rematchId ? String(rematchId) : "";
    replaceChildren(box, children);
  }

  async function ask(button) {
    try {
      const created = await whileBusy(button, () => api("POST", `/api/tables/${encodeURIComponent(table.id)}/rematch`, {}), t("Offering…"));
      window.location.assign(tablePath(created.id, created.invite_code || code));
    } catch (error) {
      if (onError) onError(t("Could not offer a rematch: {reason}", { reason: error.message }), error.code);
    }
  }

  async function answer(button, request, accepting) {
    try {
      await whileBusy(button, request, accepting ? t("Accepting…") : t("Declining…"));
    } catch (error) {
      if (onError) {
        onError(accepting
          ? t("Could not accept the rematch: {reason}", { reason: error.message })
          : t("Could not decline the rematch: {reason}", { reason: error.message }), error.code);
      }
      loadOffer();
      return;
    }
    if (accepting) {
      window.location.assign(tablePath(rematchId, code));
      return;
    }
    declined = true;
    loadOffer();
  }

  function receive(frame) {
    if (!frame) return;
    if (frame.type === "rematch" && Number.isInteger(frame.table_id) && frame.table_id !== rematchId) {
      rematchId = frame.table_id;
      loadOffer();
    } else if (frame.type === "state" && !rematchId) {
      const offer = frame.status === "finished" && frame.seat !== null && frame.seat !== undefined;
      if (offer !== offered) {
        offered = offer;
        draw();
      }
    }
  }

  return { receive };
}
