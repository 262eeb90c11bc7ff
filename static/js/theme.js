// Light or dark colours: the page follows the system setting (prefers-color-scheme) until the
// player picks one with the topbar's toggle; the choice is kept in this browser's localStorage
// ("caravanserai-theme": "light" or "dark"; absent = follow the system). A classic script loaded
// in <head>, so the colours are right before the first paint; the button is added once the
// topbar exists. The stylesheet reads <html data-theme> (static/app.css, "colours").
// Its words: a classic script cannot import i18n.js, so the page's module puts them, translated,
// on <html data-theme-*> and says so with the "caravanserai:words" event (words.js, translatePage).

(function theme() {
  const KEY = "caravanserai-theme";
  const root = document.documentElement;
  const system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function stored() {
    try {
      const value = window.localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : null;
    } catch {
      return null; // storage blocked: follow the system
    }
  }

  function current() {
    return stored() || (system && system.matches ? "dark" : "light");
  }

  function apply() {
    const choice = stored();
    if (choice) root.dataset.theme = choice;
    else delete root.dataset.theme;
    const button = document.getElementById("theme-toggle");
    if (button) {
      const dark = current() === "dark";
      button.setAttribute("aria-pressed", String(dark));
      const words = root.dataset;
      button.title = dark ? words.themeDarkTitle || "Dark colours (click for light)" : words.themeLightTitle || "Light colours (click for dark)";
      button.setAttribute("aria-label", words.themeLabel || "Dark mode");
      button.textContent = dark ? "☾" : "☀";
    }
  }

  function addButton() {
    const bar = document.querySelector(".topbar");
    if (!bar || document.getElementById("theme-toggle")) return;
    const button = document.createElement("button");
    button.type = "button";
    button.id = "theme-toggle";
    button.className = "theme-toggle";
    button.addEventListener("click", () => {
      const next = current() === "dark" ? "light" : "dark";
      try {
        if ((system && system.matches ? "dark" : "light") === next) window.localStorage.removeItem(KEY);
        else window.localStorage.setItem(KEY, next);
      } catch {
        root.dataset.theme = next; // not kept, but the page still switches
      }
      apply();
      if (!stored()) root.dataset.theme = next;
    });
    const brand = bar.querySelector(".brand");
    if (brand) brand.after(button);
    else bar.prepend(button);
    apply();
  }

  apply();
  if (system && system.addEventListener) system.addEventListener("change", apply);
  document.addEventListener("caravanserai:words", apply);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", addButton);
  else addButton();
})();
