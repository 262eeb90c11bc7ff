// Table options: draw a ruleset's options_schema (a pydantic JSON schema) as simple form fields.
// Enums become selects, booleans checkboxes, numbers number fields; anything else a text field.

import { h } from "./dom.js";
import { describeTimeControl, paceLabel } from "./clock.js";
import { t, tn } from "./i18n.js";
import { gameWord } from "./words.js";

function resolve(schema, root) {
  let current = schema || {};
  for (let depth = 0; depth < 8; depth += 1) {
    if (current.$ref) {
      const name = current.$ref.split("/").pop();
      const target = (root.$defs || root.definitions || {})[name] || {};
      const { $ref, ...rest } = current;
      current = { ...target, ...rest };
    } else if (Array.isArray(current.allOf) && current.allOf.length === 1) {
      const { allOf, ...rest } = current;
      current = { ...allOf[0], ...rest };
    } else if (Array.isArray(current.anyOf) || Array.isArray(current.oneOf)) {
      const choices = current.anyOf || current.oneOf;
      const nonNull = choices.filter((choice) => choice.type !== "null");
      const nullable = nonNull.length < choices.length;
      const { anyOf, oneOf, ...rest } = current;
      if (nonNull.length === 1) current = { ...nonNull[0], ...rest, nullable };
      else if (nonNull.every((choice) => "const" in choice)) {
        current = { ...rest, enum: nonNull.map((choice) => choice.const), nullable };
      } else return { ...rest, type: "string" };
    } else break;
  }
  if ("const" in current && !current.enum) current = { ...current, enum: [current.const] };
  return current;
}

/**
 * What was agreed at `table` besides the pace and the clock, in the lobby form's words: "rated ·
 * options: Trading, Hidden Coins" (the server lists the options that differ from the game's
 * defaults in `options_words`, in English: each is looked up in the catalogs; none: "standard options").
 */
export function agreedText(table) {
  const words = (table.options_words || []).map((word) => optionWord(table.ruleset, word));
  const options = words.length ? t("options: {options}", { options: words.join(", ") }) : t("standard options");
  return `${table.rated ? t("rated") : t("friendly")} · ${options}`;
}

/**
 * One of the server's `options_words` in the reader's words: an option's label ("Trading"), or
 * "label: choice", "label: 100", "label: off" (app/services/tables/terms.py, option_words), whose
 * label and choice are the game's msgids.
 */
function optionWord(game, word) {
  const whole = gameWord(game, word);
  const parts = /^(.+): ([^:]+)$/.exec(word);
  if (whole !== word || !parts) return whole;
  const [, label, value] = parts;
  const said = value === "off" ? t("off") : gameWord(game, value);
  return t("{option}: {value}", { option: gameWord(game, label), value: said });
}

/**
 * What a player agrees to by joining `table`, in one line: who sits there and how many seats are
 * free, the pace, the clock, rated or friendly, the options. "Ana and 1 free seat · live · 2 min
 * per move · rated · options: Trading" (as app/services/tables/terms.py says it, in the reader's language).
 */
export function termsText(table) {
  const names = [];
  for (const seat of table.seats || []) {
    if ((seat.account_id !== null || seat.bot) && seat.name) names.push(seat.name);
    else if (seat.held_for) names.push(t("{name} (asked)", { name: seat.held_for.name }));
  }
  const free = (table.seats || []).length - names.length;
  const seats = tn("{n} free seat", "{n} free seats", free);
  const people = !free ? names.join(", ") : names.length ? t("{names} and {seats}", { names: names.join(", "), seats }) : seats;
  const clock = describeTimeControl(table.time_control && table.time_control.move_seconds) || t("no time limit");
  return [people, paceLabel(table.pace) || paceLabel("live"), clock, agreedText(table)].join(" · ");
}

/** A field or choice name from its key ("hidden_coins": "Hidden coins"), still English: the msgid. */
function humanise(name) {
  const text = name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Build the fields for `schema`, labelled in the words of the game called `game` (its catalog:
 * words.js gameWord, after loadGameWords; titles, descriptions and choice labels are its msgids).
 * Returns {element, read}, where read() gives the options object to send, with values of the
 * schema's types (enum values keep their JSON type).
 */
export function optionsForm(schema, game = "") {
  const say = (text) => gameWord(game, text);
  const root = schema || {};
  const properties = root.properties || {};
  const readers = [];
  const fields = [];
  for (const [name, raw] of Object.entries(properties)) {
    const property = resolve(raw, root);
    const id = `option-${name}`;
    const label = say(property.title || humanise(name));
    const hint = property.description ? h("small", { class: "hint" }, say(property.description)) : null;
    if (Array.isArray(property.enum)) {
      const select = h("select", { id, name, "data-option": name });
      property.enum.forEach((value, index) => {
        // a choice's own words when the schema gives them ("choice_labels"), else its value humanised
        const own = (property.choice_labels || {})[value];
        const words = own !== undefined && own !== null ? say(own) : typeof value === "string" ? say(humanise(value)) : String(value);
        const option = h("option", { value: String(index) }, words);
        if (value === property.default) option.selected = true;
        select.append(option);
      });
      readers.push(() => [name, property.enum[Number(select.value)]]);
      fields.push(h("label", { class: "field", for: id }, h("span", {}, label), select, hint));
    } else if (property.type === "boolean") {
      const box = h("input", { type: "checkbox", id, name, "data-option": name });
      box.checked = Boolean(property.default);
      readers.push(() => [name, box.checked]);
      fields.push(h("label", { class: "field field-check", for: id }, box, h("span", {}, label), hint));
    } else if (property.type === "integer" || property.type === "number") {
      const input = h("input", {
        type: "number",
        id,
        name,
        "data-option": name,
        min: property.minimum ?? property.exclusiveMinimum,
        max: property.maximum ?? property.exclusiveMaximum,
        step: property.type === "integer" ? 1 : "any",
      });
      if (property.default !== undefined && property.default !== null) input.value = String(property.default);
      readers.push(() => (input.value === "" ? null : [name, Number(input.value)]));
      fields.push(h("label", { class: "field", for: id }, h("span", {}, label), input, hint));
    } else {
      const input = h("input", { type: "text", id, name, "data-option": name });
      if (typeof property.default === "string") input.value = property.default;
      readers.push(() => (input.value === "" ? null : [name, input.value]));
      fields.push(h("label", { class: "field", for: id }, h("span", {}, label), input, hint));
    }
  }
  const element = h("div", { class: "options-fields" }, fields);
  return {
    element,
    empty: fields.length === 0,
    read() {
      return Object.fromEntries(readers.map((reader) => reader()).filter(Boolean));
    },
  };
}
