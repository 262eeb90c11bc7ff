// The result panel of the game page: drawn from the page's TableMoment (table-players.js) each time
// the page draws, hidden while the game runs.

import { h, replaceChildren } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { argumentText, ruleLink } from "./log-text.js";
import { ratingOfSeat, ratingText } from "./ratings.js";
import { isSeated, myTakeover, playerName } from "./table-players.js";
import { capitalised, listOf, ordinal } from "./words.js";

/**
 * A score category's name: the game's own words when its catalog has the key as written (Nimalia's
 * "zero floor") or humanised ("Zero floor"), capitalised; else the key humanised.
 */
function humanise(key) {
  const words = String(key).replace(/_/g, " ");
  const said = t(words);
  return said !== words ? capitalised(said) : t(capitalised(words));
}

/** Why the game ended, in the reader's language: the game's template (`reason_template`, its
 * `{seatN}` placeholders unfilled) translated, then filled with the players' names and its typed
 * arguments (`reason_args`, said as a log entry's: a number in the reader's form, a text
 * translated); else the server's English words. */
function resultReason(result, frame) {
  if (!result.reason_template) return result.reason ? t(result.reason) : "";
  const args = Object.fromEntries(Object.entries(result.reason_args || {}).map(([name, arg]) => [name, argumentText(arg)]));
  const names = Object.fromEntries((frame.players || []).map((player) => [`seat${player.seat}`, playerName(frame, player.seat)]));
  return t(result.reason_template, { ...args, ...names });
}

/** Who abandoned the game, in the reader's language, from the entry's seat, takeover and version
 * (the server's `text` is the same line in English: "Ben: abandoned (left), a bot played from move 31"). */
function abandonedText(entry, frame) {
  const params = { name: playerName(frame, entry.seat), move: formatNumber(entry.from_version) };
  if (entry.takeover === "resigned") return t("{name}: abandoned (resigned), a bot played from move {move}", params);
  if (entry.takeover === "left") return t("{name}: abandoned (left), a bot played from move {move}", params);
  if (entry.takeover === "timeout") return t("{name}: abandoned (ran out of time), a bot played from move {move}", params);
  if (entry.takeover === "away") return t("{name}: abandoned (was away), a bot played from move {move}", params);
  return t("{name}: abandoned, a bot played from move {move}", params);
}

/**
 * The result panel of a finished game (hidden while it runs): the headline in the reader's own
 * terms, why the game ended (with its rule's link), who abandoned it, and the score table (each
 * category, the total, the place, and each rating change once loaded), with a column after the
 * seats' for each rival that is no seat (`result.rivals`: a solo game's opponent, named in the
 * game's words), so a solo player sees what they were measured against.
 *
 * @param {{panel: HTMLElement, headline: HTMLElement, reason: HTMLElement, table: HTMLElement}} parts the panel's elements
 * @param {import("./table-players.js").TableMoment} moment what the page knows now
 */
export function drawResult(parts, moment) {
  const { frame, table, ratings } = moment;
  const result = frame.result;
  parts.panel.hidden = !result;
  if (!result) return;
  parts.headline.textContent = headline(result, frame);
  parts.reason.replaceChildren(resultReason(result, frame), ...(result.rule ? [ruleLink(result.rule, table.ruleset)] : []));
  // Who abandoned the game (a bot still played their seat at the end): ranked last among the people.
  const abandoned = new Set((result.abandoned || []).map((entry) => entry.seat));
  let abandonedList = document.getElementById("result-abandoned");
  if (!abandonedList) {
    abandonedList = h("ul", { id: "result-abandoned", class: "result-abandoned" });
    parts.reason.after(abandonedList);
  }
  replaceChildren(abandonedList, (result.abandoned || []).map((entry) => h("li", { "data-abandoned-seat": String(entry.seat) }, abandonedText(entry, frame))));
  abandonedList.hidden = !abandoned.size;
  const seats = result.scores.map((_, seat) => seat);
  const rivals = result.rivals || [];
  const categories = [];
  for (const breakdown of [...(result.breakdown || []), ...rivals.map((rival) => rival.breakdown)]) {
    for (const category of Object.keys(breakdown || {})) if (!categories.includes(category)) categories.push(category);
  }
  // a rival's cell: its column set apart from the seats' (it places nobody: the seats' places say it)
  const rivalCells = (cell) => rivals.map((rival, index) => h("td", { class: "rival", "data-rival": String(index) }, cell(rival)));
  const head = h("tr", {},
    h("th", { scope: "col" }, ""),
    seats.map((seat) => h("th", { scope: "col" }, h("span", { class: "seat-number" }, String(seat + 1)), " ", playerName(frame, seat))),
    rivals.map((rival, index) => h("th", { scope: "col", class: "rival", "data-rival": String(index) }, t(rival.name))));
  const rows = categories.map((category) =>
    h("tr", {}, h("th", { scope: "row" }, humanise(category)),
      seats.map((seat) => h("td", {}, String(((result.breakdown || [])[seat] || {})[category] ?? 0))),
      rivalCells((rival) => String((rival.breakdown || {})[category] ?? 0))),
  );
  const total = h("tr", { class: "total" }, h("th", { scope: "row" }, t("Total")),
    seats.map((seat) => h("td", { "data-score-seat": String(seat) }, String(result.scores[seat]))),
    rivalCells((rival) => String(rival.score)));
  // alone at the table (a solo game against the game's own opponent), "2nd" would say little
  const place = (seat) => (seats.length === 1 ? (result.ranks[seat] === 1 ? `${t("Won")} ★` : t("Lost"))
    : result.ranks[seat] === 1 ? `${ordinal(1)} ★` : ordinal(result.ranks[seat]));
  const rank = h("tr", { class: "rank" }, h("th", { scope: "row" }, t("Place")),
    seats.map((seat) => h("td", {}, place(seat), abandoned.has(seat) ? ` ${t("(abandoned)")}` : "")), rivalCells(() => ""));
  const rated = ratings && ratings.rated && ratings.seats.some((entry) => entry.change);
  const rating = rated
    ? h("tr", { class: "rating" }, h("th", { scope: "row" }, t("Rating")),
      seats.map((seat) => h("td", { "data-rating-change-seat": String(seat) }, ratingText(ratingOfSeat(ratings, seat)))), rivalCells(() => ""))
    : null;
  replaceChildren(parts.table, h("thead", {}, head), h("tbody", {}, rows, total, rank, rating));
}

/** The result's first line, for the reader: "You won!", "You finished 2nd of 3.", "Ana won." */
function headline(result, frame) {
  const ranks = result.ranks || [];
  const winners = ranks.map((rank, seat) => (rank === 1 ? seat : null)).filter((seat) => seat !== null);
  if (isSeated(frame) && ranks[frame.seat]) {
    const mine = ranks[frame.seat];
    const place = t("{place} of {players}", { place: ordinal(mine), players: ranks.length });
    const takenOver = myTakeover(frame);
    if (takenOver === "resigned") return t("You resigned; the bot that took your seat finished {place}.", { place });
    if (takenOver) return t("A bot finished the game for you: {place}.", { place });
    if (mine === 1) return winners.length > 1 ? t("You share the win!") : t("You won!");
    if (ranks.length === 1) return t("You lost."); // a solo game: beaten by the game's own opponent (see the reason)
    return t("You finished {place}.", { place });
  }
  if (!winners.length) return t("The game is over.");
  return winners.length > 1
    ? t("{names} share the win.", { names: listOf(winners.map((seat) => playerName(frame, seat))) })
    : t("{name} won.", { name: playerName(frame, winners[0]) });
}
