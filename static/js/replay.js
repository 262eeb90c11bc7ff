// The board of the table page, live or replayed. table.js hands every state it draws to
// `render`; this module draws it with the game's renderer, together with the view before the
// last move (so the renderer can highlight what that move touched), and marks the newest log entry.
//
// A replay shows the public (spectator) view at any version, GET /api/games/{id}/replay?version=n,
// with the renderer in read-only mode: a slider from 0 to the current version, previous / next
// buttons and the Left / Right keys (Home, End; Escape goes back to live). Live states keep
// arriving meanwhile without moving the replay; "Back to live" shows the latest. The position is
// in the address (?version=n), so a link opens the replay right there.

import { api, withInvite } from "./api.js";
import { h, s } from "./dom.js";
import { logContent } from "./log-text.js";
import { t } from "./i18n.js";

const CACHE_SIZE = 80; // replay answers kept (one position never changes once played)

function versionInAddress() {
  const raw = new URLSearchParams(window.location.search).get("version");
  return raw !== null && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

function writeAddress(version) {
  const url = new URL(window.location.href);
  if (version === null) url.searchParams.delete("version");
  else url.searchParams.set("version", String(version));
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url);
}

/** Fields where the arrow keys belong to the field, not to the replay. */
function keysBelongToField(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest("textarea, select, [contenteditable]:not([contenteditable='false'])")) return true;
  return target instanceof HTMLInputElement && !["button", "checkbox", "radio", "submit", "reset"].includes(target.type);
}

/** A small "rewind" icon (inline SVG, so it never depends on an emoji or symbol font). */
function rewindIcon() {
  return s(
    "svg",
    { class: "icon", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M8 3.5v9L2 8z M14.5 3.5v9L8.5 8z", fill: "currentColor" }),
  );
}

/**
 * Mount the replay on the table page. `ruleset` is the game's name (rule links of the log lines),
 * `renderer` is the game's renderer module, `redraw()` draws
 * the whole page again (table.js's draw), `toast(text, code)` reports an error.
 * @param {{ tableId: string, inviteCode: string | null, ruleset: string,
 *   renderer: import("./renderers/contract.js").Renderer, redraw: () => void,
 *   toast: (text: string, code?: string) => void }} options
 */
export function mountReplay({ tableId, inviteCode, ruleset, renderer, redraw, toast }) {
  const bar = document.getElementById("replay");
  const liveBoard = document.getElementById("board");
  const replayBoard = document.getElementById("replay-board");
  const log = document.getElementById("log");

  const answers = new Map(); // version -> Promise of the replay answer
  const liveViews = new Map(); // version -> view, the two newest live positions
  let live = null; // the newest live frame
  let position = null; // the version replayed, null while live
  let shown = null; // the version drawn on the replay board
  let loading = false;
  let fetchingBefore = null; // the version whose predecessor is being fetched for the live board
  let fromAddress = versionInAddress();
  if (fromAddress === null) writeAddress(null); // a malformed ?version= goes away

  // -- the bar ----------------------------------------------------------------------------------

  const open = h("button", { type: "button", id: "replay-open", "data-action": "replay", title: t("Step through the game move by move") }, rewindIcon(), t("Replay"));
  const label = h("span", { id: "replay-label", class: "replay-label", "aria-live": "polite" }, "");
  const slider = h("input", { type: "range", id: "replay-slider", min: "0", max: "0", step: "1", value: "0", "aria-label": t("Replay position") });
  const previous = h("button", { type: "button", id: "replay-prev", "aria-label": t("Previous move"), title: t("Previous move (←)") }, "◀");
  const next = h("button", { type: "button", id: "replay-next", "aria-label": t("Next move"), title: t("Next move (→)") }, "▶");
  const back = h("button", { type: "button", id: "replay-live", class: "primary" }, t("Back to live"));
  const moveText = h("p", { id: "replay-move", class: "muted replay-move" }, "");
  const controls = h(
    "div",
    { class: "replay-controls", role: "group", "aria-label": t("Replay") },
    h("div", { class: "replay-row" }, label, h("span", { class: "replay-steps" }, previous, slider, next), back),
    moveText,
  );
  bar.replaceChildren(open, controls);

  open.addEventListener("click", () => {
    enter(live ? live.version : 0);
    slider.focus();
  });
  back.addEventListener("click", () => {
    leave();
    open.focus();
  });
  previous.addEventListener("click", () => step(-1));
  next.addEventListener("click", () => step(1));
  slider.addEventListener("input", () => goTo(Number(slider.value)));

  document.addEventListener("keydown", (event) => {
    if (position === null || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (document.querySelector("dialog[open]")) return;
    if (event.key === "Escape") {
      if (keysBelongToField(event.target) && event.target !== slider) return;
      event.preventDefault();
      const hadFocus = bar.contains(document.activeElement);
      leave();
      if (hadFocus) open.focus();
      return;
    }
    if (keysBelongToField(event.target)) return; // a text box, and the slider, which moves itself
    const moves = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => goTo(0), End: () => goTo(latest()) };
    if (!moves[event.key]) return;
    event.preventDefault();
    moves[event.key]();
  });

  function latest() {
    return live ? live.version : 0;
  }

  function drawBar() {
    const playing = live && (live.status === "running" || live.status === "finished");
    bar.hidden = !playing;
    document.body.dataset.replay = String(position !== null);
    open.hidden = position !== null;
    controls.hidden = position === null;
    if (position === null) return;
    const last = latest();
    label.textContent = t("Replay: move {n} of {last}", { n: position, last });
    slider.max = String(last);
    slider.value = String(position);
    slider.setAttribute("aria-valuetext", t("Move {n} of {last}", { n: position, last }));
    previous.setAttribute("aria-disabled", String(position <= 0)); // still focusable at the ends
    next.setAttribute("aria-disabled", String(position >= last));
  }

  // -- moving through the game ------------------------------------------------------------------

  function enter(version) {
    position = Math.max(0, Math.min(version, latest()));
    shown = null;
    liveBoard.replaceChildren(); // one board at a time: the renderers' ids and SVG patterns are unique
    liveBoard.hidden = true;
    replayBoard.hidden = false;
    writeAddress(position);
    drawBar();
    load();
  }

  function leave() {
    if (position === null) return;
    position = null;
    shown = null;
    replayBoard.replaceChildren();
    replayBoard.hidden = true;
    delete replayBoard.dataset.version;
    liveBoard.hidden = false;
    writeAddress(null);
    redraw(); // the latest state, with everything that arrived meanwhile
  }

  function goTo(version) {
    if (position === null) return;
    const target = Math.max(0, Math.min(version, latest()));
    if (target === position) {
      drawBar();
      return;
    }
    position = target;
    writeAddress(position);
    drawBar();
    load();
  }

  function step(delta) {
    if (position !== null) goTo(position + delta);
  }

  function fetchAnswer(version) {
    if (!answers.has(version)) {
      const request = api("GET", withInvite(`/api/games/${encodeURIComponent(tableId)}/replay?version=${version}`, inviteCode));
      request.catch(() => answers.delete(version)); // a failure is not remembered
      answers.set(version, request);
      if (answers.size > CACHE_SIZE) answers.delete(answers.keys().next().value);
    }
    return answers.get(version);
  }

  /** Fetch and draw the position asked for; one request pair at a time, always the newest wish. */
  async function load() {
    if (loading) return;
    loading = true;
    try {
      while (position !== null && shown !== position) {
        const target = position;
        const [answer, before] = await Promise.all([fetchAnswer(target), target > 0 ? fetchAnswer(target - 1) : null]);
        if (position === target) drawReplay(target, answer, before);
      }
    } catch (error) {
      toast(t("Could not load the replay: {reason}", { reason: error.message }), error.code);
      if (position !== null && shown !== null) {
        position = shown; // stay where the board is
        writeAddress(position);
        drawBar();
      }
    } finally {
      loading = false;
    }
  }

  function drawReplay(version, answer, before) {
    const frame = {
      type: "state",
      version,
      seat: null,
      status: answer.result ? "finished" : "running",
      view: answer.view,
      legal: [],
      to_act: [],
      // who plays a seat now is no word of a past position: no "(bot)" for a person a bot plays for since
      players: live ? live.players.map((/** @type {any} */ player) => ({ ...player, takeover: null })) : [],
      result: answer.result,
    };
    renderer.render(replayBoard, frame, { sendMove: () => {}, disabled: true, readOnly: true, previous: before ? before.view : null });
    replayBoard.dataset.version = String(version);
    shown = version;
    const entries = (answer.log || []).filter((entry) => entry.version === version);
    moveText.replaceChildren(...(version === 0 ? [t("The starting position.")]
      : entries.flatMap((entry, index) => [...(index ? [" · "] : []), ...logContent(entry, ruleset)])));
    markLog(version, true);
  }

  // -- the live board ---------------------------------------------------------------------------

  function noteLive(frame) {
    live = frame;
    liveViews.set(frame.version, frame.view);
    const versions = [...liveViews.keys()].sort((a, b) => b - a);
    for (const old of versions.slice(2)) liveViews.delete(old);
  }

  /**
   * The view before the live frame's last move: the previous live frame, or (after a page load)
   * the public view one version back, fetched once. Frames that skipped versions give the view
   * last drawn, so the highlight shows all that changed since.
   */
  function viewBefore(version) {
    if (version === 0) return null;
    const older = [...liveViews.keys()].filter((candidate) => candidate < version).sort((a, b) => b - a)[0];
    if (older !== undefined) return liveViews.get(older);
    if (fetchingBefore !== version) {
      fetchingBefore = version;
      fetchAnswer(version - 1).then(
        (answer) => {
          if (live && live.version === version && !liveViews.has(version - 1)) {
            liveViews.set(version - 1, answer.view);
            if (position === null) redraw();
          }
        },
        () => {}, // no highlight then; the game goes on
      );
    }
    return null;
  }

  /** The log entries of the version shown get `last-move`; in a replay, later ones are dimmed. */
  function markLog(version, replaying) {
    const items = [.../** @type {NodeListOf<HTMLElement>} */ (log.querySelectorAll("li[data-version]"))];
    const newest = replaying ? version : Math.max(-1, ...items.map((item) => Number(item.dataset.version)));
    let first = null;
    for (const item of items) {
      const itemVersion = Number(item.dataset.version);
      const current = itemVersion === newest;
      item.classList.toggle("last-move", current);
      item.classList.toggle("log-future", replaying && itemVersion > version);
      if (current && !first) first = item;
    }
    if (replaying && first) {
      const box = log.getBoundingClientRect();
      const line = first.getBoundingClientRect();
      if (line.top < box.top || line.bottom > box.bottom) log.scrollTop += line.top - box.top - log.clientHeight / 3;
    }
  }

  /**
   * Draw `frame` (live) unless a replay is showing; `options` are the renderer's (this adds `previous`).
   * @param {import("./renderers/contract.js").StateFrame} frame
   * @param {import("./renderers/contract.js").RenderOptions} options
   */
  function render(frame, options) {
    noteLive(frame);
    if (fromAddress !== null) {
      const asked = fromAddress;
      fromAddress = null;
      enter(asked);
    }
    drawBar();
    if (position !== null) {
      markLog(position, true); // new entries arrive dimmed
      return;
    }
    renderer.render(liveBoard, frame, { ...options, previous: viewBefore(frame.version) });
    liveBoard.dataset.version = String(frame.version);
    markLog(frame.version, false);
  }

  return { render };
}
