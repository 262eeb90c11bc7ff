// The waiting room of an open table (table.html, #waiting-room): who sits where, what the viewer
// may do (take a seat, accept or decline an invitation, start, leave, add or remove a bot), the
// invite link, and a poll of the table until it starts, ends or closes. Every change is the
// server's answer; table.js takes over once the table is no longer open.

import { api, withInvite } from "./api.js";
import { BOT_LEVELS, botLevelLine, botLevelWord } from "./bot-levels.js";
import { describeTimeControl, paceLabel } from "./clock.js";
import { confirmDialog, copyText, h, replaceChildren, showMessage, whileBusy } from "./dom.js";
import { inviteControl } from "./friends.js";
import { inviteLink } from "./links.js";
import { agreedText } from "./options-form.js";
import { personName, t, tn } from "./i18n.js";

const POLL_MS = 2000;
const HIDDEN_POLL_MS = 20000;

/**
 * Show the waiting room of the open `table` (the GET /api/tables/{id} answer) and keep it current.
 * `account` is the signed-in account (or null). `onTable(table)` gets every newer answer (from
 * the poll or from an action), so the page follows a table that started, ended or closed;
 * `onGone(title, text)` says the table disappeared. Returns `{ useAccount(account), stop() }`:
 * redraw for another account (after a sign-in or sign-out), and stop polling (the game started,
 * the table closed).
 * @param {{ tableId: string, inviteCode: string | null, table: Record<string, any>,
 *   account: Record<string, any> | null, onTable: (table: Record<string, any>) => void,
 *   onGone: (title: string, text: string) => void }} options
 */
export function mountWaitingRoom({ tableId, inviteCode, table, account, onTable, onGone }) {
  const room = document.getElementById("waiting-room");
  const info = document.getElementById("waiting-info");
  const seats = document.getElementById("waiting-seats");
  const actionsBox = document.getElementById("waiting-actions");
  const message = document.getElementById("waiting-message");
  const link = /** @type {HTMLInputElement} */ (document.getElementById("invite-link"));
  const copy = document.getElementById("copy-invite");
  const path = `/api/tables/${encodeURIComponent(tableId)}`;
  let busy = false; // an action is on its way: a poll's answer would be older than its own
  let messageSource = null; // "refresh" or "action": which kind of failure the message shows
  let inviteMounted = false; // "Invite a friend" is added once, for the room's members
  let polledAt = 0; // when the last poll was sent (Date.now())
  // The level the host chose in each seat's bot menu (seat number -> level): every redraw (a poll,
  // another seat's action) builds the menus anew, and a choice must outlive it until that bot is seated.
  const chosenLevels = new Map();

  room.hidden = false;
  draw();
  let timer = setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && timer) poll();
  });
  copy.addEventListener("click", async () => {
    const ok = await copyText(link.value);
    copy.textContent = ok ? t("Copied!") : t("Select and copy");
    if (!ok) link.select();
    setTimeout(() => {
      copy.textContent = t("Copy");
    }, 1500);
  });

  function stop() {
    clearInterval(timer);
    timer = null;
  }

  /** A newer answer: the page follows it, and the room shows it while the table is open. */
  function update(fresh, redraw) {
    table = fresh;
    onTable(fresh);
    if (fresh.status === "open" && redraw) draw();
  }

  async function poll() {
    // A background tab asks less often, but asks: each poll of a seated person's tells the server
    // they are still at the table, and a timed game starts only with everyone there
    // (app/services/attendance/waiting.py; browsers slow a hidden tab's timers to once a minute).
    if (busy || !timer || (document.hidden && Date.now() - polledAt < HIDDEN_POLL_MS)) return;
    polledAt = Date.now();
    let fresh;
    try {
      fresh = await api("GET", withInvite(path, inviteCode));
    } catch (error) {
      if (error.status === 404) {
        onGone(t("No such table"), t("This table is gone."));
        stop();
        return;
      }
      showMessage(message, t("Could not refresh the table: {reason}", { reason: error.message }));
      messageSource = "refresh";
      return;
    }
    if (busy) return;
    const changed = JSON.stringify(fresh) !== JSON.stringify(table);
    // A later refresh that works clears the failure it reported; an action's error stays until the table changes.
    if (messageSource === "refresh" || (messageSource === "action" && changed)) {
      showMessage(message, "");
      messageSource = null;
    }
    update(fresh, changed);
  }

  function draw() {
    for (const seat of table.seats) {
      if (seat.bot) chosenLevels.delete(seat.seat); // that bot is seated: a later one starts at medium again
    }
    const mine = account ? table.seats.find((seat) => seat.account_id === account.id) : null;
    const heldForMe = account ? table.seats.find((seat) => seat.held_for && seat.held_for.account_id === account.id) : null;
    const isCreator = Boolean(account && table.creator_id === account.id);
    const missing = table.seats.filter((seat) => seat.account_id === null && !seat.bot).length;
    const free = table.seats.filter((seat) => seat.account_id === null && !seat.bot && !seat.held_for).length;
    const asked = table.seats.filter((seat) => seat.held_for).map((seat) => seat.held_for.name);

    const facts = [table.seats.length === 1 ? t("1 player (solo)") : tn("{n} player", "{n} players", table.seats.length, { n: table.seats.length })];
    if (paceLabel(table.pace)) facts.push(paceLabel(table.pace));
    facts.push(describeTimeControl(table.time_control && table.time_control.move_seconds) || t("no time limit"));
    if (table.private) facts.push(t("private"));
    facts.push(agreedText(table));
    info.textContent = `${table.title ? t(table.title) : table.ruleset} · ${facts.join(" · ")}`;

    replaceChildren(
      seats,
      table.seats.map((seat) =>
        h(
          "li",
          { class: `seat-chip${seat.account_id === null && !seat.bot ? " seat-empty" : ""}${seat.held_for ? " seat-held" : ""}`, "data-seat": String(seat.seat) },
          h("span", { class: "seat-number" }, String(seat.seat + 1)),
          seat.bot ? `${seat.name || t("Bot")} · ${botLevelWord(seat.bot_level) || botLevelWord("medium")}`
            : seat.held_for ? t("{name} · asked, not yet accepted", { name: seat.held_for.name }) : personName(seat.name) || t("free"),
          account && seat.account_id === account.id ? h("span", { class: "muted" }, ` ${t("(you)")}`) : null,
          seat.account_id !== null && seat.away_since ? h("span", { class: "muted", "data-away": "" }, ` · ${t("not at the table")}`) : null,
          table.creator_id !== null && seat.account_id === table.creator_id ? h("span", { class: "muted" }, ` · ${t("host")}`) : null,
          isCreator ? botControl(seat) : null,
        ),
      ),
    );

    // A timed game starts only with everyone at the table (app/services/attendance/waiting.py).
    const gone = table.time_control && table.time_control.move_seconds
      ? table.seats.filter((seat) => seat.account_id !== null && seat.away_since && seat.account_id !== table.creator_id).map((seat) => personName(seat.name))
      : [];
    const actions = [];
    const join = () => api("POST", `${path}/join`, inviteCode ? { invite_code: inviteCode } : {});
    if (!account) {
      actions.push(h("p", { class: "muted" }, t("Sign in above to take a seat, or wait here to watch once the game starts.")));
    } else if (heldForMe) {
      actions.push(button(t("Accept and take my seat"), "join", "primary", join));
      actions.push(button(t("Decline"), "decline", "", () => api("DELETE", `/api/invitations/${encodeURIComponent(heldForMe.held_for.invitation_id)}`)));
    } else if (!mine && free > 0) {
      actions.push(button(t("Take a seat"), "join", "primary", join));
    }
    if (isCreator) {
      const start = button(t("Start game"), "start", "primary", () => api("POST", `${path}/start`, {}));
      start.disabled = missing > 0 || gone.length > 0;
      actions.push(start);
      if ((missing > 0 && table.rematch_of) || (missing === 0 && gone.length > 0)) {
        // A rematch offer: the host need not wait for everyone; nobody who did not accept is seated.
        // A timed table with someone gone: their seat becomes empty, for a bot or one seat fewer.
        const bots = missing > 0 ? t("Start with bots in the empty seats") : t("Start with bots in their seats");
        actions.push(button(bots, "start-bots", "", () => api("POST", `${path}/start`, { empty_seats: "bots" })));
        if (table.seats.length - missing - gone.length >= (table.min_players || 1)) {
          actions.push(button(t("Start with fewer seats"), "start-fewer", "", () => api("POST", `${path}/start`, { empty_seats: "fewer" })));
        }
      }
    }
    if (mine) {
      actions.push(button(t("Leave"), "leave", "", () => api("POST", `${path}/leave`, {})));
    }
    const others = missing - asked.length;
    const waitingFor = !asked.length
      ? tn("Waiting for {n} more player.", "Waiting for {n} more players.", missing, { n: missing })
      : others > 0
        ? tn("Waiting for {names} to accept and {n} more player.", "Waiting for {names} to accept and {n} more players.", others, { names: asked.join(", "), n: others })
        : t("Waiting for {names} to accept.", { names: asked.join(", ") });
    const note =
      missing > 0
        ? waitingFor
        : gone.length
          ? t("Waiting for {names} to come back to the table: with a move clock the game starts only with everyone here.", { names: gone.join(", ") })
          : isCreator
            ? t("Everyone is here: start when ready.")
            : t("Everyone is here: waiting for the host to start.");
    actions.push(h("p", { class: "muted", id: "waiting-note" }, note));
    replaceChildren(actionsBox, actions);
    link.value = inviteLink(table.id, table.invite_code || inviteCode);
    if (!inviteMounted && (mine || isCreator) && missing > 0) {
      inviteMounted = true;
      const seated = table.seats.map((seat) => seat.account_id).filter((id) => id !== null);
      inviteControl(tableId, seated)
        .then((control) => control && actionsBox.after(control))
        .catch(() => {}); // no friends list, no invitations: the invite link still works
    }
  }

  // The host fills an empty seat with a bot (or hands over their own seat), or takes a bot off.
  function botControl(seat) {
    const bots = `${path}/bots`;
    if (seat.bot) {
      return button(t("Remove bot"), `remove-bot-${seat.seat}`, "small", () => api("DELETE", `${bots}/${seat.seat}`));
    }
    if (seat.account_id !== null && seat.account_id !== account.id) return null;
    const level = h("select", { "aria-label": t("Bot level for seat {n}", { n: seat.seat + 1 }), "data-bot-level": String(seat.seat) },
      BOT_LEVELS.map((entry) => h("option", { value: entry.value, title: entry.line() }, entry.label())));
    level.value = chosenLevels.get(seat.seat) || "medium";
    const line = h("span", { class: "muted bot-level-line", "data-bot-level-line": String(seat.seat) }, botLevelLine(level.value));
    level.addEventListener("change", () => {
      chosenLevels.set(seat.seat, level.value);
      line.textContent = botLevelLine(level.value);
    });
    const seatBot = () => api("POST", bots, { seat: seat.seat, level: level.value });
    const add = seat.account_id === null
      ? button(t("Add bot"), `add-bot-${seat.seat}`, "small", seatBot)
      : button(t("Give my seat to a bot"), `add-bot-${seat.seat}`, "small", seatBot, confirmGiveSeat);
    return h("span", { class: "bot-control" }, level, add, line);
  }

  // In the waiting room the host's seat becomes a plain bot seat (app/services/tables/changes.py,
  // set_bot), not the stand-in of a running game that gives the seat back: say so before it happens.
  function confirmGiveSeat() {
    return confirmDialog({
      title: t("Give your seat to a bot?"),
      text: t("A bot takes your seat and plays it for the whole game; you stay the host and watch. Once the game starts you cannot take the seat back (until then, Remove bot frees it and you may sit down again)."),
      confirmLabel: t("Give my seat to a bot"),
      cancelLabel: t("Keep my seat"),
    });
  }

  /** An action button: `request` sends it (after `confirm()` resolves true, when given) and its answer redraws the room. */
  function button(label, action, kind, request, confirm = null) {
    const element = h("button", { type: "button", class: kind, "data-action": action }, label);
    element.addEventListener("click", async () => {
      if (confirm && !(await confirm())) return;
      showMessage(message, "");
      messageSource = null;
      busy = true;
      let fresh = table;
      try {
        const answer = await whileBusy(element, request, t("{action}…", { action: label }));
        if (answer && answer.seats) fresh = answer;
      } catch (error) {
        showMessage(message, t("{action} failed: {reason}", { action: label, reason: error.message }));
        messageSource = "action";
      } finally {
        busy = false;
      }
      update(fresh, true);
    });
    return element;
  }

  return {
    useAccount(signedIn) {
      account = signedIn;
      if (table.status === "open") draw();
    },
    stop,
  };
}
