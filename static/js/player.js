// A player's profile page (/players/{id}): their games, running and finished, with results, and ratings
// per game (with each game's leaderboard); on one's own page, the account settings (account.js) and the
// notification choices (notifications.js).

import { mountAccount } from "./account.js";
import { api } from "./api.js";
import { h, replaceChildren, showMessage } from "./dom.js";
import { playerPath, tablePath } from "./links.js";
import { mountNotifications } from "./notifications.js";
import { relationButtons } from "./friends.js";
import { ratingItem } from "./ratings.js";
import { mountSession } from "./session.js";

const elements = {
  name: document.getElementById("player-name"),
  summary: document.getElementById("player-summary"),
  message: document.getElementById("player-message"),
  games: document.getElementById("player-games"),
  ratingsSection: document.getElementById("ratings-section"),
  ratings: document.getElementById("player-ratings"),
  session: document.getElementById("session"),
  accountSection: document.getElementById("account-section"),
  accountPanel: document.getElementById("account-panel"),
  relation: document.getElementById("player-relation"),
  notifySection: document.getElementById("notify-section"),
  notifyPanel: document.getElementById("notify-panel"),
};
const playerId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");

function ordinal(place) {
  const tens = place % 100;
  if (tens >= 11 && tens <= 13) return `${place}th`;
  return `${place}${{ 1: "st", 2: "nd", 3: "rd" }[place % 10] || "th"}`;
}

/** "Won with 45 points", "2nd of 3 with 30 points", "Shared 1st with 12 points". */
export function outcomeText(outcome, status = "running") {
  if (!outcome) return status === "abandoned" ? "Abandoned: everyone stayed away" : "In progress";
  const points = `${outcome.score} point${outcome.score === 1 ? "" : "s"}`;
  if (outcome.place === 1) return outcome.shared ? `Shared 1st place with ${points}` : `Won with ${points}`;
  return `${outcome.shared ? "Shared " : ""}${ordinal(outcome.place)} of ${outcome.players} with ${points}`;
}

function gameItem(game) {
  const opponents = game.seats.filter((seat) => seat.seat !== game.seat);
  const result = game.outcome ? (game.outcome.place === 1 ? "won" : "lost") : game.status;
  return h(
    "li",
    { class: `table-item status-${game.status}`, "data-game-id": String(game.id), "data-result": result },
    h(
      "div",
      { class: "table-head" },
      h("a", { class: "table-name", href: tablePath(game.id, game.invite_code) }, h("strong", {}, game.title || game.ruleset)),
      h("span", { class: `badge badge-${game.status}` }, { running: "playing", abandoned: "abandoned" }[game.status] || "finished"),
      game.private ? h("span", { class: "badge" }, "private") : null,
      h("span", { class: "muted table-id" }, `#${game.id}`),
    ),
    h("p", { class: "table-status", "data-outcome": "" }, outcomeText(game.outcome, game.status)),
    h(
      "p",
      { class: "muted" },
      "Against ",
      opponents.length
        ? opponents.map((seat, index) => [
            index ? ", " : "",
            seat.account_id !== null && !seat.bot ? h("a", { href: playerPath(seat.account_id) }, seat.name) : seat.name || "nobody",
          ])
        : "nobody",
    ),
  );
}

async function load() {
  try {
    const profile = await api("GET", `/api/players/${encodeURIComponent(playerId)}`);
    document.title = `Caravanserai — ${profile.name}`;
    elements.name.textContent = profile.name;
    const kind = profile.deleted ? "Deleted account" : profile.guest ? "Guest" : "Registered player";
    elements.summary.textContent = `${kind} · ${profile.played} finished game${profile.played === 1 ? "" : "s"}, ${profile.won} won`;
    replaceChildren(elements.games, profile.games.length ? profile.games.map(gameItem) : h("li", { class: "empty muted" }, "No games yet."));
    drawRelation(profile);
    elements.ratingsSection.hidden = !(profile.ratings || []).length;
    replaceChildren(elements.ratings, (profile.ratings || []).map(ratingItem));
  } catch (error) {
    elements.summary.textContent = "";
    showMessage(elements.message, error.status === 404 ? "There is no such player." : `Could not load this player: ${error.message}`);
  }
}

let viewer = null; // the signed-in account, or null

/** Follow and Block, on someone else's profile for a signed-in person. */
function drawRelation(profile) {
  const other = Boolean(viewer) && viewer.id !== profile.id;
  elements.relation.hidden = !other;
  replaceChildren(elements.relation, other ? relationButtons(profile.id, profile, (relation) => drawRelation({ ...profile, ...relation })) : null);
}

// One's own page also holds the account settings and the notification choices.
function showOwnSettings(account) {
  const own = Boolean(account) && String(account.id) === playerId;
  elements.accountSection.hidden = !own;
  elements.notifySection.hidden = !own;
  if (own) {
    mountAccount(elements.accountPanel, account);
    mountNotifications(elements.notifyPanel, account);
  } else {
    elements.accountPanel.replaceChildren();
    elements.notifyPanel.replaceChildren();
  }
}

mountSession(elements.session, (account) => {
  viewer = account;
  load();
  showOwnSettings(account);
});
