"""A chart shown only with the rows to read it: else one line saying how tall a terminal is.

The choose and sweep views each stack a chart over a text shown whole (the choice, the
sweep's legend). The chart takes the rows the text leaves; with fewer than
:data:`MIN_CHART_ROWS` it would plot every point on one or two rows (at 80x24 a plan's sweep
drew n+1, n+2 and n+3 all at 100%, reading as equally bad), so it gives way to a line
naming the terminal height that shows it (newcomer review).

The text has two wordings (:class:`ChartText`): beside the chart it names the chart's lines
and markers ("(red line)", "● meets it"); in its stead it names none (at 80x24 the choose
view said "(red line)" under the line standing for its chart). Whether the chart fits is
decided with the longer wording, so the choice never flips back and forth.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

from planner.tui.plot import CHROME_ROWS
from planner.tui.repaint import update_text

MIN_CHART_ROWS = CHROME_ROWS + 4
"""The fewest rows a chart is shown in: 4 to plot in, between its title and axes (two
decades labelled two rows apart, as today's 20 TB scenario's choose view at 80x24).

At 80x24 a plan's tier bar left the choose and sweep views' charts 6 rows, one to plot in:
every point on one line. A rule of 5 to plot in hid that 20 TB chart, 9 rows, and left 8
blank rows under the line saying so.
"""


def room_note(free: int, terminal_rows: int) -> str:
    """The line shown in a chart's stead: the rows it needs, those free, the terminal's."""
    taller = terminal_rows + MIN_CHART_ROWS - free  # the rows the view lacks, added
    return (
        f"The chart needs {MIN_CHART_ROWS} rows, {free} are free: "
        f"a terminal of {taller}+ rows shows it."
    )


class ChartText(NamedTuple):
    """The text under a chart, in the wording for each case."""

    beside: Text
    """Shown with the chart: may name its lines and markers."""
    alone: Text
    """Shown in the chart's stead: names nothing that only the chart shows."""

    @classmethod
    def plain(cls, text: str) -> ChartText:
        """A text that reads the same with or without the chart (e.g. "computing…")."""
        return cls(Text(text), Text(text))


StandIn = Callable[[int], list[str]]
"""What a view shows under the room note in its chart's stead: at most the rows given."""


def fit_chart(
    chart: Widget,
    room: Static,
    below: Static,
    text: ChartText,
    size: Size,
    shown: Text | None,
    stand_in: StandIn | None = None,
) -> Text:
    """Show ``chart`` where its view (of ``size``) leaves it :data:`MIN_CHART_ROWS`, else ``room``.

    ``below``: the widget under the chart, which shows ``shown`` and is given the wording of
    ``text`` that goes with the chart or with its absence, whole, on as many lines as it
    wraps to; the chart gets the rest of the view's rows. ``room`` (hidden by the app's CSS
    until needed) says how tall a terminal shows the chart, and under it the lines of
    ``stand_in`` in the rows it leaves free (the choose view's front, point by point).

    Returns:
        The wording ``below`` shows now.
    """
    width = size.width - below.styles.gutter.width
    if width > 0 and size.height > 0:
        _show_chart_or_room(chart, room, text.beside, width, size.height, stand_in)
    wording = text.beside if chart.display else text.alone
    update_text(below, wording, shown)
    return wording


def _show_chart_or_room(
    chart: Widget, room: Static, text: Text, width: int, height: int, stand_in: StandIn | None
) -> None:
    """Show ``chart`` if ``height`` rows less ``text`` wrapped to ``width`` leave it room."""
    free = max(0, height - len(text.wrap(chart.app.console, width)))
    fits = free >= MIN_CHART_ROWS
    if not fits:
        lines = [room_note(free, chart.app.size.height)]
        if stand_in is not None and free > 1:  # a line each (the room does not wrap)
            lines += stand_in(free - 1)[: free - 1]
        note = "\n".join(lines)
        if str(room.content) != note:
            room.update(note)
    if chart.display != fits:
        chart.display = fits
        room.display = not fits
