"""A column the vertical scrollbar covers is not shown cut: it is blank, and counted.

At 80x24, with more layouts than rows (eleven, a newcomer's purchase scenario), the
table's vertical scrollbar took the two cells at its right, and the P(loss) column under
it showed ``2.`` for 2.1%, ``0.0005`` for 0.00055% and ``0.03`` for 0.031%: the ``%`` and
the last digits cut, a hundredth read as a fraction. The table judged which columns were
whole by its width with the scrollbar. This test failed first.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import settle
from textual.widgets import Static

from planner.tui import make_app
from planner.tui.compare_view import CompareView

ELEVEN = """\
name: eleven layouts
drive:
  model: nl-sas-20tb
  arr: 1%
  price: 400
restore:
  load: busy
  scrub_hours: 168
aggregate:
  data_disks: 28
layouts:
  - {raid: raid10, label: RAID 10}
  - {raid: mirror3, label: 3-way mirror}
  - {raid: raid6, group_size: 12, label: RAID 6 (10+2)}
  - {raid: raidz2, group_size: 12}
  - {raid: raid-tp, group_size: 15, label: triple parity (12+3)}
  - {raid: raidz3, group_size: 15}
  - {raid: draid2, data: 8, children: 48, spares: 2}
  - {raid: raid6, group_size: 8}
  - {raid: raid6, group_size: 10}
  - {raid: raid5, group_size: 6}
  - {raid: raid-tp, group_size: 11}
workload:
  iops: 15000
  read_fraction: 0.7
  capacity_tb: 500
"""


@pytest.mark.asyncio
@pytest.mark.parametrize("width", range(76, 86))
async def test_no_cell_is_cut_by_the_vertical_scrollbar(tmp_path: Path, width: int) -> None:
    path = tmp_path / "eleven.yaml"
    path.write_text(ELEVEN, encoding="utf-8")
    async with make_app(path).run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        table = pilot.app.query_one(CompareView).table
        assert table.show_vertical_scrollbar  # more rows than the screen holds
        room = table.scrollable_content_region.width
        _, stop = table.whole_columns()
        columns = list(table.columns.values())
        right = sum(c.get_render_width(table) for c in columns[:stop])
        assert right - table.cell_padding <= room  # what is called whole fits beside the bar
        for y in range(table.scrollable_content_region.height):
            line = table.render_line(y).text
            assert len(line) <= room or not line[room:].strip()
            cells = line[:room].split()
            assert not any(c.endswith(".") and c[:-1].replace(",", "").isdigit() for c in cells)
        # the sized P(loss), the figure a buyer decides on, is whole at 80 columns: it came
        # after TCO/TB, which pushed it under the bar
        headers = [" ".join(str(c.label).split()) for c in columns[:stop]]
        if width >= 80:
            assert "P(loss) of sized aggr." in headers, headers
        # the note under the table counts the blanked column among those right of the edge
        beyond = len(columns) - stop
        notes = pilot.app.query_one(CompareView).query_one("#compare-notes", Static).render()
        assert f"→ {beyond} more column" in str(notes)


@pytest.mark.asyncio
async def test_each_right_arrow_brings_a_new_column_in_whole(tmp_path: Path) -> None:
    """The third newcomer: some → presses dropped a column on the left and brought none in
    on the right (the next one wider than the one dropped), so blank cells opened at the
    right edge and the key seemed to do nothing. Each press now scrolls until the next
    column is whole, or to the end (failed first)."""
    path = tmp_path / "eleven.yaml"
    path.write_text(ELEVEN, encoding="utf-8")
    async with make_app(path).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = pilot.app.query_one(CompareView).table
        table.focus()
        await settle(pilot)
        _, stop = table.whole_columns()
        presses = 0
        while stop < len(table.columns) and presses < 40:
            await pilot.press("right")
            await settle(pilot)
            presses += 1
            _, after = table.whole_columns()
            assert after > stop, (presses, stop, after)
            stop = after
        assert stop == len(table.columns)  # the last column reached
