// The bot levels in words: what the host picks from (waiting-room.js) and what seat chips say
// (lobby.js). The server's names are app/bots/players.py's LEVELS; "default" is the old name
// of medium, still found on tables seated before the levels had names. The words are read when
// drawn (the catalog of the reader's language is loaded by then), never when this module loads.
// The server's "random" level (any legal move) is for tests and scripts through the API: it is not
// offered to people, but a seat that has one is still named ("random").

import { t } from "./i18n.js";

/** The levels a host picks from, weakest first.
 * @type {{ value: string, label: () => string, word: () => string, line: () => string }[]} */
export const BOT_LEVELS = [
  { value: "easy", label: () => t("Easy bot"), word: () => t("easy"),
    line: () => t("A beginner's opponent: it looks at only a few moves, misses good ones and sometimes blunders.") },
  { value: "medium", label: () => t("Medium bot"), word: () => t("medium"),
    line: () => t("Picks the move that looks best right now, without planning further: a fair challenge.") },
  { value: "strong", label: () => t("Strong bot"), word: () => t("strong"),
    line: () => t("Plans several moves ahead and allows for what it cannot know (hidden cards, dice to come): for experienced players.") },
];

/** Levels a seat may have but nobody picks here (seated through the API): named, not described. */
const NAMED_ONLY = [{ value: "random", word: () => t("random") }];

/** The level's name today ("default" was medium's). @param {string | null | undefined} level */
function current(level) {
  return level === "default" ? "medium" : level;
}

/** @param {string | null | undefined} level */
function find(level) {
  const value = current(level);
  return BOT_LEVELS.find((entry) => entry.value === value) || NAMED_ONLY.find((entry) => entry.value === value);
}

/** The level's word for a seat chip ("strong", in the reader's language), or "" for none; unknown names as they are. */
export function botLevelWord(level) {
  if (!level) return "";
  const known = find(level);
  return known ? known.word() : String(level);
}

/** The one-line description of `level`, or "". */
export function botLevelLine(level) {
  const value = current(level);
  const known = BOT_LEVELS.find((entry) => entry.value === value);
  return known ? known.line() : "";
}
