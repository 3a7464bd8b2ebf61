"""Tornado ranking and the signs of the sensitivities (property tests)."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.design.sensitivity import DEFAULT_INPUTS, elasticities, tornado
from planner.core.design.sweep import Parameter, SweepPoint
from planner.core.markov.batch import p_loss_group_batch
from planner.core.markov.rates import PAPER_RATES, Rates
from planner.core.markov.transient import p_loss_aggregate, p_loss_group

YEAR = 8760.0
FIVE_YEARS = 5 * YEAR


def test_tornado_bars_for_the_paper_raid_dp_layout() -> None:
    point = SweepPoint(PAPER_RATES, FIVE_YEARS, 42)
    result = tornado(2, 9, point)
    assert result.groups == 6
    assert result.p_loss_group == pytest.approx(
        p_loss_group(2, 9, PAPER_RATES, FIVE_YEARS), rel=1e-12
    )
    assert result.p_loss_aggregate == pytest.approx(
        p_loss_aggregate(result.p_loss_group, 6), rel=1e-12
    )
    assert {b.parameter for b in result.bars} == set(DEFAULT_INPUTS)
    swings = [b.swing for b in result.bars]
    assert swings == sorted(swings, reverse=True)
    assert result.bars[0].parameter is Parameter.OP_FAILURES_PER_HOUR  # p ~ lambda^2..3
    for bar in result.bars:
        assert bar.low_value == pytest.approx(0.5 * bar.base_value)
        assert bar.high_value == pytest.approx(2.0 * bar.base_value)
        assert bar.p_loss_low < result.p_loss_aggregate < bar.p_loss_high
        assert bar.swing == pytest.approx(bar.p_loss_high - bar.p_loss_low)
        assert bar.elasticity > 0


def test_tornado_bar_values_are_recomputed_one_input_at_a_time() -> None:
    point = SweepPoint(PAPER_RATES, FIVE_YEARS, 42)
    result = tornado(
        1, 8, point, low_factor=0.25, high_factor=3.0, inputs=["rebuild_hours", "data_disks"]
    )
    bars = {b.parameter: b for b in result.bars}
    slow = dataclasses.replace(PAPER_RATES, rebuild_hours=36.0)
    p_slow = p_loss_group(1, 8, slow, FIVE_YEARS)
    assert bars[Parameter.REBUILD_HOURS].p_loss_high == pytest.approx(
        p_loss_aggregate(p_slow, 6), rel=1e-12
    )
    disks = bars[Parameter.DATA_DISKS]
    assert (disks.low_value, disks.high_value) == (11.0, 126.0)  # 42 x 0.25 = 10.5 -> 11
    p = result.p_loss_group
    assert disks.p_loss_low == pytest.approx(p_loss_aggregate(p, 2), rel=1e-12)  # ceil(11/7)
    assert disks.p_loss_high == pytest.approx(p_loss_aggregate(p, 18), rel=1e-12)
    assert disks.elasticity_group == 0.0


def test_aggregate_elasticity_for_small_probabilities_is_the_group_one() -> None:
    rates = Rates(1e-7, 1e-5, 12.0, 168.0)
    result = tornado(2, 9, SweepPoint(rates, FIVE_YEARS, 42))
    for bar in result.bars:
        if bar.parameter is Parameter.DATA_DISKS:
            assert bar.elasticity == pytest.approx(1.0, rel=1e-6)
        else:
            assert bar.elasticity == pytest.approx(bar.elasticity_group, rel=1e-6)


def test_tornado_rejects_bad_factors() -> None:
    with pytest.raises(ValueError, match="positive"):
        tornado(1, 8, SweepPoint(PAPER_RATES, FIVE_YEARS, 42), low_factor=0.0)


# k <= 2 only: for k >= 3 the model itself is not monotone in the latent defect rate or the
# scrub time (the drive holding a defect cannot fail, and a defect cannot be scrubbed while
# a drive is down), e.g. k = 4, N = 5, lambda_Op = 1e-5, lambda_Ld = 1e-3, rebuild 158 h,
# scrub 12 h: more defects, less risk. docs/paper-reproduction.md and
# tests/core/test_core_properties.py say the same.
layouts = st.integers(1, 2).flatmap(lambda k: st.tuples(st.just(k), st.integers(k + 1, 60)))
rates = st.tuples(
    st.floats(-8.0, -4.5),  # log10 operational failures per hour
    st.floats(-7.0, -3.0),  # log10 latent defects per hour
    st.floats(1.0, 200.0),  # rebuild hours
    st.floats(12.0, 2000.0),  # scrub hours
    st.floats(24.0, 10 * YEAR),  # mission hours
)


@settings(max_examples=60, deadline=None)
@given(layout=layouts, inputs=rates, factor=st.floats(1.01, 10.0))
def test_raising_a_risk_input_never_lowers_p_loss(
    layout: tuple[int, int], inputs: tuple[float, ...], factor: float
) -> None:
    """ARR, latent defect rate, rebuild hours and scrub hours: more is never safer."""
    parity, drives = layout
    base = [10 ** inputs[0], 10 ** inputs[1], inputs[2], inputs[3], inputs[4]]
    cases = np.array([base] * 5)
    for i in range(4):
        cases[i + 1, i] *= factor
    p = p_loss_group_batch(parity, drives, *cases.T)
    assert np.all(p[1:] >= p[0] * (1 - 1e-12))
    e = elasticities(parity, drives, *base)
    for parameter in (
        Parameter.ARR,
        Parameter.LATENT_DEFECTS_PER_HOUR,
        Parameter.REBUILD_HOURS,
        Parameter.SCRUB_HOURS,
    ):
        assert float(e[parameter]) >= -1e-9
