"""The title bar's line: the unsaved mark, the scenario's name and its file, fitted to the width.

The line has one row. Left to the width, a plan's long name with the unsaved mark in front
pushed the file name off the right edge at 80 columns (newcomer review): which file is
edited, and saved to, is the part that must stay. :func:`fitted_title` keeps the mark and the
file name whole and shortens the name with an ellipsis; only a terminal too narrow even for
a letter of the name drops the app's name in front, and then the rest is cut at the edge.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.widgets import Static

APP_NAME = "planner · "
"""What the line starts with, where there is room."""

UNSAVED_MARK = "● "
"""In front of the name while there are unsaved changes."""


class TitleParts(NamedTuple):
    """What the title says: whether there are unsaved changes, the name, the file."""

    unsaved: bool
    name: str
    """The scenario's name (a plan's, for a file of tiers)."""
    source: str
    """The file's name, or that the scenario is the bundled default."""

    @property
    def full(self) -> str:
        """The whole title after the app's name, e.g. ``● 96 x 20 TB (today.yaml)``."""
        return f"{self.mark}{self.name} ({self.source})"

    @property
    def mark(self) -> str:
        """:data:`UNSAVED_MARK` while unsaved, else nothing."""
        return UNSAVED_MARK if self.unsaved else ""


def fitted_title(parts: TitleParts, width: int) -> str:
    """The title in ``width`` cells: the name shortened with "…" before anything else goes.

    The unsaved mark comes first and the file name last, both always whole; with less room
    than the name's first letter and the ellipsis, :data:`APP_NAME` goes too.
    """
    tail = f" ({parts.source})"
    for head in (APP_NAME + parts.mark, parts.mark):
        room = width - cell_len(head + tail)
        if cell_len(parts.name) <= room:
            return head + parts.name + tail
        if room >= 2:  # a letter of the name and the ellipsis
            return head + shortened(parts.name, room) + tail
    return parts.mark + tail.lstrip()  # the file name at least (cut at the edge if need be)


def shortened(name: str, cells: int) -> str:
    """``name`` cut to at most ``cells`` cells, "…" last, no space or comma before it."""
    cut = Text(name)
    cut.truncate(cells - 1, overflow="crop")
    return cut.plain.rstrip(" ,;:·-") + "…"


class TitleLine(Static):
    """The title bar's text, fitted to the width as it changes (:func:`fitted_title`)."""

    def __init__(self, parts: TitleParts, *, id: str | None = None) -> None:
        super().__init__(APP_NAME + parts.full, id=id, markup=False)
        self._parts = parts
        self._shown = APP_NAME + parts.full

    def show(self, parts: TitleParts) -> None:
        """Show ``parts`` (the unsaved mark put or taken off, a file saved under a name)."""
        self._parts = parts
        self._fit(self.content_size.width)

    def on_resize(self, event: events.Resize) -> None:
        """Fit the title to the new width."""
        self._fit(self.content_size.width)

    def _fit(self, width: int) -> None:
        text = APP_NAME + self._parts.full if width <= 0 else fitted_title(self._parts, width)
        if text != self._shown:
            self._shown = text
            # one row of fixed height: no new layout of the screen is needed
            self.update(text, layout=False)
