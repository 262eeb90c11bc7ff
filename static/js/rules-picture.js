// The players' rules page (/rules/<game>, app/api/rules_pages.py): draws the example position of
// "How to play in 2 minutes" with the game's own renderer, as the table page shows a replay, and
// keeps the rule links of older pages working: an anchor this page does not have (/rules/nimalia#D2)
// is a numbered rule, so the browser goes on to /rules/nimalia/reference#D2. The renderer speaks
// the page's language: the game's catalog is loaded first (i18n.js).

import { loadGameCatalog, t } from "./i18n.js";

const ruleset = document.body.dataset.ruleset;
const anchor = decodeURIComponent(window.location.hash.slice(1));
if (ruleset && anchor && !document.getElementById(anchor)) {
  window.location.replace(`/rules/${encodeURIComponent(ruleset)}/reference${window.location.hash}`);
}

/** The board element a renderer drew (its `.game-board`), or the whole drawing when it marks none. */
function boardOf(drawing) {
  return drawing.querySelector(".game-board") || drawing.querySelector(".nim-grid") || drawing.firstElementChild;
}

async function drawPictures() {
  if (ruleset) await loadGameCatalog(ruleset);
  for (const figure of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".rules-picture[data-ruleset]"))) {
    const data = figure.querySelector("script.rules-example");
    const place = figure.querySelector(".rules-picture-board");
    if (!data || !place) continue;
    try {
      const renderer = await import(`/static/js/renderers/${encodeURIComponent(figure.dataset.ruleset)}.js`);
      const drawing = document.createElement("div");
      drawing.className = "rules-picture-drawing board-container";
      renderer.render(drawing, JSON.parse(data.textContent), { sendMove: () => {}, disabled: true, readOnly: true, previous: null });
      const board = boardOf(drawing);
      if (board) place.replaceChildren(board);
      figure.dataset.drawn = "true";
    } catch (error) {
      place.textContent = t("(The example picture could not be drawn in this browser.)");
      console.error(error);
    }
  }
}

drawPictures();
