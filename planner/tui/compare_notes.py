"""The notes under the compare table: a region that scrolls, and a line for what is out of view.

At 80x24 the notes (mission, baseline, what the loss figures count, uneven groups, rebuild,
cost) take some thirty lines under the table, and they were cut at the foot of the screen
with nothing saying that more followed (newcomer review). They now scroll, and while some
are out of view a line under them says how many and which keys show them
(:func:`more_line`); the region is in the focus chain (Tab from the table) only then.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.containers import VerticalScroll
from textual.widgets import Static

from planner.tui.compare_table import in_shown_view

SCROLL_KEYS = "↓ / PgDn"
"""The keys that show the lines below (a scroll region's own bindings)."""

BACK_KEYS = "↑ / PgUp"
"""The keys that show the lines above."""

REACH = "F2, Tab, then"
"""How the notes get the focus from anywhere on the compare view: F2 focuses the table."""

NOTES_LEAST_ROWS = 3
"""Rows the notes keep under a long table: the columns note, the next, and the line that
says how many more there are."""

TABLE_LEAST_ROWS = 3
"""Rows the table keeps in the shortest view: its two header rows and one layout."""


def table_rows(view_rows: int) -> int:
    """The most rows the table takes of the compare view's ``view_rows``.

    The table's ``max-height: 1fr`` (app.tcss) let a long table take every row: the notes,
    and the line saying they are there, had none.
    """
    return max(TABLE_LEAST_ROWS, view_rows - NOTES_LEAST_ROWS)


def more_line(above: int, below: int, *, focused: bool) -> str:
    """What the line under the notes says: the lines out of view and the keys that show them.

    Args:
        above: Lines of the notes scrolled off the top.
        below: Lines of the notes under the region's foot.
        focused: Whether the notes have the focus (their keys then scroll them).

    Returns:
        The line, or an empty text when every line is in view.
    """
    if below > 0:
        lines = "line" if below == 1 else "lines"
        keys = f"{SCROLL_KEYS}, {BACK_KEYS} back" if focused else f"{REACH} {SCROLL_KEYS}"
        return f"▼ {below} more {lines} of notes: {keys} (or the mouse wheel)"
    if above > 0:
        lines = "line" if above == 1 else "lines"
        keys = BACK_KEYS if focused else f"{REACH} {BACK_KEYS}"
        return f"▲ {above} {lines} of notes above: {keys} (or the mouse wheel)"
    return ""


class NotesScroll(VerticalScroll):
    """The notes' region: scrolls when they do not fit, and keeps ``more`` saying so.

    ``more`` is the line under the region (hidden while every note is in view).
    """

    def __init__(self, more: Static, **options: Any) -> None:
        super().__init__(**options)
        self.more = more

    def allow_focus(self) -> bool:
        """In the focus chain only while some notes are out of view: else Tab skips it.

        Never while the compare view is hidden (:func:`in_shown_view`).
        """
        return self.max_scroll_y > 0 and in_shown_view(self)

    def on_mount(self) -> None:
        """Say again what is out of view as the notes scroll, or take or lose the focus.

        The focus is watched, not met in ``on_focus``/``on_blur``: those run before Textual's
        own handler sets ``has_focus``, and the line named the keys one focus step behind
        (newcomer review).
        """
        self.watch(self, "scroll_y", self._say_more, init=False)
        self.watch(self, "has_focus", self._say_more, init=False)

    def on_resize(self, event: events.Resize) -> None:
        """The region or the notes took another height: say again what is out of view."""
        self._say_more()

    def _say_more(self) -> None:
        above = round(self.scroll_y)
        below = max(0, self.max_scroll_y - above)
        text = more_line(above, below, focused=self.has_focus)
        if str(self.more.content) != text:
            self.more.update(text)  # one row, shown or not: its height never changes
        self.more.display = bool(text)
