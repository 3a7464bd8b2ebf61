"""The numeric limits of a scenario: refused outside, evaluated exactly inside.

Each refused value below came from a fault probe (issue 13, item 3): it validated, then
``evaluate`` exited 1, printed numpy warnings or wrote NaN to JSON. Inside the limits
(planner.scenario.limits) every corner of the box evaluates to a finite probability without a
floating-point warning, checked against the shared mpmath chain (tests/reference.py) at 120
digits for double parity.
"""

from __future__ import annotations

import itertools
import math
import warnings

import mpmath
import pytest

from planner.core.markov.rates import HOURS_PER_YEAR, Rates, arr_to_failures_per_hour
from planner.core.markov.transient import mttdl_hours, p_loss_aggregate, p_loss_group
from planner.scenario import ScenarioError, load_default_scenario
from planner.scenario.limits import (
    MAX_MTBF_HOURS,
    MIN_FRACTION_PER_YEAR,
    MIN_MISSION_YEARS,
    MIN_RESTORE_HOURS,
)
from tests import reference

REFUSED = [
    ("drive.arr=5e-324", "drive.arr", "at least 0.0001% = 1e-06", "million drive-years"),
    ("drive.arr=1e-300", "drive.arr", "at least 0.0001% = 1e-06", "million drive-years"),
    ("drive.arr=0.00001%", "drive.arr", "at least 0.0001% = 1e-06", "million drive-years"),
    ("drive.afr=1e-300", "drive.afr", "at least 0.0001% = 1e-06", "million drive-years"),
    ("drive.mtbf_hours=1e300", "drive.mtbf_hours", "at most 1e+10 hours", "beyond any drive"),
    ("restore.rebuild_hours=1e-100", "restore.rebuild_hours", "at least 0.001 hours", "seconds"),
    ("restore.rebuild_hours=5e-324", "restore.rebuild_hours", "at least 0.001 hours", "seconds"),
    ("restore.scrub_hours=1e-300", "restore.scrub_hours", "at least 0.001 hours", "seconds"),
    ("mission_years=1e-300", "mission_years", "at least 0.001 years", "9 hours"),
    ("drive.latent_defects_per_hour=1", "drive.latent_defects_per_hour", "less than 1", ""),
    # planner size once asked for 3.6e+303 drives of 1e-300 IOPS
    ("drive.iops_per_drive=1e-300", "drive.iops_per_drive", "at least 1", "one random I/O"),
    ("drive.usable_fraction=1e-300", "drive.usable_fraction", "at least 0.01", "1%"),
    ("drive.capacity_tb=1e-300", "drive.capacity_tb", "at least 0.001 TB", "a gigabyte"),
]


@pytest.mark.parametrize(("override", "field", "limit", "reason"), REFUSED)
def test_values_the_engine_cannot_evaluate_are_refused_with_the_range(
    override: str, field: str, limit: str, reason: str
) -> None:
    with pytest.raises(ScenarioError) as info:
        load_default_scenario([override])
    error = info.value
    assert error.field == field
    assert limit in error.message
    assert reason in error.message
    text = str(error)
    assert "\n" not in text
    assert len(text) < 300


def test_the_limits_themselves_are_accepted() -> None:
    scenario = load_default_scenario(
        [
            f"drive.arr={MIN_FRACTION_PER_YEAR!r}",
            f"restore.rebuild_hours={MIN_RESTORE_HOURS!r}",
            f"restore.scrub_hours={MIN_RESTORE_HOURS!r}",
            f"mission_years={MIN_MISSION_YEARS!r}",
        ]
    )
    assert scenario.rates().rebuild_hours == MIN_RESTORE_HOURS
    assert load_default_scenario([f"drive.mtbf_hours={MAX_MTBF_HOURS!r}"]).drive.mtbf_hours


def test_a_derived_rebuild_faster_than_the_limit_is_refused() -> None:
    # 1 GB at 100,000 MB/s: 0.01 s of rebuild, a rate of 3.6e5 per hour.
    with pytest.raises(ScenarioError) as info:
        load_default_scenario(["drive.capacity_tb=0.001", "restore.rebuild_mb_per_s=100000"])
    assert info.value.field == "restore.rebuild_mb_per_s"
    assert "at least 0.001 hours" in info.value.message


def test_a_latent_defect_product_of_one_per_hour_or_more_is_refused() -> None:
    # 1e-6 errors per byte x 1e12 bytes per hour = 1e6 defects per drive-hour.
    with pytest.raises(ScenarioError) as info:
        load_default_scenario(["drive.read_errors_per_byte=1e-6", "drive.bytes_read_per_hour=1e12"])
    assert info.value.field == "drive.read_errors_per_byte"
    assert "below 1 per drive-hour" in info.value.message


ARRS = (MIN_FRACTION_PER_YEAR, 0.999999)
LATENT = (0.0, 5e-324, 0.999)
RESTORE = (MIN_RESTORE_HOURS, 8760.0)
SCRUB = (MIN_RESTORE_HOURS, 87600.0)
YEARS = (MIN_MISSION_YEARS, 100.0)
CORNERS = list(itertools.product(ARRS, LATENT, RESTORE, SCRUB, YEARS))


@pytest.mark.parametrize("parity", range(1, 9))
def test_every_corner_of_the_limits_evaluates_without_a_warning(parity: int) -> None:
    for drives in (parity + 1, 1000):
        for arr, latent, rebuild, scrub, years in CORNERS:
            rates = Rates(arr_to_failures_per_hour(arr), latent, rebuild, scrub)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                p = p_loss_group(parity, drives, rates, years * HOURS_PER_YEAR)
                mttdl = mttdl_hours(parity, drives, rates)
                aggregate = p_loss_aggregate(p, 100_000)
            case = (parity, drives, arr, latent, rebuild, scrub, years)
            assert 0 < p <= 1, case
            assert 0 <= aggregate <= 1, case
            assert math.isfinite(mttdl), case
            assert mttdl > 0, case


@pytest.mark.parametrize("drives", [3, 1000])
def test_double_parity_corners_match_mpmath(drives: int) -> None:
    for arr, latent, rebuild, scrub, years in CORNERS:
        if latent == 5e-324:
            continue  # the same as 0 at 120 digits' worth of difference
        rates = Rates(arr_to_failures_per_hour(arr), latent, rebuild, scrub)
        hours = years * HOURS_PER_YEAR
        # the shared chain of the paper's rules, by eigendecomposition at 120 digits (a
        # quarter of the CPU of mpmath's expm at 120 digits, which it matches to 1e-87 here)
        lop = rates.op_failures_per_hour
        expected = reference.p_loss_eig(2, drives, lop, latent, rebuild, scrub, hours, dps=120)
        actual = p_loss_group(2, drives, rates, hours)
        error = abs(mpmath.mpf(actual) - expected) / expected
        assert error < 1e-8, (drives, arr, latent, rebuild, scrub, years, actual, expected)


@pytest.mark.parametrize(
    ("vary", "fragment"),
    [
        ("restore.rebuild_hours=1e-300..1", "below 0.001 hours"),
        ("restore.scrub_hours=1..1e6", "above 87600 hours"),
        ("drive.arr=1e-300..1e-200", "below 1e-06"),
        ("mission_years=1e-300..1", "below 0.001 years"),
    ],
)
def test_a_sweep_cannot_vary_a_field_past_its_limits(vary: str, fragment: str) -> None:
    # sweep --vary restore.rebuild_hours=1e-300..1 once evaluated what no file may hold.
    from planner.cli.ranges import RangeError, parse_vary

    with pytest.raises(RangeError) as info:
        parse_vary(vary, log=True)
    assert fragment in str(info.value)


def test_a_derived_rebuild_of_astronomical_length_is_stated_briefly() -> None:
    with pytest.raises(ScenarioError) as info:
        load_default_scenario(["drive.capacity_tb=1", "restore.rebuild_mb_per_s=1e-300"])
    assert "gives 2.78e+302 hours for 1 TB" in info.value.message  # 1e6 MB / 1e-300 MB/s
    assert len(str(info.value)) < 200
