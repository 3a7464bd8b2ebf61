"""The compare table shows whole columns only: never a fragment of a number at an edge.

A newcomer's review: at 80x24 on the bundled scenario the raid-tp row ended in ``1 in 1``,
the start of "Aggregate odds" ``1 in 1.6 million`` whose header was off screen, which reads
as certain loss; at 100 columns the edge showed ``0.``, ``1,6``, ``5`` under a cut header.
A column that does not fit whole is blank until scrolled to, and the note under the table
counts the columns each side that are not wholly in view.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from pilot_helpers import settle
from textual.pilot import Pilot
from textual.widgets import Static

from planner.tui import make_app
from planner.tui.compare_view import CompareView
from planner.tui.repaint import wrapped_lines

TODAY = Path(__file__).parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"


def whole_spans(pilot: Pilot[None]) -> tuple[list[tuple[int, int]], int, int]:
    """Screen x ranges of the columns wholly in view; columns cut off left and right.

    Worked out from the columns' widths and the scroll offset: the layout column stays at
    the left edge, the rest scroll under it. A column cut in its padding shows its text
    whole.
    """
    table = pilot.app.query_one(CompareView).table
    room = table.size.width
    columns = list(table.columns.values())
    fixed = sum(c.get_render_width(table) for c in columns[: table.fixed_columns])
    pad = table.cell_padding  # a column cut in its padding only shows all its text
    spans = [(0, fixed)]
    left_cut = right_cut = 0
    start = fixed - round(table.scroll_x)
    for column in columns[table.fixed_columns :]:
        end = start + column.get_render_width(table)
        if start + pad < fixed:
            left_cut += 1
        elif end - pad > room:
            right_cut += 1
        else:
            spans.append((max(start, fixed), min(end, room)))
        start = end
    return spans, left_cut, right_cut


def assert_whole_columns_only(pilot: Pilot[None]) -> None:
    """Nothing shows outside the whole columns, and the note counts the others."""
    table = pilot.app.query_one(CompareView).table
    spans, left_cut, right_cut = whole_spans(pilot)
    for y in range(table.size.height):
        line = table.render_line(y).text
        stray = "".join(
            char for x, char in enumerate(line) if not any(a <= x < b for a, b in spans)
        )
        assert not stray.strip(), (y, line, spans)
    note = str(pilot.app.query_one("#compare-notes").render()).splitlines()[0]
    right = re.match(r"→ (\d+) more columns?", note)
    left = re.search(r"\((\d+) to the left\)|^← (\d+) more columns? to the left", note)
    assert (int(right[1]) if right else 0) == right_cut, note
    assert (int(left[1] or left[2]) if left else 0) == left_cut, note


async def assert_no_cut_off_column_at_any_scroll_position(pilot: Pilot[None]) -> None:
    """Right to the last column and back, key by key: only whole columns at every step."""
    view = pilot.app.query_one(CompareView)
    table = view.table
    table.focus()
    assert_whole_columns_only(pilot)
    # Each way until one key past the end (it stays there): a key more shows nothing new.
    for _ in range(len(table.columns)):
        at_end = table.scroll_x == table.max_scroll_x
        await pilot.press("right")
        assert_whole_columns_only(pilot)
        if at_end:
            break
    assert table.scroll_x == table.max_scroll_x
    for _ in range(len(table.columns)):
        at_start = table.scroll_x == 0
        await pilot.press("left")
        assert_whole_columns_only(pilot)
        if at_start:
            break
    assert table.scroll_x == 0


LONG = os.environ.get("PLANNER_FUZZ") == "long"
"""``make fuzz``: every size below on both scenarios; ``make test``: the sizes of the review."""


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("path", "sizes"),
    [
        (None, [(80, 24), (100, 24), (120, 40)] if LONG else [(80, 24), (120, 40)]),
        (TODAY, [(80, 24), (100, 24)] if LONG else [(100, 24)]),
    ],
    ids=["bundled", "today"],
)
async def test_no_cut_off_column_at_any_scroll_position(
    path: Path | None, sizes: list[tuple[int, int]]
) -> None:
    """At each size (a resize after the first: one session a scenario, where each size was
    one), scrolled right to the end and back to the start."""
    async with make_app(path).run_test(size=sizes[0]) as pilot:
        await settle(pilot)
        if path is None:
            # 80x24, bundled: the raid-tp row ends in a whole figure.
            table = pilot.app.query_one(CompareView).table
            lines = [table.render_line(y).text for y in range(table.size.height)]
            raid_tp = next(line for line in lines if "raid-tp" in line)
            assert not raid_tp.rstrip().endswith("1 in 1"), raid_tp
        for size in sizes:
            if size != sizes[0]:
                await pilot.resize_terminal(*size)
                await settle(pilot)
            assert pilot.app.size == size
            await assert_no_cut_off_column_at_any_scroll_position(pilot)


@pytest.mark.asyncio
async def test_the_notes_take_a_new_height_only_when_their_lines_change() -> None:
    """A scroll repaints the notes without laying the screen out again, unless they wrap
    to another number of lines: at 78 columns the first note ("→ N more columns (M to the
    left): ...") takes two lines at some scroll positions and one at others."""
    async with make_app(None).run_test(size=(78, 30)) as pilot:
        await settle(pilot)
        table = pilot.app.query_one(CompareView).table
        notes = pilot.app.query_one("#compare-notes", Static)
        table.focus()
        heights = set()
        for _ in range(len(table.columns)):
            at_end = table.scroll_x == table.max_scroll_x
            await pilot.press("right")
            await pilot.pause()
            assert notes.size.height == wrapped_lines(notes, str(notes.render()))
            heights.add(notes.size.height)
            if at_end:  # one key past the end (it stays there); more would show nothing new
                break
        assert len(heights) == 2, heights  # the line count did change along the way
