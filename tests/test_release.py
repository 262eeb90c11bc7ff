"""Each release has its version and its changelog entry: the package's version (``app.__version__``,
which ``pyproject.toml`` reads at build time) is the newest heading of ``CHANGELOG.md``, the
headings go from newest to oldest with a date each, and every release says how to upgrade to it."""

from __future__ import annotations

import datetime
import re
import tomllib
from pathlib import Path

from app import __version__

ROOT = Path(__file__).resolve().parents[1]
HEADING = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$", re.MULTILINE)


def releases() -> list[tuple[tuple[int, int, int], str, str]]:
    """``[(version, date, text of its entry)]`` of ``CHANGELOG.md``, in the file's order."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    found = list(HEADING.finditer(text))
    assert found, "CHANGELOG.md has no release heading like '## [0.2.0] - 2026-12-04'"
    ends = [match.start() for match in found[1:]] + [len(text)]
    return [((int(match[1]), int(match[2]), int(match[3])), match[4], text[match.end():end])
            for match, end in zip(found, ends)]


def test_the_package_version_is_the_newest_changelog_entry():
    newest = ".".join(map(str, releases()[0][0]))
    assert __version__ == newest, (f"app/__init__.py says {__version__}, CHANGELOG.md's newest entry is {newest}: "
                                   "a release changes both")


def test_pyproject_takes_its_version_from_the_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"], "one place for the version: app/__init__.py"
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "app.__version__"}


def test_entries_go_from_newest_to_oldest_each_dated_with_upgrade_notes():
    entries = releases()
    versions = [version for version, _, _ in entries]
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions), versions
    dates = [datetime.date.fromisoformat(date) for _, date, _ in entries]
    assert dates == sorted(dates, reverse=True), dates
    for version, _, text in entries:
        assert "### Upgrading" in text, f"the entry of {version} says nothing about upgrading"
