"""Parameter sweeps: ranges, applying a value to the inputs, rows and their columns."""

import dataclasses
import math

import numpy as np
import pytest

from planner.core.design.sweep import (
    Parameter,
    SweepPoint,
    SweepRow,
    group_size_sweep,
    parameter_points,
    parameter_values,
    sweep,
)
from planner.core.design.sweep_points import AGEING_PARAMETERS, ENCLOSURE_PARAMETERS
from planner.core.markov.rates import PAPER_RATES, Rates
from planner.core.markov.transient import p_loss_aggregate, p_loss_group

FIVE_YEARS = 5 * 8760.0
BASE = SweepPoint(PAPER_RATES, FIVE_YEARS, 42)


def parameter_sweep(
    parameter: Parameter | str, values: list[float], parities: list[int], sizes: range | list[int]
) -> list[SweepRow]:
    """The CLI's parameter sweep: every value crossed with every even-dividing layout."""
    points = parameter_points(BASE, parameter, values)
    return sweep(points, [(k, n) for k in parities for n in sizes], include_uneven=False).rows()


def test_linear_range_arr_1_to_5_percent_in_9_steps() -> None:
    values = parameter_values(0.01, 0.05, 9)
    assert values == pytest.approx([0.01 + 0.005 * i for i in range(9)], rel=1e-12)
    assert (values[0], values[-1]) == (0.01, 0.05)


def test_log_range_hits_decades_and_endpoints_exactly() -> None:
    values = parameter_values(1e-6, 1e-3, 4, log=True)
    assert values == pytest.approx([1e-6, 1e-5, 1e-4, 1e-3], rel=1e-12)
    assert (values[0], values[-1]) == (1e-6, 1e-3)


def test_single_value_range() -> None:
    assert parameter_values(12.0, 12.0, 1) == [12.0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((1.0, 2.0, 0, False), "at least 1"),
        ((1.0, 2.0, 1, False), "start == stop"),
        ((0.0, 2.0, 3, True), "positive"),
        ((1.0, math.nan, 3, False), "finite"),
    ],
)
def test_bad_ranges(args: tuple[float, float, int, bool], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parameter_values(*args)


@pytest.mark.parametrize(
    ("parameter", "value", "check"),
    [
        ("arr", 0.03, lambda p: p.rates.op_failures_per_hour == 0.03 / 8760),
        ("op_failures_per_hour", 4e-6, lambda p: p.rates.op_failures_per_hour == 4e-6),
        ("latent_defects_per_hour", 1e-5, lambda p: p.rates.latent_defects_per_hour == 1e-5),
        ("rebuild_hours", 24.0, lambda p: p.rates.rebuild_hours == 24.0),
        ("scrub_hours", 336.0, lambda p: p.rates.scrub_hours == 336.0),
        ("mission_hours", 8760.0, lambda p: p.mission_hours == 8760.0),
        ("data_disks", 84.4, lambda p: p.data_disks == 84 and p.value == 84.0),
    ],
)
def test_with_value_sets_one_input(parameter: str, value: float, check: object) -> None:
    point = BASE.with_value(parameter, value)
    assert callable(check)
    assert check(point)
    assert point.varied == parameter
    assert point.value_of(parameter) == pytest.approx(value if parameter != "data_disks" else 84)
    untouched = [
        p
        for p in Parameter
        if p.value != parameter
        and {p.value, parameter} != {"arr", "op_failures_per_hour"}
        and p not in AGEING_PARAMETERS  # the ageing figures' inputs: no point holds them
        and p not in ENCLOSURE_PARAMETERS  # BASE has no enclosures (tests/core/test_domains.py)
    ]
    for other in untouched:
        assert point.value_of(other) == BASE.value_of(other)


def test_with_value_rejects_what_the_model_rejects() -> None:
    with pytest.raises(ValueError, match="rebuild_hours"):
        BASE.with_value(Parameter.REBUILD_HOURS, -1.0)
    with pytest.raises(ValueError, match="mission_hours"):
        BASE.with_value(Parameter.MISSION_HOURS, -1.0)
    with pytest.raises(ValueError, match="finite"):
        BASE.with_value(Parameter.DATA_DISKS, math.inf)
    with pytest.raises(ValueError, match="colour"):
        BASE.with_value("colour", 1.0)


def test_parameter_sweep_crossed_with_group_size() -> None:
    values = parameter_values(6.0, 48.0, 8)
    rows = parameter_sweep("rebuild_hours", values, [1, 2], range(2, 24))
    assert len(rows) == 8 * (7 + 7)
    assert [r.value for r in rows[::14]] == values
    assert all(r.varied == "rebuild_hours" for r in rows)
    for row in rows[::5]:
        rates = dataclasses.replace(PAPER_RATES, rebuild_hours=row.value)
        expected = p_loss_group(row.parity, row.group_size, rates, FIVE_YEARS)
        assert row.p_loss_group == pytest.approx(expected, rel=1e-12)
        assert row.p_loss_aggregate == pytest.approx(
            p_loss_aggregate(expected, row.groups), rel=1e-12
        )
    # longer rebuilds never help, for every layout
    for k, n in {(r.parity, r.group_size) for r in rows}:
        series = [r.p_loss_group for r in rows if (r.parity, r.group_size) == (k, n)]
        assert series == sorted(series)


def test_parameter_sweep_alone_for_one_layout() -> None:
    rows = parameter_sweep(Parameter.ARR, parameter_values(0.01, 0.05, 9), [2], [9])
    assert [(r.parity, r.group_size) for r in rows] == [(2, 9)] * 9
    assert [r.p_loss_aggregate for r in rows] == sorted(r.p_loss_aggregate for r in rows)


def test_varying_data_disks_changes_even_divisions() -> None:
    points = parameter_points(BASE, "data_disks", [42, 48])
    rows = sweep(points, [(2, n) for n in range(3, 24)], include_uneven=False)
    sizes = {d: [r.group_size for r in rows if r.data_disks == d] for d in (42, 48)}
    assert sizes[42] == [3, 4, 5, 8, 9, 16, 23]
    assert sizes[48] == [3, 4, 5, 6, 8, 10, 14, 18]
    assert all(r.data_disks % (r.group_size - r.parity) == 0 for r in rows)


def test_sizes_not_above_parity_are_skipped() -> None:
    rows = group_size_sweep([3], [2, 3, 4, 5], 6, PAPER_RATES, FIVE_YEARS, include_uneven=True)
    assert [r.group_size for r in rows] == [4, 5]
    assert len(sweep([BASE], [])) == 0


def test_rows_are_plain_values_of_the_columns() -> None:
    columns = group_size_sweep([1, 2], range(2, 24), 42, PAPER_RATES, FIVE_YEARS, True)
    rows = columns.rows()
    assert len(rows) == len(columns) == 2 * 22 - 1
    assert [r.p_loss_group for r in rows] == columns.p_loss_group.tolist()
    assert [r.groups for r in rows] == columns.groups.tolist()
    plain = rows[0]
    assert all(
        isinstance(v, int | float | bool | str) for v in vars(plain).values() if v is not None
    )
    assert isinstance(plain.overhead_disks, int)  # whole drives as an int, as tables count
    assert (plain.varied, plain.value) == (None, None)
    varied = parameter_sweep("scrub_hours", [84.0], [1], [8])[0]
    assert (varied.varied, varied.value) == ("scrub_hours", 84.0)


def test_take_reorders_every_column() -> None:
    columns = group_size_sweep([1], range(2, 10), 42, PAPER_RATES, FIVE_YEARS, True)
    order = np.arange(len(columns))[::-1]
    backwards = columns.take(order)
    assert backwards.rows() == columns.rows()[::-1]


def test_point_validation() -> None:
    with pytest.raises(ValueError, match="data_disks"):
        SweepPoint(PAPER_RATES, FIVE_YEARS, 0)
    with pytest.raises(ValueError, match="mission_hours"):
        SweepPoint(Rates(1e-6, 0.0, 12.0, 168.0), math.inf, 42)
