// The grouped form of a state frame's `legal` (docs/api.md, "The grouped form of legal"): the
// socket asks for it in its hello (fewer bytes to receive and parse: the moves of one shape are
// written once, their varying fields as columns) and expands it here, once per frame, so the rest
// of the page reads the same list of moves as ever.

/** What this client asks for in every hello. */
export const LEGAL_FORM = "grouped";

/**
 * The moves of a grouped `legal` list, group by group: move i of a group is `{type, [key]: same[key]
 * or columns[key][i] for each key of keys}`, its keys in the order of `keys`, so a move's JSON text
 * (the pages compare and mark moves by it) is the same as in the default form.
 */
export function expandLegal(groups) {
  const moves = [];
  for (const group of groups || []) {
    for (let i = 0; i < group.count; i += 1) {
      const move = { type: group.type };
      for (const key of group.keys) move[key] = key in group.same ? group.same[key] : group.columns[key][i];
      moves.push(move);
    }
  }
  return moves;
}
