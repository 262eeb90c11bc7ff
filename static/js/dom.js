// Small DOM helpers shared by the lobby, the table page and the renderers.

import { t } from "./i18n.js";

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

/** Replace every child of `element` with `children`. */
export function replaceChildren(element, ...children) {
  element.replaceChildren();
  append(element, children);
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

/** Show a message in a status element; kind is "error", "info" or "ok". Empty text hides it. */
export function showMessage(element, text, kind = "error") {
  element.textContent = text || "";
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
export function clockIcon() {
  return s(
    "svg",
    { class: "icon icon-clock", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" },
    s("circle", { cx: 8, cy: 8, r: 6.5, fill: "none", stroke: "currentColor", "stroke-width": 1.6 }),
    s("path", { d: "M8 4.2V8l2.6 1.6", fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" }),
  );
}
