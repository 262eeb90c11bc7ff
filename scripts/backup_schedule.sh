#!/bin/sh
# Scheduled database backups with retention: the `backup` service of docker-compose.yml
# (docs/hosting.md, "Backups"). Every day at BACKUP_TIME (UTC) `caravanserai backup` writes
#     $BACKUP_DIR/daily/caravanserai-YYYY-MM-DD.dump
# and the first backup of each ISO week is also kept, as a hard link (no extra space), as
#     $BACKUP_DIR/weekly/caravanserai-YYYY-Www.dump
# Then all but the newest BACKUP_KEEP_DAILY daily and BACKUP_KEEP_WEEKLY weekly files are deleted.
#
# Usage: backup_schedule.sh [loop|now]
#   loop (default): run forever, one backup a day (a failed one is tried again 5 times, 10 minutes apart)
#   now:            one backup and the pruning, then exit (non-zero when the backup failed)
set -eu

BACKUP_DIR=${BACKUP_DIR:-/backups}
BACKUP_TIME=${BACKUP_TIME:-03:30}
BACKUP_KEEP_DAILY=${BACKUP_KEEP_DAILY:-7}
BACKUP_KEEP_WEEKLY=${BACKUP_KEEP_WEEKLY:-4}
RETRIES=5
RETRY_SECONDS=600

log() { echo "backup_schedule: $*" >&2; }

# prune FOLDER KEEP: delete all but the KEEP newest backups of FOLDER (their names sort by date).
prune() {
    find "$1" -maxdepth 1 -type f -name 'caravanserai-*.dump' | sort -r | tail -n +"$(($2 + 1))" |
        while read -r old; do
            rm -f -- "$old" && log "removed $old"
        done
}

backup_now() {
    day=$(date -u +%F)
    week=$(date -u +%G-W%V)
    mkdir -p "$BACKUP_DIR/daily" "$BACKUP_DIR/weekly"
    daily="$BACKUP_DIR/daily/caravanserai-$day.dump"
    # Written under another name first: a backup cut short never looks like a good one.
    partial="$BACKUP_DIR/daily/.partial-$day.dump"
    if ! caravanserai backup "$partial"; then
        rm -f -- "$partial"
        log "backup FAILED; the earlier backups are untouched"
        return 1
    fi
    mv -f -- "$partial" "$daily" || return 1
    weekly="$BACKUP_DIR/weekly/caravanserai-$week.dump"
    if [ ! -e "$weekly" ]; then
        ln -- "$daily" "$weekly" || return 1
    fi
    log "wrote $daily"
    prune "$BACKUP_DIR/daily" "$BACKUP_KEEP_DAILY"
    prune "$BACKUP_DIR/weekly" "$BACKUP_KEEP_WEEKLY"
}

seconds_until() {
    now=$(date -u +%s)
    next=$(date -u -d "$1" +%s) # today at HH:MM, UTC
    [ "$next" -gt "$now" ] || next=$((next + 86400))
    echo $((next - now))
}

# pause SECONDS: sleep in the background and wait for it: a shell runs its traps only between
# commands, so a stop signal during a day-long foreground sleep would wait for the sleep.
pause() {
    sleep "$1" &
    sleeping=$!
    wait "$sleeping" || true
    sleeping=
}

loop() {
    umask 077 # the dumps hold password hashes
    sleeping=
    # docker compose stop (SIGTERM): end at once, between backups (a backup under way finishes first).
    trap 'log "stopping"; [ -z "$sleeping" ] || kill "$sleeping" 2>/dev/null; exit 0' TERM INT
    log "a backup every day at $BACKUP_TIME UTC into $BACKUP_DIR;" \
        "keeping $BACKUP_KEEP_DAILY daily and $BACKUP_KEEP_WEEKLY weekly"
    while :; do
        pause "$(seconds_until "$BACKUP_TIME")"
        tries=0
        until backup_now; do
            tries=$((tries + 1))
            [ "$tries" -le "$RETRIES" ] || break
            pause "$RETRY_SECONDS"
        done
    done
}

case "${1:-loop}" in
    loop) loop ;;
    now) umask 077 && backup_now ;;
    *) echo "usage: $0 [loop|now]" >&2 && exit 2 ;;
esac
