"""Sources are cited as a reader can find them: author, title, year; never a file number.

The project's source documents were once cited as "seed 003" (their file names in a folder
no reader has). Every such citation now names the document (docs/sources.md lists them);
this keeps the internal numbers from coming back. Likewise the manual once dated its
changes by the project's own tracker ("Until issue 20 ..."), which no user can look up: it
says what changed ("Earlier versions of planner ..."), and the history of the project's
stops and issues stays in benchmarks/README.md and the code's comments.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INTERNAL_NAME = re.compile(r"seeds? ?0[0-9][0-9]|seeds/0", re.IGNORECASE)
CHECKED = ("planner", "scenarios", "docs", "benchmarks")
TOP_LEVEL = ("README.md", "ARCHITECTURE.md")
SUFFIXES = {".py", ".md", ".yaml", ".yml", ".tcss", ".txt"}
TRACKER_NUMBER = re.compile(r"\b(?:issue|stop) ?#?[0-9]+\b", re.IGNORECASE)
"""The project's own issue or stop numbers ("issue 20", "Stop 30", "issue #9")."""
USER_FACING = ("docs", "scenarios")
"""What a user reads (with :data:`TOP_LEVEL`): the manual and the shipped scenarios."""


def _files() -> list[Path]:
    files = [ROOT / name for name in TOP_LEVEL if (ROOT / name).exists()]
    for folder in CHECKED:
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in SUFFIXES and p.is_file()]
    return files


def test_no_source_is_cited_by_its_internal_file_number() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if INTERNAL_NAME.search(line)
    ]
    assert not found, (
        "cite the source by author, title and year (docs/sources.md), not by its internal "
        "file number:\n" + "\n".join(found)
    )


def test_the_pattern_catches_what_it_is_for() -> None:
    for text in ("seed 003", "Seed 002", "seeds 000", "(seed004)", "/work/shared/seeds/001"):
        assert INTERNAL_NAME.search(text), text
    for text in ("--seed 6", "seed=1", "a seeded run", "seed 12"):
        assert not INTERNAL_NAME.search(text), text


def _user_files() -> list[Path]:
    files = [ROOT / name for name in TOP_LEVEL if (ROOT / name).exists()]
    for folder in USER_FACING:
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in SUFFIXES and p.is_file()]
    return files


def test_the_manual_says_what_changed_not_which_issue_changed_it() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _user_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TRACKER_NUMBER.search(line)
    ]
    assert not found, (
        'say what changed in words a user follows ("Earlier versions of planner ..."); '
        "the project's issue and stop numbers belong in benchmarks/README.md:\n" + "\n".join(found)
    )


def test_the_tracker_pattern_catches_what_it_is_for() -> None:
    for text in ("Until issue 20 every", "(issue 20; see", "Stop 30 (2026", "issue #9", "issue9"):
        assert TRACKER_NUMBER.search(text), text
    for text in (
        "stops after 500 trials",
        "--time-budget stops each simulation",
        "no issues found",
        "github.com/openzfs/zfs/issues/12345",
        "the scrub's tissue 20",
    ):
        assert not TRACKER_NUMBER.search(text), text
