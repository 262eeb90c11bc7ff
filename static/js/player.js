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
import { t, tn } from "./i18n.js";
import { gameWord, loadGameWords, ordinal, translatePage } from "./words.js";

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
translatePage();

/** "Won with 45 points", "2nd of 3 with 30 points", "Shared 1st with 12 points"; "Abandoned: a bot
 * played from move 14" when a bot finished the game for the person (its place is not theirs). */
export function outcomeText(outcome, status = "running") {
  if (!outcome) return status === "abandoned" ? t("Abandoned: everyone stayed away") : t("In progress");
  if (outcome.abandoned_from != null) return t("Abandoned: a bot played from move {move}", { move: outcome.abandoned_from });
  const points = tn("{n} point", "{n} points", outcome.score);
  if (outcome.place === 1) return outcome.shared ? t("Shared 1st place with {points}", { points }) : t("Won with {points}", { points });
  if (outcome.players === 1) return t("Lost with {points}", { points }); // solo: beaten by the game's own opponent
  const place = { place: ordinal(outcome.place), players: outcome.players, points };
  return outcome.shared ? t("Shared {place} of {players} with {points}", place) : t("{place} of {players} with {points}", place);
}

function gameItem(game) {
  const opponents = game.seats.filter((seat) => seat.seat !== game.seat);
  const result = game.outcome ? (game.outcome.place === 1 && game.outcome.abandoned_from == null ? "won" : "lost") : game.status;
  return h(
    "li",
    { class: `table-item status-${game.status}`, "data-game-id": String(game.id), "data-result": result },
    h(
      "div",
      { class: "table-head" },
      h("a", { class: "table-name", href: tablePath(game.id, game.invite_code) }, h("strong", {}, game.title ? gameWord(game.ruleset, game.title) : game.ruleset)),
      h("span", { class: `badge badge-${game.status}` }, { running: t("playing"), abandoned: t("abandoned") }[game.status] || t("finished")),
      game.private ? h("span", { class: "badge" }, t("private")) : null,
      h("span", { class: "muted table-id" }, `#${game.id}`),
    ),
    h("p", { class: "table-status", "data-outcome": "" }, outcomeText(game.outcome, game.status)),
    // a one-seat table is a solo game (Heroes against its Enemy): nobody to name
    (game.seats || []).length === 1
      ? h("p", { class: "muted" }, t("Solo game"))
      : h(
          "p",
          { class: "muted" },
          `${t("Against")} `,
          opponents.length
            ? opponents.map((seat, index) => [
                index ? ", " : "",
                seat.account_id !== null && !seat.bot ? h("a", { href: playerPath(seat.account_id) }, seat.name) : seat.name || t("nobody"),
              ])
            : t("nobody"),
        ),
  );
}

async function load() {
  try {
    const profile = await api("GET", `/api/players/${encodeURIComponent(playerId)}`);
    await loadGameWords([...profile.games.map((game) => game.ruleset), ...(profile.ratings || []).map((rating) => rating.ruleset)]);
    document.title = `Caravanserai — ${profile.name}`;
    elements.name.textContent = profile.name;
    const kind = profile.deleted ? t("Deleted account") : profile.guest ? t("Guest") : t("Registered player");
    const played = tn("{n} finished game", "{n} finished games", profile.played);
    const record = tn("{played}, {n} won", "{played}, {n} won", profile.won, { played });
    elements.summary.textContent = `${kind} · ${record}`;
    replaceChildren(elements.games, profile.games.length ? profile.games.map(gameItem) : h("li", { class: "empty muted" }, t("No games yet.")));
    drawRelation(profile);
    elements.ratingsSection.hidden = !(profile.ratings || []).length;
    replaceChildren(elements.ratings, (profile.ratings || []).map(ratingItem));
  } catch (error) {
    elements.summary.textContent = "";
    showMessage(elements.message, error.status === 404 ? t("There is no such player.") : t("Could not load this player: {reason}", { reason: error.message }));
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
