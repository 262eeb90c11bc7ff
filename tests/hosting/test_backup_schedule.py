"""The compose ``backup`` service's schedule (``scripts/backup_schedule.sh``):
a daily backup, the first of each ISO week kept as a weekly one, and retention of 7 daily and
4 weekly backups. The script runs for real; only ``caravanserai`` and the clock are stand-ins,
put first on its PATH."""

from __future__ import annotations

import datetime
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "backup_schedule.sh"
REAL_DATE = shutil.which("date")
START = datetime.date(2026, 3, 2)  # a Monday (ISO week 2026-W10)

pytestmark = pytest.mark.skipif(REAL_DATE is None, reason="needs the date command")


@pytest.fixture
def stand_ins(tmp_path) -> Path:
    """A folder with a fake ``caravanserai backup FILE`` (writes when it ran, or fails when
    ``FAIL_BACKUP`` is set) and a ``date`` that answers for the day in ``FAKE_NOW``."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "date").write_text(f'#!/bin/sh\nexec {REAL_DATE} -d "@$FAKE_NOW" "$@"\n')
    (folder / "caravanserai").write_text(
        '#!/bin/sh\n[ -z "${FAIL_BACKUP:-}" ] || { echo partial > "$2"; exit 1; }\n'
        f'{REAL_DATE} -u -d "@$FAKE_NOW" "+%F %H:%M" > "$2"\n')
    for stand_in in folder.iterdir():
        stand_in.chmod(0o755)
    return folder


def back_up(stand_ins: Path, backups: Path, day: datetime.date, at: datetime.time = datetime.time(3, 30),
            **env: str) -> subprocess.CompletedProcess:
    """``backup_schedule.sh now`` as run on ``day`` at ``at`` UTC."""
    now = datetime.datetime.combine(day, at, tzinfo=datetime.timezone.utc)
    environment = {**os.environ, "PATH": f"{stand_ins}{os.pathsep}{os.environ['PATH']}", "BACKUP_DIR": str(backups),
                   "FAKE_NOW": str(int(now.timestamp())), **env}
    return subprocess.run(["sh", str(SCRIPT), "now"], env=environment, capture_output=True, text=True, timeout=30)


def contents(folder: Path) -> dict[str, str]:
    return {path.name: path.read_text().strip() for path in sorted(folder.iterdir())}


def test_thirty_days_keep_the_last_7_days_and_the_last_4_weeks(stand_ins, tmp_path):
    backups = tmp_path / "backups"
    for offset in range(30):  # 2026-03-02 (Monday) .. 2026-03-31 (Tuesday)
        assert back_up(stand_ins, backups, START + datetime.timedelta(days=offset)).returncode == 0

    assert contents(backups / "daily") == {f"caravanserai-2026-03-{day}.dump": f"2026-03-{day} 03:30"
                                           for day in range(25, 32)}
    # Each week's backup is its first one (a Monday here); week 10 fell out of the four.
    assert contents(backups / "weekly") == {
        "caravanserai-2026-W11.dump": "2026-03-09 03:30", "caravanserai-2026-W12.dump": "2026-03-16 03:30",
        "caravanserai-2026-W13.dump": "2026-03-23 03:30", "caravanserai-2026-W14.dump": "2026-03-30 03:30"}


def test_the_weekly_backup_is_the_first_of_its_week_even_when_that_day_is_backed_up_again(stand_ins, tmp_path):
    backups = tmp_path / "backups"
    assert back_up(stand_ins, backups, START).returncode == 0
    assert back_up(stand_ins, backups, START, at=datetime.time(12, 0)).returncode == 0
    assert contents(backups / "daily") == {"caravanserai-2026-03-02.dump": "2026-03-02 12:00"}  # replaced
    assert contents(backups / "weekly") == {"caravanserai-2026-W10.dump": "2026-03-02 03:30"}


def test_a_failed_backup_leaves_no_file_and_keeps_every_earlier_backup(stand_ins, tmp_path):
    backups = tmp_path / "backups"
    for offset in range(8):
        back_up(stand_ins, backups, START + datetime.timedelta(days=offset))
    before = contents(backups / "daily")

    failed = back_up(stand_ins, backups, START + datetime.timedelta(days=8), FAIL_BACKUP="1")

    assert failed.returncode != 0
    assert "backup FAILED" in failed.stderr
    assert contents(backups / "daily") == before  # nothing pruned, no partial file left beside them
    assert sorted(path.name for path in (backups / "daily").iterdir()) == sorted(before)


def test_backups_are_readable_by_their_owner_only(stand_ins, tmp_path):
    backups = tmp_path / "backups"
    assert back_up(stand_ins, backups, START).returncode == 0
    assert (backups / "daily" / "caravanserai-2026-03-02.dump").stat().st_mode & 0o077 == 0


def test_retention_is_configurable(stand_ins, tmp_path):
    backups = tmp_path / "backups"
    for offset in range(5):
        back_up(stand_ins, backups, START + datetime.timedelta(days=offset), BACKUP_KEEP_DAILY="2")
    assert list(contents(backups / "daily")) == ["caravanserai-2026-03-05.dump", "caravanserai-2026-03-06.dump"]


def test_the_schedule_stops_at_once_on_sigterm_while_it_waits_for_the_next_backup(stand_ins, tmp_path):
    """Its shell was PID 1 of the compose service with no trap: ``docker compose stop`` waited
    the full grace period, then killed it."""
    environment = {**os.environ, "PATH": f"{stand_ins}{os.pathsep}{os.environ['PATH']}",
                   "BACKUP_DIR": str(tmp_path / "backups"), "FAKE_NOW": str(int(time.time()))}
    schedule = subprocess.Popen(["sh", str(SCRIPT), "loop"], env=environment, stderr=subprocess.PIPE, text=True)
    try:
        assert "a backup every day" in schedule.stderr.readline()
        children = Path(f"/proc/{schedule.pid}/task/{schedule.pid}/children")
        deadline = time.monotonic() + 5
        while not children.read_text().split() and time.monotonic() < deadline:
            time.sleep(0.05)
        [sleeper] = children.read_text().split()  # its pause
        began = time.monotonic()
        schedule.send_signal(signal.SIGTERM)
        assert schedule.wait(5) == 0
        assert time.monotonic() - began < 3
        assert "stopping" in schedule.stderr.read()
        deadline = time.monotonic() + 5
        while Path(f"/proc/{sleeper}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not Path(f"/proc/{sleeper}").exists(), "the pause's sleep outlived the schedule"
    finally:
        schedule.kill()
        schedule.wait()
