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
import re
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import plotext  # type: ignore[import-untyped]
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.strip import Strip
from textual_plotext import PlotextPlot
from textual_plotext.plot import Plot

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Canvas:
    """Where a chart is painted: the plot widget's size and its colours."""

    width: int
    height: int
    theme: str
    """A plotext theme's name (its colours, unless :attr:`colours` overrides them)."""
    colours: tuple[RGB, RGB, RGB] | None = None
    """The canvas, axes and ticks colours, or None for the theme's own; a plot whose
    textual-plotext theme is ``auto`` takes the app theme's surface and foreground, as
    textual-plotext does."""


Draw = Callable[[Plot, Canvas], None]
"""Plotext calls that draw a figure on a cleared plot (``plt.plot(...)``, ``plt.title(...)``);
they get the canvas too, to choose ticks for its rows (:func:`even_ticks`). The plot is
plotext's module-level API (:func:`draw_lines`), typed by textual-plotext's ``Plot``,
which has the same methods."""


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


PLOTEXT_LOCK = threading.Lock()
"""Plotext's module-level figure is one for the process: one chart is built at a time."""


def draw_lines(draw: Draw, canvas: Canvas) -> tuple[Strip, ...]:
    """The figure ``draw`` draws, built by plotext at ``canvas`` and cut into lines.

    Drawn with plotext's module-level API on its one figure, cleared first and sized to the
    canvas, not to the terminal (plotext would cut a chart to the terminal's size, which it
    reads from the standard output: not the app's size when that is not a terminal).
    Plotext writes the chart as ANSI text, decoded by :func:`ansi_lines`.

    Safe off the UI thread: no console (only styles are kept in the lines; Textual paints
    them in the app's colours).
    """
    with PLOTEXT_LOCK:
        plotext.clear_figure()
        plotext.limit_size(False, False)
        draw(plotext, canvas)
        plotext.plot_size(canvas.width, canvas.height)
        plotext.theme(canvas.theme)
        if canvas.colours is not None:
            canvas_colour, axes_colour, ticks_colour = canvas.colours
            plotext.canvas_color(canvas_colour)
            plotext.axes_color(axes_colour)
            plotext.ticks_color(ticks_colour)
        ansi: str = plotext.build()
    return ansi_lines(ansi, canvas.width, canvas.height)


SGR = re.compile(r"(\x1b\[[0-9;]*m)")
"""An ANSI "select graphic rendition" escape code (a colour or text style)."""

RESETS = frozenset({"\x1b[0m", "\x1b[m"})


def ansi_lines(ansi: str, width: int, height: int) -> tuple[Strip, ...]:
    """``ansi`` (plotext's chart) as ``height`` lines of ``width`` cells.

    What Rich's ``Text.from_ansi`` decodes (a test compares the two), faster: plotext writes
    codes for every run of one colour, which Rich's decoder would parse run by run; here
    each distinct run of codes since the last reset is decoded once (:func:`_ansi_style`).
    """
    lines = []
    codes = ""
    for row in ansi.split("\n")[:height]:
        segments = []
        for token in SGR.split(row):
            if token.startswith("\x1b["):
                codes = "" if token in RESETS else codes + token
            elif token:
                segments.append(Segment(token, _ansi_style(codes)))
        lines.append(Strip(segments).adjust_cell_length(width))
    lines += [Strip.blank(width)] * (height - len(lines))
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


@lru_cache(maxsize=1024)
def _ansi_style(codes: str) -> Style:
    """The style ANSI escape ``codes`` give, as Rich decodes them."""
    decoded = Text.from_ansi(codes + "x")
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
        """The plot's size and colours now (read it on the UI thread).

        A theme of ``auto`` (textual-plotext's default) takes the app theme's colours: its
        surface behind the chart and for the axes, its foreground for the ticks.
        """
        width, height = self.size
        if self.theme != "auto":
            return Canvas(width, height, self.theme)
        colours = self.app.theme_variables
        surface = Color.parse(colours["surface"]).rgb
        return Canvas(
            width, height, "default", (surface, surface, Color.parse(colours["foreground"]).rgb)
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
