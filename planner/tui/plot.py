"""Plots drawn with plotext, built off the UI thread when they can be, painted from lines.

Plotext builds a whole chart as ANSI text in pure Python: about 10 ms for the choose view's
front at 120x40, more than the search behind it. A view's worker can build the chart of
its new results (:func:`draw_lines`) for the plot's :class:`Canvas`, read on the UI thread
when the worker started, and hand the lines over with the results; the UI thread then only
paints them. When the canvas changed meanwhile (a resize, a new theme), or for a figure
drawn on the UI thread (the choose view's cursor), :class:`CachedPlot` builds the lines
itself, once per figure, size and theme. The worker waits until the plot has painted its
chart (:attr:`DrawnChart.painted`) before it computes what is not on screen, so the two do
not take turns with the interpreter while the user waits for the frame.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import groupby
from typing import Protocol, cast

from plotext._utility import colors_to_ansi  # type: ignore[import-untyped]
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual_plotext import PlotextPlot
from textual_plotext.plot import Plot


@dataclass(frozen=True)
class Canvas:
    """Where a chart is painted: the plot widget's size and its plotext theme."""

    width: int
    height: int
    theme: str
    """The plotext theme's name (textual-plotext's for the app's theme)."""


Draw = Callable[[Plot, Canvas], None]
"""Plotext calls that draw a figure on a fresh plot (``plt.plot(...)``, ``plt.title(...)``);
they get the canvas too, to choose ticks for its rows (:func:`even_ticks`)."""


@dataclass(frozen=True)
class DrawnChart:
    """A figure's lines, built for ``canvas``; ``figure`` says which figure it is."""

    figure: Hashable
    canvas: Canvas
    lines: tuple[Strip, ...]
    painted: threading.Event = field(default_factory=threading.Event, compare=False)
    """Set once the plot it was handed to has painted (or dropped) it: the worker that built
    it waits for this before computing what is not on screen (:mod:`planner.tui.workers`)."""

    def release(self) -> None:
        """Let the worker that built this chart go on (painted, or never to be)."""
        self.painted.set()


class _PlotextMatrix(Protocol):
    """Plotext's laid-out chart: per row (0 at the bottom), a character and colours per cell."""

    rows: int
    marker: list[list[str]]
    fullground: list[list[object]]
    style: list[list[object]]
    background: list[list[object]]


class _PlotextMonitor(Protocol):
    matrix: _PlotextMatrix


class _PlotextFigure(Protocol):
    """The parts of a plotext figure that ``build()`` uses (textual-plotext's stubs omit them)."""

    monitor: _PlotextMonitor

    def _set_sizes(self) -> None: ...

    def _build_matrix(self) -> None: ...


def draw_lines(draw: Draw, canvas: Canvas) -> tuple[Strip, ...]:
    """The figure ``draw`` draws, built by plotext at ``canvas`` and cut into lines.

    Plotext lays the chart out as a matrix of characters with a colour triple each, then
    writes it out as ANSI text; decoding that text again (Rich's ``Text.from_ansi``) and
    wrapping it into lines cost twice the layout. The lines are built from the matrix
    instead, one segment per run of equal colours, each colour triple decoded once by Rich
    from the very escape codes plotext would write: the same segments, about 3x faster
    (a test compares them with the decoded text's, figure by figure and theme by theme).

    Safe off the UI thread: a fresh plot, no console (only styles are kept in the lines;
    Textual paints them in the app's colours).
    """
    plot = Plot()
    draw(plot, canvas)
    plot.plotsize(canvas.width, canvas.height)
    plot._set_size(canvas.width, canvas.height)  # as textual-plotext sizes its own plot
    plot.theme(canvas.theme)
    figure = cast(_PlotextFigure, plot)
    figure._set_sizes()  # what plot.build() does, short of writing the ANSI text
    figure._build_matrix()
    matrix = figure.monitor.matrix
    lines = []
    for row in reversed(range(matrix.rows)):  # plotext's row 0 is the bottom one
        markers = matrix.marker[row]
        segments = []
        start = 0
        for colours, run in groupby(
            zip(matrix.fullground[row], matrix.style[row], matrix.background[row], strict=True)
        ):
            end = start + sum(1 for _ in run)
            segments.append(Segment("".join(markers[start:end]), _style(colours)))
            start = end
        lines.append(Strip(segments, canvas.width))
    return tuple(lines)


CHROME_ROWS = 5
"""Rows of a chart that are not its plotting area: the title, the top and bottom borders, the
x ticks' labels and the x label."""


def plot_rows(canvas: Canvas) -> int:
    """Rows of the plotting area of a chart (with a title and an x label) on ``canvas``."""
    return max(2, canvas.height - CHROME_ROWS)


@dataclass(frozen=True)
class Ticks:
    """Ticks of an axis and the limits that put each on a row, the same rows apart."""

    values: tuple[float, ...]
    limits: tuple[float, float]


SPARSE_ROWS = 4
"""Rows between two labels beyond which each further row counts as wasted."""


def even_ticks(low: float, high: float, steps: Sequence[float], rows: int) -> Ticks:
    """Ticks at multiples of one of ``steps`` around ``[low, high]``, evenly on ``rows`` rows.

    Plotext puts a tick on the row nearest its value and drops one that would touch the
    previous label, so ticks chosen without the height came out uneven (100%, 10%, 0.01%,
    0.001%). Here every tick is the same number of rows (at least 2) after the previous one:
    the limits are stretched, on the side away from 0, by the rows that do not divide evenly.
    Of the steps (increasing) that fit, the one wasting the fewest rows is taken: the rows
    left over, plus those between labels beyond :data:`SPARSE_ROWS`; the smallest step of
    those, and 3 labels or more when the rows allow.
    """
    gaps = rows - 1
    most = max(1, gaps // 2)
    best: tuple[tuple[bool, int, float], int, int, float] | None = None
    for step in steps:
        first = math.floor(low / step)
        last = max(math.ceil(high / step), first + 1)
        count = last - first
        if count > most:
            continue
        per_tick = max(1, gaps // count)
        slack = gaps - count * per_tick
        key = (count < 2 <= most, slack + max(0, per_tick - SPARSE_ROWS), step)
        if best is None or key < best[0]:
            best = (key, first, last, step)
        if count == 1:
            break  # every larger step gives one interval too
    if best is None:  # no step fits: the largest, its labels as close as they come
        step = steps[-1]
        first = math.floor(low / step)
        last = max(math.ceil(high / step), first + 1)
    else:
        _, first, last, step = best
    count = last - first
    per_tick = max(1, gaps // count)
    extra = max(0, gaps - count * per_tick) / per_tick * step
    bottom, top = first * step, last * step
    limits = (bottom - extra, top) if top <= 0 else (bottom, top + extra)
    return Ticks(tuple(float(i * step) for i in range(first, last + 1)), limits)


@cache
def _style(colours: tuple[object, object, object]) -> Style:
    """The style plotext's escape codes for ``(foreground, style, background)`` give."""
    decoded = Text.from_ansi(colors_to_ansi(*colours) + "x")
    if not decoded.spans:
        return Style.null()
    style = decoded.spans[0].style
    return style if isinstance(style, Style) else Style.parse(style)


def drawn(figure: Hashable, draw: Draw, canvas: Canvas | None) -> DrawnChart | None:
    """``draw``'s chart built for ``canvas`` (None without a canvas, or an empty one)."""
    if canvas is None or canvas.width <= 0 or canvas.height <= 0:
        return None
    return DrawnChart(figure, canvas, draw_lines(draw, canvas))


class CachedPlot(PlotextPlot):
    """A plotext plot painted from lines built once per figure, size and theme (Line API).

    :meth:`show` gives it a figure to draw; lines already built for it (off the UI thread)
    are used as they are when they fit the plot's canvas.
    """

    built_here: int = 0
    """Charts this widget built itself (on the UI thread) rather than a worker."""

    painted: Hashable = None
    """The figure of the last line painted (None before the first)."""

    _figure: Hashable = None
    _draw: Draw | None = None
    _drawn: DrawnChart | None = None
    _handed: DrawnChart | None = None
    """The worker's chart last handed to :meth:`show`, released once painted."""

    def canvas(self) -> Canvas:
        """The plot's size and plotext theme now (read it on the UI thread)."""
        return Canvas(
            self.size.width, self.size.height, self._get_plotext_theme_name(self.app.theme)
        )

    def show(self, figure: Hashable, draw: Draw, built: DrawnChart | None = None) -> None:
        """Show the figure ``draw`` draws; ``built``: its lines, if a worker built them."""
        self._figure = figure
        self._draw = draw
        if self._handed is not None and self._handed is not built:
            self._handed.release()  # superseded before it was painted
        self._handed = built
        if built is not None and built.figure == figure:
            self._drawn = built
        self.refresh()

    def release_unless_shown(self, built: DrawnChart | None) -> None:
        """Release ``built`` unless it waits here to be painted.

        It waits if its figure was new and the plot was on screen (Textual's
        ``is_on_screen``: in the last screen update).
        """
        if built is not None and (built is not self._handed or not self.is_on_screen):
            built.release()

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the chart (blank below it, and before the first figure)."""
        lines = self._lines()
        if lines:
            self.painted = self._figure
        if self._handed is not None and y >= self.size.height - 1:  # the whole chart is out
            self._handed.release()
            self._handed = None
        return lines[y] if 0 <= y < len(lines) else Strip.blank(self.size.width)

    def _lines(self) -> tuple[Strip, ...]:
        """The chart's lines, built here only for a new figure, size or theme."""
        canvas = self.canvas()
        now = self._drawn
        if now is None or now.figure != self._figure or now.canvas != canvas:
            if self._draw is None:
                return ()
            now = drawn(self._figure, self._draw, canvas)
            if now is None:
                return ()
            self._drawn = now
            self.built_here += 1
        return now.lines
