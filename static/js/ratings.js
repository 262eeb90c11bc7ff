// Ratings per game (docs/playing.md, "Ratings"): a table's people with their ratings
// (GET /api/tables/{id}/ratings), the change a game made, and a profile's small history chart and
// the game's leaderboard.

import { api, withInvite } from "./api.js";
import { h, s } from "./dom.js";
import { playerPath } from "./links.js";
import { t, tn } from "./i18n.js";
import { gameWord } from "./words.js";

/** {rated, seats: [{seat, account_id, rating, games, change}]} of a table. */
export function loadRatings(tableId, inviteCode) {
  return api("GET", withInvite(`/api/tables/${encodeURIComponent(tableId)}/ratings`, inviteCode));
}

/** The ratings entry of ``seat`` (people only; null for a bot or before they are loaded). */
export function ratingOfSeat(ratings, seat) {
  return (ratings && ratings.seats.find((entry) => entry.seat === seat)) || null;
}

/** "+12", "−7", "±0". */
export function formatDelta(delta) {
  if (delta > 0) return `+${delta}`;
  return delta < 0 ? `−${-delta}` : "±0";
}

/** "1138 (+138)" for a finished rated game's change, else the current rating, e.g. "1000". */
export function ratingText(entry) {
  if (!entry) return "";
  return entry.change ? `${entry.change.after} (${formatDelta(entry.change.delta)})` : String(entry.rating);
}

const CHART = { width: 240, height: 64, pad: 4 };

/** A small SVG line of a rating's history (``[{before, after}]``, oldest first), with its start and end labelled. */
export function ratingChart(history, title) {
  const values = history.length ? [history[0].before, ...history.map((entry) => entry.after)] : [];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 1);
  const step = (CHART.width - 2 * CHART.pad) / Math.max(values.length - 1, 1);
  const points = values.map((value, index) => {
    const x = CHART.pad + index * step;
    const y = CHART.pad + (CHART.height - 2 * CHART.pad) * (1 - (value - low) / span);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  return s(
    "svg",
    { class: "rating-chart", viewBox: `0 0 ${CHART.width} ${CHART.height}`, width: CHART.width, height: CHART.height, role: "img", "aria-label": title },
    s("title", {}, title),
    s("polyline", { points: points.join(" "), fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linejoin": "round" }),
    points.length ? s("circle", { cx: points[points.length - 1].split(",")[0], cy: points[points.length - 1].split(",")[1], r: 3, fill: "currentColor" }) : null,
  );
}

/** One rating of a profile: "Nimalia 1138 · 4 games", its chart, and the last game's change. */
export function ratingItem(rating) {
  const last = rating.history[rating.history.length - 1];
  return h(
    "li",
    { class: "rating-item", "data-ruleset": rating.ruleset },
    h("strong", {}, gameWord(rating.ruleset, rating.title)),
    " ",
    h("span", { class: "rating-value", "data-rating": String(rating.rating) }, String(rating.rating)),
    h("span", { class: "muted" }, ` · ${tn("{n} rated game", "{n} rated games", rating.games)}`, last ? ` · ${lastChange(last)}` : ""),
    rating.history.length
      ? h("div", {}, ratingChart(rating.history, tn(
        "{game}: rating over the last {n} rated game, from {start} to {end}",
        "{game}: rating over the last {n} rated games, from {start} to {end}",
        rating.history.length,
        { game: gameWord(rating.ruleset, rating.title), start: rating.history[0].before, end: rating.rating },
      )))
      : null,
    leaderboard(rating),
  );
}

/** "last +12": the change the latest rated game made. */
function lastChange(last) {
  return t("last {change}", { change: formatDelta(last.delta) });
}

/** The game's best players (GET /api/rulesets/{name}/leaderboard), loaded when first opened. */
function leaderboard(rating) {
  const list = h("ol", { class: "leaderboard", "data-leaderboard": rating.ruleset });
  const details = h("details", { class: "leaderboard-wrap" }, h("summary", {}, t("{game} leaderboard", { game: gameWord(rating.ruleset, rating.title) })), list);
  let loaded = false;
  details.addEventListener("toggle", async () => {
    if (!details.open || loaded) return;
    loaded = true;
    try {
      const board = await api("GET", `/api/rulesets/${encodeURIComponent(rating.ruleset)}/leaderboard?limit=20`);
      list.replaceChildren(...board.map((entry) => h("li", { value: String(entry.rank) }, h("a", { href: playerPath(entry.account_id) }, entry.name), ` ${entry.rating}`, h("span", { class: "muted" }, ` · ${tn("{n} game", "{n} games", entry.games)}`))));
    } catch (error) {
      loaded = false;
      list.replaceChildren(h("li", { class: "muted" }, t("Could not load the leaderboard: {reason}", { reason: error.message })));
    }
  });
  return details;
}
