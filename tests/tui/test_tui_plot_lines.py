"""The charts' lines, built from plotext's matrix, are what its ANSI text decodes to.

The reference is the path textual-plotext itself takes (``Text.from_ansi(plot.build())``),
cut into lines by Rich: every segment's text and style must match, for each figure the TUI
draws, at several sizes, in plotext's themes (named, 256-colour and RGB colours).
"""

from __future__ import annotations

from functools import partial

import pytest
from pilot_helpers import SCENARIO
from rich.console import Console
from rich.segment import Segment
from rich.text import Text
from textual_plotext.plot import Plot

from planner.analysis.recommend import DEFAULT_TARGET, recommendation
from planner.analysis.sweep import group_size_series
from planner.scenario import load_default_scenario, load_scenario
from planner.tui.choose import front_figure, start_index
from planner.tui.plot import Canvas, Draw, draw_lines
from planner.tui.sweep import overhead_figure, risk_figure

THEMES = ["textual-dark", "textual-clear", "pro", "dark", "matrix", "retro", "default", "clear"]
SIZES = [(24, 8), (59, 30), (117, 17)]


def _figures() -> dict[str, Draw]:
    figures: dict[str, Draw] = {}
    for name, scenario in [("tui", load_scenario(SCENARIO)), ("default", load_default_scenario())]:
        series = group_size_series(scenario)
        report = recommendation(scenario, None, (), DEFAULT_TARGET)
        index = start_index(report)
        figures[f"{name}-risk"] = partial(risk_figure, series)
        figures[f"{name}-overhead"] = partial(overhead_figure, series)
        figures[f"{name}-front"] = partial(front_figure, report, index)
        figures[f"{name}-front-first"] = partial(front_figure, report, 0)
    return figures


FIGURES = _figures()


def reference_lines(draw: Draw, canvas: Canvas) -> list[list[Segment]]:
    """The chart as textual-plotext paints it: plotext's ANSI text decoded by Rich."""
    plot = Plot()
    draw(plot)
    plot.plotsize(canvas.width, canvas.height)
    plot._set_size(canvas.width, canvas.height)
    plot.theme(canvas.theme)
    console = Console(width=canvas.width, force_terminal=True, color_system="truecolor")
    options = console.options.update_dimensions(canvas.width, canvas.height)
    lines = console.render_lines(Text.from_ansi(plot.build()), options, pad=True)
    return [list(Segment.simplify(line)) for line in lines]


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("figure", sorted(FIGURES))
def test_lines_match_the_decoded_ansi_text(figure: str, theme: str) -> None:
    for width, height in SIZES:
        canvas = Canvas(width, height, theme)
        built = [list(Segment.simplify(list(line))) for line in draw_lines(FIGURES[figure], canvas)]
        reference = reference_lines(FIGURES[figure], canvas)
        assert len(built) == height
        assert built == reference, f"{figure} at {width}x{height} in {theme}"
        assert any(segment.style for line in built for segment in line)  # colours kept


@pytest.mark.parametrize(
    ("figure", "width", "title_word"),
    [
        ("default-risk", 50, "P(loss)"),  # the sweep's left chart at 80 columns is 53 wide
        ("default-overhead", 26, "Overhead"),  # and its right chart 27
        ("default-front", 78, "P(loss)"),
    ],
)
def test_each_chart_keeps_its_title_at_80_columns(figure: str, width: int, title_word: str) -> None:
    # Plotext drops a title wider than the chart: at 80 columns the sweep's risk chart
    # once showed no title at all.
    lines = draw_lines(FIGURES[figure], Canvas(width, 20, "textual-dark"))
    assert title_word in lines[0].text
