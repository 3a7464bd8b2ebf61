"""The add-layout dialog's refusals name their input and echo what was typed.

It failed first: a range error named no input (``-4 is out of range: must be at least 2``)
while a typing error did (``group size: 'abc' is not a whole number``), and
99999999999999999999 came back as ``1e+20``.
"""

from __future__ import annotations

import pytest
from pilot_helpers import SCENARIO, app_of, open_add_dialog, paste, retype, settle
from textual.widgets import Input, Select, Static

from planner.tui import make_app

SIZE = (120, 40)
BIG = "99999999999999999999"

pytestmark = pytest.mark.asyncio

# (preset, {input: text}, the message's start)
CASES = [
    (
        "raid6",
        {"size": "-4"},
        "group size: -4 is out of range: must be at least 3 (2 parity drives",
    ),
    ("raid6", {"size": BIG}, f"group size: {BIG} is out of range: must be at most"),
    ("raid6", {"size": "abc"}, "group size: 'abc' is not a whole number"),
    ("raid6", {"size": "2"}, "group size: a group of 2 drives"),
    ("raid6", {"size": ""}, "group size: raid6 needs a group_size"),
    ("custom", {"parity": "-1", "size": "8"}, "parity: -1 is out of range: must be at least 1"),
    ("custom", {"parity": BIG, "size": "8"}, f"parity: {BIG} is out of range: must be at most"),
    ("custom", {"parity": "", "size": "8"}, "parity: required for a custom layout"),
    ("draid2", {"size": "48", "data": "-1"}, "data per stripe: -1 is out of range"),
    ("draid2", {"size": "48", "spares": BIG}, f"spares: {BIG} is out of range"),
    ("draid2", {"size": "3"}, "children: a stripe of 8 data + 2 parity does not fit"),
    ("draid2", {"size": BIG}, f"children: {BIG} is out of range"),
]


async def test_the_dialog_refuses_and_reads_as_the_main_fields_do() -> None:
    """One session for what were three: every refusal of the add-layout dialog names its
    input and echoes the text; the dialog reads commas as the main fields do (``1,000`` is
    a group size of 1000, ``1,5`` is refused); a decimal comma in a main field starts as
    the file's message."""
    async with make_app(SCENARIO).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        # Every refusal names its input and echoes the text.
        dialog = await open_add_dialog(pilot)
        for preset, typed, start in CASES:
            dialog.query_one("#add-preset", Select).value = preset
            await settle(pilot)
            for name in ("parity", "size", "data", "spares"):
                box = dialog.query_one(f"#add-{name}", Input)
                box.value = ""
                if name in typed:
                    box.focus()
                    if typed[name] == BIG:
                        await paste(pilot, BIG)  # 20 digits: pasted, as a user would
                    else:
                        await pilot.press(*typed[name])  # typed key by key, as a user would
            await pilot.click("#add-ok")
            await settle(pilot)
            assert app.screen is dialog, (preset, typed)  # refused: the dialog stays
            message = str(dialog.query_one("#add-error", Static).render())
            assert message.startswith(start), (preset, typed, message)
            assert "1e+" not in message
        assert len(app.scenario.layouts) == 4
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is not dialog

        # The dialog reads commas as the main fields do.
        before = len(app.scenario.layouts)
        dialog = await open_add_dialog(pilot)
        box = dialog.query_one("#add-size", Input)
        box.value = ""
        box.focus()
        await pilot.press(*"1,5")
        await pilot.click("#add-ok")
        await settle(pilot)
        assert app.screen is dialog
        message = str(dialog.query_one("#add-error", Static).render())
        assert message.startswith("group size: '1,5' is not a number: write the decimal point")
        # A text wider than the input scrolls within it to the cursor (SteadyInput: the
        # dialog is not laid out again on each key, the input follows its text).
        box.value = ""
        box.focus()
        await paste(pilot, "9" * 80)
        assert box.scroll_x > 0
        assert box.content_region.x <= box.cursor_screen_offset.x <= box.content_region.right
        box.value = ""
        box.focus()
        await pilot.press(*"1,000")  # RAID 6 is preselected
        await pilot.click("#add-ok")
        await settle(pilot)
        assert app.screen is not dialog
        assert len(app.scenario.layouts) == before + 1
        added = app.scenario.layouts[-1]
        assert (added.raid, added.group_size) == ("raid6", 1000)

        # A decimal comma in a main field starts as the file's message.
        await retype(pilot, "drive-arr", "1,9%")
        reason = app.field_errors["drive-arr"]
        assert reason.startswith("'1,9%' is not a number: ")
        assert "a comma only groups thousands" in reason
        shown = " ".join(str(app.query_one("#param-errors").render()).split())
        assert "'1,9%' is not a number:" in shown


async def test_a_refusal_follows_the_edits_and_fits_the_dialog_on_a_small_screen() -> None:
    """The refusal goes once the value is corrected, and the dialog fits with it shown
    (it grew past 24 lines: a scrollbar, and the dialog shifted a column left)."""
    async with make_app(SCENARIO).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        dialog = await open_add_dialog(pilot)
        frame = dialog.query_one("#add-dialog")
        error = dialog.query_one("#add-error", Static)
        box = dialog.query_one("#add-size", Input)
        for size in ((80, 24), (80, 26), (80, 27)):  # short; tall from 27 lines
            await pilot.resize_terminal(*size)
            await settle(pilot)
            where = frame.region
            box.value = "1"  # RAID 6 (preselected) of one drive: refused
            await pilot.press("enter")
            await settle(pilot)
            assert str(error.render()).startswith("group size: 1 is out of range")
            assert error.content_region.height == 2  # the longest refusals take two lines
            assert frame.region.x == where.x, size
            assert dialog.max_scroll_y == 0, size  # it fits: no scrollbar
            assert frame.region.bottom <= size[1] - 1  # above the footer
        await pilot.press("backspace", "2")  # still refused: the reason follows the edit
        await settle(pilot)
        assert str(error.render()).startswith("group size: a group of 2 drives")
        await pilot.press("backspace", "6")  # corrected: the refusal goes at once
        await settle(pilot)
        assert str(error.render()) == ""
        await pilot.press("enter")
        await settle(pilot)
        assert app_of(pilot).scenario.layouts[-1].group_size == 6
