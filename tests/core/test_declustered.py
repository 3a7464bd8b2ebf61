"""Declustered pools (dRAID): layout rules, rebuild speed-up, share lost, and the chain.

Each figure is checked against something computed here independently: an enumeration of
every stripe of a small pool (the share lost, the rebuild I/O per drive), OpenZFS's
capacity rule by hand, and the mpmath chain of tests/reference.py.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from planner.core.arrays.declustered import (
    Declustered,
    data_capacity_drives,
    fraction_lost_on_overlap,
    rebuild_speedup,
    resilver_io_share,
)
from planner.core.arrays.layouts import Layout, aggregate_shape
from planner.core.design.layout_comparison import compare_layouts
from planner.core.design.sweep import SweepPoint, sweep
from planner.core.markov.rates import HOURS_PER_YEAR, Rates
from planner.core.simulation.time_laws import Exponential, Weibull
from tests import reference

RATES = Rates(
    op_failures_per_hour=0.01 / HOURS_PER_YEAR,
    latent_defects_per_hour=2.0e-5,
    rebuild_hours=77.2,
    scrub_hours=168.0,
)
MISSION = 5 * HOURS_PER_YEAR


def _pool(children: int = 48, data: int = 8, parity: int = 2, spares: int = 2) -> Layout:
    return Layout("pool", f"draid{parity}", parity, children, Declustered(data, spares))


@pytest.mark.parametrize(
    ("children", "data", "parity"), [(7, 2, 1), (9, 3, 2), (10, 4, 2), (11, 3, 3), (8, 5, 2)]
)
def test_share_lost_counts_the_stripes_spanning_the_failed_drives(
    children: int, data: int, parity: int
) -> None:
    # Every possible stripe of width d + p, each equally likely: the share holding drives
    # 0..p (the p + 1 failed ones).
    width = data + parity
    stripes = list(itertools.combinations(range(children), width))
    failed = set(range(parity + 1))
    spanning = sum(1 for stripe in stripes if failed <= set(stripe))
    assert fraction_lost_on_overlap(parity, children, data) == pytest.approx(
        spanning / len(stripes), rel=1e-12
    )


def test_a_traditional_group_loses_every_stripe() -> None:
    assert fraction_lost_on_overlap(2, 10, 8) == 1.0
    assert Layout("r6", "raid6", 2, 10).fraction_lost_on_overlap == 1.0


@pytest.mark.parametrize(("children", "data", "parity"), [(8, 3, 1), (9, 4, 2), (11, 3, 2)])
def test_resilver_io_share_is_the_busiest_drive_of_an_enumerated_rebuild(
    children: int, data: int, parity: int
) -> None:
    # Lay out every stripe of width w on the pool once (a perfectly balanced design), fail
    # drive 0, and count the I/O each survivor does: a sequential resilver reads a stripe as
    # a scrub does, all w - 1 surviving blocks, and writes the lost block into the spare
    # space of the drives outside the stripe (an even share each). The rebuild lasts as
    # long as the busiest survivor.
    width = data + parity
    lost_blocks = 0
    load = [Fraction(0)] * children
    for stripe in itertools.combinations(range(children), width):
        if 0 not in stripe:
            continue
        lost_blocks += 1
        for drive in stripe:
            if drive != 0:
                load[drive] += 1
        outside = [d for d in range(1, children) if d not in stripe]
        for drive in outside:
            load[drive] += Fraction(1, len(outside))
    assert resilver_io_share(parity, children, data) == max(load[1:]) / lost_blocks


def test_no_distributed_spare_means_a_traditional_rebuild() -> None:
    assert rebuild_speedup(2, 48, 8, spares=0) == 1.0
    chain = _pool(spares=0).chain_rates(RATES)
    assert chain.rebuild_hours == RATES.rebuild_hours
    # its stripes are still declustered: a defect meets the failed drives less often
    assert chain.defect_stripe_share == _pool(spares=0).defect_stripe_share < 1.0


def test_capacity_follows_openzfs() -> None:
    # OpenZFS dRAID: (children - spares) x data / (data + parity) drives of data
    assert data_capacity_drives(2, 48, 8, 2) == Fraction(46 * 8, 10)
    shape = aggregate_shape(_pool(), 96)
    # 96 / 36.8 = 2.6..., so 3 pools of 48; overhead = 144 - 3 x 36.8 = 33.6 drives
    assert (shape.groups, shape.total_disks) == (3, 144)
    assert shape.overhead_disks == pytest.approx(33.6, rel=1e-15)
    assert not shape.exact_division
    assert aggregate_shape(_pool(), 184).exact_division  # 5 x 36.8 = 184 exactly


def test_pools_that_do_not_fit_are_refused() -> None:
    with pytest.raises(ValueError, match="children must be at least 12"):
        _pool(children=11, data=8, parity=2, spares=2)


def test_the_pool_chain_is_the_reference_chain_with_the_faster_rebuild() -> None:
    result = compare_layouts(
        [_pool()], data_disks=96, rates=RATES, mission_hours=MISSION, capacity_tb=20.0
    ).results[0]
    faster = _pool_hours(RATES.rebuild_hours)
    # issue 20: a defect loses sectors only where its stripe holds both failed drives
    share = math.comb(48 - 1 - 2, 10 - 1 - 2) / math.comb(48 - 1, 10 - 1)
    expected = reference.p_loss(
        2,
        48,
        RATES.op_failures_per_hour,
        RATES.latent_defects_per_hour,
        faster,
        RATES.scrub_hours,
        MISSION,
        share=share,
    )
    assert reference.relative_error(result.p_loss_group, expected) < 1e-9
    group_lost = reference.group_lost(2, 48, RATES.op_failures_per_hour, faster, MISSION)
    sectors_lost = reference.sectors_lost(
        2,
        48,
        RATES.op_failures_per_hour,
        RATES.latent_defects_per_hour,
        faster,
        RATES.scrub_hours,
        MISSION,
        share=share,
    )
    assert reference.relative_error(result.p_group_lost, group_lost) < 1e-9
    assert reference.relative_error(result.p_sectors_lost, sectors_lost) < 1e-9
    assert result.rebuild_hours == pytest.approx(faster, rel=1e-15)
    assert result.usable_tb == pytest.approx(3 * 36.8 * 20.0, rel=1e-12)
    assert (
        reference.relative_error(result.p_loss_aggregate, reference.aggregate(expected, 3)) < 1e-9
    )


def _pool_hours(traditional: float) -> float:
    # draid2:8d:48c:2s written out: the resilver w / (C - 1) x 1.35 x (1 + d / 13.4) of the
    # traditional time, mixed with the traditional rebuild by Erlang's B(2, A), A = C
    # lambda (resilver + traditional): the chance that both spares are taken.
    resilver = traditional * 10 / 47 * 1.35 * (1 + 8 / 13.4)
    offered = 48 * RATES.op_failures_per_hour * (resilver + traditional)
    taken = offered**2 / 2 / (1 + offered + offered**2 / 2)
    return (1 - taken) * resilver + taken * traditional


def test_a_pool_rebuilds_one_drive_at_a_time_even_when_the_scenario_is_parallel() -> None:
    parallel = Rates(
        RATES.op_failures_per_hour,
        RATES.latent_defects_per_hour,
        RATES.rebuild_hours,
        RATES.scrub_hours,
        rebuild_streams=None,
    )
    one = compare_layouts([_pool()], data_disks=96, rates=RATES, mission_hours=MISSION)
    many = compare_layouts([_pool()], data_disks=96, rates=parallel, mission_hours=MISSION)
    assert one.results[0].p_loss_group == many.results[0].p_loss_group


def test_the_sweep_evaluates_a_pool_as_compare_does() -> None:
    pool = _pool()
    row = sweep([SweepPoint(RATES, MISSION, 96)], [pool])[0]
    result = compare_layouts([pool], data_disks=96, rates=RATES, mission_hours=MISSION).results[0]
    assert row.p_loss_group == pytest.approx(result.p_loss_group, rel=1e-12)
    assert row.p_loss_aggregate == pytest.approx(result.p_loss_aggregate, rel=1e-12)
    assert (row.groups, row.total_disks) == (3, 144)
    assert row.overhead_disks == pytest.approx(33.6)
    assert row.group == "48 (8d+2p, 2s)"


def _pool_mean_hours(traditional: float, delay: float, failures_per_hour: float) -> float:
    # draid2:8d:48c:2s written out with a wait for the replacement: no wait while a spare is
    # free; a spare is held max(wait, resilver) + traditional; Erlang's B(2, A) of the
    # offered A = C lambda held is the chance that both are taken, and such a failure
    # waits and rebuilds the traditional way.
    resilver = traditional * 10 / 47 * 1.35 * (1 + 8 / 13.4)
    offered = 48 * failures_per_hour * (max(delay, resilver) + traditional)
    taken = offered**2 / 2 / (1 + offered + offered**2 / 2)
    return (1 - taken) * resilver + taken * (delay + traditional)


@pytest.mark.parametrize("delay", [0.0, 168.0])
def test_the_simulator_gets_the_chains_pool_rebuild_one_at_a_time(delay: float) -> None:
    # Issue 20: with restore.replace_delay_hours the simulator's pool rebuilt in
    # (T + wait) / speed-up while the chain, rightly, does not wait for a free spare.
    pool = _pool()
    weibull = Weibull(2.0, 12.0, 6.0 + delay)
    from planner.core.simulation.distributions import DistributionSet

    base = DistributionSet(
        Exponential(1e5), weibull, Exponential(168.0), 1e-5, None, replace_delay_hours=delay
    )
    faster = pool.chain_distributions(base)
    assert faster.rebuild_streams == 1
    assert faster.replace_delay_hours == 0.0
    restoration = faster.restoration
    assert isinstance(restoration, Weibull)
    expected = _pool_mean_hours(weibull.mean_hours - delay, delay, 1e-5)
    assert restoration.mean_hours == pytest.approx(expected, rel=1e-12)
    assert math.isclose(restoration.shape, 2.0)
