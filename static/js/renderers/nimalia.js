// Nimalia: draws frame.view (objectives, your hand, every reserve, the score track and the
// per-round breakdown) and offers frame.legal as clicks: choose a card of your hand, turn it,
// click a highlighted space for its top-left corner, check the preview, confirm. Every rule stays
// on the server: the highlighted spaces are exactly the `at` of the legal moves for that card and
// rotation, and the move sent is one of frame.legal as it is.
//
// By keyboard: Tab to a card and press Enter, the turn buttons likewise, Tab to a highlighted
// space and press Enter to preview there, Enter again (or the Place button) to place. The spaces
// the last move filled, and the reserves it touched, carry `last-move`.

import { animalIcon } from "../pieces.js";
import { activate, keepFocus, linkStylesheet, markLastMove } from "../board-kit.js";
import { h, replaceChildren } from "../dom.js";
import { ghostMark } from "../move-preview.js";
import { playerLabel, t } from "../i18n.js";

await linkStylesheet(new URL("./nimalia.css", import.meta.url)); // the board's look: nimalia.css

const ANIMALS = {
  Fl: ["flamingo", "water"],
  Cr: ["crocodile", "water"],
  Li: ["lion", "savannah"],
  Gi: ["giraffe", "savannah"],
  Pa: ["panda", "jungle"],
  Go: ["gorilla", "jungle"],
  Be: ["polar bear", "snow"],
  Pe: ["penguin", "snow"],
};
const OTTER_TERRAIN = { j: "jungle", s: "savannah", n: "snow" };
// the words are looked up when drawn (t() in colourName), so the page's language is used
const COLOUR_NAMES = { blue: "Blue", green: "Green", yellow: "Yellow", red: "Red" };
const COLOUR_WORDS = { blue: "blue", green: "green", yellow: "yellow", red: "red" };

/** An objective colour as a title shows it ("Blue"). @param {string} colour */
function colourName(colour) {
  return t(COLOUR_NAMES[colour] || colour);
}
const ROTATIONS = [0, 90, 180, 270];
const MIN_GRID = 6;

/** Per-container UI state that survives redraws: chosen card, rotation, previewed position. */
const uiState = new WeakMap();

const key = ([row, col]) => `${row},${col}`;

function parseCode(code) {
  if (code && code[0] === "O") return { code, animal: "otter", terrain: OTTER_TERRAIN[code[1]], river: code[2] };
  const [animal, terrain] = ANIMALS[code] || ["?", "unknown"];
  return { code, animal, terrain, river: null };
}

/** The four cells a card covers when its top-left cell is [row, col]. @returns {Array<[number, number]>} */
function footprint([row, col]) {
  return [[row, col], [row, col + 1], [row + 1, col], [row + 1, col + 1]];
}

function playerName(frame, seat) {
  const player = (frame.players || []).find((candidate) => candidate.seat === seat);
  return player ? playerLabel(frame, player) : t("Seat {number}", { number: seat + 1 });
}

// -- cells and grids ----------------------------------------------------------------------------

function describe(space) {
  const words = { animal: t(space.animal), terrain: t(space.terrain) };
  if (!space.river) return t("{animal} on {terrain}", words);
  return space.river === "/"
    ? t("{animal} on {terrain} with a river (rising diagonal)", words)
    : t("{animal} on {terrain} with a river (falling diagonal)", words);
}

function cell(space, attributes = {}, extraClass = "") {
  if (!space) return h("div", { class: `nim-cell empty ${extraClass}`.trim(), ...attributes });
  const river = space.river === "/" ? " river-slash" : space.river === "\\" ? " river-backslash" : "";
  return h(
    "div",
    { class: `nim-cell t-${space.terrain}${river} ${extraClass}`.trim(), title: describe(space), "data-animal": space.animal, "data-terrain": space.terrain, ...attributes },
    h("span", { class: "animal", "aria-hidden": "true" }, animalIcon(space.animal) || space.code),
  );
}

/** The rows and columns to draw: everything in `positions`, padded to at least 6 x 6. */
function windowOf(positions) {
  let rows = positions.map(([row]) => row);
  let cols = positions.map(([, col]) => col);
  if (!rows.length) {
    rows = [0];
    cols = [0];
  }
  const pad = (low, high) => {
    const missing = Math.max(0, MIN_GRID - (high - low + 1));
    return [low - Math.floor(missing / 2), high + Math.ceil(missing / 2)];
  };
  const [top, bottom] = pad(Math.min(...rows), Math.max(...rows));
  const [left, right] = pad(Math.min(...cols), Math.max(...cols));
  return { top, bottom, left, right };
}

/**
 * Every position the player's own reserve is drawn around while a card is being placed: its
 * spaces (keys "r,c"), what lies on top (keys "r,c") and the four spaces of each highlighted anchor.
 * @param {Map<string, any>} spaces
 * @param {string[]} overlaid
 * @param {Array<[number, number]>} anchorPositions
 */
function drawnPositions(spaces, overlaid, anchorPositions) {
  const positions = [...spaces.keys(), ...overlaid].map((text) => text.split(",").map(Number));
  for (const at of anchorPositions) positions.push(...footprint(at));
  return positions;
}

/**
 * `move.at` as the player sees it: row and column of the drawn grid, counted from 1 at its top
 * left (the rules' own coordinates start at the first card, so they run negative and mean nothing
 * on the page). The grid is the one drawMine draws while `move`'s card and turn are chosen.
 */
function placeAsDrawn(frame, move) {
  const me = ((frame.view && frame.view.players) || []).find((player) => player.seat === frame.seat);
  const anchors = (frame.legal || []).filter((other) => other.type === "place" && other.card === move.card && other.rotation === move.rotation).map((other) => other.at);
  const extent = windowOf(drawnPositions(me ? spacesOf(me) : new Map(), footprint(move.at).map(key), anchors));
  return [move.at[0] - extent.top + 1, move.at[1] - extent.left + 1];
}

/**
 * A reserve as a CSS grid. `spaces` maps "r,c" to a space (with `card`); `overlay` maps "r,c" to
 * {space, kind} drawn on top (a preview or the waiting choice); `anchors` maps "r,c" to
 * {choose(how), previewed}: what a click or Enter there does, and whether the preview sits there.
 */
function reserveGrid({ spaces, overlay = new Map(), anchors = new Map(), extent, seat, label, board = false }) {
  const grid = h("div", {
    class: board ? "nim-grid game-board" : "nim-grid",
    role: "group",
    "aria-label": label,
    "data-reserve": seat === undefined ? "" : String(seat),
    "data-rows": String(extent.bottom - extent.top + 1),
    "data-cols": String(extent.right - extent.left + 1),
    style: `grid-template-columns: repeat(${extent.right - extent.left + 1}, var(--cell, 44px)); --cols: ${extent.right - extent.left + 1}; --rows: ${extent.bottom - extent.top + 1};`,
  });
  const cardAt = (position) => {
    const shown = overlay.get(position) || null;
    if (shown) return `${shown.kind}`;
    const space = spaces.get(position);
    return space ? String(space.card) : null;
  };
  for (let row = extent.top; row <= extent.bottom; row += 1) {
    for (let col = extent.left; col <= extent.right; col += 1) {
      const position = key([row, col]);
      const shown = overlay.get(position);
      const space = shown ? shown.space : spaces.get(position);
      const classes = [];
      if (space) {
        const mine = cardAt(position);
        if (cardAt(key([row - 1, col])) !== mine) classes.push("edge-top");
        if (cardAt(key([row + 1, col])) !== mine) classes.push("edge-bottom");
        if (cardAt(key([row, col - 1])) !== mine) classes.push("edge-left");
        if (cardAt(key([row, col + 1])) !== mine) classes.push("edge-right");
      }
      if (shown) classes.push(shown.kind);
      const place = t("row {row}, column {col}", { row: row - extent.top + 1, col: col - extent.left + 1 }); // as drawn, from 1
      let what = t("empty");
      if (space && shown && shown.kind === "preview") what = t("preview: {space}", { space: describe(space) });
      else if (space && shown) what = t("your waiting card: {space}", { space: describe(space) });
      else if (space) what = describe(space);
      const attributes = space ? { "data-cell": position, role: "img", "aria-label": t("{place}: {what}", { place, what }) } : { "data-cell": position, "aria-hidden": "true" };
      if (shown && shown.kind === "preview") attributes["data-preview"] = "place"; // the ghost's mark, as the move bar's (move-preview.js)
      const anchor = anchors.get(position);
      if (anchor) {
        classes.push("legal");
        Object.assign(attributes, {
          "data-anchor": position,
          "data-focus-key": `anchor:${position}`,
          tabindex: "0",
          role: "button",
          "aria-hidden": undefined,
          "aria-label": anchor.previewed
            ? t("The card is previewed with its top-left space at {place}: press Enter again to place it here", { place })
            : t("Put the card's top-left space at {place} (now {what})", { place, what }),
        });
      }
      const element = cell(space, attributes, classes.join(" "));
      if (anchor) activate(element, anchor.choose);
      grid.append(element);
    }
  }
  return grid;
}

function spacesOf(player) {
  return new Map((player.spaces || []).map((space) => [key(space.at), space]));
}

// -- sections -----------------------------------------------------------------------------------

function drawStatus(frame, view, seated) {
  const from = seated ? (view.receives_from || [])[frame.seat] : null;
  const over = view.over;
  return h(
    "section",
    { class: "nim-status", "data-round": String(view.round), "data-step": String(view.step), "data-over": String(Boolean(over)) },
    h("strong", { class: "nim-round" }, over ? t("Game over after 5 rounds") : t("Round {round} of 5 · card {step} of 3", { round: view.round, step: view.step })),
    over ? null : h("span", { class: "muted" }, passingText(frame, view, seated, from)),
    h("span", { class: "muted" }, t("Deck: {count} cards", { count: view.deck_size })),
  );
}

/** Where the cards pass this round, and from whom the viewer receives. */
function passingText(frame, view, seated, from) {
  const left = view.passing === "left";
  if (seated && from !== undefined && from !== frame.seat) {
    const name = playerName(frame, from);
    return left ? t("Cards pass to the left (you receive from {name})", { name }) : t("Cards pass to the right (you receive from {name})", { name });
  }
  return left ? t("Cards pass to the left") : t("Cards pass to the right");
}

function drawObjectives(view) {
  const scoringNow = new Set(((view.schedule || []).find((entry) => entry.round === view.round) || { colours: [] }).colours);
  return h(
    "section",
    { class: "nim-objectives", "aria-labelledby": "nim-objectives-title" },
    h("h3", { id: "nim-objectives-title" }, t("Objectives (applied blue, green, yellow, red)")),
    h(
      "ul",
      {},
      (view.objectives || []).map((objective) =>
        h(
          "li",
          {
            class: `nim-objective${scoringNow.has(objective.colour) && !view.over ? " scoring-now" : ""}`,
            "data-objective": objective.label,
            "data-colour": objective.colour,
            style: `--obj: ${{ blue: "#2f6fd0", green: "#2e8b3e", yellow: "#c99700", red: "#c0392b" }[objective.colour]}`,
          },
          h("strong", {}, `${colourName(objective.colour)} · ${t(objective.title)}`),
          h("p", { class: "nim-objective-text" }, t(objective.text)),
          h(
            "div",
            { class: "nim-rounds", "aria-label": t("Scores in rounds {rounds}", { rounds: objective.rounds.join(", ") }) },
            [1, 2, 3, 4, 5].map((round) =>
              h("span", { class: `${objective.rounds.includes(round) ? "scores" : ""}${round === view.round && !view.over ? " current" : ""}`, "data-round": String(round) }, String(round)),
            ),
          ),
        ),
      ),
    ),
  );
}

function handCard(card, rotation, selected, disabled, onSelect) {
  const codes = card.spaces[String(rotation)] || card.spaces["0"];
  const button = h(
    "button",
    {
      type: "button",
      class: "nim-card",
      "data-hand-card": card.card,
      "data-focus-key": `card:${card.card}`,
      "aria-pressed": String(selected),
      "aria-label": t("Card {number}: {animals}", { number: card.number, animals: codes.map((code) => t(parseCode(code).animal)).join(", ") }),
      title: t("Card {number}", { number: card.number }),
    },
    codes.map((code) => cell(parseCode(code), { "aria-hidden": "true" })),
  );
  button.disabled = disabled;
  button.addEventListener("click", onSelect);
  return button;
}

function drawMine(frame, view, legal, ui, disabled, redraw, sendMove) {
  const me = (view.players || []).find((player) => player.seat === frame.seat);
  const hand = view.hand || [];
  const choice = view.my_choice;
  const spaces = spacesOf(me);
  const overlay = new Map();
  const anchors = new Map();
  const anchorPositions = [];
  let prompt;
  let chosenMove = null;

  if (choice) {
    for (const space of choice.spaces) overlay.set(key(space.at), { space, kind: "pending-choice" });
    prompt = t("Your card is placed face down until every player has chosen.");
  } else if (legal.length) {
    const selectedCard = hand.find((card) => card.card === ui.card);
    const forCard = legal.filter((move) => move.card === ui.card && move.rotation === ui.rotation);
    for (const move of forCard) anchorPositions.push(move.at);
    if (!disabled) {
      for (const move of forCard) {
        const position = key(move.at);
        anchors.set(position, {
          previewed: ui.preview === position,
          choose: (how) => {
            // a second Enter on the previewed space places the card: no hunt for the Place button
            if (how === "keyboard" && ui.preview === position) sendMove(move);
            else {
              ui.preview = position;
              redraw();
            }
          },
        });
      }
    }
    chosenMove = forCard.find((move) => key(move.at) === ui.preview) || null;
    if (chosenMove && selectedCard) {
      const codes = selectedCard.spaces[String(ui.rotation)];
      footprint(chosenMove.at).forEach((position, index) => overlay.set(key(position), { space: parseCode(codes[index]), kind: "preview" }));
    }
    prompt = chosenMove
      ? t("{move}: check the preview, then press Place card (or click another highlighted space).", { move: preview(frame, chosenMove).text })
      : t("Choose a card, turn it, then click a highlighted space for its top-left corner.");
  } else {
    prompt = view.over ? "" : t("Waiting for the next card.");
  }

  const extent = windowOf(drawnPositions(spaces, [...overlay.keys()], anchorPositions));

  const rotate = (step) => {
    ui.rotation = ROTATIONS[(ROTATIONS.indexOf(ui.rotation) + step + 4) % 4];
    ui.preview = null;
    redraw();
  };
  const canAct = legal.length > 0 && !choice;
  const controls = canAct
    ? h(
        "div",
        { class: "nim-controls move-controls", role: "group", "aria-label": t("Your move") },
        h("button", { type: "button", "data-action": "rotate-left", "data-focus-key": "rotate-left", onClick: () => rotate(-1), disabled: disabled || undefined, "aria-label": t("Turn the card left") }, t("⟲ Turn left")),
        h("button", { type: "button", "data-action": "rotate-right", "data-focus-key": "rotate-right", onClick: () => rotate(1), disabled: disabled || undefined, "aria-label": t("Turn the card right") }, t("Turn right ⟳")),
        h("span", { class: "muted", "data-rotation": String(ui.rotation) }, `${ui.rotation}°`),
        h(
          "button",
          {
            type: "button",
            class: "primary",
            "data-action": "confirm",
            "data-focus-key": "confirm",
            disabled: disabled || !chosenMove || undefined,
            onClick: () => {
              if (chosenMove) sendMove(chosenMove);
            },
          },
          t("Place card"),
        ),
      )
    : null;

  return h(
    "section",
    { class: "nim-mine", "aria-labelledby": "nim-mine-title", "data-seat": String(frame.seat) },
    h("h3", { id: "nim-mine-title" }, t("Your reserve · {points} points", { points: me ? me.score : 0 })),
    h("p", { class: "nim-prompt", id: "nim-prompt" }, prompt),
    hand.length
      ? h(
          "div",
          { class: "nim-hand-row nim-hand", "aria-label": t("Your hand") },
          hand.map((card) =>
            handCard(card, ui.rotation, card.card === ui.card, disabled || !canAct, () => {
              ui.card = card.card;
              ui.preview = null;
              redraw();
            }),
          ),
        )
      : null,
    controls,
    h("div", { class: "nim-reserve mine" }, reserveGrid({ spaces, overlay, anchors, extent, seat: frame.seat, label: t("Your reserve"), board: true })),
  );
}

function drawReserves(frame, view, skipSeat) {
  const others = (view.players || []).filter((player) => player.seat !== skipSeat);
  if (!others.length) return null;
  return h(
    "section",
    { class: "nim-others", "aria-labelledby": "nim-others-title" },
    h("h3", { id: "nim-others-title" }, skipSeat === null ? t("Reserves") : t("Other reserves")),
    h(
      "div",
      { class: "nim-reserves" },
      others.map((player) => {
        const spaces = spacesOf(player);
        const extent = windowOf([...spaces.keys()].map((text) => text.split(",").map(Number)));
        const name = playerName(frame, player.seat);
        const points = { name, points: player.score };
        let heading = t("{name} · {points} pts", points);
        if (!view.over) heading = player.chosen ? t("{name} · {points} pts · has chosen", points) : t("{name} · {points} pts · choosing", points);
        // The cards of a hand this seat passed on that this player holds now (the view's passed_on).
        const passed = (view.passed_on || []).find((entry) => entry.seat === player.seat);
        return h(
          "div",
          { class: "nim-reserve small", "data-player-seat": String(player.seat), "data-chosen": String(Boolean(player.chosen)) },
          h("h4", {}, heading),
          passed
            ? h("p", { class: "muted nim-passed", "data-passed-on": "" }, t("Holds cards you passed: {cards}", { cards: passed.cards.map(cardNumber).join(", ") }))
            : null,
          reserveGrid({ spaces, extent, seat: player.seat, label: t("Reserve of {name}", { name }) }),
        );
      }),
    ),
  );
}

function drawScores(frame, view) {
  const players = view.players || [];
  const top = Math.max(50, ...players.map((player) => player.score));
  const track = h(
    "ol",
    { class: "nim-track", "aria-label": t("Score track") },
    players.map((player) =>
      h(
        "li",
        { "data-nim-score": String(player.seat) },
        h("span", {}, playerName(frame, player.seat)),
        h("span", { class: "nim-bar-box" }, h("span", { class: "nim-bar", style: `display:block; width: ${(100 * player.score) / top}%` })),
        h("strong", { class: "nim-score-value" }, String(player.score)),
      ),
    ),
  );
  const history = view.history || [];
  let breakdown = null;
  if (history.length) {
    const objectives = Object.fromEntries((view.objectives || []).map((objective) => [objective.colour, objective]));
    const head = h("tr", {}, h("th", { scope: "col" }, t("Round")), players.map((player) => h("th", { scope: "col" }, playerName(frame, player.seat))));
    const rows = [];
    for (const record of history) {
      for (const step of record.steps) {
        rows.push(
          h(
            "tr",
            { "data-history-round": String(record.round), "data-history-objective": step.label },
            h("th", { scope: "row" }, t("Round {round} · {colour}", { round: record.round, colour: t(COLOUR_WORDS[step.colour] || step.colour) }), objectives[step.colour] ? h("span", { class: "muted" }, ` ${t(objectives[step.colour].title)}`) : null),
            step.points.map((points, seat) => h("td", { "data-seat": String(seat) }, points > 0 ? `+${points}` : String(points))),
          ),
        );
      }
      rows.push(
        h(
          "tr",
          { class: "nim-total", "data-history-total": String(record.round) },
          h("th", { scope: "row" }, t("After round {round}", { round: record.round })),
          record.after.map((total, seat) => h("td", { "data-seat": String(seat) }, String(total))),
        ),
      );
    }
    breakdown = h("div", { class: "table-scroll" }, h("table", { class: "score-table nim-breakdown" }, h("thead", {}, head), h("tbody", {}, rows)));
  }
  return h(
    "section",
    { class: "nim-scores", "aria-labelledby": "nim-scores-title" },
    h("h3", { id: "nim-scores-title" }, t("Scores")),
    track,
    breakdown,
    history.length ? h("p", { class: "muted nim-legend" }, t("A total never drops below 0 (checked after each objective).")) : null,
  );
}

function drawLegend() {
  return h(
    "p",
    { class: "muted nim-legend" },
    `${t("Blue = water, yellow = savannah, green = jungle, white = snow; a blue diagonal is an otter's river.")} `,
    `${t("Thick lines are card edges. Green dots mark where the card's top-left space may go.")} `,
    t("A red edge and corner mark the spaces of the last cards placed."),
  );
}

// -- the last move ------------------------------------------------------------------------------

/**
 * What the last move touched, from the view before it and the view after it: the spaces a
 * revealed card filled (in every reserve), the reserve of a player who has just chosen (face
 * down: only the choice's owner sees where), the scores that changed and a newly scored round.
 */
function lastMoveSelectors(previous, view, mySeat) {
  if (!previous) return [];
  const selectors = [];
  for (const player of view.players || []) {
    const before = (previous.players || []).find((candidate) => candidate.seat === player.seat);
    if (!before) continue;
    const cardsBefore = new Map((before.spaces || []).map((space) => [key(space.at), space.card]));
    for (const space of player.spaces || []) {
      if (cardsBefore.get(key(space.at)) !== space.card) selectors.push(`[data-reserve="${player.seat}"] [data-cell="${key(space.at)}"]`);
    }
    if (player.chosen && !before.chosen) {
      selectors.push(player.seat === mySeat ? ".nim-mine .pending-choice" : `.nim-reserve[data-player-seat="${player.seat}"]`);
      if (player.seat === mySeat) selectors.push(".nim-mine");
    }
    if (player.score !== before.score) selectors.push(`[data-nim-score="${player.seat}"]`);
  }
  for (const record of (view.history || []).slice((previous.history || []).length)) {
    selectors.push(`[data-history-round="${record.round}"]`, `[data-history-total="${record.round}"]`);
  }
  return selectors;
}

// -- the contract -------------------------------------------------------------------------------

/**
 * The renderer contract: README.md in this folder. Spectators (frame.seat null) get no controls
 * and no hand.
 * @type {import("./contract.js").Render}
 */
export function render(container, frame, { sendMove, disabled = false, readOnly = false, previous = null }) {
  const view = frame.view || {};
  const seated = !readOnly && frame.seat !== null && frame.seat !== undefined;
  const legal = seated && frame.status !== "finished" ? (frame.legal || []).filter((move) => move.type === "place") : [];

  const ui = uiState.get(container) || { card: null, rotation: 0, preview: null, version: null, hand: "" };
  if (ui.version !== frame.version) {
    ui.preview = null;
    ui.version = frame.version;
  }
  // a new hand (after a step or a pass) starts unturned; another player's move keeps your choices
  const hand = (view.hand || []).map((card) => card.card).join(" ");
  if (hand !== ui.hand) {
    ui.hand = hand;
    ui.rotation = 0;
  }
  const cards = [...new Set(legal.map((move) => move.card))];
  if (!cards.includes(ui.card)) ui.card = cards.length ? cards[0] : null;
  uiState.set(container, ui);

  const redraw = () => render(container, frame, { sendMove, disabled, readOnly, previous });
  const layout = h(
    "div",
    { class: "nim", "data-round": String(view.round), "data-step": String(view.step) },
    drawStatus(frame, view, seated),
    seated ? drawMine(frame, view, legal, ui, disabled, redraw, sendMove) : null,
    drawReserves(frame, view, seated ? frame.seat : null),
    drawObjectives(view),
    drawScores(frame, view),
    drawLegend(),
  );
  markLastMove(container, layout, frame.version, lastMoveSelectors(previous, view, seated ? frame.seat : null));
  keepFocus(container, () => replaceChildren(container, layout), ui.card ? [`card:${ui.card}`] : []);
}

// -- the preview of a move ------------------------------------------------------------------------

/** A card token's printed number ("nimalia-card-07" -> 7). */
function cardNumber(token) {
  const match = /(\d+)$/.exec(String(token || ""));
  return match ? Number(match[1]) : token;
}

/**
 * The renderer hook of "Confirm my moves" (move-preview.js), used by this renderer's own preview
 * too: `move` in one sentence in the log's words ("Place card 7, turned 90°, its top-left space at
 * row 1, column 2"; the log says "Ana placed card 7, turned 90°") and `draw(root)`, which marks
 * the four spaces the card will cover in the player's reserve as the ghost.
 */
export function preview(frame, move) {
  if (move.type !== "place") return null;
  const [row, col] = placeAsDrawn(frame, move);
  return {
    text: t("Place card {card}, turned {rotation}°, its top-left space at row {row}, column {col}", { card: cardNumber(move.card), rotation: move.rotation, row, col }),
    draw(root) {
      const grid = root.querySelector(".nim-reserve.mine .nim-grid");
      if (!grid) return;
      for (const position of footprint(move.at)) ghostMark(grid.querySelector(`[data-cell="${key(position)}"]`), move);
    },
  };
}

/** The reserve previews a chosen card and asks "confirm" itself: the table's move bar does not ask again. */
export const confirmsMoves = true;
