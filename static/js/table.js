// The game page: the waiting room of an open table (waiting-room.js), then the live game over the
// WebSocket. It draws the shell (turn, players, clocks, log, result, connection) and hands the
// board to the ruleset's renderer module, which draws frame.view and offers frame.legal. No rule
// lives here.

import { api, withInvite } from "./api.js";
import { mountChat } from "./chat.js";
import { mountMoveBar } from "./move-bar.js";
import { describeTimeControl, formatRemaining, paceLabel, remainingMs } from "./clock.js";
import { GameSocket } from "./connection.js";
import { clockIcon, confirmDialog, eyeIcon, h, replaceChildren, whileBusy } from "./dom.js";
import { loadRatings } from "./ratings.js";
import { logContent } from "./log-text.js";
import { previewOf } from "./move-preview.js";
import { agreedText } from "./options-form.js";
import { mountRematch } from "./rematch.js";
import { mountReplay } from "./replay.js";
import { mountSession } from "./session.js";
import { askedOf, countdown, drawAway as drawAwayNotices, drawPlayers as drawPlayerList, isSeated as isSeatedIn, myTakeover as takeoverOfMine,
  playerName as playerNameIn } from "./table-players.js";
import { drawResult } from "./table-result.js";
import { turnAlerts } from "./turn-alerts.js";
import { mountWaitingRoom } from "./waiting-room.js";
import { loadGameCatalog, personName, t, tn } from "./i18n.js";
import { capitalised, listOf, translatePage } from "./words.js";

const MOVE_TIMEOUT_MS = 15000;
const MAX_TOASTS = 4;
const TICK_MS = 500;
const UNDO_GONE_MS = 12000;

const rawId = decodeURIComponent(window.location.pathname.replace(/^\/tables\//, "").split("/")[0] || "");
const tableId = /^[1-9]\d{0,9}$/.test(rawId) ? rawId : null;
const inviteCode = new URLSearchParams(window.location.search).get("invite");

const el = Object.fromEntries(
  [
    "session", "table-title", "connection", "toasts", "page-loading", "page-error", "page-error-title", "page-error-text",
    "waiting-room",
    "game", "turn", "away", "board", "result", "result-headline", "result-reason", "result-table", "players", "you-are",
    "time-control", "seat-status", "game-actions", "alerts-card", "alerts", "log",
  ].map((id) => [id.replace(/-(\w)/g, (_, c) => c.toUpperCase()), document.getElementById(id)]),
);

let account = null;
let table = null;
let waitingRoom = null; // the open table's waiting room (waiting-room.js), until the game starts
/** @type {import("./renderers/contract.js").Renderer | null} */
let renderer = null; // the game's renderer module, once loaded
let board = null; // draws the board, live or replayed (replay.js)
let socket = null;
let chat = null; // the table's chat panel (chat.js)
let rematch = null; // the rematch button and link (rematch.js)
let ratings = null; // {rated, seats} of this table (ratings.js), once loaded
let ratingsFor = null; // the status ratings were last asked for: again when the game ends
let connection = "connecting";
let frame = null; // the last state frame drawn
let online = null; // seats with the game open (null until the socket tells us)
let pending = null; // {id, version, timer, what, undoOffered}: a move (or undo) sent and not yet answered by a state
let undoGone = null; // the note that my move just played cannot be taken back (Undo was offered before it); null: none
let undoGoneTimer = undefined; // clears undoGone (explainUndoGone)
let seatBackTold = false; // the opening notice said the bot moved for me: the seat's return need not say it again
let moveBar = null; // "Confirm my moves" and "Undo" above the board (move-bar.js)
let awaitingHello = false;
let leaving = false;
let retries = 0; // reconnect attempts scheduled since the socket was last live
const alerts = turnAlerts();

translatePage();
main();

async function main() {
  account = await mountSession(el.session, accountChanged);
  await loadTable();
}

function accountChanged(signedIn) {
  const before = account && account.id;
  account = signedIn;
  if (chat) chat.refresh();
  if (moveBar) moveBar.useAccount(signedIn); // "Confirm my moves" is the account's setting
  if (!table) return;
  if (table.status === "open") waitingRoom?.useAccount(signedIn);
  else if (socket && before !== (signedIn && signedIn.id)) socket.retry(); // the socket carries the identity
}

function showPageError(title, text, kind = "error") {
  el.pageLoading.hidden = true;
  el.waitingRoom.hidden = true;
  el.game.hidden = true;
  el.pageError.hidden = false;
  el.pageError.dataset.kind = kind;
  el.pageErrorTitle.textContent = title;
  el.pageErrorText.textContent = capitalised(text); // the server's reason, said on its own
  el.pageErrorText.className = `message message-${kind === "closed" ? "info" : "error"}`;
}

// -- the table and its waiting room -----------------------------------------------------------

async function loadTable() {
  if (tableId === null) {
    showPageError(t("No such table"), t("This table does not exist. Check the link, or find your tables in the lobby."));
    return;
  }
  try {
    table = await api("GET", withInvite(`/api/tables/${encodeURIComponent(tableId)}`, inviteCode));
  } catch (error) {
    if (error.status === 404 || error.status === 400 || error.status === 422) {
      showPageError(t("No such table"), t("This table does not exist, or it is private and you need its invite link."));
    } else {
      showPageError(t("Cannot open this table"), error.message);
    }
    return;
  }
  await loadGameCatalog(table.ruleset); // the game's words (its title, log, options, renderer) before anything is drawn
  el.pageLoading.hidden = true;
  const title = table.title ? t(table.title) : table.ruleset;
  el.tableTitle.textContent = title;
  el.tableTitle.after(h("a", { class: "topbar-link", id: "rules-link", href: `/rules/${encodeURIComponent(table.ruleset)}`, target: "_blank", rel: "noopener", "aria-label": t("Rules of {game} (opens in a new tab)", { game: title }) }, t("Rules")));
  document.title = `${title} — Caravanserai`;
  const timeControl = describeTimeControl(table.time_control && table.time_control.move_seconds) || t("no time limit");
  el.timeControl.hidden = false;
  el.timeControl.dataset.pace = table.pace || "";
  replaceChildren(el.timeControl, clockIcon(), " ", [paceLabel(table.pace), timeControl].filter(Boolean).join(" · "), " · ",
    h("span", { id: "table-agreed", "data-table-agreed": "" }, agreedText(table)));
  if (table.status === "open" && soloHost()) {
    // a solo table (one seat, mine) has nobody to wait for: it starts at once, no waiting room
    try {
      table = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/start`, {});
    } catch (error) {
      toast(t("Could not start your solo game: {reason}", { reason: error.message }), error.code); // the waiting room below offers Start again
    }
  }
  if (table.status === "open") {
    waitingRoom = mountWaitingRoom({ tableId, inviteCode, table, account, onTable: tableChanged, onGone: showPageError });
  } else {
    followStatus();
  }
  // the chat's readers, as the server counts them (app/services/tables/chat.py, chat_access): the seated
  // players, and everyone where the creator let spectators chat; a solo table has nobody to talk to
  if (table.seats.length > 1) {
    chat = mountChat({ tableId, inviteCode, mayRead: () => (table ? Boolean(table.chat_spectators || (account && (table.seats || []).some((seat) => seat.account_id === account.id))) : null) });
  }
  rematch = mountRematch({ table, inviteCode, account, onError: toast });
}

/** A newer answer of the waiting room's: follow it once the table is no longer open. */
function tableChanged(fresh) {
  table = fresh;
  if (table.status !== "open") followStatus();
}

/** Whether this is a one-seat table whose seat is the signed-in account's (a solo game, e.g. against Heroes' Enemy). */
function soloHost() {
  return Boolean(account) && table.seats.length === 1 && table.seats[0].account_id === account.id;
}

/** Leave the waiting room when the table started, ended or was closed. */
function followStatus() {
  if (table.status === "running" || table.status === "finished" || table.status === "abandoned") startGame();
  else if (table.status === "closed") showClosed();
}

function showClosed() {
  waitingRoom?.stop();
  const mine = account && table.creator_id === account.id;
  showPageError(
    t("This table is closed"),
    mine ? t("You left, and with nobody else seated the table is closed.") : t("The host closed this table before the game started."),
    "closed",
  );
}

// -- the game ---------------------------------------------------------------------------------

async function startGame() {
  if (renderer || el.game.dataset.starting) return;
  el.game.dataset.starting = "yes";
  waitingRoom?.stop();
  el.waitingRoom.hidden = true;
  el.game.hidden = false;
  el.board.replaceChildren(h("p", { class: "muted" }, t("Loading the game…")));
  renderer = await loadRenderer(table.ruleset);
  board = mountReplay({ tableId, inviteCode, ruleset: table.ruleset, renderer, redraw: draw, toast });
  moveBar = mountMoveBar({
    board: el.board,
    send: sendMove,
    undo: sendUndo,
    redraw: draw,
    describe: (move) => (frame ? previewOf(renderer, frame, move).text : null),
    ownConfirm: Boolean(renderer.confirmsMoves),
    account,
  });
  // A move offered from outside the renderer (`choose-move` on the board, `detail`: one of
  // frame.legal exactly as given) goes the renderer's way: held for Confirm, or sent. The preview
  // conformance test (tests/e2e/test_move_preview_browser.py) holds every type of move this way.
  el.board.addEventListener("choose-move", (event) => {
    const wanted = JSON.stringify(/** @type {CustomEvent} */ (event).detail);
    const move = frame && (frame.legal || []).find((candidate) => JSON.stringify(candidate) === wanted);
    if (move && !pending && isSeated()) moveBar.choose(move);
  });
  try {
    const initial = await api("GET", withInvite(`/api/games/${encodeURIComponent(tableId)}`, inviteCode));
    applyState({ type: "state", ...initial }, initial.log || []);
  } catch (error) {
    toast(t("Could not load the game: {reason}", { reason: error.message }), error.code);
  }
  socket = new GameSocket({
    gameId: tableId,
    inviteCode,
    since: () => (frame ? frame.version : 0),
    onFrame: (message) => {
      chat?.receive(message);
      rematch?.receive(message);
      receive(message);
    },
    onStatus: (status, detail) => {
      chat?.connection(status);
      connectionChanged(status, detail);
    },
  });
  socket.start();
  setInterval(tick, TICK_MS);
}

/**
 * The renderer module of ruleset `name` (static/js/renderers/<name>.js), else the generic one.
 * @returns {Promise<import("./renderers/contract.js").Renderer>}
 */
async function loadRenderer(name) {
  if (/^[a-z0-9_-]+$/i.test(name || "")) {
    try {
      return await import(`./renderers/${name}.js`);
    } catch (error) {
      console.warn(`No renderer for ${name}; using the generic one.`, error);
    }
  }
  return import("./renderers/generic.js");
}

/** "2 watching": the people at the table without a seat (the presence frame's count). */
function showSpectators(count) {
  const line = document.getElementById("spectators");
  if (!line) return;
  line.hidden = count === 0;
  const watching = tn("{n} watching", "{n} watching", count);
  replaceChildren(line, ...(count ? [eyeIcon(), ` ${watching}`] : []));
  line.title = count ? tn("{n} person watches this table without a seat", "{n} people watch this table without a seat", count, { n: count }) : "";
}

function receive(message) {
  if (message.type === "state") {
    applyState(message, null);
  } else if (message.type === "presence") {
    online = Array.isArray(message.online) ? message.online : online;
    if (frame) drawPlayers();
    showSpectators(Number(message.spectators) || 0);
  } else if (message.type === "ack") {
    if (pending && message.id === pending.id && frame && message.version <= frame.version) settle();
  } else if (message.type === "error") {
    const ours = pending && (message.id === pending.id || message.id === null || message.id === undefined);
    toast(refusalWords(message, ours ? pending.what : null), message.code);
    if (ours && message.code === "not_reversible") explainUndoGone(message.message); // said where the button was
    if (ours) {
      settle();
      draw();
    }
    if (message.code === "stale_version" && socket) socket.hello();
  }
}

/**
 * A refusal from the server in words a player reads (`message`: the error frame; `what`: "move",
 * "undo" or null when it answers none of ours): what did not happen, then the server's reason;
 * for a stale version, what to do next.
 */
function refusalWords(message, what) {
  const reason = message.message || t("the server gave no reason");
  // A late answer to a move this page no longer waits for: the server's words name versions, which
  // mean nothing to a player.
  if (!what && message.code === "stale_version") return t("The game moved on: the board now shows the new position.");
  if (!what) return capitalised(reason);
  const undo = what === "undo";
  if (message.code === "stale_version") {
    return undo
      ? t("Your move was not taken back: the game moved on before it arrived (another player, or another tab of yours, acted first). The board now shows the new position.")
      : t("Your move was not played: the game moved on before it arrived (another player, or another tab of yours, acted first). The board now shows the new position.");
  }
  if (message.code === "not_your_turn") {
    return undo ? t("Your move was not taken back: it is not your turn ({reason}).", { reason }) : t("Your move was not played: it is not your turn ({reason}).", { reason });
  }
  const short = reason.replace(/\.$/, "");
  return undo ? t("Your move was not taken back: {reason}.", { reason: short }) : t("Your move was not played: {reason}.", { reason: short });
}

/** Draw a state; `fullLog` replaces the log (initial load), otherwise frame.log is appended. */
function applyState(next, fullLog) {
  if (frame && next.version < frame.version) return; // an older frame overtaken by a newer one
  if (Array.isArray(next.online)) online = next.online;
  if (fullLog) {
    replaceChildren(el.log);
    appendLog(fullLog);
  } else {
    const known = frame ? frame.version : -Infinity;
    appendLog((next.log || []).filter((entry) => entry.version > known));
  }
  noteUndo(next);
  noteSeatBack(next);
  noteBotMovesSinceLastVisit(next, fullLog);
  if (pending && (next.version > pending.version || awaitingHello)) settle();
  if (moveBar && frame && next.version !== frame.version) moveBar.clear(); // a move held for Confirm answered an older position
  awaitingHello = false;
  frame = next;
  drawSoon();
}

let drawScheduled = false;

/** Draw at the next animation frame, once however many states arrive before it: a burst of moves
 * (bots, a reconnect) is drawn once instead of once a move, so a slow device never falls behind.
 * In a hidden tab, whose animation frames stop, at once (the tab title tells of the turn). */
function drawSoon() {
  if (document.hidden) {
    draw();
    return;
  }
  if (drawScheduled) return;
  drawScheduled = true;
  requestAnimationFrame(() => {
    drawScheduled = false;
    draw();
  });
}

/**
 * Whether to say that my move just answered cannot be taken back: only when Undo was offered as I
 * sent it (so the button's going needs a reason), never for another player's move (their acting
 * is plain to see) nor at the start of a turn. A move that could be taken back clears the note.
 */
function noteUndo(next) {
  if (!frame || next.version <= frame.version || next.undo) {
    if (next.undo) explainUndoGone(null);
    return;
  }
  const mine = pending && pending.what === "move" && next.version === pending.version + 1;
  explainUndoGone(mine && pending.undoOffered ? t("This move cannot be undone.") : null);
}

/** Tell a person who takes their seat back from the bot (they left, ran out of time or were away)
 * that it may have moved for them meanwhile: the log marks those moves, but nothing pointed there. */
function noteSeatBack(next) {
  if (!frame || frame.status !== "running" || !isSeated()) return;
  const before = takeoverOfMine(frame);
  if (before && before !== "resigned" && !takeoverOfMine(next)) {
    // the page's opening notice (noteBotMovesSinceLastVisit) may have said it already
    if (!seatBackTold) toast(t("Your seat is yours again. Any move the bot made for you meanwhile is marked in the log."), "seat-back");
    seatBackTold = false;
  }
}

/** On opening the page: how many moves the bot made for my seat since this browser last showed
 * the game (each entry of such a move carries `args.by`, app/services/games/bot_log.py), said once;
 * the version shown is remembered per table in localStorage. */
function noteBotMovesSinceLastVisit(next, fullLog) {
  const key = `caravanserai-seen-${tableId}`;
  let seen = null;
  try {
    seen = window.localStorage.getItem(key);
    window.localStorage.setItem(key, String(next.version));
  } catch {
    return; // storage refused (a private window): nothing to compare with
  }
  if (frame || !fullLog || seen === null || next.seat === null || next.seat === undefined) return;
  const since = Number(seen);
  const versions = new Set(fullLog.filter((entry) => entry.version > since && entry.args && entry.args.by
    && entry.args.by.seat === next.seat).map((entry) => entry.version));
  if (versions.size) {
    seatBackTold = true;
    toast(tn("While you were away, the bot played {n} move for you; the log marks it.",
      "While you were away, the bot played {n} moves for you; the log marks them.", versions.size), "seat-back");
  }
}

/** Say in the move bar, where Undo was, that it went (null: say nothing), for UNDO_GONE_MS: long
 * enough to read when the button vanishes, not for the whole next turn. */
function explainUndoGone(why) {
  undoGone = why;
  clearTimeout(undoGoneTimer);
  if (why) {
    undoGoneTimer = setTimeout(() => {
      undoGone = null;
      draw();
    }, UNDO_GONE_MS);
  }
}

function settle() {
  if (!pending) return;
  clearTimeout(pending.timer);
  pending = null;
}

function sendMove(move) {
  sendFrame((id) => ({ type: "move", id, version: frame.version, move }), "move");
}

/** Ask to take back my last move (the server decides; the state frame says when it may). */
function sendUndo() {
  sendFrame((id) => ({ type: "undo", id, version: frame.version }), "undo");
}

function sendFrame(build, what) {
  if (pending || !frame || !isSeated() || myTakeover()) return;
  const id = newMoveId();
  const sent = socket && socket.send(build(id));
  if (!sent) {
    toast(what === "undo"
      ? t("Not connected right now; your undo was not sent. Try again when the connection is back.")
      : t("Not connected right now; your move was not sent. Try again when the connection is back."), "offline");
    return;
  }
  const timer = setTimeout(() => {
    if (!pending || pending.id !== id) return;
    settle();
    toast(t("No answer from the server yet; showing the latest state again."), "timeout");
    socket.hello();
    draw();
  }, MOVE_TIMEOUT_MS);
  pending = { id, version: frame.version, timer, what, undoOffered: Boolean(frame.undo) };
  if (what === "move") explainUndoGone(null); // a new move: the old reason no longer applies
  draw();
}

function newMoveId() {
  if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
  // randomUUID exists only in secure contexts (https or localhost); build a v4 UUID by hand.
  const bytes = window.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function connectionChanged(status, detail) {
  const before = connection;
  connection = status;
  document.body.dataset.connection = status;
  if (status === "connecting" || status === "reconnecting") awaitingHello = true;
  if (status === "live") retries = 0;
  else if (status === "reconnecting" && detail > 0) retries += 1;
  document.body.dataset.reconnectTries = String(retries);
  if (status === "live") {
    el.connection.hidden = true;
  } else if (status === "connecting") {
    el.connection.hidden = frame !== null;
    replaceChildren(el.connection, t("Connecting…"));
  } else if (status === "reconnecting") {
    el.connection.hidden = false;
    const retry = h("button", { type: "button", class: "link-button", onClick: () => socket.retry() }, t("Retry now"));
    replaceChildren(el.connection, h("span", { id: "reconnecting" }, t("Connection lost — reconnecting…")), " ", retry);
  } else if (status === "closed") {
    el.connection.hidden = false;
    // Logged out (here or on another device): a reload asks as who we are now, and watches as a spectator.
    const again = detail === "logged out"
      ? h("button", { type: "button", class: "link-button", onClick: () => window.location.reload() }, t("Reload"))
      : h("button", { type: "button", class: "link-button", onClick: () => socket.retry() }, t("Try again"));
    const why = t("Disconnected: {reason}.", { reason: disconnectReason(detail) });
    replaceChildren(el.connection, `${why} `, again, " · ", h("a", { href: "/" }, t("Back to lobby")));
  }
  el.connection.dataset.status = status;
  if ((before === "live") !== (status === "live") && frame) draw();
}

/** Why the socket closed, in words (connection.js says it in English: the server's close reason, or its code). */
function disconnectReason(detail) {
  if (detail === "logged out") return t("logged out");
  const code = /^the server closed the connection \((\d+)\)$/.exec(String(detail));
  return code ? t("the server closed the connection ({code})", { code: code[1] }) : t(String(detail));
}

// -- drawing ----------------------------------------------------------------------------------

function playerName(seat) {
  return playerNameIn(frame, seat);
}

function isSeated() {
  return isSeatedIn(frame);
}

/** Why a bot plays my seat right now ("timeout", "left", "resigned", "away"), or null. */
function myTakeover() {
  return takeoverOfMine(frame);
}

/** What the players' panel draws from (table-players.js). */
function moment() {
  return { frame, table, account, online, ratings, renderer };
}

function drawPlayers() {
  drawPlayerList(el.players, el.youAre, moment());
  tick();
}

function drawAway() {
  drawAwayNotices(el.away, moment(), handOver);
  tick();
}

function draw() {
  if (!frame) return;
  const toAct = frame.to_act || [];
  const running = frame.status === "running";
  const takenOver = myTakeover();
  const myTurn = running && isSeated() && !takenOver && toAct.includes(frame.seat) && (frame.legal || []).length > 0;
  const canMove = myTurn && !pending && connection === "live";

  el.game.dataset.version = String(frame.version);
  el.game.dataset.status = frame.status;
  el.game.dataset.seat = isSeated() ? String(frame.seat) : "";
  document.body.dataset.myTurn = String(myTurn);
  document.body.dataset.pending = String(Boolean(pending));
  const title = table.title ? t(table.title) : table.ruleset;
  document.title = `${myTurn ? `● ${t("Your turn")} — ` : ""}${title} — Caravanserai`;
  alerts.update(myTurn, t("{game}: it is your move.", { game: title }));

  drawTurn(myTurn, toAct);
  drawAway();
  drawPlayers();
  drawSeatStatus(takenOver);
  drawGameActions(takenOver);
  drawResultPanel();
  moveBar.render({ seated: running && isSeated() && !takenOver, canUndo: Boolean(frame.undo) && !pending && connection === "live", undoGone: frame.undo ? null : undoGone });
  board.render(frame, { sendMove: moveBar.choose, disabled: !canMove || moveBar.proposal !== null, preview: moveBar.proposal });
  // the move held for Confirm, drawn where it will land (the renderer's `preview` hook)
  if (moveBar.proposal && document.body.dataset.replay !== "true") previewOf(renderer, frame, moveBar.proposal).draw(el.board);
  tick();
  refreshRatings();
}

function drawResultPanel() {
  drawResult({ panel: el.result, headline: el.resultHeadline, reason: el.resultReason, table: el.resultTable }, moment());
}

/** Ratings beside the names once the game runs, and again once it is over (with each change). */
function refreshRatings() {
  const wanted = frame.status === "finished" ? "finished" : "running";
  if (ratingsFor === wanted) return;
  ratingsFor = wanted;
  loadRatings(tableId, inviteCode)
    .then((loaded) => {
      ratings = loaded;
      if (frame) {
        drawPlayers();
        drawResultPanel();
      }
    })
    .catch(() => {
      ratingsFor = null; // asked again at the next frame
    });
}

function drawTurn(myTurn, toAct) {
  let text;
  let kind = "waiting";
  let clock = null;
  if (frame.status === "abandoned") {
    text = t("This game was abandoned: everyone stayed away. A player who opens it plays on.");
    kind = "over";
  } else if (frame.status === "finished") {
    const winners = frame.result ? frame.result.ranks.map((rank, seat) => (rank === 1 ? playerName(seat) : null)).filter(Boolean) : [];
    text = !winners.length
      ? t("Game over.")
      : winners.length > 1 ? t("Game over — {names} share the win!", { names: listOf(winners) }) : t("Game over — {name} wins!", { name: winners[0] });
    kind = "over";
  } else if (myTurn) {
    const asked = askedOf(renderer, frame, frame.seat);
    text = pending ? t("Sending your move…") : connection !== "live" ? t("Your turn (waiting for the connection)") : asked ? asked.banner : t("Your turn");
    kind = "yours";
    clock = countdown(frame, frame.seat);
  } else if (toAct.length) {
    const takenOver = myTakeover();
    const names = toAct.map((seat) => (seat === frame.seat && takenOver ? t("the bot playing for you") : playerName(seat))).join(", ");
    text = isSeated() ? t("Waiting for {names}", { names }) : t("{names} to play", { names });
    if (toAct.length === 1) clock = countdown(frame, toAct[0]);
  } else {
    text = t("Waiting…");
  }
  el.turn.className = `turn-banner turn-${kind}`;
  el.turn.dataset.kind = kind;
  replaceChildren(
    el.turn,
    h("span", { class: "turn-text" }, text),
    clock ? h("span", { class: "turn-clock", title: t("Time left for this move") }, clockIcon(), clock) : null,
    isSeated() ? null : h("span", { class: "badge spectator-badge" }, t("watching")),
  );
}

/** What a hand-over does to the away person's rating, at a rated table (docs/playing.md, "Ratings"). */
function handOverRating(name) {
  if (!table.rated) return "";
  return table.time_control && table.time_control.move_seconds
    ? t("If the game ends before {name} is back, {name} counts as having abandoned it: last among the players in the ratings.", { name })
    : t("This table has no time limit, so if the game ends before {name} is back, {name}'s rating does not change.", { name });
}

async function handOver(player, button) {
  const sure = await confirmDialog({
    title: t("Let a bot play for {name}?", { name: personName(player.name) }),
    text: [t("{name} has been away for a while. A bot plays their seat until they come back; opening the table gives it back to them.", { name: personName(player.name) }),
      handOverRating(personName(player.name))].filter(Boolean).join(" "),
    confirmLabel: t("Let a bot play"),
    cancelLabel: t("Wait"),
  });
  if (!sure) return;
  try {
    await whileBusy(button, () => api("POST", `/api/tables/${encodeURIComponent(tableId)}/bots`, { seat: player.seat }), t("Handing over…"));
  } catch (error) {
    toast(t("Could not hand the seat over: {reason}", { reason: error.message }), error.code);
  }
}

function drawSeatStatus(takenOver) {
  const running = frame.status === "running";
  if (!running || !takenOver) {
    el.seatStatus.hidden = true;
    el.seatStatus.replaceChildren();
    return;
  }
  el.seatStatus.hidden = false;
  el.seatStatus.dataset.takeover = takenOver;
  if (takenOver === "resigned") {
    replaceChildren(el.seatStatus, h("p", {}, t("You resigned. A bot plays your seat to the end of the game.")));
    return;
  }
  const why = takenOver === "timeout" ? t("You ran out of time, so a bot is playing for you.")
    : takenOver === "away" ? t("You were away, so another player let a bot play for you.")
      : t("You left the table, so a bot is playing for you.");
  const back = h("button", { type: "button", class: "primary", id: "reclaim-seat", "data-action": "reclaim" }, t("I'm back — take my seat"));
  back.addEventListener("click", () => {
    // Saying hello again as the seated person takes the seat back from the bot.
    if (!socket || !socket.hello()) toast(t("Not connected right now; try again when the connection is back."), "offline");
  });
  replaceChildren(el.seatStatus, h("p", {}, why), back);
}

function drawGameActions(takenOver) {
  const show = frame.status === "running" && isSeated() && takenOver !== "resigned" && Boolean(account);
  el.alertsCard.hidden = !(frame.status === "running" && isSeated());
  if (!el.alerts.firstChild) el.alerts.append(alerts.element);
  if (!show) {
    el.gameActions.replaceChildren();
    el.gameActions.hidden = true;
    return;
  }
  if (el.gameActions.dataset.drawn === "yes" && !el.gameActions.hidden) return; // keep the buttons (and their busy state)
  el.gameActions.hidden = false;
  el.gameActions.dataset.drawn = "yes";
  const path = `/api/tables/${encodeURIComponent(tableId)}`;
  const leave = h("button", { type: "button", "data-action": "leave-game", id: "leave-game" }, t("Leave table"));
  const resign = h("button", { type: "button", class: "danger-outline", "data-action": "resign", id: "resign" }, t("Resign"));
  leave.addEventListener("click", async () => {
    const sure = await confirmDialog({
      title: t("Leave this game?"),
      text: [t("A bot will play for you until you come back. Open this table again (from “My games” in the lobby) to take your seat back."),
        table.rated ? t("If the game ends before you are back, you have abandoned it: last among the players in the ratings, whatever the bot does.") : ""]
        .filter(Boolean).join(" "),
      confirmLabel: t("Leave table"),
      cancelLabel: t("Stay"),
    });
    if (!sure) return;
    leaving = true;
    if (socket) socket.stop(); // a reconnect would say hello and take the seat right back
    try {
      await whileBusy(leave, () => api("POST", `${path}/leave`, {}), t("Leaving…"));
      window.location.assign("/");
    } catch (error) {
      leaving = false;
      toast(t("Could not leave: {reason}", { reason: error.message }), error.code);
      if (socket) socket.start();
    }
  });
  resign.addEventListener("click", async () => {
    const sure = await confirmDialog({
      title: t("Resign this game?"),
      text: [t("This is final: a bot plays your seat to the end of the game, and you cannot take it back."),
        table.rated ? t("In the ratings you are last among the players.") : ""].filter(Boolean).join(" "),
      confirmLabel: t("Resign"),
      cancelLabel: t("Keep playing"),
      danger: true,
    });
    if (!sure) return;
    try {
      await whileBusy(resign, () => api("POST", `${path}/resign`, {}), t("Resigning…"));
    } catch (error) {
      toast(t("Could not resign: {reason}", { reason: error.message }), error.code);
    }
  });
  replaceChildren(el.gameActions, leave, resign);
}

/** Update every countdown on the page from its deadline; "0:00" once it has passed. */
function tick() {
  if (!frame) return;
  const moveMs = ((table.time_control && table.time_control.move_seconds) || 0) * 1000;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-deadline]"))) {
    const left = remainingMs(node.dataset.deadline);
    if (left === null) continue;
    const text = formatRemaining(left);
    if (node.textContent !== text) node.textContent = text;
    const urgent = left <= Math.max(10_000, moveMs * 0.1);
    node.classList.toggle("countdown-urgent", urgent);
    node.classList.toggle("countdown-over", left === 0);
  }
}

function appendLog(entries) {
  if (!entries.length) return;
  const list = el.log;
  if (!list.dataset.pinWatch) {
    // stay pinned to the newest entry unless the reader scrolled up (measured when they scroll, not
    // before an append: a long entry or a growing panel must not unpin the log)
    list.dataset.pinWatch = "1";
    list.dataset.pinned = "1";
    list.addEventListener("scroll", () => {
      list.dataset.pinned = list.scrollHeight - list.scrollTop - list.clientHeight < 40 ? "1" : "";
    });
  }
  const pinned = list.dataset.pinned === "1";
  for (const entry of entries) {
    list.append(h("li", { "data-version": String(entry.version) }, logContent(entry, table.ruleset)));
  }
  if (pinned || entries.length > 1) list.scrollTop = list.scrollHeight;
}

// -- messages ---------------------------------------------------------------------------------

function toast(text, code) {
  if (leaving) return;
  const close = h("button", { type: "button", class: "toast-close", "aria-label": t("Dismiss") }, "×");
  const item = h("div", { class: "toast", role: "alert", "data-code": code || "" }, h("span", { class: "toast-text" }, capitalised(text)), close);
  close.addEventListener("click", () => item.remove());
  el.toasts.append(item);
  while (el.toasts.children.length > MAX_TOASTS) el.toasts.firstElementChild.remove();
}
