"""What a newcomer met first at 80x24: the add-layout dialog's focus, the layout F4 and F5
show, the path a save names.

Each part failed before its fix: the dialog's focused button looked like the other one
(only its label reversed) and a focused field kept its background, so typing on a button
went nowhere with no sign of where the focus was; the model and sensitivity views opened
on the first layout while the compare table's baseline (◆) was another; the save notice
folded a long path inside a folder's name.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pilot_helpers import open_add_dialog, record_notifications, settle
from rich.cells import cell_len
from textual.color import Color
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static

from planner.tui import make_app
from planner.tui.compare_view import CompareView
from planner.tui.model_view import ModelView
from planner.tui.notices import PATH_LINES, notice_width, path_lines
from planner.tui.tornado import SensitivityView

SIZE = (80, 24)
MODERN = Path(__file__).parents[2] / "scenarios" / "example-modern-nl-sas.yaml"
"""A shipped scenario whose baseline (RAID 6 (10+2)) is its third layout, not its first."""


def look(widget: Widget) -> tuple[Color, Color]:
    """The colours that mark focus: the left border's and the background."""
    styles = widget.styles
    return styles.border_left[1], styles.background


def toast_lines(widget: Widget) -> list[str]:
    """The lines a notice shows, as text, padding and border stripped."""
    size = widget.outer_size
    return [strip.text.strip(" ▌") for strip in widget.render_lines(Region(0, 0, *size))]


@pytest.mark.asyncio
async def test_a_newcomer_sees_the_focus_the_layout_and_the_path(tmp_path: Path) -> None:
    """One session at 80x24 (see the module docstring)."""
    name = "modern-nl-sas-review.yaml"
    # At 120 columns its folder and name fill a notice's line exactly: a line one column
    # too wide for the notice would be folded.
    last = ("storage-2025-" + "x" * 80)[: notice_width(120) - len(name) - 1]
    folder = tmp_path / "a-rather-long-folder-of-scenarios-under-review" / last
    folder.mkdir(parents=True)
    opened = folder / name
    shutil.copy(MODERN, opened)
    app = make_app(opened)
    said = record_notifications(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)

        # The add-layout dialog: each field and button shows when it has the focus (its
        # frame and its background change, not only a tint or the label's reverse), a line
        # says where the focus is, and the dialog fits the screen above its footer.
        dialog = await open_add_dialog(pilot)
        preset = dialog.query_one("#add-preset", Select)
        size = dialog.query_one("#add-size", Input)
        add, cancel = dialog.query_one("#add-ok", Button), dialog.query_one("#add-cancel", Button)
        focus_line = dialog.query_one("#add-focus", Static)

        def box(widget: Widget) -> Widget:
            # a Select draws its frame on the part that shows the choice
            return widget.query_one("SelectCurrent") if isinstance(widget, Select) else widget

        parts = ((preset, "Preset"), (size, "Group size N"), (add, "Add"), (cancel, "Cancel"))
        for widget, named in parts:
            before = look(box(widget))
            widget.focus()
            await settle(pilot)
            focused = look(box(widget))
            assert focused[0] != before[0], named  # the frame
            assert focused[1] != before[1], named  # the background
            assert named in str(focus_line.render()), str(focus_line.render())
        # A key typed on a button goes nowhere, and the line says where typing goes.
        size.value = "12"
        add.focus()
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        assert app.screen is dialog
        assert size.value == "12"
        assert "field" in str(focus_line.render())
        frame = dialog.query_one("#add-dialog").region
        assert frame.y >= 0
        assert frame.bottom <= SIZE[1] - 1  # the footer's line stays below
        assert add.region.bottom <= frame.bottom
        await pilot.press("escape")
        await settle(pilot)

        # F4 and F5 show the compare table's cursor row, which starts on the baseline (◆),
        # and their titles name it (that they follow the cursor once it moves:
        # test_tui_sensitivity, test_tui_app).
        baseline = "RAID 6 (10+2)"
        assert app.scenario.layouts[0].label != baseline
        assert app.query_one(CompareView).selected_label == baseline  # the cursor row
        await pilot.press("f4")
        await settle(pilot)
        subject = app.query_one(ModelView).subject
        assert subject is not None
        assert subject.layout.label == baseline
        model_title = app.query_one("#model-title", Static)
        assert str(model_title.render()).startswith(f"Model of {baseline} (◆ baseline):")
        # Its MTTDL in hours reads as every other layout's: 3 significant digits, in words
        # past a million (it was 7.716e+09 h for one layout and 2.1e+09 h for another).
        hours = re.search(r"\(([^()]*) h\)$", str(model_title.render()))
        assert hours is not None
        assert re.fullmatch(r"\d[\d,.]* (million|billion|trillion)|[\d,]+", hours[1]), hours[1]
        assert len(hours[1].split()[0].replace(",", "").replace(".", "").strip("0")) <= 3
        await pilot.press("f5")
        await settle(pilot)
        tornado = app.query_one(SensitivityView).tornado
        assert tornado is not None
        assert tornado.label == baseline
        tornado_title = str(app.query_one("#tornado-title", Static).render())
        assert tornado_title.startswith(f"Sensitivity of {baseline} (◆ baseline):")

        # The save notice names the file on lines of its own, each cut at a separator
        # ("…/" in front when the start is left out): no folder's name is folded. At 120
        # columns too, where a line of the path was one column too wide.
        for width in (SIZE[0], 120):
            if width != SIZE[0]:
                await pilot.resize_terminal(width, 40)
                await settle(pilot)
            said.clear()
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert said
            message, *path = said[-1].splitlines()
            assert message == "Saved the scenario to"
            lines = toast_lines(list(app.screen.query("Toast"))[-1])
            assert path[-1].endswith(opened.name)
            if width == 120:
                assert path[-1] == f"{last}/{name}"
            for line in path:
                assert line in lines, (line, lines)  # shown as it is: not folded
                for piece in line.split("/"):
                    assert piece in {"", "…", *opened.parts}, (piece, lines)


def test_a_path_is_cut_at_its_separators_and_keeps_its_name() -> None:
    """Lines never wider than asked, folders whole or left out (…/), the name last."""
    deep = "/" + "/".join(["d" * 16] * 12) + "/f.yaml"
    cases = [
        ("/home/me/x.yaml", 37, ["/home/me/x.yaml"]),
        ("/a/b/c.yaml", 6, ["/a/b/", "c.yaml"]),
        ("/a/" + "b" * 50 + "/c.yaml", 37, ["…/c.yaml"]),  # no folder is cut
        ("/a/" + "n" * 45 + ".yaml", 37, ["/a/", "…" + "n" * 31 + ".yaml"]),  # the name is
        ("/srv/計画/" + "b" * 50 + "/シナリオ.yaml", 14, ["…/", "シナリオ.yaml"]),  # 2 columns
        (
            deep,
            37,
            [
                "…/" + "d" * 16 + "/" + "d" * 16 + "/",
                "d" * 16 + "/" + "d" * 16 + "/",
                "d" * 16 + "/f.yaml",
            ],
        ),
    ]
    for path, width, expected in cases:
        lines = path_lines(path, width)
        assert lines == expected, (path, lines)
        assert all(cell_len(line) <= width for line in lines), (path, lines)
        assert len(lines) <= PATH_LINES
