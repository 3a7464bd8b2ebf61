"""The choose view's red target line is labelled with the target, however short the plot.

Newcomer review: at 80x24 the plot has a few rows for ten decades, and the red line of the
default target (P(loss) <= 0.010%) was drawn on the row labelled 0.001%. Where the line falls
on a decade label's row, that row now carries the target's own value.
"""

from __future__ import annotations

from rich.text import Text

from planner.analysis.recommend import DEFAULT_TARGET, recommendation
from planner.report.percentages import format_percent
from planner.scenario import load_default_scenario
from planner.tui.choose import front_figure, start_index
from planner.tui.plot import Canvas, draw_lines


def _rows(width: int, height: int) -> list[str]:
    report = recommendation(load_default_scenario(), None, (), DEFAULT_TARGET)
    draw = lambda plt, canvas: front_figure(report, start_index(report), plt, canvas)  # noqa: E731
    lines = draw_lines(draw, Canvas(width, height, "textual-dark"))
    return [Text("").join(Text(s.text) for s in line).plain for line in lines]


def _label_of_the_line(rows: list[str]) -> str:
    """The y label on the row the horizontal target line crosses (a run of '─')."""
    (row,) = [r for r in rows if "─" * 20 in r and ("├" in r or "┤" in r)]
    return row.split("├")[0].split("┤")[0].strip()


def test_the_target_line_row_reads_the_target_at_80x24_and_120x40() -> None:
    target = format_percent(DEFAULT_TARGET.max_p_loss or 0.0)  # 0.010%
    assert _label_of_the_line(_rows(80, 11)) == target  # the 80x24 screen's plot (0.001% before)
    # on a tall plot the line lies on the 0.01% decade itself: its own label stays
    assert _label_of_the_line(_rows(118, 26)) == "0.01%"
