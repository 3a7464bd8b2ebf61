"""Shared Pilot helpers for the TUI tests (imported by the test modules of this folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from planner.tui import PlannerApp
from planner.tui.dialogs import AddLayoutScreen

SCENARIO = Path(__file__).with_name("tui_scenario.yaml")
"""The fixed, commented scenario most TUI tests open."""


def record_notifications(app: App[Any]) -> list[str]:
    """The message of every notification ``app`` raises from now on, as a live list.

    Wraps the app's public :meth:`textual.app.App.notify` (``Widget.notify`` and
    ``Screen.notify`` go through it), which still shows the toast. Call it before
    ``run_test`` to catch the notices of start-up too; ``clear()`` on the list forgets what
    was said so far.
    """
    said: list[str] = []
    notify = app.notify

    def recording(message: str, **options: Any) -> None:
        said.append(message)
        notify(message, **options)

    vars(app)["notify"] = recording  # an instance attribute: this app only
    return said


async def settle(pilot: Pilot[None]) -> None:
    """Let messages flow and every worker (recompute, derive) finish.

    The second pause lets a worker's result reach the screen; with no worker before or
    after the first pause there is no result to wait for (and a pause is 20 ms at least:
    Pilot waits for the process to be idle for that long, and the suite settles about
    3,000 times).
    """
    workers = pilot.app.workers
    busy = len(workers) > 0
    await pilot.pause()
    if busy or len(workers) > 0:
        await workers.wait_for_complete()
        await pilot.pause()


def app_of(pilot: Pilot[None]) -> PlannerApp:
    """The pilot's app, typed."""
    app = pilot.app
    assert isinstance(app, PlannerApp)
    return app


def field_input(app: PlannerApp, key: str) -> Input:
    """The parameter field ``key`` (e.g. ``arr``, ``rebuild_hours``)."""
    return app.query_one(f"#input-{key}", Input)


async def retype(pilot: Pilot[None], key: str, text: str) -> None:
    """Focus a field, select its text and paste ``text`` over it (an empty ``text``: delete).

    One event and one settle, where typing it was a key and a settle for each character,
    often through a refused value on the way ("3" before "3%": the errors line shown and
    hidden, each a new layout of the screen), a tenth of a second of CPU each. Typing key
    by key is checked where it is the point: test_tui_review (the first key replaces the
    value; 1e-300 typed through the valid 1e-3), test_tui_narrow (the columns stay while
    typing) and the fuzz test of keys and extreme numbers typed (tests/fuzz/test_fuzz_tui.py).
    """
    field = field_input(app_of(pilot), key)
    field.focus()
    field.select_all()
    if text:
        await paste(pilot, text)
    else:
        await pilot.press("backspace")
        await settle(pilot)
    assert field.value == text


async def paste(pilot: Pilot[None], text: str) -> None:
    """Paste ``text`` into the focused widget, as a terminal's bracketed paste arrives.

    One event where typing would be one Pilot key (and one idle wait) per character: for
    long texts such as a 20-digit number, which a user would paste too.
    """
    pilot.app.post_message(events.Paste(text))
    await settle(pilot)


async def open_add_dialog(pilot: Pilot[None]) -> AddLayoutScreen:
    """Focus the compare table, press ``a`` and return the add-layout dialog it opens."""
    pilot.app.query_one("#compare-table", DataTable).focus()
    await pilot.press("a")
    await settle(pilot)
    dialog = pilot.app.screen
    assert isinstance(dialog, AddLayoutScreen)
    return dialog
