"""The tornado as a terminal bar chart: P(loss) on a log scale around the base, per input.

For each input the chart draws the change of the aggregate's P(loss) on a log scale around
the base value: left of the centre line is lower risk, right is higher; the "input x low"
case in one colour, "input x high" in another. ``planner sensitivity`` prints it under the
table (:mod:`planner.report.sensitivity`); the TUI's sensitivity view shows it too.
"""

from __future__ import annotations

import math
from itertools import groupby
from typing import TYPE_CHECKING

from planner.report.numbers import ratio_column

if TYPE_CHECKING:
    from rich.text import Text

    from planner.analysis.sensitivity import SensitivityReport
    from planner.core.design.sensitivity import TornadoBar

LOW_STYLE = "cyan"
"""Colour of the "input x low factor" side of each bar."""

HIGH_STYLE = "magenta"
"""Colour of the "input x high factor" side of each bar."""

CHART_CELLS = (20, 60)
"""Least and most terminal cells of the chart's bars (both sides)."""


def _decades(report: SensitivityReport) -> float:
    """Half the chart's span: the largest change of log10 P(loss), at least 0.1 decade."""
    base = report.sensitivity.p_loss_aggregate
    changes = [
        abs(math.log10(p / base))
        for b in report.sensitivity.bars
        for p in (b.p_loss_low, b.p_loss_high)
        if p > 0 and base > 0
    ]
    return max([0.1, *changes])


def _side(half: int, decades: float, base: float, cases: list[tuple[float, str]]) -> list[str]:
    """Styles of the ``half`` cells right of the centre for the cases above the base.

    Longer bars are painted first so a shorter one on the same side stays visible.
    """
    cells = [""] * half
    lengths = [
        (min(half, round(abs(math.log10(p / base)) / decades * half)), style)
        for p, style in cases
        if p > 0 and base > 0
    ]
    for length, style in sorted(lengths, reverse=True):
        cells[:length] = [style] * length
    return cells


def _bar(bar: TornadoBar, base: float, half: int, decades: float) -> Text:
    from rich.text import Text

    cases = [(bar.p_loss_low, LOW_STYLE), (bar.p_loss_high, HIGH_STYLE)]
    right = _side(half, decades, base, [(p, s) for p, s in cases if p > base])
    left = _side(half, decades, base, [(base * base / p, s) for p, s in cases if 0 < p < base])
    text = Text()
    # One span per run of a style, not per cell: fewer spans to render.
    for cells, centre in ((left[::-1], "│"), (right, "")):
        for style, run in groupby(cells):
            text.append(("█" if style else " ") * len(list(run)), style=style)
        if centre:
            text.append(centre, style="dim")
    return text


def tornado_chart(report: SensitivityReport, max_width: int | None = None) -> Text:
    """Bars of log P(loss) around the base value, one per input, an axis and a legend.

    Laid out as text, column by column (a Rich table measures and renders each cell twice,
    which made the chart most of the TUI's sensitivity frame).
    """
    from rich.text import Text

    s = report.sensitivity
    bars = [report.figures[b.parameter] for b in s.bars]
    names = [bar.field.name for bar in bars]
    base = s.p_loss_aggregate
    changes = [f"{_ratio(bar.risk_low)} {_ratio(bar.risk_high)}" for bar in bars]
    fixed = max(len(n) for n in names) + max(len(c) for c in changes) + 4
    width = CHART_CELLS[1] if max_width is None else max_width - fixed
    half = max(CHART_CELLS[0], min(CHART_CELLS[1], width)) // 2
    decades = _decades(report)
    span = 10**decades
    axis = f"÷{span:.3g}".ljust(half - 1) + "base" + f"×{span:.3g}".rjust(half - 2)
    rows = [
        *(
            (Text(name), _bar(bar, base, half, decades), Text(change, style="dim"))
            for name, bar, change in zip(names, s.bars, changes, strict=True)
        ),
        (Text(), Text(axis, style="dim"), Text()),
    ]
    widths = [max(row[i].cell_len for row in rows) for i in range(3)]
    lines = [
        Text(" ").join(_padded(cell, w) for cell, w in zip(row, widths, strict=True))
        for row in rows
    ]
    legend = Text()
    legend.append("█", style=LOW_STYLE)
    legend.append(f" input ×{s.low_factor:g}  ")
    legend.append("█", style=HIGH_STYLE)
    legend.append(f" input ×{s.high_factor:g}: P(loss) of the aggregate, log scale")
    lines.append(legend)
    total = max(line.cell_len for line in lines)
    return Text("\n").join(_padded(line, total) for line in lines)


def _ratio(ratio: float) -> str:
    return ratio_column([ratio])[0]


def _padded(text: Text, width: int) -> Text:
    """``text`` with spaces after it up to ``width`` cells (a table cell's padding)."""
    return text + " " * (width - text.cell_len) if text.cell_len < width else text
