"""No tracked text file holds a merge's conflict markers.

A merge that left ``<<<<<<<`` / ``>>>>>>>`` in docs/paper-reproduction.md was committed
unnoticed once: the page showed both sides of the conflict to every reader.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the opening and closing markers name a side ("<<<<<<< HEAD"); "=======" alone could be a
# Markdown heading's underline
MARKER = re.compile(rb"^(<{7}|>{7}) \S", re.MULTILINE)


def _tracked_files() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    return [ROOT / name.decode() for name in names if name]


def test_no_tracked_file_holds_conflict_markers() -> None:
    marked = [
        str(path.relative_to(ROOT))
        for path in _tracked_files()
        if path.is_file() and MARKER.search(path.read_bytes())
    ]
    assert marked == [], f"conflict markers left by a merge in: {marked}"


def test_the_pattern_sees_a_marker() -> None:
    assert MARKER.search(b"text\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n")
    assert not MARKER.search(b"a heading\n=======\n")
