// The renderer contract as JSDoc types: no code, nothing runs (the page never loads this module).
// README.md beside it says the same in words. TypeScript (scripts/check_client.sh) checks every
// renderer's `render` against `Render` (each declares `@type {import("./contract.js").Render}`),
// every renderer module against `Renderer` (tools/js/renderers.check.js), and the callers,
// table.js and replay.js, against both.

/**
 * A move exactly as the server lists it in `legal` (docs/api.md): a plain object with a `type`
 * and the game's own fields. A renderer sends one back unchanged; it never builds one.
 * @typedef {{ type: string } & Record<string, any>} Move
 */

/**
 * One seat of the game as every viewer sees it (the state frame's `players`, docs/api.md).
 * @typedef {object} Player
 * @property {number} seat
 * @property {string} name
 * @property {boolean} [bot]
 * @property {string | null} [takeover]
 * @property {string | null} [deadline]
 * @property {string | null} [away_since]
 */

/**
 * The state frame a renderer draws: the server's `state` frame (docs/api.md) with `legal` always
 * the plain list of moves (connection.js expands the grouped form). A replay hands a frame built
 * from the replay answer: `seat` null, `legal` and `to_act` empty, no `undo`, `log` or `online`.
 * @typedef {object} StateFrame
 * @property {string} type "state"
 * @property {number} version the game's version: the number of moves played
 * @property {number | null} seat the viewer's seat; null for a spectator (and in a replay)
 * @property {string} status "running" or "finished"
 * @property {Record<string, any>} view what this viewer may see: the ruleset's `view(state, seat)`
 * @property {Move[]} legal the moves this viewer may send now (empty when not their turn)
 * @property {number[]} to_act the seats whose move is awaited
 * @property {boolean} [undo] this seat may take back its last move now
 * @property {object[]} [log] log entries after the previous frame (the table draws the log)
 * @property {Record<string, any> | null} result final scores and ranking, once the game is over
 * @property {Player[]} players
 * @property {number[]} [online] seats with the game open
 */

/**
 * What the table passes with every frame.
 * @typedef {object} RenderOptions
 * @property {(move: Move) => void} sendMove send one of `frame.legal`, exactly as given
 * @property {boolean} [disabled] draw the controls greyed out: a move is on its way, the
 *   connection is down, or a move waits for Confirm
 * @property {boolean} [readOnly] draw no controls at all (a replay)
 * @property {Record<string, any> | null} [previous] the view before the last move (null: unknown),
 *   to highlight what that move touched
 * @property {Move | null} [preview] the move held for "Confirm my moves" (null: none)
 */

/**
 * Draw `frame.view` into `container` (replacing what is there) and offer `frame.legal`.
 * @typedef {(container: HTMLElement, frame: StateFrame, options: RenderOptions) => void} Render
 */

/**
 * A move held for "Confirm my moves", shown before it is sent: `text` names it in one sentence,
 * `draw(root)` marks it on the board just drawn into `root`.
 * @typedef {object} MovePreview
 * @property {string} text
 * @property {(root: HTMLElement) => void} [draw]
 */

/**
 * A renderer module (static/js/renderers/<ruleset name>.js): `render` is required, the rest optional.
 * @typedef {object} Renderer
 * @property {Render} render
 * @property {boolean} [confirmsMoves] the renderer shows a move and asks "confirm" itself, so
 *   the move bar does not ask again
 * @property {(view: Record<string, any>, move: Move, seat: number | null) => string | null} [describeMove]
 *   a legal move in words, for the move bar's question
 * @property {(frame: StateFrame, move: Move) => MovePreview | null} [preview] the preview of a
 *   move held for "Confirm my moves" (null: the table's own words)
 * @property {(frame: StateFrame, seat: number) => AskedWords | null} [asked] what `seat`, one of
 *   `frame.to_act`, is asked to do when it is not simply "to play" (null: "Your turn", "to play")
 */

/**
 * What a seat to act is asked to do, in the words of the turn banner and the players' panel.
 * @typedef {object} AskedWords
 * @property {string} banner the banner of the asked seat's own page, like "Your turn to answer"
 * @property {string} badge the seat's badge in the players' panel, like "to answer"
 */

export {};
