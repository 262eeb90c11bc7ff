"""No reference to the team's issue tracker in the code or the docs: the tracker is not part of the
repository, so "(issue 19)" tells a reader nothing.  The reason is written where it is needed, or
in ``docs/decisions.md``, cited by name.  ``bench/results/`` is left out: its files are the record
of runs made at the time, in the words of the time.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ["app", "static", "migrations", "docs", "tests", "README.md", "bench/README.md"]
SKIPPED_DIRS = {"__pycache__", "_bundled", "node_modules"}
TRACKER_REFERENCE = re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE)
""""issue 19", "Issues 10 and 22", "issue #7", a reference broken over two lines; not "tissue 3"."""


def text_files(top: Path):
    """Every file under ``top`` (or ``top`` itself) that reads as UTF-8 text, this test left out."""
    paths = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
    for path in paths:
        if SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts) or path == Path(__file__).resolve():
            continue
        try:
            yield path, path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images, fonts, archives


def references(text: str) -> list[tuple[int, str]]:
    """``(line number, matched text)`` of each tracker reference in ``text``."""
    return [(text.count("\n", 0, m.start()) + 1, " ".join(m.group().split())) for m in TRACKER_REFERENCE.finditer(text)]


@pytest.mark.parametrize("sample, found", [
    ("a checkpoint (issue 19) is", ["issue 19"]),
    ("The rules pages (Issues 10 and 22):", ["Issues 10"]),
    ("Backups (issue #7).", ["issue #7"]),
    ("as the reliability fixes of issue\n17 did", ["issue 17"]),
    ("tissue 3, reissue 4", []),
    ("token = password_reset.issue(session, account, 3)", []),
    ("two issues remain", []),
])
def test_the_pattern_finds_references_and_nothing_else(sample, found):
    assert [text for _, text in references(sample)] == found


def test_no_file_cites_the_tracker():
    found = [f"{path.relative_to(ROOT)}:{line}: {text}" for top in CHECKED
             for path, content in text_files(ROOT / top) for line, text in references(content)]
    assert found == [], "write the reason instead (or an entry of docs/decisions.md):\n" + "\n".join(found)


def test_every_decision_cited_by_name_exists():
    """A citation "docs/decisions.md, *Name*" names a heading of that page."""
    headings = {line[3:].replace("`", "") for line in (ROOT / "docs/decisions.md").read_text().splitlines()
                if line.startswith("## ")}
    cited = {(path.relative_to(ROOT), name.replace("\n", " ").replace("`", ""))
             for top in CHECKED for path, content in text_files(ROOT / top)
             for name in re.findall(r"decisions\.md, \*([^*]+)\*", content)}
    assert cited, "no citation found: the pattern no longer matches how the code cites the page"
    assert {(path, name) for path, name in cited if name not in headings} == set()
