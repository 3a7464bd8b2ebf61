"""The manual's commands run as written from the repository root after ``make run``.

``planner`` is not on the PATH unless the virtualenv is activated, and the README's two
commands never activate it: a newcomer pasting ``planner recommend ...`` from a page got
"command not found" where other pages wrote ``.venv/bin/planner``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```[a-z]*\n(.*?)^```", re.DOTALL | re.MULTILINE)


def test_no_code_block_runs_a_bare_planner() -> None:
    bare = [
        f"{page.relative_to(ROOT)}: {line}"
        for page in PAGES
        for block in BLOCK.findall(page.read_text(encoding="utf-8"))
        for line in block.splitlines()
        if re.match(r"(\$ )?planner ", line)
    ]
    assert not bare, bare


def test_the_sweep_page_gives_the_limits_the_command_keeps() -> None:
    """A newcomer met "count must be 1 to 1000" that docs/sweeps.md never mentioned."""
    from planner.cli.ranges import MAX_COUNT
    from planner.cli.sweep import MAX_CASES

    page = " ".join((ROOT / "docs" / "sweeps.md").read_text(encoding="utf-8").split())
    assert f"at most {MAX_COUNT:,}, and at most {MAX_CASES:,} cases" in page
