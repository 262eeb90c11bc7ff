// Small pieces every renderer shares: its stylesheet, keyboard activation of board elements,
// keyboard focus that survives a redraw, and the "last move" highlight. Nothing here knows a game
// or a rule.

import { t } from "./i18n.js";

const stylesheets = new Map(); // href -> Promise of its link's load

/**
 * Link the stylesheet at `url` (a renderer's own, renderers/<name>.css) into the page once, after
 * those already there (app.css), and resolve once it has loaded, or failed: a board without its
 * look is still a board. A renderer awaits it at the top of its module, so the table, which waits
 * for the module, never draws the board before its styles apply.
 * @param {URL | string} url
 * @returns {Promise<void>}
 */
export function linkStylesheet(url) {
  const href = String(url);
  if (!stylesheets.has(href)) {
    stylesheets.set(href, new Promise((resolve) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      link.addEventListener("load", () => resolve(), { once: true });
      link.addEventListener("error", () => {
        console.warn(`Could not load ${href}; the board is drawn without its styles.`);
        resolve();
      }, { once: true });
      document.head.append(link);
    }));
  }
  return stylesheets.get(href);
}

/** Run `action` on a click, and on Enter or Space while `element` has the keyboard focus. */
export function activate(element, action) {
  element.addEventListener("click", () => action("pointer"));
  element.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault(); // Space would scroll the page
      action("keyboard");
    }
  });
}

const focusMemory = new WeakMap(); // container -> data-focus-key of the element that had the focus

function focusable(element) {
  return Boolean(element) && !element.disabled && element.getAttribute("aria-disabled") !== "true" && element.tabIndex >= 0;
}

/**
 * Redraw `container` with `draw()` without losing a keyboard player's place: a renderer replaces
 * its whole board on every frame, which drops the focus to the page. Elements that can take the
 * focus carry `data-focus-key`; after the redraw the focus goes back to the element of the same
 * key, else to the first of `prefer` (keys) that exists, else to the first focusable keyed
 * element. Focus the player moved elsewhere on the page (the log, a chat box) is left alone.
 */
export function keepFocus(container, draw, prefer = []) {
  const active = /** @type {HTMLElement | SVGElement | null} */ (document.activeElement);
  const onPage = active && active !== document.body;
  if (onPage && container.contains(active)) {
    if (active.dataset && active.dataset.focusKey) focusMemory.set(container, active.dataset.focusKey);
  } else if (onPage) {
    focusMemory.delete(container);
  }
  draw();
  const remembered = focusMemory.get(container);
  if (!remembered) return;
  const now = document.activeElement;
  if (now && now !== document.body && now.isConnected) return; // the focus survived
  const byKey = (key) => container.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  const target = [remembered, ...prefer].map(byKey).find(focusable)
    || [...container.querySelectorAll("[data-focus-key]")].find(focusable);
  if (target) target.focus({ preventScroll: true });
}

const markedVersion = new WeakMap(); // container -> version whose highlight has been animated

/**
 * Give the elements of `root` that match `selectors` the class `last-move` (the renderer knows
 * which elements its last move touched). The short animation (`last-move-fresh`) plays once per
 * version and container, not on every redraw of the same position. The count goes to
 * `container.dataset.lastMove`, and labelled elements say "(last move)" in words too.
 */
export function markLastMove(container, root, version, selectors) {
  const elements = new Set();
  for (const selector of selectors) for (const element of root.querySelectorAll(selector)) elements.add(element);
  const fresh = elements.size > 0 && markedVersion.get(container) !== version;
  if (fresh) markedVersion.set(container, version);
  for (const element of elements) {
    element.classList.add("last-move");
    if (fresh) element.classList.add("last-move-fresh");
    const label = element.getAttribute("aria-label");
    if (label) element.setAttribute("aria-label", t("{label} (last move)", { label }));
  }
  container.dataset.lastMove = String(elements.size);
}

const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"; // no I or O (read as 1 and 0), as on a Go board

/** A hex (q, r) as the board labels it and the log names it: the row's letter (r = 0 is A) and
 * the offset column q + floor(r / 2) + 1, e.g. [3, 0] -> "A4" (app/rulesets/through_the_desert/board.py, show). */
export function hexLabel([q, r]) {
  const column = q + Math.floor(r / 2) + 1;
  return r >= 0 && r < LETTERS.length && column >= 1 ? `${LETTERS[r]}${column}` : t("row {row}, hex {hex}", { row: r, hex: column });
}

/** A square cell [row, col] as the board labels it and the log names it: the column's letter and
 * the row's number from the top, e.g. [3, 10] -> "L4" (app/rulesets/nomadi/board.py, show). */
export function cellLabel([row, col]) {
  return col >= 0 && col < LETTERS.length ? `${LETTERS[col]}${row + 1}` : t("row {row}, column {column}", { row: row + 1, column: col + 1 });
}

/** The letters and numbers along a board's edges, so the places the log names can be found:
 * `labels` is a list of [text, x, y] in the board's own units. */
export function edgeLabels(labels) {
  const group = document.createElementNS("http://www.w3.org/2000/svg", "g");
  group.setAttribute("class", "edge-labels");
  group.setAttribute("aria-hidden", "true");
  for (const [text, x, y] of labels) {
    const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
    label.setAttribute("x", x.toFixed(1));
    label.setAttribute("y", y.toFixed(1));
    label.setAttribute("class", "edge-label");
    label.textContent = text;
    group.append(label);
  }
  return group;
}

const zoomedBoards = new Set(); // the names of the boards the player enlarged (kept across redraws)
const zoomScroll = new Map(); // name -> [left, top] of the enlarged board's frame, kept across redraws

/** Enlarged, a board space is this wide at least: above the 44 px tap target, with room for rounding. */
export const ZOOMED_SPACE_PX = 48;

/**
 * The board in its frame with a "Larger board" toggle for small screens: the board fits the
 * window by default (every space visible without scrolling); enlarged, it is drawn so wide that
 * its smallest space, `spaceSize` units of the SVG's viewBox across, is ZOOMED_SPACE_PX CSS px
 * (a 44 px tap target, for a fingertip), inside its frame, which then scrolls. Without `spaceSize` it
 * is drawn at twice the width. The toggle shows only on narrow and touch screens (CSS
 * `.zoom-toggle`). `name` keeps the choice per game. `readOnly` (a replay, which has no controls
 * at all): the board alone in its frame.
 */
export function zoomableFrame(name, frameClass, board, readOnly = false, spaceSize = null) {
  const zoomed = !readOnly && zoomedBoards.has(name);
  const frame = document.createElement("div");
  frame.className = `${frameClass} board-frame${zoomed ? " zoomed" : ""}`;
  const viewBoxWidth = board.viewBox?.baseVal?.width;
  if (spaceSize && viewBoxWidth) board.style.setProperty("--zoomed-width", `${Math.ceil((viewBoxWidth / spaceSize) * ZOOMED_SPACE_PX)}px`);
  frame.append(board);
  frame.addEventListener("scroll", () => zoomScroll.set(name, [frame.scrollLeft, frame.scrollTop]), { passive: true });
  if (zoomed && zoomScroll.has(name)) {
    requestAnimationFrame(() => {
      [frame.scrollLeft, frame.scrollTop] = zoomScroll.get(name);
    });
  }
  if (readOnly) return frame;
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "small zoom-toggle";
  toggle.dataset.action = "zoom-board";
  toggle.dataset.focusKey = "zoom-board";
  toggle.setAttribute("aria-pressed", String(zoomed));
  toggle.textContent = zoomed ? t("Smaller board") : t("Larger board");
  toggle.addEventListener("click", () => {
    if (zoomedBoards.has(name)) zoomedBoards.delete(name);
    else zoomedBoards.add(name);
    const now = zoomedBoards.has(name);
    frame.classList.toggle("zoomed", now);
    toggle.setAttribute("aria-pressed", String(now));
    toggle.textContent = now ? t("Smaller board") : t("Larger board");
  });
  const wrap = document.createElement("div");
  wrap.className = "zoomable";
  wrap.append(frame, toggle);
  return wrap;
}
