"""A scenario's ageing section, from the file to the figures.

The two forms and their conventions (a table's ARR by year; a Weibull without a scale has
the drive's rate in its first year), the one-line errors with their places and limits,
and the ageing figures of ``evaluate`` checked against the core's chain on the same
inputs, with a table equal to the constant rate giving the constant-rate figure.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.analysis.compare import comparison
from planner.cli import app
from planner.core.markov.ageing import HazardTable, WeibullHazard
from planner.scenario import ScenarioError, load_scenario

ROOT = Path(__file__).resolve().parents[2]
AGEING = ROOT / "scenarios" / "ageing-fleet.yaml"


def test_the_two_forms_and_their_conventions() -> None:
    table = load_scenario(
        AGEING, ["ageing={arr_by_year: [1%, 2.5%, 4%], drive_age_years_at_start: 2}"]
    )
    ageing = table.core_ageing()
    assert ageing is not None
    assert isinstance(ageing.law, HazardTable)
    assert ageing.law.failures_per_hour == pytest.approx((0.01 / 8760, 0.025 / 8760, 0.04 / 8760))
    assert ageing.age_at_start_hours == 2 * 8760
    derived = load_scenario(AGEING, ["ageing={weibull: {shape: 1.48}}"]).core_ageing()
    assert derived is not None
    assert isinstance(derived.law, WeibullHazard)
    assert derived.law.cumulative_hazard(8760.0) == pytest.approx(0.0392, rel=1e-12)  # drive.arr


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        (["ageing={arr_by_year: [1%], weibull: {shape: 2}}"], "ageing.weibull", "not both"),
        (["ageing={drive_age_years_at_start: 2}"], "ageing", "give the failure rate by age"),
        (["ageing={weibull: {shape: 12}}"], "ageing.weibull.shape", "at a Weibull shape of 10"),
        (["ageing.drive_age_years_at_start=-1"], "ageing.drive_age_years_at_start", "negative"),
        (["ageing={weibull: {shape: 5}}", "mission_years=40"], "ageing", "failures per drive-year"),
    ],
)
def test_bad_ageing_is_one_line(overrides: list[str], field: str, words: str) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenario(AGEING, overrides)
    assert info.value.field == field
    assert words in info.value.message
    sets = [part for text in overrides for part in ("--set", text)]
    result = CliRunner().invoke(app, ["evaluate", str(AGEING), *sets])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_a_table_of_the_constant_rate_gives_the_constant_figure() -> None:
    """ARR by year all equal to drive.arr: one piece, P(loss) ageing = P(loss), x 1."""
    flat = load_scenario(
        AGEING, ["ageing={arr_by_year: [3.92%, 3.92%], drive_age_years_at_start: 3}"]
    )
    for row in comparison(flat).results:
        assert row.aged is not None
        # the one-piece chain on the stack's path against evaluate's one-layout path
        assert row.aged.p_loss_aggregate == pytest.approx(row.p_loss_aggregate, rel=1e-14)
        assert row.aged.p_loss_aggregate_low == row.aged.p_loss_aggregate_high
        assert row.aged.pieces == 1
        assert row.aged.factor == pytest.approx(1.0, rel=1e-14)
    rising = comparison(
        load_scenario(AGEING, ["ageing={weibull: {shape: 1.48, scale_hours: 116000}}"])
    )
    for row in rising.results:
        assert row.aged is not None
        assert row.aged.p_loss_aggregate_low <= row.aged.p_loss_aggregate
        assert row.aged.p_loss_aggregate <= row.aged.p_loss_aggregate_high
        assert row.aged.converged
        width = row.aged.p_loss_group_high - row.aged.p_loss_group_low
        assert width <= 0.01 * row.aged.p_loss_group
        assert math.isclose(row.aged.factor, row.aged.p_loss_aggregate / row.p_loss_aggregate)


def test_the_ageing_figure_is_among_the_columns_at_120() -> None:
    """Newcomer review: at 120 columns evaluate showed "× ageing" but not P(loss) ageing,
    the figure the section is for (it appeared at ~250 columns)."""
    shipped = ROOT / "scenarios" / "ageing-fleet.yaml"
    result = CliRunner().invoke(app, ["evaluate", str(shipped)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.stderr
    lines = [line.strip("┃").split("┃") for line in result.stdout.splitlines() if line[0] == "┃"]
    headers = [" ".join(" ".join(parts).split()) for parts in zip(*lines, strict=True)]
    # the section's headline beside the risk it qualifies, as in the TUI (column_choice)
    at = headers.index("P(loss) aggregate")
    assert headers[at + 1] == "P(loss) ageing", headers


def test_the_notes_say_what_ageing_changes_and_what_it_does_not() -> None:
    """Second newcomer review: the ageing note promised a bracket "within 1%" where the
    column read "exact" (a table by year), and the tornado of an ageing scenario ranked
    drive.arr with no word that it keeps the constant rate."""
    shipped = ROOT / "scenarios" / "ageing-fleet.yaml"
    table = CliRunner().invoke(app, ["evaluate", str(shipped)], env={"COLUMNS": "200"})
    words = " ".join(table.stdout.split())
    assert "a table by year is exact" in words
    assert "within 1%" not in words
    tornado = CliRunner().invoke(app, ["sensitivity", str(shipped)], env={"COLUMNS": "200"})
    assert tornado.exit_code == 0, tornado.stderr
    words = " ".join(tornado.stdout.split())
    assert "the tornado keeps the constant rate" in words
