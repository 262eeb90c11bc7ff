// Languages in the browser (docs/i18n.md). The English text in the code is the msgid: t("Sign in")
// says it in the page's language, or in English when the catalog has no entry for it.
//
// The page's language is the one the server wrote into <html lang data-language> (the account's
// setting, else the chooser's cookie, else Accept-Language: app/api/pages.py); a page served
// without it falls back to the cookie, then to navigator.languages. The client catalog (GET /i18n/{lang}/client.json)
// is loaded before any module that imports this one runs (a top-level await), so t() is ready at
// once; a table loads its game's catalog with loadGameCatalog(name) before it draws. Look-up order:
// the game's catalog, the client catalog, the English msgid.
//
// Plurals: a catalog lists its plural forms in order with the CLDR category of each
// ("plural_categories", e.g. ["one", "other"]); Intl.PluralRules picks the category of a number,
// the same CLDR data Babel has on the server. (No code from the server is evaluated: the site's
// Content-Security-Policy allows no eval, see docs/i18n.md.)

export const SUPPORTED_LANGUAGES = ["en", "fr"];
export const LANGUAGE_COOKIE = "caravanserai_lang";
const DEFAULT_LANGUAGE = "en";

/**
 * @typedef {object} Catalog
 * @property {string} language
 * @property {string[]} plural_categories the CLDR category of each plural form, in form order
 * @property {Record<string, string | string[]>} messages msgid -> text; a plural entry's singular -> its forms
 */

/** @param {string} language @returns {Catalog} */
function emptyCatalog(language) {
  return { language, plural_categories: ["one", "other"], messages: {} };
}

/** A supported language for a tag such as "fr", "FR" or "fr-CA", or null. @param {string | null | undefined} tag */
export function supportedLanguage(tag) {
  if (!tag) return null;
  const base = String(tag).trim().replace("_", "-").split("-")[0].toLowerCase();
  return SUPPORTED_LANGUAGES.includes(base) ? base : null;
}

/** The chooser's cookie, or null. */
function cookieLanguage() {
  if (typeof document === "undefined") return null;
  const pair = document.cookie.split(";").map((part) => part.trim()).find((part) => part.startsWith(`${LANGUAGE_COOKIE}=`));
  return pair ? supportedLanguage(decodeURIComponent(pair.slice(LANGUAGE_COOKIE.length + 1))) : null;
}

function detectLanguage() {
  const fromPage = typeof document === "undefined" ? null : document.documentElement.getAttribute("data-language");
  if (supportedLanguage(fromPage)) return supportedLanguage(fromPage);
  const cookie = cookieLanguage();
  if (cookie) return cookie;
  const wished = typeof navigator === "undefined" ? [] : navigator.languages || [navigator.language];
  for (const tag of wished) {
    const found = supportedLanguage(tag);
    if (found) return found;
  }
  return DEFAULT_LANGUAGE;
}

const language = detectLanguage();

/** @param {string} url @returns {Promise<Catalog>} */
async function fetchCatalog(url) {
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) return emptyCatalog(language);
    const body = await response.json();
    if (!body || typeof body.messages !== "object") return emptyCatalog(language);
    return body;
  } catch {
    return emptyCatalog(language); // offline or a server without catalogs: English, never a broken page
  }
}

/** @type {Catalog} */
let clientCatalog = language === DEFAULT_LANGUAGE ? emptyCatalog(language) : await fetchCatalog(`/i18n/${language}/client.json`);
/** @type {Catalog} */
let gameCatalog = emptyCatalog(language);
/** @type {string | null} */
let gameName = null;

/** The page's language: "en" or "fr". */
export function currentLanguage() {
  return language;
}

/**
 * Load the catalog of the game called `name` (a ruleset's name, e.g. "through_the_desert") for the
 * table on this page; t() looks there first from then on. Resolves when loaded (never rejects).
 * @param {string} name
 * @returns {Promise<void>}
 */
export async function loadGameCatalog(name) {
  if (name === gameName) return;
  gameName = name;
  const loaded = language === DEFAULT_LANGUAGE
    ? emptyCatalog(language)
    : await fetchCatalog(`/i18n/${language}/games/${encodeURIComponent(name)}.json`);
  if (gameName === name) gameCatalog = loaded;
}

/** For tests and tools: replace the loaded catalogs. @param {Catalog | null} client @param {Catalog | null} [game] */
export function useCatalogs(client, game = null) {
  if (client) clientCatalog = client;
  if (game) gameCatalog = game;
}

/**
 * `text` with each {name} replaced by params[name]; an unknown placeholder stays as written.
 * @param {string} text
 * @param {Record<string, unknown> | undefined} params
 */
function fill(text, params) {
  if (!params || !text.includes("{")) return text;
  let out = "";
  let at = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    const known = Object.prototype.hasOwnProperty.call(params, match[1]);
    const value = known ? String(params[match[1]]) : match[0];
    out += (known ? elided(text.slice(at, match.index), value) : text.slice(at, match.index)) + value;
    at = (match.index || 0) + match[0].length;
  }
  return out + text.slice(at);
}

// French elision where a template meets the word filled in after it: a translator writes
// "En attente de {name}" once, and "de" + "Amélie" must read "d'Amélie" ("que" "qu'", "le"/"la"
// "l'"...). Only before a vowel: a name's "h" may be mute or aspirated, so it is left as written.
const ELIDING = /(^|[\s(«"])(de|que|le|la|ne|se|jusque|lorsque|puisque) $/i;
const VOWEL_FIRST = /^[aeiouyàâäéèêëîïôöùûüæœ]/i;

/**
 * `before` (the template's text just before a placeholder) as it reads before `value` in the
 * page's language: its last word elided in French where `value` starts with a vowel.
 * @param {string} before
 * @param {string} value
 * @returns {string}
 */
export function elided(before, value) {
  if (language !== "fr" || !VOWEL_FIRST.test(value)) return before;
  return before.replace(ELIDING, (_whole, lead, word) => `${lead}${word.slice(0, -1)}'`);
}

/** @param {string} msgid @returns {string | string[] | undefined} */
function lookUp(msgid) {
  const own = Object.prototype.hasOwnProperty;
  if (own.call(gameCatalog.messages, msgid)) return gameCatalog.messages[msgid];
  if (own.call(clientCatalog.messages, msgid)) return clientCatalog.messages[msgid];
  return undefined;
}

/**
 * `msgid` in the page's language, its {placeholders} filled: t("{name} joined", { name: "Ana" }).
 * @param {string} msgid the English text
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function t(msgid, params) {
  const found = lookUp(msgid);
  return fill(typeof found === "string" && found ? found : msgid, params);
}

const SEAT_LABEL = /^(.*) \(seat (\d+)(, bot)?\)$/;

/**
 * A person's name as the server sends it, with the label the platform adds to tell two people of
 * one name apart at a table ("Bob (seat 2)", and "Bob (seat 2, bot)" on a bot's move for him) in
 * the page's language: "Bob (place 2)". Any other name is left as it is.
 * @param {string} name
 * @returns {string}
 */
export function personName(name) {
  const match = SEAT_LABEL.exec(String(name ?? ""));
  if (!match) return name;
  const words = { name: match[1], n: match[2] };
  return match[3] ? t("{name} (seat {n}, bot)", words) : t("{name} (seat {n})", words);
}

/**
 * The name of a seat's player (an entry of a game frame's `players`: `{name, bot, takeover}`) as the
 * table page writes it in the game's words (turn line, prompts, the player's card): personName's
 * words, marked "(bot)" while a bot plays the seat, a person's for them (a takeover: "Bob (bot)",
 * "Bob (seat 2, bot)") or its own (named so already: "Ada (bot)"). Once the game is over the
 * person's name alone: the result says who played and who abandoned.
 * @param {{status?: string}} frame
 * @param {{name: string, bot?: boolean, takeover?: string | null}} player
 * @returns {string}
 */
export function playerLabel(frame, player) {
  const name = String(player.name ?? "");
  const botPlays = Boolean(player.bot || player.takeover) && frame.status !== "finished";
  if (!botPlays || /(?: \(|, )bot\)$/.test(name)) return personName(name);
  const match = SEAT_LABEL.exec(name);
  return match ? t("{name} (seat {n}, bot)", { name: match[1], n: match[2] }) : t("{name} (bot)", { name });
}

let pluralRules = /** @type {Intl.PluralRules | null} */ (null);

/** @param {number} n @param {string[]} categories */
function formIndex(n, categories) {
  if (!pluralRules) pluralRules = new Intl.PluralRules(language);
  const index = categories.indexOf(pluralRules.select(n));
  return index >= 0 ? index : categories.length - 1;
}

/**
 * The form for `n` of a plural message; {n} is filled with `n` as the language writes numbers
 * unless params names it: tn("{n} game", "{n} games", 3) -> "3 parties".
 * @param {string} singular English form for 1, also the catalog key
 * @param {string} plural English form for other counts
 * @param {number} n
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function tn(singular, plural, n, params) {
  const values = { n: formatNumber(n), ...(params || {}) };
  const found = lookUp(singular);
  if (Array.isArray(found) && found.length) {
    const categories = (own(gameCatalog, singular) ? gameCatalog : clientCatalog).plural_categories || ["one", "other"];
    const text = found[Math.min(formIndex(n, categories), found.length - 1)];
    if (text) return fill(text, values);
  }
  return fill(n === 1 ? singular : plural, values);
}

/** @param {Catalog} catalog @param {string} msgid */
function own(catalog, msgid) {
  return Object.prototype.hasOwnProperty.call(catalog.messages, msgid);
}

/** `n` as the page's language writes it: 1234.5 -> "1,234.5" / "1 234,5". @param {number} n @param {Intl.NumberFormatOptions} [options] */
export function formatNumber(n, options) {
  return new Intl.NumberFormat(language, options).format(n);
}

/**
 * A date (and time) as the page's language writes it; default: medium date, short time.
 * @param {Date | number | string} date
 * @param {Intl.DateTimeFormatOptions} [options]
 */
export function formatDate(date, options) {
  const value = date instanceof Date ? date : new Date(date);
  return new Intl.DateTimeFormat(language, options || { dateStyle: "medium", timeStyle: "short" }).format(value);
}
