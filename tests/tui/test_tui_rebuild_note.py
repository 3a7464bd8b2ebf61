"""The TUI's compare notes say a rebuild faster than one write of a drive is optimistic.

The note itself (its rates, its line) is checked in tests/analysis/test_rebuild_rate_note.py;
here, that the TUI shows it under its table as ``planner evaluate`` does (a buyer's review).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import app_of, settle
from textual.widgets import Static

from planner.tui import make_app

pytestmark = pytest.mark.asyncio

TODAY = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"


async def test_the_compare_notes_say_the_rebuild_is_faster_than_the_drive() -> None:
    overrides = ["restore.rebuild_mb_per_s=1000"]
    async with make_app(TODAY, overrides=overrides).run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        notes = str(app_of(pilot).query_one("#compare-notes", Static).render())
        text = " ".join(notes.split())
        assert "Rebuild rate 1,000 MB/s (restore.rebuild_mb_per_s) is 3.51x" in text
        assert "no rebuild writes the replacement drive faster" in text
