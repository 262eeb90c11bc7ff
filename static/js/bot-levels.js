// The bot levels in words: what the host picks from (waiting-room.js) and what seat chips say
// (lobby.js). The server's names are app/bots/players.py's LEVELS; "default" is the old name
// of medium, still found on tables seated before the levels had names.

/** @type {{ value: string, label: string, line: string }[]} */
export const BOT_LEVELS = [
  { value: "easy", label: "Easy bot", line: "Looks one move ahead on a quick glance and now and then plays carelessly: good for learning." },
  { value: "medium", label: "Medium bot", line: "Weighs every move one step ahead: a fair opponent." },
  { value: "strong", label: "Strong bot", line: "Searches several moves ahead over what it cannot see, about a second a move." },
  { value: "random", label: "Random bot", line: "Plays any legal move (for trying things out)." },
];

/** The level's word for a seat chip ("strong"), or "" for none; old and unknown names as they are. */
export function botLevelWord(level) {
  if (!level) return "";
  const known = BOT_LEVELS.find((entry) => entry.value === (level === "default" ? "medium" : level));
  return known ? known.value : String(level);
}

/** The one-line description of `level`, or "". */
export function botLevelLine(level) {
  const known = BOT_LEVELS.find((entry) => entry.value === (level === "default" ? "medium" : level));
  return known ? known.line : "";
}
