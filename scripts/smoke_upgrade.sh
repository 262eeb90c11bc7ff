#!/usr/bin/env bash
# An upgrade as a host without Docker makes it, run by .ci/run after scripts/smoke_wheel.sh: from the
# oldest release that has `caravanserai backup` (the first import, with the first systemd layout:
# the checkout in /srv/caravanserai/app, the service started there) to this checkout's last commit,
# with the steps of docs/hosting.md, "Upgrading without Docker" (the lines between the upgrade marks
# below are that section's, tests/hosting/test_upgrade_recipe.py keeps the two the same).
#
# On a fresh PostgreSQL database (a scratch one, dropped at the end): the old release plays a few
# moves of a game of every ruleset through its HTTP API, stops, and is backed up with its own
# `backup`; then the documented upgrade, today's wheel starts on the same database, migrates it (each
# migration logged), and every game is still there at the same version and takes a move; the old
# cookies still sign in; /healthz names this release and the newest migration.
#
# Needs the git history (CI clones main whole) and PostgreSQL at CARAVANSERAI_TEST_POSTGRES_URL's
# server (default postgresql://postgres@127.0.0.1:5432), with createdb/dropdb/pg_dump on PATH.
set -euo pipefail
SOURCE=$(cd "$(dirname "$0")/.." && pwd)
OLD_RELEASE=946e215fd1ed4b953ac8f49adf0d9541e0652a21  # 0.1.0 as first imported: migration 0005, has backup
SERVER_URL=${CARAVANSERAI_TEST_POSTGRES_URL:-postgresql://postgres@127.0.0.1:5432/postgres}
SERVER_URL=${SERVER_URL%/*}  # the server, without the database
DATABASE=caravanserai_upgrade_$$
HOME_DIR=$(mktemp -d "${TMPDIR:-/tmp}/caravanserai-upgrade.XXXXXX")  # stands for /srv/caravanserai
unset PYTHONPATH  # nothing of the checkout may be importable: only what is installed runs
server=""
created=""

stop_server() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill -TERM "$server"
    wait "$server" || true
  fi
  server=""
}

finish() {
  status=$?
  stop_server
  if [ "$status" -ne 0 ]; then
    for log in "$HOME_DIR"/serve-*.log; do
      [ -f "$log" ] && echo "--- $(basename "$log") ---" && tail -n 40 "$log"
    done
  fi
  [ -n "$created" ] && dropdb --if-exists "--maintenance-db=$SERVER_URL/postgres" "$DATABASE"
  rm -rf "$HOME_DIR"
  exit "$status"
}
trap finish EXIT

if ! git -C "$SOURCE" cat-file -e "$OLD_RELEASE^{commit}" 2>/dev/null; then
  echo "smoke-upgrade: FAIL the oldest release with backup ($OLD_RELEASE) is not in this clone's history:"
  echo "  clone the repository whole (not --depth), or run 'git fetch --unshallow' first"
  exit 1
fi

# start_server LOG: caravanserai serve of the venv, in the working folder, until /healthz answers; sets port.
start_server() {
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$HOME_DIR/venv/bin/caravanserai" serve --host 127.0.0.1 --port "$port" >"$HOME_DIR/$1" 2>&1 &
  server=$!
  for _ in $(seq 1 600); do  # migrations first, then uvicorn: up to 60 s
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/healthz', timeout=1)" \
      2>/dev/null && return 0
    kill -0 "$server" 2>/dev/null || { echo "smoke-upgrade: FAIL caravanserai serve exited ($1)"; exit 1; }
    sleep 0.1
  done
  echo "smoke-upgrade: FAIL caravanserai serve did not answer within 60 s ($1)"; exit 1
}

started=$SECONDS
createdb "--maintenance-db=$SERVER_URL/postgres" "$DATABASE"
created=1
# /etc/caravanserai.env of the recipe; cookies not Secure here, as this client speaks plain http.
set -a
CARAVANSERAI_DATABASE_URL=$SERVER_URL/$DATABASE
CARAVANSERAI_SECRET_KEY=smoke-upgrade-secret-key-of-48-characters-000000
CARAVANSERAI_WORKERS=2
CARAVANSERAI_LOG_FORMAT=json
CARAVANSERAI_BOT_DELAY_SECONDS=0
set +a
mkdir "$HOME_DIR/state"
cd "$HOME_DIR"

# The old host, set up as the old release's recipe said: the checkout in app/ (git clone <repository>
# /srv/caravanserai/app, at that release), a venv, and the service started in the checkout. That
# recipe's `pip install /srv/caravanserai/app` cannot start (the installed package looks for its
# migrations beside itself); hosts installed it editable, as the README of the time did.
git clone --quiet "$SOURCE" app
git -C app reset --quiet --hard "$OLD_RELEASE"
python3 -m venv venv
venv/bin/pip install --quiet --constraint "$SOURCE/constraints.txt" -e ./app
echo "smoke-upgrade: old release $(git -C app log -1 --format='%h of %cd' --date=short) installed in $((SECONDS - started)) s"
cd app  # WorkingDirectory=/srv/caravanserai/app, as the old unit had it
start_server serve-old.log
../venv/bin/python "$SOURCE/scripts/smoke_upgrade_client.py" before "http://127.0.0.1:$port" "$HOME_DIR/state"
stop_server
cd "$HOME_DIR"
echo "smoke-upgrade: old release played at $((SECONDS - started)) s"

# The upgrade, as docs/hosting.md says: stop, back up with the old release, then the lines below.
venv/bin/caravanserai backup "$HOME_DIR/before-upgrade.dump"
pg_restore --list "$HOME_DIR/before-upgrade.dump" >/dev/null  # a whole custom-format dump
# >>> upgrade (docs/hosting.md, "Upgrading without Docker", line for line)
mv app src
git -C src pull --quiet
rm -rf wheels
python3 -m venv --clear venv
venv/bin/pip wheel --quiet --no-deps --wheel-dir wheels ./src
venv/bin/pip install --quiet --constraint src/constraints.txt wheels/caravanserai-*.whl
# <<< upgrade
version=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' src/app/__init__.py)
head=$(venv/bin/python -c 'from app.db.migrate import known_revisions; print(known_revisions()[-1])')
echo "smoke-upgrade: upgraded at $((SECONDS - started)) s: $(venv/bin/caravanserai --version), newest migration $head"

start_server serve-new.log  # WorkingDirectory=/srv/caravanserai, as the new unit has it
venv/bin/python "$SOURCE/scripts/smoke_upgrade_client.py" after "http://127.0.0.1:$port" "$HOME_DIR/state"
health=$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/healthz').read().decode())")
expected="{\"status\":\"ok\",\"version\":\"$version\",\"revision\":\"$head\"}"
[ "$health" = "$expected" ] || { echo "smoke-upgrade: FAIL /healthz said $health, expected $expected"; exit 1; }
echo "ok: /healthz $health"
grep -q "migrating the database from 0005 to $head" serve-new.log \
  || { echo "smoke-upgrade: FAIL the start did not log its migrations"; exit 1; }
grep -q "\"database migrated to $head\"" serve-new.log \
  || { echo "smoke-upgrade: FAIL the start did not log the end of its migrations"; exit 1; }
echo "ok: the start logged $(grep -c '"migration [0-9]* applied' serve-new.log) migrations"
if grep -n -E "Traceback|\"levelname\": \"ERROR\"" serve-new.log; then
  echo "smoke-upgrade: FAIL the upgraded server logged errors"; exit 1
fi
stop_server
echo "smoke-upgrade: passed in $((SECONDS - started)) s"
