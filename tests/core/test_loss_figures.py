"""What is lost (issue 20): P(group lost), P(sectors lost) and the expected sector losses.

Every figure is checked against a chain written in tests/reference.py from the issue's
words (60-digit mpmath), not from planner's code: P(group lost) against the birth-death
chain of k + 1 overlapping failures, P(sectors lost) against the chain whose lost groups
are restored, the expected events against the spectral integral of the chain that goes
on (and once against Van Loan's block exponential). Rates are deliberately odd so that no
multiplier or state can be swapped unnoticed.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.core.design.layout_comparison import compare_layouts
from planner.core.design.risks import layout_risks
from planner.core.markov.aggregate import p_loss_aggregate
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.loss_figures import chain_figures
from planner.core.markov.rates import PAPER_RATES, Rates
from planner.core.markov.transient import loss_figures, p_loss_group
from tests import reference

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
    (3, 15, PAPER_RATES, 10.0),  # a short mission: every figure near 1e-20
    (4, 20, ODD, 43_800.0),
]
STREAMS = [1, 2, None]
"""One rebuild at a time, two at once, every failed drive at once."""


def _rates(rates: Rates, streams: int | None) -> Rates:
    return Rates(
        rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
        streams,
    )


@pytest.mark.parametrize("streams", STREAMS)
@pytest.mark.parametrize(("parity", "drives", "rates", "hours"), CASES)
def test_p_group_lost_is_the_birth_death_chain_of_k_plus_1_failures(
    parity: int, drives: int, rates: Rates, hours: float, streams: int | None
) -> None:
    figures = loss_figures(parity, drives, _rates(rates, streams), hours)
    expected = reference.group_lost(
        parity, drives, rates.op_failures_per_hour, rates.rebuild_hours, hours, streams
    )
    assert reference.relative_error(figures.p_group_lost, expected) < 1e-9


@pytest.mark.parametrize("streams", STREAMS)
@pytest.mark.parametrize(("parity", "drives", "rates", "hours"), CASES)
def test_sectors_lost_and_expected_events_match_the_going_on_chains(
    parity: int, drives: int, rates: Rates, hours: float, streams: int | None
) -> None:
    figures = loss_figures(parity, drives, _rates(rates, streams), hours)
    args = (
        parity,
        drives,
        rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
        hours,
    )
    sectors = reference.sectors_lost(*args, streams=streams)
    events = reference.expected_sector_loss_events(*args, streams=streams)
    assert reference.relative_error(figures.p_sectors_lost, sectors) < 1e-9
    assert reference.relative_error(figures.expected_sector_loss_events, events) < 1e-9
    # P(loss) is the paper's, unchanged
    assert figures.p_loss == p_loss_group(parity, drives, _rates(rates, streams), hours)


def test_the_expected_events_by_the_block_exponential() -> None:
    """A second method for the reference itself: the integral of exp(Q t)[0, (k-1, 1)] as
    one exponential of the block generator (Van Loan 1978), no eigendecomposition."""
    args = (2, 10, 2e-4, 3e-3, 20.0, 50.0, 2_000.0)
    block = reference.expected_sector_loss_events(*args, method="block")
    spectral = reference.expected_sector_loss_events(*args)
    assert reference.relative_error(float(spectral), block) < 1e-12
    figures = loss_figures(2, 10, Rates(2e-4, 3e-3, 20.0, 50.0), 2_000.0)
    assert reference.relative_error(figures.expected_sector_loss_events, block) < 1e-9


def test_the_batch_gives_the_same_figures() -> None:
    drives = [5, 9, 13]
    stack = chain_figures(2, ChainInputs.of(drives, 3.7e-6, 2.3e-4, 17.0, 131.0, 43_800.0))
    p_loss, group, sectors = stack.p_loss, stack.p_group_lost, stack.p_sectors_lost
    events = stack.expected_sector_loss_events
    for i, n in enumerate(drives):
        one = loss_figures(2, n, ODD, 43_800.0)
        assert p_loss[i] == pytest.approx(one.p_loss, rel=1e-13)
        assert group[i] == pytest.approx(one.p_group_lost, rel=1e-13)
        assert sectors[i] == pytest.approx(one.p_sectors_lost, rel=1e-13)
        assert events[i] == pytest.approx(one.expected_sector_loss_events, rel=1e-12)


def test_they_no_longer_sum_to_p_loss() -> None:
    """A group that loses sectors can later lose the whole group: counted in both."""
    figures = loss_figures(1, 8, PAPER_RATES, 43_800.0)
    first_loss_group, _ = reference.loss_split(1, 8, 2.17e-6, 1.08e-4, 12.0, 168.0, 43_800.0)
    assert figures.p_group_lost > 1.1 * float(first_loss_group)
    assert figures.p_group_lost + figures.p_sectors_lost > figures.p_loss
    # Markov's inequality: P(at least one) <= the expected count
    assert figures.p_sectors_lost <= figures.expected_sector_loss_events


def test_without_latent_defects_no_sectors_are_lost() -> None:
    rates = Rates(3.7e-6, 0.0, 17.0, 131.0)
    figures = loss_figures(2, 10, rates, 43_800.0)
    assert figures.p_sectors_lost == 0.0
    assert figures.expected_sector_loss_events == 0.0
    # no defects: the paper's chain is the birth-death chain, and the figures agree
    assert figures.p_group_lost == pytest.approx(figures.p_loss, rel=1e-13)


def test_aggregates_are_one_minus_the_product_for_each_figure() -> None:
    layouts = [Layout("raid5 8", "raid5", 1, 8), Layout("raid-dp 9", "raid-dp", 2, 9)]
    result = compare_layouts(layouts, data_disks=42, rates=ODD, mission_hours=43_800.0)
    for r in result.results:
        groups = r.shape.groups
        assert (
            reference.relative_error(
                r.p_group_lost_aggregate, reference.aggregate(r.p_group_lost, groups)
            )
            < 1e-13
        )
        assert (
            reference.relative_error(
                r.p_sectors_lost_aggregate, reference.aggregate(r.p_sectors_lost, groups)
            )
            < 1e-13
        )
        assert r.expected_sector_loss_events == pytest.approx(
            groups * r.expected_sector_loss_events_group, rel=1e-15
        )


def test_fail_rebuild_ends_the_group_at_every_loss() -> None:
    layouts = [Layout("raid5 8", "raid5", 1, 8), Layout("raid-dp 9", "raid-dp", 2, 9)]
    kwargs = {"data_disks": 42, "rates": PAPER_RATES, "mission_hours": 43_800.0}
    lose = compare_layouts(layouts, **kwargs)  # type: ignore[arg-type]
    fail = compare_layouts(layouts, unreadable_sector="fail-rebuild", **kwargs)  # type: ignore[arg-type]
    for a, b in zip(lose.results, fail.results, strict=True):
        assert a.p_loss_group == b.p_loss_group
        assert a.p_loss_aggregate == b.p_loss_aggregate
        assert b.p_group_lost == b.p_loss_group
        assert b.p_group_lost_aggregate == pytest.approx(b.p_loss_aggregate, rel=1e-15)
        assert b.p_sectors_lost == b.p_sectors_lost_aggregate == 0.0
        assert b.expected_sector_loss_events == 0.0
        # with the default the latent defects dominate RAID 5 (NS3574 says so)
        assert a.p_sectors_lost > a.p_group_lost
    risks = layout_risks(
        layouts, [PAPER_RATES] * 2, [43_800.0] * 2, [42, 21], sectors_fail_rebuild=True
    )
    assert list(risks.p_group_lost) == list(risks.p_loss_group)
    assert not risks.p_sectors_lost.any()
    assert not risks.expected_sector_loss_events.any()


def test_the_sweep_rows_carry_the_same_figures() -> None:
    from planner.core.design.sweep import group_size_sweep

    rows = group_size_sweep([1, 2, 3], [5, 9, 13], 36, ODD, 43_800.0, include_uneven=True)
    for row in rows:
        figures = loss_figures(row.parity, row.group_size, ODD, 43_800.0)
        assert row.p_group_lost == pytest.approx(figures.p_group_lost, rel=1e-12)
        assert row.p_sectors_lost == pytest.approx(figures.p_sectors_lost, rel=1e-12)
        assert row.expected_sector_loss_events_group == pytest.approx(
            figures.expected_sector_loss_events, rel=1e-12
        )
        assert row.p_group_lost_aggregate == pytest.approx(
            p_loss_aggregate(figures.p_group_lost, row.groups), rel=1e-12
        )
        assert row.expected_sector_loss_events == pytest.approx(
            row.groups * figures.expected_sector_loss_events, rel=1e-12
        )


# --- the issue's four cases ---------------------------------------------------------------

ISSUE_RATES = Rates(0.01 / 8_760, 9.5e-4, 77.2, 168.0)
"""20 TB NL-SAS: 1 % ARR, 9.5e-4 defects per drive-hour, 77.2 h busy rebuild, weekly scrub."""
ISSUE_LAYOUTS = [
    Layout("RAID 5 of 8", "raid5", 1, 8),
    Layout("RAID 6 of 12", "raid6", 2, 12),
    Layout("triple parity of 16", "raid-tp", 3, 16),
    Layout("draid2:8d:48c:2s", "draid2", 2, 48, Declustered(8, 2)),
]


@pytest.mark.parametrize("streams", [1, None])
def test_the_issues_four_cases_are_the_birth_death_figure(streams: int | None) -> None:
    """Issue 20 measured 0.36x / 0.24x / 0.12x / 0.09x of it: now 1.0x."""
    rates = _rates(ISSUE_RATES, streams)
    result = compare_layouts(ISSUE_LAYOUTS, data_disks=96, rates=rates, mission_hours=43_800.0)
    for layout, r in zip(ISSUE_LAYOUTS, result.results, strict=True):
        chain = layout.chain_rates(rates)
        # a pool rebuilds one drive at a time at its own rate (docs/declustered.md)
        at_once = 1 if layout.declustered is not None else streams
        expected = reference.group_lost(
            layout.parity, layout.group_size, chain.op_failures_per_hour,
            chain.rebuild_hours, 43_800.0, at_once,
        )  # fmt: skip
        assert reference.relative_error(r.p_group_lost, expected) < 1e-9, layout.label
    # the batch (sweep, recommend) says the same
    risks = layout_risks(ISSUE_LAYOUTS, [rates] * 4, [43_800.0] * 4, [12, 9, 8, 3])
    for r, p in zip(result.results, risks.p_group_lost, strict=True):
        assert p == pytest.approx(r.p_group_lost, rel=1e-13)


def test_a_pools_sector_figures_use_its_stripe_share() -> None:
    pool = ISSUE_LAYOUTS[-1]
    chain = pool.chain_rates(ISSUE_RATES)
    share = math.comb(45, 7) / math.comb(47, 9)  # both failed drives in the defect's stripe
    r = compare_layouts([pool], data_disks=96, rates=ISSUE_RATES, mission_hours=43_800.0)
    result = r.results[0]
    args = (
        2, 48, chain.op_failures_per_hour, chain.latent_defects_per_hour,
        chain.rebuild_hours, chain.scrub_hours, 43_800.0,
    )  # fmt: skip
    assert (
        reference.relative_error(result.p_loss_group, reference.p_loss(*args, share=share)) < 1e-9
    )
    assert (
        reference.relative_error(result.p_sectors_lost, reference.sectors_lost(*args, share=share))
        < 1e-9
    )
    events = reference.expected_sector_loss_events(*args, share=share)
    assert reference.relative_error(result.expected_sector_loss_events_group, events) < 1e-9
    # the old upper bound took every defect to meet both failed drives
    bound = reference.sectors_lost(*args)
    assert result.p_sectors_lost < 0.1 * float(bound)


# --- properties (hypothesis) --------------------------------------------------------------

_FAST = settings(max_examples=40, deadline=None)
parities = st.integers(min_value=1, max_value=3)
drive_counts = st.integers(min_value=4, max_value=30)
failure_rates = st.floats(min_value=1e-7, max_value=1e-4)
defect_rates = st.floats(min_value=0.0, max_value=1e-2, allow_subnormal=False)
"""Subnormal rates (5e-324 per hour) left figures of 1e-319 with a few bits of precision: a
fresh run found P(sectors lost) 2.59e-319 over its bound 2.47e-319, rounding, not a fault."""
hours_ = st.floats(min_value=1.0, max_value=200.0)
factors = st.floats(min_value=1.01, max_value=4.0)


@_FAST
@given(parities, drive_counts, failure_rates, defect_rates, hours_, factors)
def test_more_failures_longer_rebuilds_wider_groups_never_lower_p_group_lost(
    parity: int, drives: int, lop: float, lld: float, rebuild: float, factor: float
) -> None:
    drives = max(drives, parity + 1)
    base = loss_figures(parity, drives, Rates(lop, lld, rebuild, 168.0), 43_800.0).p_group_lost
    more = loss_figures(parity, drives, Rates(lop * factor, lld, rebuild, 168.0), 43_800.0)
    longer = loss_figures(parity, drives, Rates(lop, lld, rebuild * factor, 168.0), 43_800.0)
    wider = loss_figures(parity, drives + 1, Rates(lop, lld, rebuild, 168.0), 43_800.0)
    tolerance = 1e-12 * base
    assert more.p_group_lost >= base - tolerance
    assert longer.p_group_lost >= base - tolerance
    assert wider.p_group_lost >= base - tolerance


@_FAST
@given(parities, drive_counts, failure_rates, defect_rates, hours_, st.floats(0.01, 1.0))
def test_p_sectors_lost_never_exceeds_the_expected_events(
    parity: int, drives: int, lop: float, lld: float, rebuild: float, share: float
) -> None:
    drives = max(drives, parity + 1)
    rates = Rates(lop, lld, rebuild, 168.0, defect_stripe_share=share)
    figures = loss_figures(parity, drives, rates, 43_800.0)
    assert 0.0 <= figures.p_sectors_lost <= figures.expected_sector_loss_events * (1 + 1e-12)
    assert 0.0 <= figures.p_group_lost <= 1.0


def test_the_symbolic_sector_share_is_the_absorption_probability() -> None:
    """``planner derive``'s share of first losses that lose sectors (the paper's chain)."""
    from planner.core.markov.symbolic import SYMBOL_NAMES, sector_loss_share

    for parity in (1, 2):
        for drives, lop, lld, rebuild, scrub in [
            (8, 2.17e-6, 1.08e-4, 12.0, 168.0),
            (16, 1e-5, 1e-7, 77.0, 24.0),
            (3, 1e-3, 1e-2, 5.0, 400.0),
        ]:
            exact, leading = sector_loss_share(parity)
            values = dict(
                zip(SYMBOL_NAMES, (drives, lop, lld, 1 / rebuild, 1 / scrub), strict=True)
            )
            symbols = {s.name: s for s in exact.free_symbols | leading.free_symbols}
            value = float(exact.subs({symbols[k]: v for k, v in values.items() if k in symbols}))
            expected = reference.sector_share(parity, drives, lop, lld, rebuild, scrub)
            assert reference.relative_error(value, expected) < 1e-12
            small = {**values, "lambda_op": lop * 1e-6, "lambda_ld": lld * 1e-6}
            exact_small = exact.subs({symbols[k]: v for k, v in small.items() if k in symbols})
            leading_small = leading.subs({symbols[k]: v for k, v in small.items() if k in symbols})
            assert float(leading_small / exact_small) == pytest.approx(1.0, rel=1e-4)
            assert math.isfinite(value)
