"""The systemd recipe of docs/hosting.md installs exactly as CI does (the
recipe is the one CI runs). CI's scripts/smoke_wheel.sh runs the lines between its install marks;
the documented block is the same lines, each run as the ``caravanserai`` user."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AS_SERVICE_USER = "sudo -u caravanserai "


def ci_install_lines() -> list[str]:
    script = (ROOT / "scripts" / "smoke_wheel.sh").read_text()
    block = re.search(r"^# >>> install.*?\n(.*?)^# <<< install", script, re.MULTILINE | re.DOTALL)
    assert block, "scripts/smoke_wheel.sh lost its install marks"
    return [line for line in block.group(1).splitlines() if line.strip()]


def documented_install_lines() -> list[str]:
    guide = (ROOT / "docs" / "hosting.md").read_text()
    block = re.search(r"^<!-- install:.*?-->\n```sh\n(.*?)^```", guide, re.MULTILINE | re.DOTALL)
    assert block, "docs/hosting.md lost its install block"
    lines = block.group(1).splitlines()
    assert all(line.startswith(AS_SERVICE_USER) for line in lines), lines
    return [line.removeprefix(AS_SERVICE_USER) for line in lines]


def test_the_documented_install_is_what_ci_runs():
    assert documented_install_lines() == ci_install_lines()


def test_the_install_builds_a_wheel_and_installs_it_with_the_pinned_versions():
    lines = ci_install_lines()
    assert any(" wheel " in line and "--no-deps" in line for line in lines)
    assert any(" install " in line and "--constraint src/constraints.txt" in line and ".whl" in line for line in lines)
    assert not any("-e " in line or "--editable" in line for line in lines)
