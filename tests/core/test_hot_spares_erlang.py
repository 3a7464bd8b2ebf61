"""Dedicated hot spares shorten the wait for a replacement drive (a buyer's review).

``aggregate.hot_spares`` spares shared by an aggregate of D drives: a failed drive is
rebuilt onto a free spare at once, and the spare is taken until the replacement drive
arrives (``replace_delay_hours``). Failures arrive at D lambda_op, so the chance a failure
finds all s spares taken is Erlang's loss formula B(s, A), A = D lambda_op delay, and the
mean time to restore is T + B(s, A) x delay. Checked here against Erlang's formula written
out, a hand value, a small simulation of the spares, and the chain rebuilt in mpmath
(:mod:`tests.reference`) with that restore time; and the directions: more spares never
raise P(loss), a longer wait never lowers it, no spares change nothing.
"""

from __future__ import annotations

import dataclasses
import heapq
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.arrays.declustered import Declustered
from planner.core.arrays.hot_spares import (
    spared_wait_hours,
    spares_all_taken_batch,
    with_hot_spares,
)
from planner.core.arrays.layouts import Layout, aggregate_shape
from planner.core.design.layout_comparison import compare_layouts
from planner.core.design.risks import layout_risks
from planner.core.design.sweep import SweepPoint, sweep
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.rates import Rates
from planner.core.simulation.distributions import exponential_from_rates
from tests import reference

LOP = 0.01 / 8760  # ARR 1%
LLD = 9e-5
REBUILD = 77.2  # the rebuild itself, h
DELAY = 72.0
RAID6 = Layout("RAID 6 (10+2)", "raid6", 2, 12)
MISSION = 5 * 8760.0


def _erlang_b(spares: int, offered: float) -> float:
    """B(s, A) = (A^s / s!) / sum_{k <= s} A^k / k!, written out."""
    terms = [offered**k / math.factorial(k) for k in range(spares + 1)]
    return terms[-1] / sum(terms)


def _rates(spares: int, delay: float = DELAY, lop: float = LOP) -> Rates:
    return Rates(lop, LLD, REBUILD + delay, 168.0, replace_delay_hours=delay, hot_spares=spares)


@pytest.mark.parametrize("offered", [0.0, 1e-4, 0.0099, 0.3, 2.0, 40.0])
def test_erlang_b_of_many_loads_is_the_formula(offered: float) -> None:
    for spares in range(6):
        found = spares_all_taken_batch(spares, np.array([offered, offered / 2]))
        assert found[0] == pytest.approx(_erlang_b(spares, offered), rel=1e-12, abs=1e-300)
        assert found[1] == pytest.approx(_erlang_b(spares, offered / 2), rel=1e-12, abs=1e-300)


def test_erlang_b_hand_values() -> None:
    # B(1, A) = A / (1 + A); B(2, 1) = (1/2) / (1 + 1 + 1/2) = 1/5
    assert spares_all_taken_batch(1, np.array([0.25]))[0] == pytest.approx(0.2, rel=1e-15)
    assert spares_all_taken_batch(2, np.array([1.0]))[0] == pytest.approx(0.2, rel=1e-15)
    assert spares_all_taken_batch(0, np.array([3.0]))[0] == 1.0
    # thousands of spares against a light load: B underflows to 0, it never turns NaN
    assert spares_all_taken_batch(100_000, np.array([0.5]))[0] == 0.0


def test_erlang_b_by_a_small_simulation_of_the_spares() -> None:
    # Two spares; failures at 1 per hour; each failure that finds a free spare holds it for
    # exactly 1 h (the replacement's arrival), one that finds none takes none. Erlang's
    # formula holds whatever the law of the holding time: B(2, 1) = 0.2.
    rng = np.random.default_rng(20240611)
    arrivals = np.cumsum(rng.exponential(1.0, 200_000))
    busy: list[float] = []
    blocked = 0
    for t in arrivals.tolist():
        while busy and busy[0] <= t:
            heapq.heappop(busy)
        if len(busy) == 2:
            blocked += 1
        else:
            heapq.heappush(busy, t + 1.0)
    share = blocked / len(arrivals)
    # sd of the share about 0.001 (the arrivals are correlated a little): 5 sd
    assert share == pytest.approx(0.2, abs=0.005)
    assert spares_all_taken_batch(2, np.array([1.0]))[0] == pytest.approx(share, abs=0.005)


def test_the_mean_restore_is_the_rebuild_plus_b_times_the_wait() -> None:
    drives = 120
    offered = drives * LOP * DELAY
    for spares in (1, 2, 4):
        taken = _erlang_b(spares, offered)
        rates = with_hot_spares(_rates(spares), drives)
        assert rates.rebuild_hours == pytest.approx(REBUILD + taken * DELAY, rel=1e-12)
        assert rates.replace_delay_hours == pytest.approx(taken * DELAY, rel=1e-12)
        assert spared_wait_hours(DELAY, LOP, drives, spares) == pytest.approx(
            taken * DELAY, rel=1e-12
        )


@pytest.mark.parametrize(("spares", "arr"), [(1, 0.01), (1, 0.2), (4, 0.01), (2, 0.5)])
def test_a_group_against_the_chain_in_mpmath(spares: int, arr: float) -> None:
    # 96 data drives in groups of 10 + 2: 10 groups, 120 drives share the spares
    lop = arr / 8760
    compared = compare_layouts([RAID6], data_disks=96, rates=_rates(spares, lop=lop),
                               mission_hours=MISSION)  # fmt: skip
    result = compared.results[0]
    groups = result.shape.groups
    assert groups == 10
    restore = REBUILD + _erlang_b(spares, groups * 12 * lop * DELAY) * DELAY
    expected = reference.p_loss(2, 12, lop, LLD, restore, 168.0, MISSION)
    assert reference.relative_error(result.p_loss_group, expected) < 1e-9
    assert result.rebuild_hours == pytest.approx(restore, rel=1e-12)


def test_no_spares_or_no_wait_changes_nothing() -> None:
    def figures(rates: Rates) -> tuple[float, ...]:
        r = compare_layouts([RAID6], data_disks=96, rates=rates, mission_hours=MISSION).results[0]
        return (r.p_loss_group, r.p_loss_aggregate, r.mttdl_hours, r.rebuild_hours)

    plain = Rates(LOP, LLD, REBUILD + DELAY, 168.0, replace_delay_hours=DELAY)
    assert figures(_rates(0)) == figures(plain)
    no_wait = Rates(LOP, LLD, REBUILD, 168.0)
    assert figures(dataclasses.replace(no_wait, hot_spares=3)) == figures(no_wait)


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 6),
    st.floats(1.0, 2000.0),
    st.floats(0.005, 0.5),
    st.integers(12, 400),
)
def test_more_spares_never_raise_and_a_longer_wait_never_lowers(
    spares: int, delay: float, arr: float, data_disks: int
) -> None:
    def p_loss(s: int, wait: float) -> float:
        compared = compare_layouts(
            [RAID6], data_disks=data_disks, rates=_rates(s, wait, arr / 8760),
            mission_hours=MISSION,
        )  # fmt: skip
        return compared.results[0].p_loss_aggregate

    base = p_loss(spares, delay)
    slack = 1e-12
    assert p_loss(spares + 1, delay) <= base * (1 + slack)
    assert p_loss(spares, delay * 1.5) >= base * (1 - slack)
    # never below the figure with no wait at all
    assert base >= p_loss(0, 1e-9) * (1 - 1e-6)


def test_the_chain_needs_the_aggregate_to_share_the_spares() -> None:
    with pytest.raises(ValueError, match="groups"):
        RAID6.chain_rates(_rates(2))
    with pytest.raises(ValueError, match="hot spares"):
        ChainInputs.of_rates(12, _rates(2), MISSION)
    assert RAID6.chain_rates(_rates(2), 10).hot_spares == 0


def test_a_pool_keeps_its_distributed_spares_model() -> None:
    pool = Layout("draid2:8d:48c:2s", "draid2", 2, 48, Declustered(8, 2))
    spared = pool.chain_rates(_rates(4), 3)
    assert spared == pool.chain_rates(_rates(0), 3)
    assert spared.hot_spares == 0


def test_the_batched_paths_agree_with_the_comparison() -> None:
    layouts = [RAID6, Layout("RAID 10", "raid10", 1, 2), Layout("n+3 15", None, 3, 15)]
    rates = _rates(1, lop=0.1 / 8760)
    compared = compare_layouts(layouts, data_disks=96, rates=rates, mission_hours=MISSION)
    table = sweep([SweepPoint(rates, MISSION, 96)], layouts)
    groups = [r.shape.groups for r in compared.results]
    risks = layout_risks(layouts, [rates] * 3, [MISSION] * 3, groups)
    for i, result in enumerate(compared.results):
        assert table.p_loss_aggregate[i] == pytest.approx(result.p_loss_aggregate, rel=1e-9)
        assert risks.p_loss_aggregate[i] == pytest.approx(result.p_loss_aggregate, rel=1e-9)
    # the sweep's data drives move the aggregate, and so the chance the spares are taken
    more = sweep([SweepPoint(rates, MISSION, 960)], [RAID6])
    wider = compare_layouts([RAID6], data_disks=960, rates=rates, mission_hours=MISSION)
    assert more.p_loss_group[0] == pytest.approx(wider.results[0].p_loss_group, rel=1e-9)
    assert more.p_loss_group[0] > table.p_loss_group[0]


def test_the_simulator_restores_in_the_chains_mean_time() -> None:
    rates = _rates(1, lop=0.1 / 8760)
    groups = aggregate_shape(RAID6, 96).groups
    laws = RAID6.chain_distributions(exponential_from_rates(rates), groups)
    assert laws.restoration.mean_hours == pytest.approx(
        RAID6.chain_rates(rates, groups).rebuild_hours, rel=1e-12
    )
    assert laws.rebuild_streams == rates.rebuild_streams
    with pytest.raises(ValueError, match="groups"):
        RAID6.chain_distributions(exponential_from_rates(rates))
