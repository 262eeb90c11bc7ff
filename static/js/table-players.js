// The game page's players: the list of seats (presence, rating, whose turn, a bot's take-over,
// the score once over), the countdown of a seat's move, and the notices of away players with the
// button that hands such a seat to a bot. It draws from what the page last heard (a `TableMoment`)
// and sends nothing itself: the page passes `onHandOver`.

import { h, replaceChildren } from "./dom.js";
import { ratingOfSeat, ratingText } from "./ratings.js";
import { personName, playerLabel, t } from "./i18n.js";
import { fill, keep } from "./words.js";

/**
 * What the page last heard, as the players' panel reads it.
 * @typedef {object} TableMoment
 * @property {any} frame the last `state` frame drawn (docs/api.md, "state")
 * @property {any} table the table as `GET /api/tables/{id}` gave it
 * @property {any} account the signed-in account, or null
 * @property {number[] | null} online the seats with the game open (null until the socket says)
 * @property {any} ratings `{rated, seats}` of the table (ratings.js), or null until loaded
 * @property {import("./renderers/contract.js").Renderer | null} [renderer] the game's renderer,
 *   whose `asked` hook may name what a seat to act is asked to do
 */

/**
 * The player of `seat` in `frame`, or null.
 * @param {any} frame
 * @param {number} seat
 */
export function playerOf(frame, seat) {
  return (frame.players || []).find((/** @type {any} */ candidate) => candidate.seat === seat) || null;
}

/**
 * The name of `seat`'s player ("Seat 3" for a seat nobody holds), "(bot)" marked while a bot plays it
 * (i18n.js `playerLabel`).
 * @param {any} frame
 * @param {number} seat
 * @returns {string}
 */
export function playerName(frame, seat) {
  const player = playerOf(frame, seat);
  return player ? playerLabel(frame, player) : t("Seat {n}", { n: seat + 1 });
}

/**
 * Whether the viewer plays a seat of `frame`.
 * @param {any} frame
 */
export function isSeated(frame) {
  return frame.seat !== null && frame.seat !== undefined;
}

/**
 * Why a bot plays the viewer's seat right now ("timeout", "left", "resigned", "away"), or null.
 * @param {any} frame
 * @returns {string | null}
 */
export function myTakeover(frame) {
  if (!isSeated(frame)) return null;
  const me = playerOf(frame, frame.seat);
  return (me && me.takeover) || null;
}

/**
 * The badge of a seat a bot plays: why, while the game runs (`running`) or once it is over.
 * @param {string} takeover
 * @param {boolean} running
 */
function takeoverLabel(takeover, running) {
  if (takeover === "resigned") return t("resigned");
  const labels = running
    ? { timeout: t("bot playing (out of time)"), left: t("bot playing (left)"), away: t("bot playing (away)") }
    : { timeout: t("bot took over (out of time)"), left: t("bot took over (left)"), away: t("bot took over (away)") };
  return /** @type {Record<string, string>} */ (labels)[takeover] || t("bot playing");
}

/**
 * When a bot takes `player`'s seat over by itself: its move's deadline (only a clock agreed at the
 * table does that), or null.
 * @param {any} player
 * @returns {string | null}
 */
function botDeadline(player) {
  if (!player || player.takeover || player.bot) return null;
  return player.deadline || null;
}

/**
 * The live countdown of `seat`'s move (kept current by the page's tick), or null when no clock runs.
 * @param {any} frame
 * @param {number} seat
 */
export function countdown(frame, seat) {
  const due = botDeadline(playerOf(frame, seat));
  if (!due || frame.status !== "running") return null;
  return h("span", { class: "countdown", "data-deadline": due, "data-countdown-seat": String(seat), title: t("Time left for this move") }, "");
}

/**
 * Whether the viewer may hand `seat` (its person away) to a bot: the host, or any other player
 * when the host is the one away (or no longer plays their own seat). The server decides again.
 * @param {TableMoment} moment
 * @param {number} seat
 */
function mayHandOver({ frame, table, account }, seat) {
  if (!account || !isSeated(frame) || seat === frame.seat || myTakeover(frame)) return false;
  if (table.creator_id === account.id) return true;
  const hostSeat = (table.seats || []).find((/** @type {any} */ candidate) => candidate.account_id === table.creator_id);
  const host = hostSeat ? playerOf(frame, hostSeat.seat) : null;
  return !host || Boolean(host.takeover || host.away_since);
}

/**
 * "Ana is away" in `container` for each away person who is to act: when the bot steps in by itself,
 * and (for those allowed) a button that hands the seat to the bot now (`onHandOver(player, button)`).
 * @param {HTMLElement} container
 * @param {TableMoment} moment
 * @param {(player: any, button: HTMLButtonElement) => void} onHandOver
 */
export function drawAway(container, moment, onHandOver) {
  const { frame } = moment;
  const toAct = frame.to_act || [];
  const away = frame.status === "running"
    ? toAct.map((/** @type {number} */ seat) => playerOf(frame, seat)).filter((/** @type {any} */ player) => player && !player.bot && !player.takeover && player.away_since)
    : [];
  container.hidden = !away.length;
  if (!away.length) {
    container.replaceChildren();
    return;
  }
  if (container.querySelector("button[aria-busy='true']")) return; // a hand-over is under way: keep its button
  replaceChildren(
    container,
    away.map((/** @type {any} */ player) => {
      const due = botDeadline(player);
      const hand = mayHandOver(moment, player.seat)
        ? /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "small", "data-action": "hand-over", "data-seat": String(player.seat) }, t("Let a bot play for {name}", { name: personName(player.name) })))
        : null;
      if (hand) hand.addEventListener("click", () => onHandOver(player, hand));
      return h(
        "p",
        { class: "away-notice", "data-away-seat": String(player.seat) },
        h("strong", {}, t("{name} is away.", { name: personName(player.name) })),
        " ",
        due
          ? fill(t("A bot plays for them in {time}.", keep("time")), { time: h("span", { class: "countdown", "data-deadline": due, "data-away-countdown": String(player.seat) }, "") })
          : t("Nobody's clock runs out here."),
        hand ? [" ", hand] : null,
      );
    }),
  );
}

/**
 * What `seat`, to act in `frame`, is asked to do by the renderer's `asked` hook, or null (plainly to play).
 * @param {import("./renderers/contract.js").Renderer | null | undefined} renderer
 * @param {any} frame
 * @param {number} seat
 * @returns {import("./renderers/contract.js").AskedWords | null}
 */
export function askedOf(renderer, frame, seat) {
  return renderer && renderer.asked ? renderer.asked(frame, seat) : null;
}

/**
 * One line of the players' list: presence, seat number, name, rating, badges, countdown and score.
 * @param {TableMoment} moment
 * @param {any} player
 */
function playerLine({ frame, online, ratings, renderer }, player) {
  const result = frame.result;
  const running = frame.status === "running";
  const acting = running && (frame.to_act || []).includes(player.seat);
  const isOnline = online ? online.includes(player.seat) : null;
  let presence;
  if (player.bot) presence = h("span", { class: "presence presence-bot", role: "img", title: t("A bot"), "aria-label": t("bot") }, "");
  else if (isOnline === null) presence = h("span", { class: "presence presence-unknown", "aria-hidden": "true" }, "");
  else {
    presence = h("span", {
      class: `presence ${isOnline ? "presence-online" : "presence-offline"}`,
      role: "img",
      title: isOnline ? t("Has the game open") : t("Not here right now"),
      "aria-label": isOnline ? t("online") : t("offline"),
    }, "");
  }
  const rating = ratingOfSeat(ratings, player.seat);
  return h(
    "li",
    {
      class: `player${acting ? " to-act" : ""}${player.takeover ? " taken-over" : ""}`,
      "data-seat": String(player.seat),
      "data-online": isOnline === null || player.bot ? "" : String(isOnline),
      "data-takeover": player.takeover || "",
    },
    presence,
    h("span", { class: "seat-number" }, String(player.seat + 1)),
    h(
      "span",
      { class: "player-main" },
      h("span", { class: "player-name" }, personName(player.name), player.seat === frame.seat ? ` ${t("(you)")}` : ""),
      rating ? h("span", { class: "player-rating muted", "data-rating-seat": String(player.seat), title: ratings.rated ? t("Rating in this game") : t("Rating in this game (this table is friendly: not rated)") }, ratingText(rating)) : null,
      acting ? h("span", { class: "badge badge-turn" }, askedOf(renderer, frame, player.seat)?.badge || t("to play")) : null,
      player.away_since && !player.takeover && !player.bot ? h("span", { class: "badge badge-away", "data-away": "" }, t("away")) : null,
      player.takeover ? h("span", { class: `badge badge-takeover takeover-${player.takeover}`, "data-takeover-label": "" }, takeoverLabel(player.takeover, running)) : null,
    ),
    h(
      "span",
      { class: "player-side" },
      acting ? countdown(frame, player.seat) : null,
      result ? h("span", { class: "player-score" }, t("{score} pts · #{rank}", { score: result.scores[player.seat], rank: result.ranks[player.seat] })) : null,
    ),
  );
}

/**
 * The players' list into `list`, and "You play seat 2." (or the spectator's line) into `youAre`.
 * @param {HTMLElement} list
 * @param {HTMLElement} youAre
 * @param {TableMoment} moment
 */
export function drawPlayers(list, youAre, moment) {
  const { frame, account } = moment;
  replaceChildren(list, (frame.players || []).map((/** @type {any} */ player) => playerLine(moment, player)));
  youAre.textContent = isSeated(frame)
    ? t("You play seat {n}.", { n: frame.seat + 1 })
    : account
      ? t("You are watching this game.")
      : t("You are watching. Sign in (top right) to play at a table of your own.");
}
