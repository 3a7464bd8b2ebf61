"""Keys typed right after Tab or Shift+Tab go into the field the focus moved to.

A terminal delivers ``Shift+Tab`` and the digits typed after it back to back (tmux's
``send-keys BTab`` then ``send-keys -l 13``): the app reads them from its queue one after
the other, as the events posted here arrive, with no pause for a pilot to wait in.
"""

from __future__ import annotations

import pytest
from pilot_helpers import SCENARIO, app_of, settle
from textual import events
from textual.screen import Screen
from textual.widgets import Input, Static

from planner.tui import PlannerApp, make_app
from planner.tui.params import ParamsPanel

pytestmark = pytest.mark.asyncio


def post_keys(app: PlannerApp, *keys: str) -> None:
    """Post ``keys`` to the app at once, as a terminal's bytes read together arrive."""
    for key in keys:
        character = key if len(key) == 1 else None
        app.post_message(events.Key(key, character))


async def test_digits_after_a_focus_move_land_in_the_new_field() -> None:
    async with make_app(SCENARIO).run_test(size=(80, 24)) as pilot:
        app = app_of(pilot)
        await settle(pilot)
        inputs = list(app.query_one(ParamsPanel).query(Input))
        for index in (3, 2, 5):  # a few moves in one session: the race was 1 in 3 by hand
            inputs[index].focus()
            await settle(pilot)
            old, new = inputs[index], inputs[index - 1]
            kept = old.value
            post_keys(app, "shift+tab", "1", "3")
            await settle(pilot)
            assert app.focused is new
            assert (new.value, old.value) == ("13", kept)
        # Shift+Tab, Ctrl+A, Ctrl+K, "12" (the second report: both fields were left empty)
        inputs[4].focus()
        await settle(pilot)
        kept = inputs[4].value
        post_keys(app, "shift+tab", "ctrl+a", "ctrl+k", "1", "2")
        await settle(pilot)
        assert (inputs[3].value, inputs[4].value) == ("12", kept)
        # and forward: Tab then digits
        kept = inputs[3].value
        post_keys(app, "tab", "7")
        await settle(pilot)
        assert app.focused is inputs[4]
        assert (inputs[4].value, inputs[3].value) == ("7", kept)
        # a binding's key (Backspace) typed between characters applies in its turn
        post_keys(app, "backspace", "1", "2", "backspace", "3")
        await settle(pilot)
        assert inputs[4].value == "13"


async def test_a_view_key_moves_on_before_the_digits_behind_it() -> None:
    """F2 then digits in one burst: the digits never reach the field F2 left (4 in 6 did).

    F-keys act as the app reads them, but not behind a dialog: F2 with the add-layout
    dialog open leaves it open and its field takes what is typed. In the dialog, focus
    moves sent in one burst are said in key order: it failed first, the line naming Cancel
    with the focus on Preset (each control's focus event reached the dialog by its own
    path through the containers, the buttons' one hop longer).
    """
    async with make_app(SCENARIO).run_test(size=(80, 24)) as pilot:
        app = app_of(pilot)
        await settle(pilot)
        arr = app.query_one(ParamsPanel).query(Input).first()
        arr.focus()
        await settle(pilot)
        kept = arr.value
        post_keys(app, "f2", "3", "3")
        await settle(pilot)
        assert arr.value == kept
        assert app.focused is not arr
        await pilot.press("a")  # the add-layout dialog
        await settle(pilot)
        dialog = app.screen
        assert dialog.is_modal
        post_keys(app, "f4", "9")
        await settle(pilot)
        assert app.screen is dialog
        size = dialog.query_one("#add-size", Input)
        assert app.focused is size
        assert size.value.endswith("9")

        # Focus moves in the dialog in one burst: the line over the fields names where the
        # focus went, after the last key (three Tabs on Preset said "on Cancel", four too)
        post_keys(app, "tab", "tab", "tab")  # Add, Cancel, Preset
        await settle(pilot)
        assert app.focused is dialog.query_one("#add-preset")
        assert focus_line(dialog) == "on Preset: Enter opens the list"
        post_keys(app, "shift+tab", "shift+tab", "x")  # Cancel, Add, then a character
        await settle(pilot)
        assert app.focused is dialog.query_one("#add-ok")
        assert focus_line(dialog) == "on Add: Shift+Tab to a field to type"
        post_keys(app, "shift+tab", "4")  # the disabled dRAID fields skipped: Group size
        await settle(pilot)
        assert (app.focused, size.value) == (size, "4")  # typed over, as a field is
        assert focus_line(dialog) == "typing goes into Group size N"


def focus_line(dialog: Screen[object]) -> str:
    """What the add-layout dialog's title line says of the focus."""
    return str(dialog.query_one("#add-focus", Static).content)


async def test_ctrl_a_selects_the_fields_text_so_typing_replaces_it() -> None:
    """A newcomer pressed Ctrl+A to select ARR and typed 4%: Textual's Ctrl+A is Home, so
    the field read ``4%1,5%``, and the screen showed ARR 14% on the way. Ctrl+A now
    selects the text, as in any form; Home still goes to the start (failed first)."""
    async with make_app(SCENARIO).run_test(size=(80, 24)) as pilot:
        app = app_of(pilot)
        await settle(pilot)
        field = next(iter(app.query_one(ParamsPanel).query(Input)))
        field.focus()
        await settle(pilot)
        await pilot.press("end", "ctrl+a", "4", "%")
        await settle(pilot)
        assert field.value == "4%"
        await pilot.press("home", "1")
        await settle(pilot)
        assert field.value == "14%"
