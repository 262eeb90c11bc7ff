// Small DOM helpers shared by the lobby, the table page and the renderers.

import { t } from "./i18n.js";
import { capitalised } from "./words.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function assign(element, attributes) {
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") element.setAttribute("class", value);
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "text") element.textContent = value;
    else if (value === true) element.setAttribute(key, "");
    else element.setAttribute(key, String(value));
  }
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: h("button", {class: "primary", onClick}, "Start"). */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  assign(element, attributes);
  append(element, children);
  return element;
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attributes, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  assign(element, attributes);
  append(element, children);
  return element;
}

/**
 * Make `children` the children of `element`, in order. A node already in its place stays attached:
 * a node taken out and put back between a press and its release loses the click (the "Confirm my
 * moves" checkbox, drawn again by a frame arriving mid-click, would not toggle).
 */
export function replaceChildren(element, ...children) {
  const wanted = children.flat(Infinity)
    .filter((child) => child !== undefined && child !== null && child !== false)
    .map((child) => (child instanceof Node ? child : document.createTextNode(String(child))));
  wanted.forEach((node, index) => {
    const here = element.childNodes[index];
    if (here !== node) element.insertBefore(node, here ?? null);
  });
  while (element.childNodes.length > wanted.length) element.lastChild?.remove();
  return element;
}

/**
 * Run `action` with `button` disabled and marked busy, so a request is never sent twice.
 * Returns what `action` returns; errors propagate to the caller.
 */
export async function whileBusy(button, action, busyLabel) {
  const label = button.textContent;
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  if (busyLabel) button.textContent = busyLabel;
  try {
    return await action();
  } finally {
    button.removeAttribute("aria-busy");
    if (busyLabel) button.textContent = label;
    button.disabled = false;
  }
}

/** Copy text to the clipboard, with a fallback for pages served over plain http. */
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // fall through to the old way
    }
  }
  const field = h("textarea", { readonly: true, style: "position:fixed;opacity:0" });
  field.value = text;
  document.body.append(field);
  field.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  field.remove();
  return copied;
}

/** Show a message in a status element; kind is "error", "info" or "ok". Empty text hides it.
 * The text is shown as a sentence, with a capital first letter: the server's refusals are written
 * to follow "...: " ("this game is not running") and many pages show them on their own. */
export function showMessage(element, text, kind = "error") {
  element.textContent = text ? capitalised(text) : "";
  element.className = `message message-${kind}`;
  element.hidden = !text;
}

/**
 * Ask a yes/no question in a modal dialog; resolves to true when the person confirms.
 * `choices` adds further buttons: [{label, value}] (the promise then resolves to that value).
 * Escape, the Cancel button and a click on the backdrop all answer false.
 */
export function confirmDialog({ title, text, confirmLabel = null, cancelLabel = null, danger = false, choices = [] }) {
  return new Promise((resolve) => {
    const ok = h("button", { type: "button", class: danger ? "danger" : "primary", "data-dialog": "ok" }, confirmLabel || t("OK"));
    const cancel = h("button", { type: "button", "data-dialog": "cancel" }, cancelLabel || t("Cancel"));
    const extra = choices.map((choice) => h("button", { type: "button", class: "link-button", "data-dialog": choice.id || "other" }, choice.label));
    const titleId = `dialog-title-${Math.random().toString(36).slice(2, 8)}`;
    const dialog = h(
      "dialog",
      { class: "confirm-dialog", "aria-labelledby": titleId },
      h(
        "div",
        { class: "dialog-body" },
        h("h2", { id: titleId }, title),
        text ? h("p", {}, text) : null,
        h("div", { class: "dialog-actions" }, extra, cancel, ok),
      ),
    );
    let answered = false;
    const answer = (value) => {
      if (answered) return;
      answered = true;
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(value);
    };
    ok.addEventListener("click", () => answer(true));
    cancel.addEventListener("click", () => answer(false));
    extra.forEach((button, index) => button.addEventListener("click", () => answer(choices[index].value)));
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      answer(false);
    });
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) answer(false); // a click on the backdrop
    });
    document.body.append(dialog);
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    (danger ? cancel : ok).focus();
  });
}

/** A small clock icon (inline SVG, so it never depends on an emoji font). */
/** An eye (16 x 16, the text's colour), before "2 watching": an emoji eye is a blank box on a
 * system without an emoji font. */
export function eyeIcon() {
  return s(
    "svg",
    { class: "icon icon-eye", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M1.2 8C3 4.8 5.3 3.3 8 3.3s5 1.5 6.8 4.7C13 11.2 10.7 12.7 8 12.7S3 11.2 1.2 8z", fill: "none", stroke: "currentColor", "stroke-width": 1.5, "stroke-linejoin": "round" }),
    s("circle", { cx: 8, cy: 8, r: 2.2, fill: "currentColor" }),
  );
}

export function clockIcon() {
  return s(
    "svg",
    { class: "icon icon-clock", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" },
    s("circle", { cx: 8, cy: 8, r: 6.5, fill: "none", stroke: "currentColor", "stroke-width": 1.6 }),
    s("path", { d: "M8 4.2V8l2.6 1.6", fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" }),
  );
}
