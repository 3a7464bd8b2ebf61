"""Log-axis tick labels as plain text: the labels matplotlib's math text would draw."""

from __future__ import annotations

import pytest

from planner.report.log_ticks import plain_label, plain_log_ticks


@pytest.mark.parametrize(
    ("math_text", "plain"),
    [
        (r"$\mathdefault{10^{-6}}$", "10⁻⁶"),
        (r"$\mathdefault{10^{0}}$", "10⁰"),
        (r"$\mathdefault{10^{12}}$", "10¹²"),
        (r"$\mathdefault{2\times10^{-6}}$", "2×10⁻⁶"),
        (r"$\mathdefault{-5\times10^{3}}$", "-5×10³"),
        (r"$\mathdefault{1}$", "1"),
        (r"$\mathdefault{10^{-6.50}}$", r"$\mathdefault{10^{-6.50}}$"),  # stays math text
        ("", ""),
        ("0.5", "0.5"),
    ],
)
def test_a_label_reads_as_math_text_draws_it(math_text: str, plain: str) -> None:
    assert plain_label(math_text) == plain


def test_the_same_ticks_get_labels_as_matplotlibs_own() -> None:
    """Over many decades, a few, and under one (where minor ticks carry labels)."""
    pytest.importorskip("matplotlib")
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure
    from matplotlib.ticker import LogFormatterSciNotation

    def labels(axis: Axis) -> list[str]:
        # what the axis does before it draws: each formatter sees its locator's ticks
        major = axis.get_major_formatter().format_ticks(axis.get_major_locator()())
        minor = axis.get_minor_formatter().format_ticks(axis.get_minor_locator()())
        return [*major, *minor]

    axes = Figure().subplots()
    axes.set_yscale("log")
    for bottom, top in ((1e-30, 1.0), (1e-7, 1.0), (2e-6, 9e-6)):
        axes.set_ylim(bottom, top)
        axes.yaxis.set_major_formatter(LogFormatterSciNotation())
        axes.yaxis.set_minor_formatter(LogFormatterSciNotation())
        own = labels(axes.yaxis)
        plain_log_ticks(axes.yaxis)
        plain = labels(axes.yaxis)
        assert [plain_label(label) for label in own] == plain
        assert any(plain)
        assert not any("$" in label for label in plain)
