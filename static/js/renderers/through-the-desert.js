// Through the Desert: draws frame.view as an SVG hex board with a side panel, and offers
// frame.legal as clicks or keys (pick a colour, then one of its highlighted spaces; Tab reaches
// both, Enter or Space chooses). Every rule stays on the server: this module only shows what the
// view says and sends back moves from `legal`. The pieces the last move touched carry `last-move`.
//
// Hexes are axial (q, r), pointy-top; centre x = s·√3·(q + r/2), y = s·1.5·r (rules spec §2.2).

import { activate, edgeLabels, hexLabel as where, keepFocus, linkStylesheet, markLastMove, zoomableFrame } from "../board-kit.js";
import { h, replaceChildren, s } from "../dom.js";
import { playerLabel, t, tn } from "../i18n.js";
import { ghostLayer, ghostMark } from "../move-preview.js";
import { camelPath } from "../pieces.js";

await linkStylesheet(new URL("./through-the-desert.css", import.meta.url)); // the board's look: through-the-desert.css

const SIZE = 10;
const SQRT3 = Math.sqrt(3);
const TARGET_SIZE = SIZE * 0.9; // a highlighted space, a little inside its hex

const FILL = { pink: "#f4a3c8", green: "#86cf74", yellow: "#f5d547", purple: "#b08de3", turquoise: "#45c6c0" };
const EDGE = { pink: "#a8336a", green: "#2f7a22", yellow: "#9a7b06", purple: "#5d3aa3", turquoise: "#11706b" };
// A second cue besides colour: every caravan colour has its own piece shape.
const SHAPE = { pink: "circle", green: "square", yellow: "diamond", purple: "pentagon", turquoise: "hexagon" };

// Every word goes through t() when it is drawn (the game's catalog, app/rulesets/through_the_desert/
// locales/fr.po, is loaded by the table before it draws); a colour's words are whole phrases, as
// the log's pieces are ("a pink camel", "the pink leader"), so a language can agree them.

/** The phase in words. @param {string} phase */
function phaseName(phase) {
  return {
    palms: t("Placing palm trees"),
    return_leaders: t("Returning leaders"),
    leaders: t("Placing leaders"),
    camels: t("Placing camels"),
    over: t("Game over"),
  }[phase] || "";
}

/** A colour's name, capitalised ("Pink"). @param {string} colour */
function colourName(colour) {
  return { pink: t("Pink"), green: t("Green"), yellow: t("Yellow"), purple: t("Purple"), turquoise: t("Turquoise") }[colour] || colour;
}

/** "a pink camel", as the log says it. @param {string} colour */
function aCamel(colour) {
  return { pink: t("a pink camel"), green: t("a green camel"), yellow: t("a yellow camel"), purple: t("a purple camel"), turquoise: t("a turquoise camel") }[colour] || colour;
}

/** "the pink leader", as the log says it. @param {string} colour */
function theLeader(colour) {
  return { pink: t("the pink leader"), green: t("the green leader"), yellow: t("the yellow leader"), purple: t("the purple leader"), turquoise: t("the turquoise leader") }[colour] || colour;
}

/** "pink caravan", as the log says it. @param {string} colour */
function caravanName(colour) {
  return { pink: t("pink caravan"), green: t("green caravan"), yellow: t("yellow caravan"), purple: t("purple caravan"), turquoise: t("turquoise caravan") }[colour] || colour;
}

/** The sentence of a placement: "Place a pink camel on F7", "Place the pink leader on F7", "Plant a palm tree on F7". */
function placementText(move) {
  const hex = where(move.hex);
  if (move.type === "camel") return t("Place {camel} on {hex}", { camel: aCamel(move.colour), hex });
  if (move.type === "leader") return t("Place {leader} on {hex}", { leader: theLeader(move.colour), hex });
  return t("Plant a palm tree on {hex}", { hex });
}

/** "{n} pts" in the reader's words. @param {number} points */
function pointsText(points) {
  return tn("{n} pt", "{n} pts", points);
}

/** Per-board UI state that must survive a redraw: the colour the player has picked. */
const uiState = new WeakMap();

const key = ([q, r]) => `${q},${r}`;
const areaKey = (area) => (area.hexes || []).map(key).sort().join(" ");

/** The centre of hex [q, r] in the SVG's units: [x, y]. @returns {[number, number]} */
function centre([q, r]) {
  return [SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r];
}

function hexPoints([x, y], size = SIZE) {
  const points = [];
  for (let corner = 0; corner < 6; corner += 1) {
    const angle = (Math.PI / 180) * (60 * corner - 30);
    points.push(`${(x + size * Math.cos(angle)).toFixed(2)},${(y + size * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

function polygonPoints([x, y], radius, sides, rotation) {
  const points = [];
  for (let corner = 0; corner < sides; corner += 1) {
    const angle = rotation + (2 * Math.PI * corner) / sides;
    points.push(`${(x + radius * Math.cos(angle)).toFixed(2)},${(y + radius * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

/** A piece outline of a caravan colour's shape, centred on `at`. */
function pieceShape(colour, at, radius, attributes) {
  const [x, y] = at;
  switch (SHAPE[colour]) {
    case "square":
      return s("rect", { x: x - radius * 0.86, y: y - radius * 0.86, width: radius * 1.72, height: radius * 1.72, rx: radius * 0.25, ...attributes });
    case "diamond":
      return s("polygon", { points: polygonPoints(at, radius * 1.18, 4, -Math.PI / 2), ...attributes });
    case "pentagon":
      return s("polygon", { points: polygonPoints([x, y + radius * 0.08], radius * 1.08, 5, -Math.PI / 2), ...attributes });
    case "hexagon":
      return s("polygon", { points: polygonPoints(at, radius * 1.04, 6, 0), ...attributes });
    default:
      return s("circle", { cx: x, cy: y, r: radius, ...attributes });
  }
}

function swatch(colour, size = 16) {
  const half = size / 2;
  return s(
    "svg",
    { class: "swatch", width: size, height: size, viewBox: `0 0 ${size} ${size}`, "aria-hidden": "true", focusable: "false" },
    pieceShape(colour, [half, half], half * 0.72, { fill: FILL[colour] || "#ccc", stroke: EDGE[colour] || "#555", "stroke-width": 1.2 }),
  );
}

function seatLabel(seat) {
  return String(seat + 1);
}

function playerName(frame, seat) {
  const player = (frame.players || []).find((candidate) => candidate.seat === seat);
  return player ? playerLabel(frame, player) : t("Seat {n}", { n: seat + 1 });
}

// -- the board --------------------------------------------------------------------------------

function drawBoard(frame, view, highlighted, sendMove) {
  const board = view.board || { spaces: [], mountains: [] };
  const all = [...(board.spaces || []), ...(board.mountains || [])];
  const xs = all.map((hex) => centre(hex)[0]);
  const ys = all.map((hex) => centre(hex)[1]);
  // room for the row letters on the left and the column numbers on top (the log names hexes by them)
  const minX = Math.min(...xs) - SIZE * 2.3;
  const minY = Math.min(...ys) - SIZE * 2.4;
  const width = Math.max(...xs) - Math.min(...xs) + SIZE * 3.4;
  const height = Math.max(...ys) - Math.min(...ys) + SIZE * 3.6;

  const oases = new Set((view.oases || []).map(key));
  const camels = view.camels || [];

  const svg = s("svg", {
    class: "ttd-board game-board",
    viewBox: `${minX.toFixed(1)} ${minY.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`,
    role: "group",
    "aria-label": tn("Through the Desert board: {n} camel placed", "Through the Desert board: {n} camels placed", camels.length),
    "data-camel-count": String(camels.length),
  });
  svg.append(
    s(
      "defs",
      {},
      s(
        "pattern",
        { id: "ttd-hatch", width: 3, height: 3, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("line", { x1: 0, y1: 0, x2: 0, y2: 3, stroke: "#3b2f22", "stroke-width": 0.7, "stroke-opacity": 0.35 }),
      ),
    ),
  );

  const tiles = s("g", { class: "tiles" });
  for (const hex of board.spaces || []) {
    tiles.append(s("polygon", { class: oases.has(key(hex)) ? "space oasis-space" : "space", points: hexPoints(centre(hex)), "data-space": key(hex) }));
  }
  for (const hex of board.mountains || []) {
    const [x, y] = centre(hex);
    tiles.append(
      s(
        "g",
        { class: "mountain", "data-mountain": key(hex) },
        s("title", {}, t("Mountain")),
        s("polygon", { points: hexPoints([x, y]) }),
        s("path", { class: "mountain-peak", d: `M${x - 6},${y + 3.5} L${x - 1.5},${y - 4.5} L${x + 1.2},${y - 0.5} L${x + 3},${y - 3} L${x + 6.5},${y + 3.5} Z` }),
      ),
    );
  }
  svg.append(tiles, hexEdgeLabels(all));

  const areas = s("g", { class: "areas" });
  for (const area of view.areas || []) {
    const owner = playerName(frame, area.seat);
    const text = tn("Area of {owner} (seat {seat}, {caravan}): {n} point", "Area of {owner} (seat {seat}, {caravan}): {n} points", area.points,
      { owner, seat: seatLabel(area.seat), caravan: caravanName(area.colour) });
    const group = s(
      "g",
      { class: "area", "data-area-seat": String(area.seat), "data-caravan": area.colour, "data-area": areaKey(area), role: "img", "aria-label": text },
      s("title", {}, text),
    );
    for (const hex of area.hexes || []) {
      const at = centre(hex);
      group.append(
        s("polygon", { class: "area-fill", points: hexPoints(at), fill: FILL[area.colour] || "#ccc" }),
        s("polygon", { class: "area-hatch", points: hexPoints(at), fill: "url(#ttd-hatch)" }),
        s("text", { class: "area-label", x: at[0], y: at[1] }, seatLabel(area.seat)),
      );
    }
    areas.append(group);
  }
  svg.append(areas);

  const features = s("g", { class: "features" });
  const taken = new Set([...(view.oases || []), ...(view.wells || []).map((well) => well.hex), ...camels.map((camel) => camel.hex)].map(key));
  for (const hex of board.palm_spaces || []) {
    if (taken.has(key(hex))) continue;
    // A palm space still waiting for its tree (option palm_placement = "choose").
    const [x, y] = centre(hex);
    features.append(s("g", { class: "palm-space", "data-palm-space": key(hex) }, s("title", {}, t("Palm space")), s("circle", { cx: x, cy: y, r: 5.5 })));
  }
  for (const hex of view.oases || []) features.append(palm(hex));
  for (const well of view.wells || []) {
    const [x, y] = centre(well.hex);
    features.append(
      s(
        "g",
        { class: "well", "data-well": key(well.hex), role: "img", "aria-label": t("Well worth {value} on {hex}", { value: well.value, hex: where(well.hex) }) },
        s("title", {}, t("Well worth {value}", { value: well.value })),
        s("circle", { cx: x, cy: y, r: 4.4 }),
        s("text", { x, y }, String(well.value)),
      ),
    );
  }
  svg.append(features);

  const pieces = s("g", { class: "camels" });
  for (const camel of camels) pieces.append(camelPiece(frame, camel));
  svg.append(pieces);

  const last = s("g", { class: "last-placed" });
  for (const hex of view.last_placed || []) {
    last.append(s("polygon", { class: "last-placed-ring", points: hexPoints(centre(hex), SIZE * 0.92), "data-last": key(hex) }));
  }
  svg.append(last);

  const clickable = s("g", { class: "legal-hexes" });
  for (const move of highlighted) {
    const label = placementText(move);
    const target = s("polygon", {
      class: "legal",
      points: hexPoints(centre(move.hex), TARGET_SIZE),
      "data-hex": key(move.hex),
      "data-focus-key": `hex:${key(move.hex)}`,
      role: "button",
      tabindex: "0",
      "aria-label": label,
    });
    target.append(s("title", {}, label));
    activate(target, () => sendMove(move));
    clickable.append(target);
  }
  svg.append(clickable);
  return svg;
}

/** Row letters left of each row and column numbers above the board: the names the log uses (hexLabel). */
function hexEdgeLabels(hexes) {
  const rows = new Map();
  const columns = new Set();
  for (const [q, r] of hexes) {
    rows.set(r, Math.min(rows.get(r) ?? Infinity, centre([q, r])[0]));
    columns.add(q + Math.floor(r / 2));
  }
  const top = Math.min(...rows.keys());
  const labels = [...rows].map(([r, x]) => [where([0, r]).replace(/\d+$/, ""), x - SIZE * 1.5, centre([0, r])[1]]);
  for (const column of columns) labels.push([String(column + 1), SIZE * SQRT3 * column, centre([0, top])[1] - SIZE * 1.6]);
  return edgeLabels(labels);
}

function palm(hex) {
  const [x, y] = centre(hex);
  const top = [x + 0.6, y - 2.6];
  const leaves = [-160, -115, -65, -20].map((angle) =>
    s("ellipse", {
      cx: top[0] + 2.6 * Math.cos((angle * Math.PI) / 180),
      cy: top[1] + 2.6 * Math.sin((angle * Math.PI) / 180) + 0.8,
      rx: 3,
      ry: 1.05,
      transform: `rotate(${angle} ${top[0] + 2.6 * Math.cos((angle * Math.PI) / 180)} ${top[1] + 2.6 * Math.sin((angle * Math.PI) / 180) + 0.8})`,
    }),
  );
  return s(
    "g",
    { class: "oasis", "data-oasis": key(hex), role: "img", "aria-label": t("Oasis (palm tree) on {hex}", { hex: where(hex) }) },
    s("title", {}, t("Oasis")),
    s("ellipse", { class: "oasis-pool", cx: x, cy: y + 4.2, rx: 5, ry: 1.6 }),
    s("path", { class: "palm-trunk", d: `M${x - 0.8},${y + 4.2} Q${x - 1.2},${y + 0.5} ${top[0]},${top[1]}` }),
    s("g", { class: "palm-leaves" }, leaves),
  );
}

function camelPiece(frame, camel) {
  const at = centre(camel.hex);
  const owner = playerName(frame, camel.seat);
  const what = camel.leader
    ? t("{colour} leader of {owner} (seat {seat})", { colour: colourName(camel.colour), owner, seat: seatLabel(camel.seat) })
    : t("{colour} camel of {owner} (seat {seat})", { colour: colourName(camel.colour), owner, seat: seatLabel(camel.seat) });
  const group = s("g", {
    class: camel.leader ? "camel leader" : "camel",
    "data-camel": key(camel.hex),
    "data-seat": String(camel.seat),
    "data-caravan": camel.colour,
    role: "img",
    "aria-label": t("{piece} on {hex}", { piece: what, hex: where(camel.hex) }),
  });
  group.append(s("title", {}, what));
  if (camel.leader) {
    group.append(pieceShape(camel.colour, at, 7.6, { class: "leader-ring" }));
    group.append(pieceShape(camel.colour, at, 5.7, { fill: FILL[camel.colour] || "#ccc", class: "piece" }));
  } else {
    group.append(pieceShape(camel.colour, at, 5.2, { fill: FILL[camel.colour] || "#ccc", stroke: EDGE[camel.colour] || "#555", class: "piece" }));
  }
  group.append(s("path", { d: camelPath(at[0], at[1] - 1.5, camel.leader ? 7 : 6.2), class: "camel-figure" }));
  group.append(s("text", { x: at[0], y: at[1] + 2.3, class: "camel-seat" }, seatLabel(camel.seat)));
  return group;
}

// -- the move controls ------------------------------------------------------------------------

/** Why `colour` cannot be chosen for a `piece` ("leader" or "camel") now; `pile`: its camels left. */
function whyNotColour(piece, colour, pile) {
  const name = colourName(colour).toLowerCase();
  if (piece !== "camel") return t("You have no {colour} leader left to place.", { colour: name });
  return pile === 0 ? t("No {colour} camels are left in the pile.", { colour: name }) : t("No space where a {colour} camel may go.", { colour: name });
}

function drawControls(frame, view, placements, choices, selected, disabled, choose, sendMove) {
  const colours = view.colours || Object.keys(FILL);
  const coloured = placements.filter((move) => move.colour);
  const legalColours = new Set(coloured.map((move) => move.colour));
  const phase = view.phase;
  const myTurn = placements.length > 0 || choices.length > 0;
  const finalTurn = view.final_turn && phase === "camels" ? `${t("Final turn!")} ` : "";

  let prompt;
  if (!myTurn) {
    prompt = view.current === null || view.current === undefined || phase === "over"
      ? phaseName(phase)
      : finalTurn + t("{phase} — waiting for {player}.", { phase: phaseName(phase), player: playerName(frame, view.current) });
  } else if (choices.length) {
    prompt = t("Choose the leader you return to the box.");
  } else if (!coloured.length) {
    prompt = placements[0].type === "palm"
      ? t("Choose where a palm tree goes: click a highlighted space.")
      : t("Choose a highlighted space.");
  } else {
    const piece = coloured[0].type;
    const left = piece === "camel" && view.camels_left ? ` ${t("({n} to place this turn)", { n: view.camels_left })}` : "";
    if (piece === "camel") {
      prompt = selected
        ? finalTurn + t("Place your {caravan} camel{left}: click a highlighted space.", { caravan: colourName(selected).toLowerCase(), left })
        : finalTurn + t("Place a camel{left}: choose a colour, then a highlighted space.", { left });
    } else {
      prompt = selected
        ? finalTurn + t("Place your {colour} leader: click a highlighted space.", { colour: colourName(selected).toLowerCase() })
        : finalTurn + t("Place a leader: choose a colour, then a highlighted space.");
    }
  }

  const controls = h("div", { class: "move-controls ttd-controls", role: "group", "aria-label": t("Your move") }, h("p", { class: "prompt", id: "ttd-prompt" }, prompt));
  if (coloured.length) {
    controls.append(
      h(
        "div",
        { class: "colour-buttons" },
        colours.map((colour) => {
          const pile = (view.piles || {})[colour];
          const button = h(
            "button",
            {
              type: "button",
              class: `colour-button${colour === selected ? " selected" : ""}`,
              "data-colour": colour,
              "data-focus-key": `colour:${colour}`,
              "aria-pressed": String(colour === selected),
              title: pile === undefined ? colourName(colour) : tn("{colour}: {n} camel left in the pile", "{colour}: {n} camels left in the pile", pile, { colour: colourName(colour) }),
              style: `--piece: ${FILL[colour]}; --piece-edge: ${EDGE[colour]}`,
            },
            swatch(colour),
            h("span", { class: "colour-name" }, colourName(colour)),
            pile === undefined ? null : h("span", { class: "pile-count" }, String(pile)),
          );
          button.disabled = disabled || !legalColours.has(colour);
          if (!disabled && !legalColours.has(colour)) button.title = whyNotColour(coloured[0].type, colour, pile); // a greyed colour says why
          button.addEventListener("click", () => choose(colour));
          return button;
        }),
      ),
    );
  }
  if (choices.length) {
    controls.append(
      h(
        "div",
        { class: "colour-buttons" },
        choices.map((move) => {
          const isReturn = move.type === "return_leader" && FILL[move.colour];
          const button = isReturn
            ? h(
                "button",
                { type: "button", class: "colour-button", "data-return": move.colour, "data-focus-key": `return:${move.colour}`, style: `--piece: ${FILL[move.colour]}; --piece-edge: ${EDGE[move.colour]}` },
                swatch(move.colour),
                h("span", { class: "colour-name" }, t("Return {leader}", { leader: theLeader(move.colour) })),
              )
            : h("button", { type: "button", "data-move": move.type, "data-focus-key": `move:${JSON.stringify(move)}` }, Object.values(move).join(" "));
          button.disabled = disabled;
          button.addEventListener("click", () => sendMove(move));
          return button;
        }),
      ),
    );
  }
  return controls;
}

// -- the side panel ---------------------------------------------------------------------------

function drawPanel(frame, view) {
  const colours = view.colours || Object.keys(FILL);
  const piles = h(
    "section",
    { class: "ttd-piles", "aria-labelledby": "ttd-piles-title" },
    h("h3", { id: "ttd-piles-title" }, t("Camel piles")),
    h(
      "ul",
      { class: "pile-list" },
      colours.map((colour) =>
        h("li", { "data-pile": colour }, swatch(colour), h("span", { class: "colour-name" }, colourName(colour)), h("strong", {}, String((view.piles || {})[colour] ?? "–"))),
      ),
    ),
  );

  const players = (view.players || []).map((player) => {
    const hidden = player.well_points === null || player.well_points === undefined;
    const wells = hidden
      ? t("{n} (hidden)", { n: player.wells_taken })
      : t("{n} ({points})", { n: player.wells_taken, points: pointsText(player.well_points) });
    const wellValues = Array.isArray(player.well_values) && player.well_values.length ? t("Values: {values}", { values: player.well_values.join(", ") }) : null;
    const caravans = colours
      .filter((colour) => (player.caravans || {})[colour] > 0) // 0: that leader is not on the board
      .map((colour) =>
        h(
          "span",
          {
            class: "caravan-chip",
            "data-caravan-size": colour,
            title: tn("{caravan}: {n} camel", "{caravan}: {n} camels", player.caravans[colour], { caravan: caravanName(colour) }),
            role: "img",
            "aria-label": tn("{caravan}: {n} camel", "{caravan}: {n} camels", player.caravans[colour], { caravan: caravanName(colour) }),
            style: `--piece: ${FILL[colour]}; --piece-edge: ${EDGE[colour]}`,
          },
          swatch(colour, 12),
          String(player.caravans[colour]),
        ),
      );
    const inHand = player.leaders_in_hand || [];
    return h(
      "li",
      { class: `ttd-player${view.current === player.seat ? " current" : ""}`, "data-player-seat": String(player.seat) },
      h(
        "div",
        { class: "ttd-player-head" },
        h("span", { class: "seat-number" }, seatLabel(player.seat)),
        h("strong", {}, playerName(frame, player.seat)),
        player.seat === frame.seat ? h("span", { class: "muted" }, ` ${t("(you)")}`) : null,
        view.current === player.seat && view.phase !== "over" ? h("span", { class: "badge badge-turn" }, t("to play")) : null,
      ),
      h(
        "dl",
        { class: "ttd-stats" },
        inHand.length ? [h("dt", {}, t("Leaders in hand")), h("dd", { class: "leaders-in-hand" }, inHand.map((colour) => swatch(colour, 14)))] : null,
        player.returned_leader ? [h("dt", {}, t("Returned")), h("dd", { "data-stat": "returned" }, swatch(player.returned_leader, 14), ` ${colourName(player.returned_leader)}`)] : null,
        h("dt", {}, t("Wells")),
        h("dd", { "data-stat": "wells", title: wellValues }, wells),
        h("dt", {}, t("Oases")),
        h("dd", { "data-stat": "oases" }, pointsText(player.oasis_points)),
        h("dt", {}, t("Areas")),
        h("dd", { "data-stat": "areas" }, pointsText(player.area_points)),
        caravans.length ? [h("dt", {}, t("Caravans")), h("dd", { class: "caravans" }, caravans)] : null,
        // points so far (wells, oases, areas; caravans score only at the end), when this viewer may know them
        typeof player.points === "number" && view.phase !== "over"
          ? [h("dt", {}, t("So far")), h("dd", { "data-stat": "points" }, pointsText(player.points))]
          : null,
      ),
    );
  });

  return h(
    "div",
    { class: "ttd-panel" },
    h(
      "p",
      { class: "ttd-phase", "data-phase": view.phase || "" },
      phaseName(view.phase),
      view.final_turn && view.phase === "camels" ? h("span", { class: "badge badge-turn" }, t("final turn")) : null,
    ),
    piles,
    h("section", { class: "ttd-players", "aria-label": t("Player holdings") }, h("ul", { class: "ttd-player-list" }, players)),
  );
}

// -- the last move ----------------------------------------------------------------------------

/**
 * What the last move touched, as selectors into the drawn board: the view before it against the
 * view after it. New camels and leaders, a new palm tree, newly enclosed areas, the piles that
 * shrank and each player's changed holdings (a well taken, an oasis scored, a leader returned).
 */
function lastMoveSelectors(previous, view) {
  if (!previous) return [];
  const selectors = [];
  const camelKey = (camel) => `${key(camel.hex)}/${camel.seat}/${camel.colour}/${camel.leader}`;
  const camelsBefore = new Set((previous.camels || []).map(camelKey));
  for (const camel of view.camels || []) if (!camelsBefore.has(camelKey(camel))) selectors.push(`.camels [data-camel="${key(camel.hex)}"]`);
  const oasesBefore = new Set((previous.oases || []).map(key));
  for (const hex of view.oases || []) if (!oasesBefore.has(key(hex))) selectors.push(`.features [data-oasis="${key(hex)}"]`);
  const areasBefore = new Set((previous.areas || []).map(areaKey));
  for (const area of view.areas || []) if (!areasBefore.has(areaKey(area))) selectors.push(`.areas [data-area="${areaKey(area)}"]`);
  for (const [colour, count] of Object.entries(view.piles || {})) {
    if ((previous.piles || {})[colour] !== count) selectors.push(`[data-pile="${colour}"]`);
  }
  const stats = { wells: "wells_taken", oases: "oasis_points", areas: "area_points", returned: "returned_leader" };
  for (const player of view.players || []) {
    const before = (previous.players || []).find((candidate) => candidate.seat === player.seat);
    if (!before) continue;
    for (const [stat, field] of Object.entries(stats)) {
      if (before[field] !== player[field]) selectors.push(`[data-player-seat="${player.seat}"] [data-stat="${stat}"]`);
    }
  }
  return selectors;
}

// -- the contract -----------------------------------------------------------------------------

/**
 * The renderer contract: README.md in this folder. Spectators (frame.seat null) get no controls.
 * @type {import("./contract.js").Render}
 */
export function render(container, frame, { sendMove, disabled = false, readOnly = false, previous = null }) {
  const view = frame.view || {};
  const seated = !readOnly && frame.seat !== null && frame.seat !== undefined;
  const legal = seated && frame.status !== "finished" ? frame.legal || [] : [];
  // Anything with a hex is a placement (leader, camel, palm tree); the rest (return_leader) are buttons.
  const placements = legal.filter((move) => Array.isArray(move.hex));
  const choices = legal.filter((move) => !Array.isArray(move.hex));

  const state = uiState.get(container) || { colour: null };
  const legalColours = [...new Set(placements.filter((move) => move.colour).map((move) => move.colour))];
  if (!disabled) {
    if (!legalColours.includes(state.colour)) state.colour = legalColours.length === 1 ? legalColours[0] : null;
  }
  uiState.set(container, state);

  const redraw = () => render(container, frame, { sendMove, disabled, readOnly, previous });
  const choose = (colour) => {
    state.colour = colour;
    redraw(); // keepFocus puts a keyboard player back on the button they pressed
  };
  // Coloured placements wait for a colour; colourless ones (palm trees) are offered at once.
  const highlighted = disabled ? [] : placements.filter((move) => (move.colour ? move.colour === state.colour : true));

  const layout = h(
    "div",
    { class: "ttd", "data-phase": view.phase || "" },
    h(
      "div",
      { class: "ttd-board-column" },
      seated && frame.status !== "finished" ? drawControls(frame, view, placements, choices, state.colour, disabled, choose, sendMove) : null,
      zoomableFrame("through-the-desert", "ttd-board-frame", drawBoard(frame, view, highlighted, sendMove), readOnly, TARGET_SIZE * SQRT3),
      drawLegend(),
    ),
    drawPanel(frame, view),
  );
  markLastMove(container, layout, frame.version, lastMoveSelectors(previous, view));
  // once a colour is chosen, its first highlighted space is the natural next stop
  keepFocus(container, () => replaceChildren(container, layout), highlighted.length ? [`hex:${key(highlighted[0].hex)}`] : []);
}

// -- the preview of a move held for Confirm ---------------------------------------------------

/**
 * The renderer hook of "Confirm my moves" (move-preview.js): `move` (one of `frame.legal`) in one
 * sentence in the log's words ("Place the pink leader on H12"; the log says "Ana placed the pink
 * leader on H12") and `draw(root)`, which puts a ghost of the piece on its hex of the board drawn
 * in `root` (a returned leader: its button is marked).
 */
export function preview(frame, move) {
  if (Array.isArray(move.hex)) {
    const text = placementText(move);
    return {
      text,
      draw(root) {
        const svg = root.querySelector("svg.ttd-board");
        if (!svg) return;
        const layer = ghostLayer(svg, move);
        layer.dataset.hex = key(move.hex);
        const at = centre(move.hex);
        if (move.type === "palm") {
          layer.append(s("circle", { class: "ghost-ring", cx: at[0], cy: at[1], r: 6.5 }), palm(move.hex));
          return;
        }
        const leader = move.type === "leader";
        if (leader) layer.append(pieceShape(move.colour, at, 7.6, { class: "ghost-ring" }));
        layer.append(pieceShape(move.colour, at, leader ? 5.7 : 5.2, { fill: FILL[move.colour] || "#ccc", class: "ghost-shape" }));
        layer.append(s("path", { d: camelPath(at[0], at[1] - 1.5, leader ? 7 : 6.2), class: "camel-figure" }));
        if (frame.seat !== null && frame.seat !== undefined) layer.append(s("text", { x: at[0], y: at[1] + 2.3, class: "camel-seat" }, seatLabel(frame.seat)));
      },
    };
  }
  if (move.type === "return_leader") {
    return {
      text: t("Return {leader}", { leader: theLeader(move.colour) }),
      draw(root) {
        ghostMark(root.querySelector(`[data-return="${move.colour}"]`), move);
      },
    };
  }
  return null;
}

function drawLegend() {
  return h(
    "p",
    { class: "ttd-legend muted" },
    `${t("Number on a piece = player seat · big ringed piece = caravan leader")} · `,
    h("span", { class: "legend-well" }, "●"),
    ` ${t("well (value) · hatched = enclosed area · dashed purple ring = placed this turn · purple edge = the last move")}`,
  );
}
