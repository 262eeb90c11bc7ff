// The language chooser in the page header (docs/i18n.md, "Choosing the language"): "Auto" (the
// browser's Accept-Language), English or Français, each language named in its own words so a
// person who cannot read the page's language still finds theirs. The choice is kept in the
// caravanserai_lang cookie for this browser and, for a signed-in person (a guest too), as the
// account's setting, which every other browser of the account then follows and which sets the
// language of their e-mails and notices. The page is then loaded again in that language.
//
// Loaded by each HTML shell as a module of its own; it adds itself to <header class="topbar">.

import { api } from "./api.js";
import { LANGUAGE_COOKIE, SUPPORTED_LANGUAGES, currentLanguage, supportedLanguage } from "./i18n.js";

/** Each language in its own words (never translated). */
export const LANGUAGE_NAMES = { en: "English", fr: "Français" };
const AUTO = "auto";
const YEAR_SECONDS = 60 * 60 * 24 * 365;

/** The language this browser chose, or null (it follows Accept-Language). */
function chosenLanguage() {
  const pair = document.cookie.split(";").map((part) => part.trim()).find((part) => part.startsWith(`${LANGUAGE_COOKIE}=`));
  return pair ? supportedLanguage(decodeURIComponent(pair.slice(LANGUAGE_COOKIE.length + 1))) : null;
}

/** Keep `language` in this browser's cookie, or forget it (null). @param {string | null} language */
function keepInBrowser(language) {
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = language
    ? `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax${secure}`
    : `${LANGUAGE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
}

/**
 * Choose `language` (null: the browser's own): this browser, the account when signed in, then
 * load the page again in it.
 * @param {string | null} language
 */
export async function chooseLanguage(language) {
  keepInBrowser(language);
  try {
    await api("POST", "/api/account/settings", { language });
  } catch {
    // nobody signed in (401), or the account is unreachable: this browser's choice stands
  }
  location.reload();
}

/**
 * The chooser: a <select> of Auto and each language.
 * @param {string} [id] its element id (the header's is "language-chooser")
 * @returns {HTMLSelectElement}
 */
export function languageChooser(id = "language-chooser") {
  const select = document.createElement("select");
  select.id = id;
  select.className = "language-chooser";
  select.setAttribute("aria-label", "Language · Langue");
  select.title = "Language · Langue";
  const chosen = chosenLanguage();
  for (const value of [AUTO, ...SUPPORTED_LANGUAGES]) {
    const option = document.createElement("option");
    option.value = value;
    option.lang = value === AUTO ? currentLanguage() : value;
    option.textContent = value === AUTO ? "Auto" : LANGUAGE_NAMES[value] || value;
    option.selected = value === (chosen || AUTO);
    select.append(option);
  }
  select.addEventListener("change", () => {
    select.disabled = true;
    chooseLanguage(select.value === AUTO ? null : select.value);
  });
  return select;
}

const header = document.querySelector("header.topbar");
if (header && !header.querySelector("#language-chooser")) header.append(languageChooser());
