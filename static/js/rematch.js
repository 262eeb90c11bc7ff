// Rematch: a "Rematch" button for the players of a finished game, and a link to the new table
// for everyone once a rematch has started (the server's "rematch" frame, or the table's rematch_id).

import { api } from "./api.js";
import { h, replaceChildren, whileBusy } from "./dom.js";
import { tablePath } from "./links.js";

/**
 * Mount the rematch controls into #rematch (inside the result card of table.html).
 *
 * `table` is the table as GET /api/tables/{id} answered it. Returns `{ receive(frame) }`: give it
 * every socket frame; it uses "state" (finished? seated?) and "rematch" frames. The player who
 * clicks goes to the new table at once; everyone else gets the link.
 */
export function mountRematch({ table, inviteCode, onError }) {
  const box = document.getElementById("rematch");
  let rematchId = table.rematch_id || null;
  let offered = false;
  draw();

  function draw() {
    if (rematchId) {
      offered = false;
      box.hidden = false;
      box.dataset.rematchId = String(rematchId);
      replaceChildren(
        box,
        h("a", { class: "button primary", id: "rematch-link", href: tablePath(rematchId, inviteCode || table.invite_code) },
          `Rematch started: go to table ${rematchId}`),
      );
    } else if (offered) {
      box.hidden = false;
      const button = h("button", { type: "button", class: "primary", id: "rematch-button", "data-action": "rematch" }, "Rematch");
      button.addEventListener("click", () => ask(button));
      replaceChildren(box, button);
    } else {
      box.hidden = true;
      box.replaceChildren();
    }
  }

  async function ask(button) {
    try {
      const created = await whileBusy(button, () => api("POST", `/api/tables/${encodeURIComponent(table.id)}/rematch`, {}), "Starting…");
      window.location.assign(tablePath(created.id, created.invite_code || inviteCode));
    } catch (error) {
      if (onError) onError(`Could not start a rematch: ${error.message}`, error.code);
    }
  }

  function receive(frame) {
    if (!frame) return;
    if (frame.type === "rematch" && Number.isInteger(frame.table_id) && frame.table_id !== rematchId) {
      rematchId = frame.table_id;
      draw();
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
