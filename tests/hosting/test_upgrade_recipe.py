"""The upgrade docs/hosting.md gives a host of the first releases is the one CI runs:
scripts/smoke_upgrade.sh runs the lines between its upgrade marks, and the documented block is the
same lines, each run as the ``caravanserai`` user from ``/srv/caravanserai``.  The release it
starts from is the oldest one with ``backup``, and CI runs the script right after the wheel's."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.hosting.test_install_recipe import guide_lines, script_lines

ROOT = Path(__file__).resolve().parents[2]
AS_SERVICE_USER = "sudo -u caravanserai "
SCRIPT = (ROOT / "scripts" / "smoke_upgrade.sh").read_text()


def ci_upgrade_lines() -> list[str]:
    return script_lines("smoke_upgrade.sh", "upgrade")


def documented_upgrade_lines() -> list[str]:
    lines = guide_lines("upgrade")
    assert lines[0] == "cd /srv/caravanserai", lines  # the script runs in the folder standing for it
    assert all(line.startswith(AS_SERVICE_USER) for line in lines[1:]), lines
    return [line.removeprefix(AS_SERVICE_USER) for line in lines[1:]]


def test_the_documented_upgrade_is_what_ci_runs():
    assert documented_upgrade_lines() == ci_upgrade_lines()


def test_the_upgrade_ends_with_the_install_lines_of_the_recipe():
    from tests.hosting.test_install_recipe import ci_install_lines

    lines = ci_upgrade_lines()
    assert lines[-len(ci_install_lines()):] == ci_install_lines()


def git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)


def test_ci_upgrades_from_the_oldest_release_that_has_backup():
    old = re.search(r"^OLD_RELEASE=([0-9a-f]{40})\b", SCRIPT, re.MULTILINE)
    assert old, "scripts/smoke_upgrade.sh names no OLD_RELEASE commit"
    first = git("rev-list", "--reverse", "HEAD", "--", "app/db/backup.py").stdout.split()
    if not first or git("cat-file", "-e", f"{old[1]}^{{commit}}").returncode != 0:
        pytest.skip("no git history here (an unpacked sdist, a shallow clone)")
    # The first commit with backup.py is the platform part of the first import; the release is that
    # import whole (rulesets, client, docs: the commits right after it, made at the same moment).
    assert git("log", "-1", "--format=%ct", first[0]).stdout == git("log", "-1", "--format=%ct", old[1]).stdout
    for part in ("app/db/backup.py", "static/index.html", "docs/hosting.md", "app/rulesets/heroes/rules.py"):
        assert git("cat-file", "-e", f"{old[1]}:{part}").returncode == 0, part


def test_ci_runs_the_upgrade_right_after_the_wheel():
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    wheel = lines.index("bash scripts/smoke_wheel.sh")
    assert lines[wheel + 1] == "bash scripts/smoke_upgrade.sh"
