"""What is lost: P(loss) split into P(group lost) and P(sectors lost), checked exactly.

The reference (tests/reference.py, ``loss_split``) builds its own chain with two absorbing
states in 60-digit mpmath; the engine splits its generator's loss column. Rates are
deliberately odd so that no multiplier or state can be swapped unnoticed.
"""

from __future__ import annotations

import math

import mpmath
import pytest
import reference

from planner.core.aggregate import loss_split_aggregate, p_loss_aggregate
from planner.core.evaluate import loss_split, p_loss_group
from planner.core.layouts import Layout, compare_layouts
from planner.core.rates import PAPER_RATES, Rates

ODD = Rates(
    op_failures_per_hour=3.7e-6,
    latent_defects_per_hour=2.3e-4,
    rebuild_hours=17.0,
    scrub_hours=131.0,
)
CASES = [
    (1, 2, PAPER_RATES, 43_800.0),
    (1, 8, PAPER_RATES, 43_800.0),
    (2, 9, PAPER_RATES, 43_800.0),
    (2, 16, ODD, 8_760.0),
    (3, 12, ODD, 43_800.0),
    (3, 15, PAPER_RATES, 10.0),  # a short mission: both parts near 1e-20
    (4, 20, ODD, 43_800.0),
]


@pytest.mark.parametrize(("parity", "drives", "rates", "hours"), CASES)
def test_the_split_matches_an_independent_two_loss_chain(
    parity: int, drives: int, rates: Rates, hours: float
) -> None:
    split = loss_split(parity, drives, rates, hours)
    group, sectors = reference.loss_split(
        parity,
        drives,
        rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
        hours,
    )
    assert reference.relative_error(split.p_group_lost, group) < 1e-11
    assert reference.relative_error(split.p_sectors_lost, sectors) < 1e-11


@pytest.mark.parametrize(("parity", "drives", "rates", "hours"), CASES)
def test_the_split_sums_to_p_loss(parity: int, drives: int, rates: Rates, hours: float) -> None:
    split = loss_split(parity, drives, rates, hours)
    total = p_loss_group(parity, drives, rates, hours)
    assert split.p_loss == pytest.approx(total, rel=1e-12, abs=0)


def test_without_latent_defects_every_loss_loses_the_group() -> None:
    rates = Rates(3.7e-6, 0.0, 17.0, 131.0)
    split = loss_split(2, 10, rates, 43_800.0)
    assert split.p_sectors_lost == 0.0
    assert split.p_group_lost == pytest.approx(p_loss_group(2, 10, rates, 43_800.0), rel=1e-13)


@pytest.mark.parametrize("groups", [1, 2, 6, 42, 1000])
@pytest.mark.parametrize(("p_group", "p_sectors"), [(1e-15, 3e-12), (2e-3, 0.08), (0.3, 0.5)])
def test_the_aggregate_split_against_mpmath(groups: int, p_group: float, p_sectors: float) -> None:
    any_group, sectors_only = loss_split_aggregate(p_group, p_sectors, groups)
    ref_group, ref_sectors = reference.aggregate_split(p_group, p_sectors, groups)
    assert reference.relative_error(any_group, ref_group) < 1e-13
    assert reference.relative_error(sectors_only, ref_sectors) < 1e-12
    # together: the aggregate's P(loss), which is not g x each
    total = p_loss_aggregate(p_group + p_sectors, groups)
    assert any_group + sectors_only == pytest.approx(total, rel=1e-12)


def test_the_aggregate_split_is_not_g_times_each() -> None:
    _, sectors_only = loss_split_aggregate(0.01, 0.2, 10)
    with mpmath.workdps(30):
        assert sectors_only == pytest.approx(float((0.99**10) - (0.79**10)), rel=1e-12)
    assert not math.isclose(sectors_only, 10 * 0.2, rel_tol=0.1)


def test_fail_rebuild_moves_sector_losses_to_group_losses_and_keeps_p_loss() -> None:
    layouts = [Layout("raid5 8", "raid5", 1, 8), Layout("raid-dp 9", "raid-dp", 2, 9)]
    kwargs = {"data_disks": 42, "rates": PAPER_RATES, "mission_hours": 43_800.0}
    lose = compare_layouts(layouts, **kwargs)  # type: ignore[arg-type]
    fail = compare_layouts(layouts, unreadable_sector="fail-rebuild", **kwargs)  # type: ignore[arg-type]
    for a, b in zip(lose.results, fail.results, strict=True):
        assert a.p_loss_group == b.p_loss_group
        assert a.p_loss_aggregate == b.p_loss_aggregate
        assert b.p_sectors_lost == 0.0
        assert b.p_sectors_lost_aggregate == 0.0
        assert b.p_group_lost == pytest.approx(a.p_group_lost + a.p_sectors_lost, rel=1e-15)
        assert b.p_group_lost_aggregate == pytest.approx(a.p_loss_aggregate, rel=1e-14)
        # with the default the latent defects dominate RAID 5 (NS3574 says so)
        assert a.p_sectors_lost > a.p_group_lost


def test_the_sweep_rows_carry_the_same_split() -> None:
    from planner.core.sweep import group_size_sweep

    rows = group_size_sweep([1, 2, 3], [5, 9, 13], 36, ODD, 43_800.0, include_uneven=True)
    for row in rows:
        split = loss_split(row.parity, row.group_size, ODD, 43_800.0)
        assert row.p_group_lost == pytest.approx(split.p_group_lost, rel=1e-12)
        assert row.p_sectors_lost == pytest.approx(split.p_sectors_lost, rel=1e-12)
        assert row.p_group_lost + row.p_sectors_lost == pytest.approx(row.p_loss_group, rel=1e-12)
        total = row.p_group_lost_aggregate + row.p_sectors_lost_aggregate
        assert total == pytest.approx(row.p_loss_aggregate, rel=1e-12)


@pytest.mark.parametrize("parity", [1, 2])
@pytest.mark.parametrize(
    ("drives", "lop", "lld", "rebuild", "scrub"),
    [(8, 2.17e-6, 1.08e-4, 12.0, 168.0), (16, 1e-5, 1e-7, 77.0, 24.0), (3, 1e-3, 1e-2, 5.0, 400.0)],
)
def test_the_symbolic_sector_share_is_the_absorption_probability(
    parity: int, drives: int, lop: float, lld: float, rebuild: float, scrub: float
) -> None:
    from planner.core.derive import SYMBOL_NAMES, sector_loss_share

    exact, leading = sector_loss_share(parity)
    values = dict(zip(SYMBOL_NAMES, (drives, lop, lld, 1 / rebuild, 1 / scrub), strict=True))
    symbols = {s.name: s for s in exact.free_symbols | leading.free_symbols}
    value = float(exact.subs({symbols[k]: v for k, v in values.items() if k in symbols}))
    expected = reference.sector_share(parity, drives, lop, lld, rebuild, scrub)
    assert reference.relative_error(value, expected) < 1e-12
    # the leading order approaches it as failures and defects get rare against repairs
    small = {**values, "lambda_op": lop * 1e-6, "lambda_ld": lld * 1e-6}
    exact_small = exact.subs({symbols[k]: v for k, v in small.items() if k in symbols})
    leading_small = leading.subs({symbols[k]: v for k, v in small.items() if k in symbols})
    assert float(leading_small / exact_small) == pytest.approx(1.0, rel=1e-4)
