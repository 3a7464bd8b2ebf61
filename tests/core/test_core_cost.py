"""The cost of a layout: closed forms worked by hand, and replacements against mpmath.

One layout is :func:`cost_of_ownership` of plain numbers, read with ``.at(0)``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from planner.core.arrays.cost import (
    CostPrices,
    cost_of_ownership,
    expected_replacements,
)
from planner.core.markov.rates import afr_to_failures_per_hour, arr_to_failures_per_hour
from tests import reference

FIVE_YEARS_HOURS = 5 * 8760.0

PRICES = CostPrices(
    drive_price=350.0, drive_watts=8.0, energy_per_kwh=0.30, per_group_cost=2000.0, currency="USD"
)


def test_one_layout_by_hand() -> None:
    """RAID 6 (10+2) for 100 data drives: 10 groups of 12, 120 drives, ARR 1%, five years.

    Purchase 120 x 350 + 10 x 2,000 = 62,000. Replacements: 120 drives x 1% a year x 5
    years = 6 drives, 2,100. Energy: 120 x 8 W x 43,800 h = 42,048 kWh, at 0.30 = 12,614.40.
    TCO 62,000 + 2,100 + 12,614.40 = 76,714.40; over 100 x 16 TB = 1,600 TB: 47.9465 a TB.
    """
    cost = cost_of_ownership(
        120,
        10,
        prices=PRICES,
        op_failures_per_hour=arr_to_failures_per_hour(0.01),
        mission_hours=FIVE_YEARS_HOURS,
        usable_tb=1600.0,
    ).at(0)
    assert cost.purchase_cost == pytest.approx(62_000.0, rel=1e-15)
    assert cost.expected_replacements == pytest.approx(6.0, rel=1e-14)
    assert cost.replacement_cost == pytest.approx(2_100.0, rel=1e-14)
    assert cost.energy_kwh == pytest.approx(42_048.0, rel=1e-15)
    assert cost.energy_cost == pytest.approx(12_614.4, rel=1e-14)
    assert cost.total_cost == pytest.approx(76_714.4, rel=1e-14)
    assert cost.cost_per_usable_tb == pytest.approx(76_714.4 / 1600, rel=1e-14)
    assert cost.prices is PRICES
    assert cost.mission_hours == FIVE_YEARS_HOURS


def test_missing_prices_count_as_nothing() -> None:
    """Without a drive price only energy counts; without watts, no energy; no TB, no per TB."""
    energy_only = CostPrices(drive_watts=10.0, energy_per_kwh=0.2)
    cost = cost_of_ownership(
        10,
        1,
        prices=energy_only,
        op_failures_per_hour=arr_to_failures_per_hour(0.02),
        mission_hours=8760.0,
    ).at(0)
    assert not energy_only.counts_purchase
    assert energy_only.counts_energy
    assert cost.purchase_cost == 0.0
    assert cost.replacement_cost == 0.0
    # the replacements are counted even when drives are not priced: 10 x 2% x 1 year
    assert cost.expected_replacements == pytest.approx(0.2, rel=1e-14)
    assert cost.energy_cost == pytest.approx(10 * 10 * 8760 / 1000 * 0.2, rel=1e-14)
    assert cost.total_cost == cost.energy_cost
    assert cost.cost_per_usable_tb is None

    price_only = CostPrices(drive_price=100.0)
    assert price_only.counts_purchase
    assert not price_only.counts_energy
    cost = cost_of_ownership(
        10, 2, prices=price_only, op_failures_per_hour=1e-5, mission_hours=1000.0, usable_tb=0.0
    ).at(0)
    assert cost.energy_cost == 0.0
    assert cost.total_cost == pytest.approx(10 * 100 + 10 * 1e-5 * 1000 * 100, rel=1e-14)
    assert cost.cost_per_usable_tb is None  # no usable capacity: no price per TB


@pytest.mark.parametrize(
    ("drives", "failures_per_hour", "hours"),
    [
        (120, arr_to_failures_per_hour(0.01), 5 * 8760.0),
        (1, arr_to_failures_per_hour(0.019), 5 * 8760.0),  # NS3574's ARR
        (2000, afr_to_failures_per_hour(0.35), 10 * 8760.0),  # several per slot
        (36, afr_to_failures_per_hour(0.0035), 8.76),  # the shortest mission
    ],
)
def test_expected_replacements_is_the_renewal_function(
    drives: int, failures_per_hour: float, hours: float
) -> None:
    """Against the renewal function summed from Erlang CDFs in mpmath, and a Poisson mean."""
    [computed] = expected_replacements([drives], failures_per_hour, hours)
    renewals = reference.expected_renewals(drives, failures_per_hour, hours)
    assert float(abs(computed - renewals) / renewals) < 1e-13
    poisson = drives * reference.poisson_mean(failures_per_hour * hours)
    assert float(abs(computed - poisson) / poisson) < 1e-13


def test_afr_replacements_follow_the_probability() -> None:
    """An AFR is a yearly probability: one drive-year replaces -ln(1 - AFR) drives, not AFR."""
    afr = 0.35
    [one_year] = expected_replacements([1], afr_to_failures_per_hour(afr), 8760.0)
    assert one_year == pytest.approx(-math.log(1 - afr), rel=1e-14)


def test_ten_thousand_candidates_at_once() -> None:
    """Arrays in, arrays out; each element is the one-layout figure."""
    rng = np.random.default_rng(12)
    drives = rng.integers(3, 5000, size=10_000)
    groups = np.maximum(1, drives // rng.integers(3, 31, size=10_000))
    usable = drives * 7.3
    rate = arr_to_failures_per_hour(0.015)
    costs = cost_of_ownership(
        drives,
        groups,
        prices=PRICES,
        op_failures_per_hour=rate,
        mission_hours=43_800.0,
        usable_tb=usable,
    )
    assert costs.total_cost.shape == (10_000,)
    for index in (0, 17, 9_999):
        one = cost_of_ownership(
            int(drives[index]),
            int(groups[index]),
            prices=PRICES,
            op_failures_per_hour=rate,
            mission_hours=43_800.0,
            usable_tb=float(usable[index]),
        ).at(0)
        assert costs.at(index) == one
    expected = (
        drives * 350.0
        + groups * 2000.0
        + drives * rate * 43_800.0 * 350.0
        + drives * 8.0 * 43_800.0 / 1000 * 0.30
    )
    np.testing.assert_allclose(costs.total_cost, expected, rtol=1e-14)
    np.testing.assert_allclose(costs.cost_per_usable_tb, expected / usable, rtol=1e-14)


def test_fractional_drives_and_rates_per_candidate() -> None:
    """A declustered pool's fractional drives, and a rate per candidate, broadcast."""
    costs = cost_of_ownership(
        [10.5, 20.0],
        [1, 2],
        prices=CostPrices(drive_price=100.0),
        op_failures_per_hour=[1e-5, 2e-5],
        mission_hours=1000.0,
    )
    np.testing.assert_allclose(costs.expected_replacements, [10.5 * 1e-2, 20.0 * 2e-2], rtol=1e-15)
    np.testing.assert_allclose(costs.purchase_cost, [1050.0, 2000.0], rtol=1e-15)
    assert np.all(np.isnan(costs.cost_per_usable_tb))


@pytest.mark.parametrize(
    "prices",
    [
        {"drive_price": -1.0},
        {"drive_watts": math.inf},
        {"energy_per_kwh": math.nan},
        {"per_group_cost": -0.5},
    ],
)
def test_bad_prices_are_refused(prices: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="must be a finite number >= 0"):
        CostPrices(**prices)  # type: ignore[arg-type]


def test_negative_counts_are_refused() -> None:
    with pytest.raises(ValueError, match=">= 0"):
        cost_of_ownership([-1], [1], prices=PRICES, op_failures_per_hour=1e-6, mission_hours=1.0)
    with pytest.raises(ValueError, match=">= 0"):
        expected_replacements([1], -1e-6, 1.0)
