"""The spec sheet's reading beside the table, when it differs 2x or more (newcomer review #5).

A buyer reading only evaluate's table of 20 TB mirrors never learnt that the calculators'
reading of the spec sheet is ten times the table's P(loss). The readings are checked
against a 40-digit mpmath chain written here: the reference n+k chain without latent
defects, its critical rebuild ending in loss with the probability of an unreadable sector
among the bits it reads.
"""

from __future__ import annotations

from pathlib import Path

import mpmath
import reference
from typer.testing import CliRunner

from planner.analysis.compare import compare_data
from planner.analysis.recommend import recommendation
from planner.cli.app import app
from planner.core.arrays.layouts import Layout
from planner.report.recommend_summary import summary
from planner.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
TODAY = SCENARIOS / "today-20tb-nl-sas.yaml"


def _spec_sheet_p_loss(
    parity: int, drives: int, lop: float, rebuild_hours: float, capacity_tb: float, hours: float
) -> mpmath.mpf:
    """P(loss) of one group read the spec sheet's way (1e-15 per bit), at 40 digits."""
    with mpmath.workdps(40):
        bits = (drives - parity) * mpmath.mpf(capacity_tb) * 8e12
        p = -mpmath.expm1(-bits * mpmath.mpf(1e-15))
        return reference.p_loss_critical_moved(
            parity, drives, lop, 0, rebuild_hours, hours, unreadable=p
        )


def test_the_readings_of_todays_mirrors_and_raid6_match_the_reference_chain() -> None:
    scenario = load_scenario(TODAY)
    data = compare_data(scenario)
    spread = data.spec_sheet
    assert spread is not None
    rates = scenario.rates()
    by_label = {r.label: r for r in spread.readings}
    for result in data.comparison.results:
        layout = result.layout
        if layout.declustered is not None:
            continue  # the pool's critical stripes: tests/analysis/test_spec_sheet_pools.py
        expected = _spec_sheet_p_loss(
            layout.parity,
            layout.group_size,
            rates.op_failures_per_hour,
            rates.rebuild_hours,
            scenario.drive.capacity_tb or 0.0,
            scenario.mission_hours,
        )
        reading = by_label[layout.label]
        assert reference.relative_error(reading.p_loss_group, expected) < 1e-10
        groups = int(result.shape.groups)
        assert (
            reference.relative_error(
                reading.p_loss_aggregate, reference.aggregate(expected, groups)
            )
            < 1e-10
        )
        table = reference.p_loss(
            layout.parity,
            layout.group_size,
            rates.op_failures_per_hour,
            rates.latent_defects_per_hour,
            rates.rebuild_hours,
            rates.scrub_hours,
            scenario.mission_hours,
        )
        assert reference.relative_error(reading.ratio, expected / table) < 1e-10
    # the newcomer's case: a mirror of 20 TB drives, ten times the table's risk per group
    assert 9 < by_label["RAID 10"].ratio < 11


def test_evaluate_says_the_spec_sheets_reading_under_the_table() -> None:
    result = CliRunner().invoke(app, ["evaluate", str(TODAY), "--format", "markdown"])
    assert result.exit_code == 0, result.output
    scenario = load_scenario(TODAY)
    mirror = next(r for r in scenario.core_layouts() if r.label == "RAID 10")
    expected = reference.aggregate(
        _spec_sheet_p_loss(
            1, 2, scenario.rates().op_failures_per_hour, scenario.rebuild_hours, 20.0, 43_800.0
        ),
        96,
    )
    assert mirror.group_size == 2
    note = next(line for line in result.output.splitlines() if "web RAID calculators" in line)
    assert f"RAID 10 {float(expected) * 100:.0f}%" in note  # 76%, against the table's 13%
    assert "1e-15 per bit read" in note
    assert "scrub every 168 h" in note


def test_no_note_without_a_spec_sheet_or_where_the_readings_agree() -> None:
    paper = load_scenario(SCENARIOS / "ns3574-default.yaml")
    assert paper.drive.unrecoverable_read_errors_per_bit is None
    assert compare_data(paper).spec_sheet is None
    # a drive ten thousand times better than its class: both readings near the failures'
    # alone, within 2x of each other for every layout, so nothing to say
    agree = load_scenario(TODAY, ["drive.unrecoverable_read_errors_per_bit=1e-19"])
    assert compare_data(agree).spec_sheet is None


def test_recommend_says_its_choice_read_the_spec_sheets_way_misses_the_target() -> None:
    """recommend-400tb's choice, a three-way mirror, meets 0.010% in the table, not so read."""
    scenario = load_scenario(SCENARIOS / "recommend-400tb.yaml")
    searched = [Layout("mirror3 3", "mirror3", 2, 3), Layout("raid10 2", "raid10", 1, 2)]
    found = recommendation(scenario, searched)
    assert found.top is not None
    assert found.top.layout.group_size == 3
    assert found.spec_sheet is not None
    reading = found.spec_sheet.readings[0]
    rates = scenario.rates()
    expected = _spec_sheet_p_loss(
        2, 3, rates.op_failures_per_hour, rates.rebuild_hours, 20.0, scenario.mission_hours
    )
    aggregate = reference.aggregate(expected, found.top.groups)
    assert reference.relative_error(reading.p_loss_aggregate, aggregate) < 1e-10
    assert aggregate > 1e-4 > found.top.p_loss_aggregate  # the target's 0.010%, both ways
    words = next(line for line in summary(found) if "web RAID calculators" in line)
    assert f"mirror3 3's P(loss) would be {float(aggregate) * 100:.2g}%" in words
    assert "over the target's 0.010%" in words
