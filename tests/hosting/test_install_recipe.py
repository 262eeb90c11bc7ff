"""The systemd recipe of docs/hosting.md installs exactly as CI does (the
recipe is the one CI runs). CI's scripts/smoke_wheel.sh runs the lines between its install marks;
the documented block is the same lines, each run as the ``caravanserai`` user."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AS_SERVICE_USER = "sudo -u caravanserai "


def script_lines(script: str, mark: str) -> list[str]:
    """The non-blank lines of ``scripts/<script>`` between its ``# >>> mark`` and ``# <<< mark``."""
    text = (ROOT / "scripts" / script).read_text()
    block = re.search(rf"^# >>> {mark}.*?\n(.*?)^# <<< {mark}", text, re.MULTILINE | re.DOTALL)
    assert block, f"scripts/{script} lost its {mark} marks"
    return [line for line in block.group(1).splitlines() if line.strip()]


def guide_lines(mark: str) -> list[str]:
    """The lines of the ``sh`` block under ``<!-- mark: ... -->`` in docs/hosting.md, unindented."""
    guide = (ROOT / "docs" / "hosting.md").read_text()
    block = re.search(rf"^ *<!-- {mark}:.*?-->\n *```sh\n(.*?)^ *```", guide, re.MULTILINE | re.DOTALL)
    assert block, f"docs/hosting.md lost its {mark} block"
    return [line.strip() for line in block.group(1).splitlines()]


def ci_install_lines() -> list[str]:
    return script_lines("smoke_wheel.sh", "install")


def documented_install_lines() -> list[str]:
    lines = guide_lines("install")
    assert all(line.startswith(AS_SERVICE_USER) for line in lines), lines
    return [line.removeprefix(AS_SERVICE_USER) for line in lines]


def test_the_documented_install_is_what_ci_runs():
    assert documented_install_lines() == ci_install_lines()


def test_the_install_builds_a_wheel_and_installs_it_with_the_pinned_versions():
    lines = ci_install_lines()
    assert any(" wheel " in line and "--no-deps" in line for line in lines)
    assert any(" install " in line and "--constraint src/constraints.txt" in line and ".whl" in line for line in lines)
    assert not any("-e " in line or "--editable" in line for line in lines)
