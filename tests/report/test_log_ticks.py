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


@pytest.mark.parametrize(("bottom", "top"), [(1e-30, 1.0), (1e-7, 1.0), (2e-6, 9e-6)])
def test_the_same_ticks_get_labels_as_matplotlibs_own(bottom: float, top: float) -> None:
    """Over many decades, a few, and under one (where minor ticks carry labels)."""
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    def labels(plain: bool) -> list[str]:
        figure = Figure(figsize=(4, 6), layout="constrained")
        axes = figure.subplots()
        axes.plot([0, 1], [bottom, top])
        axes.set_yscale("log")
        axes.set_ylim(bottom, top)
        if plain:
            plain_log_ticks(axes.yaxis)
        figure.draw_without_rendering()
        ticks = [*axes.yaxis.get_majorticklabels(), *axes.yaxis.get_minorticklabels()]
        return [tick.get_text() for tick in ticks]

    own, plain = labels(False), labels(True)
    assert [plain_label(label) for label in own] == plain
    assert any(plain)
    assert not any("$" in label for label in plain)
