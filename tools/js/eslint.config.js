// ESLint's recommended rules over the browser client. Modules are ES modules in the browser;
// theme.js and board-fit.js are classic scripts (loaded before the modules), sw.js the service worker.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    // `const { $ref, ...rest } = schema` is how the client drops a key from a copy; the names left
    // of the rest element exist only to leave those keys out of it.
    rules: { "no-unused-vars": ["error", { ignoreRestSiblings: true }] },
  },
  {
    files: ["**/static/js/theme.js", "**/static/js/board-fit.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    files: ["**/static/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
];
