"""The rulesets are typed: mypy, configured in ``pyproject.toml`` (``[tool.mypy]``),
finds no error in the contract (``app/rulesets/*.py``) nor in any game package.

mypy runs once for the whole tree; each package is then judged by the errors in its own files, so a
failure names the game whose code broke its types.
"""

from __future__ import annotations

from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "app" / "rulesets"
PACKAGES = sorted(path.name for path in RULESETS.iterdir() if (path / "__init__.py").exists())
NOT_YET_TYPED: set[str] = set()
"""Games whose ``state.py`` has not landed yet; each leaves this set with its typed state."""


@pytest.fixture(scope="module")
def mypy_errors() -> list[str]:
    """Every error line mypy reports for ``app/rulesets`` (paths relative to the repository)."""
    report, errors, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                           "--cache-dir", str(ROOT / ".mypy_cache"), str(RULESETS)])
    assert status in (0, 1), f"mypy could not run: {errors or report}"
    return [line for line in report.splitlines() if ": error:" in line]


def errors_in(lines: list[str], prefix: str) -> list[str]:
    return [line for line in lines if line.replace("\\", "/").startswith(prefix)]


def test_the_contract_is_typed(mypy_errors):
    contract = [line for line in errors_in(mypy_errors, "app/rulesets/")
                if "/" not in line.split(":", 1)[0].removeprefix("app/rulesets/")]
    assert contract == []


@pytest.mark.parametrize("package", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason="typed state not landed yet"))
    if name in NOT_YET_TYPED else name for name in PACKAGES])
def test_each_game_package_is_typed(mypy_errors, package):
    assert errors_in(mypy_errors, f"app/rulesets/{package}/") == []
