"""A declustered pool's rebuild against OpenZFS's measured sequential resilvers.

The chart is on the OpenZFS documentation's dRAID page (Basic Concepts, "dRAID", section
"Rebuilding to a Distributed Spare"; https://openzfs.github.io/openzfs-docs/Basic%20Concepts/dRAID%20Howto.html,
image docs/_static/img/draid-resilver-hours.png of the openzfs/openzfs-docs repository):
"dRAID Sequential Resilver - Hours to Replace a 16TB Disk, 90 HDDs, Single Distributed
Spare", 100 % pool capacity. Its points were read off the image (marker centres, 8.6 pixels
per hour, to about 0.1 h; where two markers overlap, the hidden one is the covering one's
value). A traditional spare takes 28.7 to 29.7 h there, about 29 h at every d.
"""

from __future__ import annotations

import itertools

import pytest

from planner.core.arrays.declustered import (
    Declustered,
    pool_rebuild_hours,
    sequential_resilver_fraction,
    spares_all_taken,
)
from planner.core.arrays.layouts import Layout
from planner.core.markov.rates import Rates

CHART_TRADITIONAL_HOURS = 29.0
"""The chart's "Traditional Spare" line: 28.7 to 29.7 h, flat in d."""

CHART_HOURS: dict[int, tuple[float, ...]] = {
    # parity: hours at d = 1, 2, ..., 16 data disks per group
    1: (0.8, 1.3, 2.0, 2.9, 3.9, 5.1, 6.1, 7.1, 8.6, 9.8, 10.7, 12.0, 13.1, 14.1, 14.7, 14.2),
    2: (1.3, 1.9, 2.7, 3.5, 4.6, 6.0, 7.1, 7.7, 9.3, 10.4, 11.4, 12.3, 13.6, 14.6, 15.5, 14.7),
    3: (1.7, 2.6, 3.4, 4.2, 5.5, 6.6, 7.6, 8.5, 9.8, 11.1, 12.0, 13.4, 13.9, 15.1, 15.6, 15.8),
}
"""OpenZFS chart points (hours), single, double and triple parity."""

CHART_POINTS = [
    (parity, data, hours)
    for parity, row in CHART_HOURS.items()
    for data, hours in enumerate(row, start=1)
]


def _chart_pool_hours(
    parity: int, data: int, traditional: float = CHART_TRADITIONAL_HOURS
) -> float:
    # 90 HDDs, one distributed spare; a measured resilver has no second failure in it
    pool = Layout("chart", f"draid{parity}", parity, 90, Declustered(data, 1))
    return pool.chain_rates(Rates(1e-12, 0.0, traditional, 168.0)).rebuild_hours


@pytest.mark.parametrize(("parity", "data", "hours"), CHART_POINTS)
def test_every_chart_point_within_25_percent(parity: int, data: int, hours: float) -> None:
    assert _chart_pool_hours(parity, data) == pytest.approx(hours, rel=0.25)


def test_the_chart_has_48_points() -> None:
    assert len(CHART_POINTS) == 48


@pytest.mark.parametrize("data", range(1, 17))
def test_more_parity_rebuilds_longer(data: int) -> None:
    hours = [_chart_pool_hours(parity, data) for parity in (1, 2, 3)]
    assert hours[0] < hours[1] < hours[2]


@pytest.mark.parametrize("parity", [1, 2, 3])
def test_wider_stripes_rebuild_longer(parity: int) -> None:
    hours = [_chart_pool_hours(parity, data) for data in range(1, 17)]
    assert all(a < b for a, b in itertools.pairwise(hours))


def test_the_pool_time_follows_the_traditional_rebuild() -> None:
    # capacity, rate and load reach the pool through the traditional time, in proportion
    assert _chart_pool_hours(2, 8, 58.0) == pytest.approx(2 * _chart_pool_hours(2, 8), rel=1e-6)


def test_a_narrow_pool_is_never_slower_than_a_traditional_rebuild() -> None:
    # draid2:8d:11c:1s: the model would give 10 / 10 x 1.35 x 1.6 > 1 of the traditional time
    assert sequential_resilver_fraction(2, 11, 8, 1) == 1.0
    assert sequential_resilver_fraction(2, 48, 8, 0) == 1.0


@pytest.mark.parametrize("offered", [0.0, 1e-4, 0.3, 2.0, 40.0])
def test_spares_all_taken_is_erlangs_loss_formula(offered: float) -> None:
    import math

    # B(s, A) = (A^s / s!) / sum_{k <= s} A^k / k!, written out
    for spares in range(4):
        terms = [offered**k / math.factorial(k) for k in range(spares + 1)]
        assert spares_all_taken(spares, offered) == pytest.approx(terms[-1] / sum(terms))


def test_no_wait_before_a_rebuild_onto_a_distributed_spare() -> None:
    # ZFS's event daemon starts the resilver at once; the wait for a replacement only
    # delays the rebalance. With failures too rare to take the spares, the wait is gone.
    common = {"parity": 2, "children": 48, "data": 8, "spares": 2}
    without = pool_rebuild_hours(77.2, 0.0, 1e-12, **common)
    waiting = pool_rebuild_hours(77.2, 168.0, 1e-12, **common)
    assert waiting == pytest.approx(without, rel=1e-9)
    assert without == pytest.approx(77.2 * 10 / 47 * 1.35 * (1 + 8 / 13.4), rel=1e-9)


def test_the_wait_applies_without_a_spare() -> None:
    assert pool_rebuild_hours(
        77.2, 168.0, 1e-6, parity=2, children=48, data=8, spares=0
    ) == pytest.approx(77.2 + 168.0)


def test_the_wait_applies_when_the_spares_are_taken() -> None:
    # One spare, held from a failure until the rebalance ends (168 h wait + 77.2 h): a drive
    # failing in that time (48 lambda per hour) waits for its replacement: B(1, A) = A/(1+A).
    rate = 2e-5
    resilver = 77.2 * 10 / 47 * 1.35 * (1 + 8 / 13.4)
    offered = 48 * rate * (168.0 + 77.2)
    taken = offered / (1 + offered)
    expected = (1 - taken) * resilver + taken * (168.0 + 77.2)
    hours = pool_rebuild_hours(77.2, 168.0, rate, parity=2, children=48, data=8, spares=1)
    assert hours == pytest.approx(expected, rel=1e-12)
    assert hours > pool_rebuild_hours(77.2, 0.0, rate, parity=2, children=48, data=8, spares=1)
