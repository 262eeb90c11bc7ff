// Words of the platform's pages in the reader's language, beyond one message (i18n.js): a sentence
// with links or other elements in it, ordinals ("2nd", "2e"), lists ("Ana and Bo", "Ana et Bo"),
// and the static text of the HTML shells (elements marked data-i18n).
//
// A sentence with elements in it is one message with placeholders, so a translation may put the
// elements in another order: fill(t("{who} invites you to {game}", keep("who", "game")), {who, game}).

import { currentLanguage, elided, t } from "./i18n.js";

const PLACEHOLDER = /\{(\w+)\}/g;
/** name -> messages of that game's catalog: pages listing several games (the lobby, a profile). */
const gameMessages = new Map();

/** Params that give each of `names` its own placeholder back ({who: "{who}"}), so t() leaves it for fill(). */
export function keep(...names) {
  return Object.fromEntries(names.map((name) => [name, `{${name}}`]));
}

/**
 * The translated `text` as a list of strings and nodes: each {name} in it replaced by
 * `parts[name]` (a DOM node or a string; an unknown name stays as written). For h(..., fill(...)).
 * @param {string} text
 * @param {Record<string, any>} parts
 * @returns {any[]}
 */
export function fill(text, parts) {
  const out = [];
  let at = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const part = match[1] in parts ? parts[match[1]] : match[0];
    const words = typeof part === "string" ? part : part && part.textContent ? part.textContent : "";
    if (match.index > at) out.push(elided(text.slice(at, match.index), words)); // "d'Amélie"
    out.push(part);
    at = match.index + match[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out.filter((part) => part !== null && part !== undefined && part !== "");
}

/**
 * Load the catalogs of the games called `names` (ruleset names) for gameWord(): a page that lists
 * several games at once, where i18n.js holds one game's catalog (a table's). Never rejects: a game
 * whose catalog cannot be had is said in English.
 * @param {string[]} names
 */
export async function loadGameWords(names) {
  const language = currentLanguage();
  if (language === "en") return; // the msgids are English
  const wanted = [...new Set(names)].filter((name) => name && !gameMessages.has(name));
  await Promise.all(wanted.map(async (name) => {
    gameMessages.set(name, {});
    try {
      const answer = await fetch(`/i18n/${language}/games/${encodeURIComponent(name)}.json`, { credentials: "same-origin" });
      const body = answer.ok ? await answer.json() : null;
      if (body && body.messages && typeof body.messages === "object") gameMessages.set(name, body.messages);
    } catch {
      // offline, or a server without the catalog: English
    }
  }));
}

/**
 * `msgid` (a game's title, summary, option word) in the words of the game called `game` when
 * loadGameWords() loaded its catalog, else as t() says it; {placeholders} filled from `params`.
 * @param {string} game
 * @param {string} msgid
 * @param {Record<string, unknown>} [params]
 */
export function gameWord(game, msgid, params) {
  const own = (gameMessages.get(game) || {})[msgid];
  if (typeof own !== "string" || !own) return t(msgid, params);
  return own.replace(PLACEHOLDER, (whole, key) => (params && Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : whole));
}

/** "1st", "2nd", "3rd", "4th" (English), "1er", "2e" (French): the reader's language's ordinal. */
export function ordinal(n) {
  let kind = "other";
  try {
    kind = new Intl.PluralRules(currentLanguage(), { type: "ordinal" }).select(n);
  } catch {
    kind = "other"; // an unknown language tag: the "th" form
  }
  if (kind === "one") return t("{n}st", { n });
  if (kind === "two") return t("{n}nd", { n });
  if (kind === "few") return t("{n}rd", { n });
  return t("{n}th", { n });
}

/** "Ana", "Ana and Bo", "Ana, Bo and Cy" in the reader's language (`kind` "or": "Ana or Bo"). */
export function listOf(items, kind = "and") {
  const list = items.map(String);
  try {
    const format = new Intl.ListFormat(currentLanguage(), { style: "long", type: kind === "or" ? "disjunction" : "conjunction" });
    return format.format(list);
  } catch {
    return list.join(", ");
  }
}

/** Capital first letter (a server's reason used as a sentence): "this game…" -> "This game…",
 * "échec" -> "Échec"; text starting with anything but a letter is left as it is. The letter is
 * taken whole (a character outside the BMP is two UTF-16 units). */
export function capitalised(text) {
  const value = String(text);
  const first = value.codePointAt(0);
  if (first === undefined) return value;
  const letter = String.fromCodePoint(first);
  return letter.toUpperCase() + value.slice(letter.length);
}

/**
 * Translate the static text of an HTML shell: each element with `data-i18n` gets its own text
 * (ASCII white space collapsed: the English msgid) translated; `data-i18n-attrs="aria-label title"` names
 * attributes whose English values are msgids. Sets <html lang>. Run once, when the page's module starts.
 */
export function translatePage(root = document) {
  document.documentElement.lang = currentLanguage();
  // theme.js, a classic script, reads its words from here
  Object.assign(document.documentElement.dataset, {
    themeDarkTitle: t("Dark colours (click for light)"),
    themeLightTitle: t("Light colours (click for dark)"),
    themeLabel: t("Dark mode"),
  });
  for (const element of root.querySelectorAll("[data-i18n]")) {
    // ASCII white space only: a no-break space belongs to a French text (the server may have translated it already)
    const msgid = element.textContent.replace(/[ \t\n\r\f]+/g, " ").replace(/^ | $/g, "");
    const text = msgid ? t(msgid) : "";
    if (text && text !== msgid) element.textContent = text;
  }
  for (const element of root.querySelectorAll("[data-i18n-attrs]")) {
    for (const name of element.getAttribute("data-i18n-attrs").split(/\s+/).filter(Boolean)) {
      const value = element.getAttribute(name);
      if (value) element.setAttribute(name, t(value));
    }
  }
  document.dispatchEvent(new Event("caravanserai:words"));
}
