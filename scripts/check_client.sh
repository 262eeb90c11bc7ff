#!/usr/bin/env bash
# The browser client's checks: ESLint's recommended rules and TypeScript's check of the JSDoc-typed
# JavaScript (no build: the browser runs static/js as written). Tools come from the npm registry,
# pinned in tools/js/package-lock.json. Run from anywhere; CI (.ci/run) runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --prefix tools/js --no-audit --no-fund --loglevel=error >/dev/null
tools/js/node_modules/.bin/eslint -c tools/js/eslint.config.js --max-warnings 0 static/js static/sw.js
tools/js/node_modules/.bin/tsc -p tools/js/jsconfig.json
echo "client checks passed: eslint, tsc"
