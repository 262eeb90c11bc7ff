"""The server is typed: mypy, configured in ``pyproject.toml`` (``[tool.mypy]``, strictness and the
few commented exceptions for libraries without types), finds no error anywhere in ``app/``.

mypy runs once for the whole tree; each package is then judged by the errors in its own files, so a
failure names the package (or the game) whose code broke its types.  ``.ci/run`` runs the same check
before the tests; a cold run takes over a minute, later ones read ``.mypy_cache``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"
RULESETS = APP / "rulesets"
GAMES = sorted(path.name for path in RULESETS.iterdir() if (path / "__init__.py").exists())
PACKAGES = sorted(path.name for path in APP.iterdir()
                  if (path / "__init__.py").exists() and path.name != "rulesets")


@pytest.fixture(scope="module")
def mypy_errors() -> list[str]:
    """Every error line mypy reports for ``app`` (paths relative to the repository, with ``/``)."""
    report, errors, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                           "--cache-dir", str(ROOT / ".mypy_cache"), str(APP)])
    assert status in (0, 1), f"mypy could not run: {errors or report}"
    lines = [line.replace("\\", "/") for line in report.splitlines() if ": error:" in line]
    root = ROOT.as_posix() + "/"
    return [line.removeprefix(root) for line in lines]


def errors_in(lines: list[str], prefix: str) -> list[str]:
    return [line for line in lines if line.startswith(prefix)]


def _in_folder_itself(line: str, folder: str) -> bool:
    return "/" not in line.split(":", 1)[0].removeprefix(folder)


def test_mypy_finds_no_error_in_the_server(mypy_errors):
    assert mypy_errors == []


def test_the_top_level_modules_are_typed(mypy_errors):
    assert [line for line in errors_in(mypy_errors, "app/") if _in_folder_itself(line, "app/")] == []


@pytest.mark.parametrize("package", PACKAGES)
def test_each_server_package_is_typed(mypy_errors, package):
    assert errors_in(mypy_errors, f"app/{package}/") == []


def test_the_ruleset_contract_is_typed(mypy_errors):
    assert [line for line in errors_in(mypy_errors, "app/rulesets/")
            if _in_folder_itself(line, "app/rulesets/")] == []


@pytest.mark.parametrize("game", GAMES)
def test_each_game_package_is_typed(mypy_errors, game):
    assert errors_in(mypy_errors, f"app/rulesets/{game}/") == []


def test_a_type_error_is_found(tmp_path):
    """The check can fail: the same settings find a wrong type planted in a module of their own."""
    planted = tmp_path / "typing_probe.py"
    planted.write_text("def half(count: int) -> int:\n    return count / 2\n")
    report, _, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                      "--cache-dir", str(ROOT / ".mypy_cache"), str(planted)])
    assert status == 1 and "Incompatible return value type" in report
