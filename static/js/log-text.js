// One log entry in words (docs/api.md, "Log entries"): the client writes the sentence from the
// entry's template and typed arguments, in the reader's language (the template and the argument
// texts are msgids of the game's catalog, loaded by the table page; player names stay as they are,
// and place labels too unless the catalog names the place), and never shows an internal code. A rule reference becomes a small link to the game's rules page whose tooltip
// names the rule. An entry without a template (an old client's server, say) shows its `text`.

import { h } from "./dom.js";
import { elided, formatNumber, personName, t } from "./i18n.js";

const PLACEHOLDER = /\{(\w+)\}/g;

/** The words of `entry` as DOM nodes: text, one span per argument, then the rule link if any. */
export function logContent(entry, ruleset) {
  const nodes = [];
  if (typeof entry.template !== "string") {
    nodes.push(entry.text ? t(entry.text) : "");
  } else {
    const args = entry.args || {};
    const template = t(entry.template);
    let at = 0;
    for (const match of template.matchAll(PLACEHOLDER)) {
      const arg = args[match[1]];
      const node = arg ? argument(arg) : match[0];
      nodes.push(elided(template.slice(at, match.index), typeof node === "string" ? node : node.textContent || "")); // "d'Amélie"
      nodes.push(node);
      at = match.index + match[0].length;
    }
    nodes.push(template.slice(at));
  }
  if (entry.rule) nodes.push(ruleLink(entry.rule, ruleset));
  return nodes.filter((node) => node !== "");
}

function argument(arg) {
  const attributes = { class: `log-arg log-${arg.kind || "words"}` };
  if (arg.kind === "player") attributes["data-seat"] = String(arg.seat);
  if (arg.kind === "player" && arg.bot) attributes["data-bot"] = "true"; // a bot made this move for the person
  if (arg.kind === "place" && arg.at !== undefined && arg.at !== null) attributes["data-place"] = JSON.stringify(arg.at);
  return h("span", attributes, argumentText(arg));
}

/** An argument's words: a player's name as it is; a place's label as the game's catalog says it
 * where it has an entry (Heroes' region names: "Plaines du Nord"), else as it is (a board's
 * coordinates, "F7"); an amount's number in the reader's way with its unit translated; a card's,
 * piece's or words' text translated. The table says a result's `reason_args` with it too. */
export function argumentText(arg) {
  const text = String(arg.text ?? "");
  if (arg.kind === "player") return personName(text);
  if (arg.kind === "place") return text ? t(text) : text;
  if (arg.kind === "amount" && typeof arg.value === "number") {
    // a value written with its sign ("+2", a card as printed) keeps it
    const number = text.startsWith("+") ? `+${formatNumber(arg.value)}` : formatNumber(arg.value);
    return arg.unit ? `${number} ${t(String(arg.unit))}` : number;
  }
  return text ? t(text) : text;
}

/** A link to the rule on the game's numbered rules page (its anchors are the rule codes,
 * /rules/nomadi/reference#R-30b).
 * Its mark "§" is drawn by CSS (app.css, .log-rule::after), so the line's text stays the sentence. */
export function ruleLink(rule, ruleset) {
  const href = `/rules/${encodeURIComponent(ruleset || "")}/reference#${encodeURIComponent(rule)}`;
  return h("a", { class: "log-rule", href, target: "_blank", rel: "noopener", title: t("Rule {rule}: open it on the rules page", { rule }), "aria-label": t("Rule {rule} on the rules page", { rule }) });
}
