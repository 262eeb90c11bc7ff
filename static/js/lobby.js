// The lobby: sign in, create a table (live or turn-based), "My games" (your own tables, the ones
// where it is your move first, with deadlines and the last move's age), list open and running
// public tables, join, start, watch.

import { api } from "./api.js";
import { botLevelWord } from "./bot-levels.js";
import { describeTimeControl, formatRemaining, paceChoices, paceLabel, remainingMs, shortTimeControl, timeAgo } from "./clock.js";
import { clockIcon, copyText, h, replaceChildren, showMessage, whileBusy } from "./dom.js";
import { mountFriendsCard } from "./friends.js";
import { agreedText, optionsForm } from "./options-form.js";
import { mountSession } from "./session.js";
import { inviteLink, playerPath, tablePath } from "./links.js";
import { ICON, TURN_ICON, setFavicon } from "./turn-alerts.js";
import { gamePicture } from "./game-pictures.js";
import { personName, t, tn } from "./i18n.js";
import { capitalised, fill, gameWord, keep, loadGameWords, translatePage } from "./words.js";

const REFRESH_MS = 3000;
const LAST_GAME_KEY = "caravanserai-last-game"; // localStorage: the ruleset of the last table you created
const QUIET_MS = 24 * 3600 * 1000; // a running table with no move for this long is marked "quiet"
const TICK_MS = 1000;
/** The hint under the pace's select, in the reader's language: what the pace and the chosen clock
 * (`timed`) mean for a player who runs out of time or stays away (docs/api.md, "Pace and absent
 * players"; docs/playing.md, "Ratings"). */
function paceHint(pace, timed) {
  const away = pace === "live"
    ? t("Everyone plays at the table now. Once someone has been away for a few minutes, the others may let a bot play for them until they return.")
    : pace === "turn_based" ? t("Each player moves when they can; “My games” shows where it is your move.") : "";
  if (!away) return "";
  const clock = timed
    ? t("A player who runs out of time gets a bot in their seat until they return.")
    : t("No time limit: no seat goes to a bot by itself, and nobody's rating changes for being away.");
  return `${away} ${clock}`;
}

translatePage();

const elements = {
  session: document.getElementById("session"),
  hint: document.getElementById("create-signin-hint"),
  form: document.getElementById("create-form"),
  ruleset: /** @type {HTMLSelectElement} */ (document.getElementById("ruleset")),
  seats: /** @type {HTMLSelectElement} */ (document.getElementById("seats")),
  pace: /** @type {HTMLSelectElement} */ (document.getElementById("pace")),
  paceHint: document.getElementById("pace-hint"),
  moveSeconds: /** @type {HTMLSelectElement} */ (document.getElementById("move-seconds")),
  optionsFieldset: document.getElementById("options-fieldset"),
  options: document.getElementById("options"),
  private: /** @type {HTMLInputElement} */ (document.getElementById("private")),
  create: /** @type {HTMLButtonElement} */ (document.getElementById("create-table")),
  createMessage: document.getElementById("create-message"),
  mineSection: document.getElementById("mine-section"),
  mineSummary: document.getElementById("mine-summary"),
  mineMessage: document.getElementById("mine-message"),
  mineLoading: document.getElementById("mine-loading"),
  mine: document.getElementById("mine"),
  mineFinishedWrap: document.getElementById("mine-finished-wrap"),
  mineFinishedCount: document.getElementById("mine-finished-count"),
  mineFinished: document.getElementById("mine-finished"),
  tables: document.getElementById("tables"),
  tablesMessage: document.getElementById("tables-message"),
  tablesLoading: document.getElementById("tables-loading"),
  refresh: document.getElementById("refresh-tables"),
};

let account = null;
let rulesets = [];
let currentOptions = null;
let tables = [];
let mine = null; // the caller's own tables ("My games"), null until loaded
let lastDrawn = "";
let lastDrawnMine = "";
let actionsInFlight = 0;
/** The time limit the person picked ({pace, value}), kept when the game or the number of players
 * changes (the usual one of the new game replaced it before, unseen); null: the usual one. */
let chosenClock = null;

const paces = paceChoices();
replaceChildren(elements.pace, paces.map((entry) => h("option", { value: entry.pace }, entry.label)));
choosePace();
elements.pace.addEventListener("change", choosePace);
elements.moveSeconds.addEventListener("change", () => {
  chosenClock = { pace: elements.pace.value, value: elements.moveSeconds.value };
  elements.paceHint.textContent = paceHint(elements.pace.value, elements.moveSeconds.value !== "");
});

/** Offer the clocks of the chosen pace, its usual one selected: at a live table, the time per move
 * the chosen game proposes (its ruleset's live_move_seconds: longer for a game of many phases); for
 * a solo game none (a clock that ran out would hand the person's own game to a bot: nobody waits). */
function choosePace() {
  const entry = paces.find((candidate) => candidate.pace === elements.pace.value) || paces[0];
  const game = rulesets.find((candidate) => candidate.name === elements.ruleset.value);
  const solo = elements.seats.value === "1";
  const usual = solo ? null : entry.pace === "live" && game && game.live_move_seconds ? game.live_move_seconds : entry.preset;
  const choices = entry.choices.some((choice) => choice.seconds === usual)
    ? entry.choices
    : [...entry.choices, { seconds: usual, label: describeTimeControl(usual) }];
  const valueOf = (/** @type {{seconds: number | null}} */ choice) => (choice.seconds === null ? "" : String(choice.seconds));
  // the person's own pick stays (same pace, still offered), but a solo game starts with no clock
  const kept = chosenClock && chosenClock.pace === entry.pace && !solo && choices.some((choice) => valueOf(choice) === chosenClock.value)
    ? chosenClock.value : null;
  replaceChildren(
    elements.moveSeconds,
    choices.map((choice) =>
      h("option", { value: valueOf(choice), selected: kept === null ? choice.seconds === usual : valueOf(choice) === kept },
        choice.seconds === usual && usual !== null && entry.pace === "live" && game ? t("{clock} (usual)", { clock: choice.label }) : choice.label),
    ),
  );
  elements.paceHint.textContent = paceHint(entry.pace, elements.moveSeconds.value !== "");
}

/** A game's name as the reader reads it (the ruleset's catalog may name it in their language). */
function gameTitle(ruleset) {
  return ruleset.title ? gameWord(ruleset.name, ruleset.title) : ruleset.name;
}
// The rules of the game chosen in the select, in a new tab (chooseRuleset points it at the game).
const rulesLink = h("a", { class: "rules-link", id: "ruleset-rules", target: "_blank", rel: "noopener", hidden: true }, t("Rules"));
elements.ruleset.closest(".field").after(rulesLink);

const friendsCard = mountFriendsCard(document.getElementById("friends-section"));
mountSession(elements.session, (signedIn) => {
  const changed = (account && account.id) !== (signedIn && signedIn.id);
  account = signedIn;
  friendsCard.refresh(account);
  elements.form.hidden = !account;
  elements.hint.hidden = Boolean(account);
  elements.mineSection.hidden = !account;
  if (changed) {
    mine = null;
    elements.mineLoading.hidden = false;
    replaceChildren(elements.mine);
    replaceChildren(elements.mineFinished);
    elements.mineFinishedWrap.hidden = true;
  }
  lastDrawn = "";
  lastDrawnMine = "";
  drawTables();
  drawMine();
  if (account) refreshTables();
});
loadRulesets();
refreshTables();
setInterval(() => {
  if (!document.hidden) refreshTables();
}, REFRESH_MS);
setInterval(tick, TICK_MS);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) refreshTables();
});
elements.refresh.addEventListener("click", () => refreshTables(true));

// -- creating a table -------------------------------------------------------------------------

async function loadRulesets() {
  try {
    rulesets = await api("GET", "/api/rulesets");
  } catch (error) {
    showMessage(elements.createMessage, t("Could not load the list of games: {reason}", { reason: error.message }));
    return;
  }
  if (!rulesets.length) {
    replaceChildren(elements.ruleset, h("option", {}, t("No games installed")));
    return;
  }
  await loadGameWords(rulesets.map((ruleset) => ruleset.name)); // each game's name and summary in the reader's words
  lastDrawn = ""; // the tables' games and options too
  lastDrawnMine = "";
  drawTables();
  drawMine();
  replaceChildren(
    elements.ruleset,
    rulesets.map((ruleset) => h("option", { value: ruleset.name }, gameTitle(ruleset))),
  );
  elements.ruleset.disabled = false;
  elements.create.disabled = false;
  const last = storedLastGame();
  if (last && rulesets.some((ruleset) => ruleset.name === last)) elements.ruleset.value = last;
  chooseRuleset();
  drawGameCards();
}

function storedLastGame() {
  try {
    return window.localStorage.getItem(LAST_GAME_KEY);
  } catch {
    return null;
  }
}

/** One card per game: our picture, players, typical length, one line, its rules; a click chooses it. */
function drawGameCards() {
  const list = document.getElementById("game-cards");
  replaceChildren(
    list,
    rulesets.map((ruleset) => {
      const players = ruleset.min_players === ruleset.max_players
        ? tn("{n} player", "{n} players", ruleset.min_players, { n: ruleset.min_players })
        : t("{min}–{max} players", { min: ruleset.min_players, max: ruleset.max_players });
      const minutes = ruleset.minutes ? t("{min}–{max} min", { min: ruleset.minutes[0], max: ruleset.minutes[1] }) : null;
      const length = minutes ? ` · ${minutes}` : "";
      const chosen = ruleset.name === elements.ruleset.value;
      const choose = h(
        "button",
        { type: "button", class: "game-card-choose", "data-game": ruleset.name, "aria-pressed": String(chosen), "aria-label": t("Choose {game}", { game: gameTitle(ruleset) }) },
        gamePicture(ruleset.name),
        h("strong", { class: "game-card-title" }, gameTitle(ruleset)),
        h("span", { class: "game-card-facts muted" }, `${players}${length}`),
        ruleset.summary ? h("span", { class: "game-card-summary" }, gameWord(ruleset.name, ruleset.summary)) : null,
      );
      choose.addEventListener("click", () => {
        elements.ruleset.value = ruleset.name;
        chooseRuleset();
        drawGameCards();
      });
      return h(
        "li",
        { class: `game-card${chosen ? " chosen" : ""}`, "data-game-card": ruleset.name },
        choose,
        h("a", { class: "game-card-rules", href: `/rules/${encodeURIComponent(ruleset.name)}`, target: "_blank", rel: "noopener", "aria-label": t("Rules of {game} (opens in a new tab)", { game: gameTitle(ruleset) }) }, t("Rules")),
      );
    }),
  );
}

function chooseRuleset() {
  const ruleset = rulesets.find((candidate) => candidate.name === elements.ruleset.value);
  if (!ruleset) return;
  const seats = [];
  for (let n = ruleset.min_players; n <= ruleset.max_players; n += 1) {
    seats.push(h("option", { value: String(n) }, n === 1 ? t("1 player (solo)") : tn("{n} player", "{n} players", n, { n })));
  }
  replaceChildren(elements.seats, seats);
  // two players unless the game cannot be played by two (a solo game is a choice, not the default)
  elements.seats.value = String(Math.min(Math.max(2, ruleset.min_players), ruleset.max_players));
  currentOptions = optionsForm(ruleset.options_schema, ruleset.name); // in the game's words (loadGameWords)
  replaceChildren(elements.options, currentOptions.element);
  elements.optionsFieldset.hidden = currentOptions.empty;
  rulesLink.href = `/rules/${encodeURIComponent(ruleset.name)}`;
  rulesLink.setAttribute("aria-label", t("Rules of {game} (opens in a new tab)", { game: gameTitle(ruleset) }));
  rulesLink.hidden = false;
  choosePace(); // the game's usual time per move
}

elements.seats.addEventListener("change", () => choosePace());
elements.ruleset.addEventListener("change", () => {
  chooseRuleset();
  drawGameCards();
});

elements.form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showMessage(elements.createMessage, "");
  const body = {
    ruleset: elements.ruleset.value,
    seats: Number(elements.seats.value),
    options: currentOptions ? currentOptions.read() : {},
    private: elements.private.checked,
    chat_spectators: /** @type {HTMLInputElement} */ (document.getElementById("chat-spectators")).checked,
    rated: Number(elements.seats.value) >= 2 && !/** @type {HTMLInputElement} */ (document.getElementById("friendly")).checked,
    pace: elements.pace.value,
    move_seconds: elements.moveSeconds.value === "" ? null : Number(elements.moveSeconds.value),
  };
  try {
    const created = await whileBusy(elements.create, () => api("POST", "/api/tables", body), t("Creating…"));
    try {
      window.localStorage.setItem(LAST_GAME_KEY, body.ruleset);
    } catch {
      // storage blocked: the lobby just does not remember the game
    }
    window.location.assign(tablePath(created.id, created.invite_code));
  } catch (error) {
    showMessage(elements.createMessage, error.message);
  }
});

// -- loading ----------------------------------------------------------------------------------

async function refreshTables(byHand = false) {
  if (actionsInFlight > 0) return;
  const load = () => Promise.all([loadPublic(), account ? loadMine() : null]);
  if (byHand) await whileBusy(elements.refresh, load, t("Refreshing…"));
  else await load();
}

async function loadPublic() {
  try {
    tables = await api("GET", "/api/tables");
    if (elements.tablesMessage.dataset.source === "refresh") showMessage(elements.tablesMessage, "");
  } catch (error) {
    showMessage(elements.tablesMessage, t("Could not load tables: {reason}", { reason: error.message }));
    elements.tablesMessage.dataset.source = "refresh";
    return;
  } finally {
    elements.tablesLoading.hidden = true;
  }
  drawTables();
}

async function loadMine() {
  const asked = account && account.id;
  let fresh;
  try {
    fresh = await api("GET", "/api/tables/mine");
  } catch (error) {
    if (asked !== (account && account.id)) return;
    if (error.status === 401) return; // signed out meanwhile (another tab); the session corner follows
    showMessage(elements.mineMessage, t("Could not load your games: {reason}", { reason: error.message }));
    return;
  }
  if (asked !== (account && account.id)) return; // someone else signed in meanwhile
  showMessage(elements.mineMessage, "");
  mine = fresh;
  drawMine();
  drawTables();
}

// -- your tables ------------------------------------------------------------------------------

function drawMine() {
  if (!account) {
    setFavicon(ICON);
    document.title = t("Caravanserai — lobby");
    return;
  }
  if (mine === null || actionsInFlight > 0) return;
  const key = JSON.stringify([account.id, mine]);
  if (key === lastDrawnMine) return;
  lastDrawnMine = key;
  elements.mineLoading.hidden = true;

  // The server lists your move first (soonest deadline first), then open tables, then the others.
  const sorted = mine.filter((table) => table.status === "open" || table.status === "running");
  const finished = mine.filter((table) => table.status === "finished" || table.status === "abandoned");
  const yourTurn = sorted.filter((table) => table.my_turn);

  if (!sorted.length) {
    replaceChildren(
      elements.mine,
      h("li", { class: "empty muted" }, finished.length ? t("No games in progress.") : t("You have no tables yet. Create one, or join one below.")),
    );
  } else {
    replaceChildren(elements.mine, sorted.map(mineItem));
  }
  elements.mineFinishedWrap.hidden = !finished.length;
  elements.mineFinishedCount.textContent = String(finished.length);
  replaceChildren(
    document.getElementById("mine-finished-summary"),
    fill(t("Finished and abandoned games ({count})", keep("count")), { count: elements.mineFinishedCount }),
  );
  replaceChildren(elements.mineFinished, finished.map(mineItem));

  elements.mineSummary.textContent = yourTurn.length ? tn("Your turn at {n} table", "Your turn at {n} tables", yourTurn.length, { n: yourTurn.length }) : "";
  elements.mineSummary.className = yourTurn.length ? "badge badge-your-turn" : "muted";
  setFavicon(yourTurn.length ? TURN_ICON : ICON);
  document.title = `${yourTurn.length ? `● ${t("Your turn ({n})", { n: yourTurn.length })} — ` : ""}${t("Caravanserai — lobby")}`;
}

function mineItem(table) {
  const seat = table.seats.find((candidate) => candidate.account_id === account.id) || null;
  const free = table.seats.filter((candidate) => candidate.account_id === null && !candidate.bot).length;
  const myTurn = Boolean(table.my_turn);
  const nameOf = (index) => {
    const found = table.seats.find((candidate) => candidate.seat === index);
    const name = found && found.name ? personName(found.name) : t("Seat {n}", { n: index + 1 });
    return found && found.away_since && !found.takeover ? t("{name} (away)", { name }) : name;
  };

  let status;
  if (table.status === "open") {
    status = free
      ? tn("Waiting for {n} more player", "Waiting for {n} more players", free, { n: free })
      : table.creator_id === account.id ? t("Everyone is here: start the game") : t("Waiting for the host to start");
  } else if (table.status === "running") {
    if (seat && seat.takeover === "resigned") status = t("You resigned; a bot plays your seat");
    else if (seat && seat.takeover) status = t("A bot is playing for you: open the table to take your seat back");
    else if (myTurn) status = t("Your turn");
    else if ((table.to_act || []).length) {
      const names = table.to_act.filter((index) => index !== table.my_seat).map(nameOf);
      status = names.length ? t("Waiting for {names}", { names: names.join(", ") }) : t("Waiting for the others");
    } else status = t("In progress");
  } else if (table.status === "abandoned") {
    status = t("Abandoned: everyone stayed away. Open it to play on.");
  } else {
    status = t("Finished");
  }

  const label = table.status === "running" ? (seat && !seat.takeover ? t("Play") : t("Open")) : table.status === "finished" ? t("View") : t("Open");
  const badge = statusBadge(table.status);
  const timeControl = shortTimeControl(table.time_control && table.time_control.move_seconds);
  return h(
    "li",
    {
      class: `table-item mine-item status-${table.status}${myTurn ? " your-turn" : ""}`,
      "data-my-table-id": String(table.id),
      "data-status": table.status,
      "data-your-turn": String(myTurn),
    },
    h(
      "div",
      { class: "table-head" },
      h("a", { class: "table-name", href: tablePath(table.id, table.invite_code) }, h("strong", {}, tableTitle(table))),
      h("span", { class: `badge badge-${table.status}` }, badge),
      table.private ? h("span", { class: "badge" }, t("private")) : null,
      paceBadge(table),
      timeControl ? h("span", { class: "badge badge-clock", title: t("Time limit per move") }, clockIcon(), ` ${timeControl}`) : null,
      h("span", { class: "muted table-id" }, `#${table.id}`),
    ),
    h("p", { class: `table-status${myTurn ? " table-status-turn" : ""}`, "data-table-status": "" }, status),
    agreedLine(table),
    gameTimes(table, myTurn),
    seatChips(table),
    h(
      "div",
      { class: "actions" },
      h("a", { class: `button${myTurn || table.status !== "finished" ? " primary" : ""}`, href: tablePath(table.id, table.invite_code), "data-action": "open" }, label),
      copyLinkButton(table),
    ),
  );
}

// -- open and running public tables -----------------------------------------------------------

function drawTables() {
  if (actionsInFlight > 0) return;
  // Your own tables are listed above under "My games"; this list shows the others.
  const yours = new Set(account && mine ? mine.map((table) => table.id) : []);
  const others = tables.filter((table) => !yours.has(table.id));
  const key = JSON.stringify([account && account.id, others]);
  if (key === lastDrawn) return;
  lastDrawn = key;
  if (!others.length) {
    const text = tables.length ? t("No other public tables right now.") : t("No public tables right now. Create one!");
    replaceChildren(elements.tables, h("li", { class: "empty muted" }, text));
    return;
  }
  const order = { open: 0, running: 1, abandoned: 2, finished: 3 };
  const sorted = [...others].sort((a, b) => (order[a.status] ?? 3) - (order[b.status] ?? 3));
  replaceChildren(elements.tables, sorted.map(tableItem));
}

function tableItem(table) {
  const mySeat = account ? table.seats.find((seat) => seat.account_id === account.id) : null;
  const isCreator = Boolean(account && table.creator_id === account.id);
  const member = Boolean(mySeat || isCreator);
  const full = table.seats.every((seat) => seat.account_id !== null || seat.bot);
  const free = table.seats.filter((seat) => seat.account_id === null && !seat.bot && !seat.held_for).length;
  const heldForMe = account ? table.seats.find((seat) => seat.held_for && seat.held_for.account_id === account.id) : null;
  const path = `/api/tables/${encodeURIComponent(table.id)}`;
  const open = () => window.location.assign(tablePath(table.id, table.invite_code));
  const actions = [];

  if (table.status === "open") {
    if (account && !mySeat && (free > 0 || heldForMe)) {
      actions.push(actionButton(heldForMe ? t("Accept") : t("Join"), "join", "primary", () => api("POST", `${path}/join`, {}), open));
    }
    if (isCreator) {
      const start = actionButton(t("Start"), "start", "primary", () => api("POST", `${path}/start`, {}), open);
      if (!full) {
        start.disabled = true;
        start.title = t("Every seat must be filled first");
      }
      actions.push(start);
    }
    if (member) actions.push(h("a", { class: "button", href: tablePath(table.id, table.invite_code), "data-action": "open" }, t("Open")));
    if (mySeat) actions.push(actionButton(t("Leave"), "leave", "", () => api("POST", `${path}/leave`, {}), () => refreshTables()));
    if (!member && !(account && free > 0)) {
      actions.push(h("a", { class: "button", href: tablePath(table.id, table.invite_code), "data-action": "watch" }, t("Look")));
    }
  } else if (mySeat) {
    actions.push(h("a", { class: "button primary", href: tablePath(table.id, table.invite_code), "data-action": "open" }, table.status === "running" ? t("Play") : t("View")));
  } else {
    actions.push(h("a", { class: "button", href: tablePath(table.id, table.invite_code), "data-action": "watch" }, table.status === "running" ? t("Watch") : t("View")));
  }
  actions.push(copyLinkButton(table));

  const statusLabel = table.status === "open" ? tn("waiting · {n} free", "waiting · {n} free", free) : statusBadge(table.status);
  const timeControl = shortTimeControl(table.time_control && table.time_control.move_seconds);
  return h(
    "li",
    { class: `table-item status-${table.status}`, "data-table-id": String(table.id), "data-status": table.status },
    h(
      "div",
      { class: "table-head" },
      h("strong", {}, tableTitle(table)),
      h("span", { class: `badge badge-${table.status}` }, statusLabel),
      table.private ? h("span", { class: "badge" }, t("private")) : null,
      paceBadge(table),
      timeControl ? h("span", { class: "badge badge-clock", title: t("Time limit per move") }, clockIcon(), ` ${timeControl}`) : null,
      h("span", { class: "muted table-id" }, `#${table.id}`),
    ),
    agreedLine(table),
    gameTimes(table, false),
    seatChips(table),
    h("div", { class: "actions" }, actions),
  );
}

// -- shared pieces ----------------------------------------------------------------------------

/** The badge of a table's status: "waiting", "playing", "finished", "abandoned". */
function statusBadge(status) {
  return { open: t("waiting"), running: t("playing"), finished: t("finished"), abandoned: t("abandoned") }[status] || status;
}

/** A table's title (its game's name) as the reader reads it. */
function tableTitle(table) {
  return table.title ? gameWord(table.ruleset, table.title) : table.ruleset;
}

/** "Rated · options: Trading, Hidden Coins": what a player agrees to by joining. */
function agreedLine(table) {
  const text = agreedText(table);
  return h("p", { class: "muted table-agreed", "data-table-agreed": "" }, capitalised(text));
}

function paceBadge(table) {
  const label = paceLabel(table.pace);
  return label ? h("span", { class: `badge badge-pace pace-${table.pace}`, "data-pace": table.pace, title: t("Pace") }, label) : null;
}

/** "Last move 3 h ago · your move due in 2 d 03 h" (the countdown and the age are kept current by tick()). */
function gameTimes(table, myTurn) {
  const parts = [];
  const [kind, at] = table.status === "open" ? ["created", table.created_at] : [table.version ? "moved" : "started", table.last_activity_at];
  if (at) parts.push(h("span", { "data-ago": at, "data-ago-kind": kind, "data-last-activity": "" }, agoText(kind, at)));
  const quiet = at && (table.status === "running" || table.status === "open") && Date.now() - Date.parse(at) > QUIET_MS;
  if (quiet) parts.push(" ", h("span", { class: "badge badge-quiet", "data-quiet": "", title: t("Nothing has happened here for more than a day") }, t("quiet")));
  if (myTurn && table.my_deadline) {
    const left = h("span", { class: "countdown", "data-deadline": table.my_deadline, "data-my-deadline": "" }, formatRemaining(remainingMs(table.my_deadline)));
    parts.push(" · ", fill(t("your move due in {time}", keep("time")), { time: left }));
  } else if (table.status === "running") {
    const acting = table.seats.filter((seat) => (table.to_act || []).includes(seat.seat) && seat.deadline);
    if (acting.length === 1) {
      const left = h("span", { class: "countdown", "data-deadline": acting[0].deadline }, formatRemaining(remainingMs(acting[0].deadline)));
      parts.push(" · ", fill(t("{name}'s move due in {time}", { name: personName(acting[0].name), time: "{time}" }), { time: left }));
    }
  }
  return h("p", { class: "muted game-times" }, parts);
}

/** Keep every countdown and "… ago" of the lobby current between refreshes. */
function tick() {
  if (document.hidden) return;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-deadline]"))) {
    const left = remainingMs(node.dataset.deadline);
    if (left !== null) node.textContent = formatRemaining(left);
  }
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-ago]"))) node.textContent = agoText(node.dataset.agoKind, node.dataset.ago);
}

/** "Created 5 min ago", "Last move 3 h ago", "Started just now". */
function agoText(kind, at) {
  const ago = timeAgo(at);
  if (kind === "created") return t("Created {ago}", { ago });
  if (kind === "moved") return t("Last move {ago}", { ago });
  return t("Started {ago}", { ago });
}

function seatChips(table) {
  return h(
    "ul",
    { class: "seat-list", "aria-label": t("Seats") },
    table.seats.map((seat) => {
      const empty = seat.account_id === null && !seat.bot;
      const named = personName(seat.name);
      let name = named || t("free");
      if (seat.takeover === "resigned") name = t("{name} (resigned)", { name: named });
      else if (seat.takeover) name = t("{name} (bot playing)", { name: named });
      else if (seat.bot && botLevelWord(seat.bot_level)) name = `${named} · ${botLevelWord(seat.bot_level)}`;
      else if (seat.away_since && !(account && seat.account_id === account.id)) name = t("{name} (away)", { name: named });
      const toAct = table.status === "running" && (table.to_act || []).includes(seat.seat);
      const person = seat.account_id !== null && !seat.bot;
      return h(
        "li",
        {
          class: `seat-chip${empty ? " seat-empty" : ""}${seat.bot || seat.takeover ? " seat-bot" : ""}${toAct ? " seat-to-act" : ""}`,
          "data-to-act": toAct ? "true" : null,
        },
        h("span", { class: "seat-number" }, String(seat.seat + 1)),
        // Bot names already say "(bot)".
        person ? h("a", { href: playerPath(seat.account_id), class: "seat-name" }, name) : name,
        toAct ? h("span", { class: "to-act-mark", title: t("to move") }, ` ▶ ${t("to move")}`) : null,
        account && seat.account_id === account.id ? h("span", { class: "muted" }, ` ${t("(you)")}`) : null,
      );
    }),
  );
}

function copyLinkButton(table) {
  const copy = h("button", { type: "button", class: "link-button", "data-action": "copy-link" }, t("Copy link"));
  copy.addEventListener("click", async () => {
    const ok = await copyText(inviteLink(table.id, table.invite_code));
    copy.textContent = ok ? t("Copied!") : t("Copy failed");
    setTimeout(() => {
      copy.textContent = t("Copy link");
    }, 1500);
  });
  return copy;
}

function actionButton(label, action, kind, request, after) {
  const button = h("button", { type: "button", class: kind, "data-action": action }, label);
  button.addEventListener("click", async () => {
    showMessage(elements.tablesMessage, "");
    actionsInFlight += 1;
    let done = false;
    try {
      await whileBusy(button, request, t("{action}…", { action: label }));
      done = true;
    } catch (error) {
      showMessage(elements.tablesMessage, t("{action} failed: {reason}", { action: label, reason: error.message }));
      elements.tablesMessage.dataset.source = "action";
    } finally {
      actionsInFlight -= 1;
    }
    if (done) after();
  });
  return button;
}
