#!/usr/bin/env bash
# The package as a host installs it (issue 18), run by .ci/run: build the wheel and install it into
# a fresh venv outside the checkout with the very commands of docs/hosting.md's systemd recipe
# (tests/hosting/test_install_recipe.py keeps the two the same), start `caravanserai serve` in an
# empty folder on a fresh SQLite database, and use it with scripts/smoke_client.py: pages, static
# files, every ruleset's rules page and one whole game of each through the REST API.
set -euo pipefail
SOURCE=$(cd "$(dirname "$0")/.." && pwd)
HOME_DIR=$(mktemp -d "${TMPDIR:-/tmp}/caravanserai-host.XXXXXX")  # stands for /srv/caravanserai
unset PYTHONPATH  # nothing of the checkout may be importable: only the installed wheel runs
server=""

finish() {
  status=$?
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill -TERM "$server"
    wait "$server" || true
  fi
  if [ "$status" -ne 0 ] && [ -f "$HOME_DIR/serve.log" ]; then
    echo "--- caravanserai serve output ---" && tail -n 60 "$HOME_DIR/serve.log"
  fi
  rm -rf "$HOME_DIR"
  exit "$status"
}
trap finish EXIT

ln -s "$SOURCE" "$HOME_DIR/src"
cd "$HOME_DIR"
started=$SECONDS
# >>> install (the systemd recipe of docs/hosting.md, line for line)
rm -rf wheels
python3 -m venv --clear venv
venv/bin/pip wheel --quiet --no-deps --wheel-dir wheels ./src
venv/bin/pip install --quiet --constraint src/constraints.txt wheels/caravanserai-*.whl
# <<< install
echo "smoke: wheel built and installed in $((SECONDS - started)) s: $(venv/bin/caravanserai --version)"

mkdir site && cd site
port=$(../venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
CARAVANSERAI_BOT_DELAY_SECONDS=0 ../venv/bin/caravanserai serve --host 127.0.0.1 --port "$port" \
  >"$HOME_DIR/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 300); do  # migrations first, then uvicorn: up to 30 s
  ../venv/bin/python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/healthz', timeout=1)" \
    2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { echo "smoke: FAIL caravanserai serve exited"; exit 1; }
  sleep 0.1
done
../venv/bin/python "$SOURCE/scripts/smoke_client.py" "http://127.0.0.1:$port"
test -f caravanserai.db || { echo "smoke: FAIL no SQLite database in the working folder"; exit 1; }
if grep -n -E "Traceback|ERROR" "$HOME_DIR/serve.log"; then
  echo "smoke: FAIL the server logged errors"; exit 1
fi
echo "smoke: passed in $((SECONDS - started)) s"
