"""A workload's reads move each layout's defect rate the right way.

More reads never lower the rate a layout's chain takes; more data drives to share them
never raise it; no drive reads past its cap; and with the reads behind the rate, the chain
takes a data drive's rate over the data drives the groups hold, x data drives per drive.
"""

from __future__ import annotations

import dataclasses
import math

from hypothesis import given
from hypothesis import strategies as st

from planner.core.arrays.layouts import Layout
from planner.core.markov.rates import PAPER_RATES
from planner.core.markov.workload_reads import WorkloadReads

LAYOUTS = [
    Layout("RAID 10", "raid10", 1, 2),
    Layout("RAID 5 (7+1)", "raid5", 1, 8),
    Layout("RAID 6 (10+2)", "raid6", 2, 12),
    Layout("triple parity", "raid-tp", 3, 15),
]

totals = st.floats(min_value=0.0, max_value=10.0, allow_nan=False)
caps = st.floats(min_value=1e-9, max_value=1e-2, allow_nan=False) | st.just(math.inf)
groups = st.integers(min_value=1, max_value=500)


def _chain_rate(layout: Layout, total: float, cap: float, count: int) -> float:
    rates = dataclasses.replace(
        PAPER_RATES, defects_per_data_drive=True, workload_reads=WorkloadReads(total, cap)
    )
    return layout.chain_rates(rates, count).latent_defects_per_hour


@given(totals, totals, caps, groups, st.sampled_from(LAYOUTS))
def test_more_reads_never_lower_the_rate(
    a: float, b: float, cap: float, count: int, layout: Layout
) -> None:
    low, high = sorted((a, b))
    assert _chain_rate(layout, low, cap, count) <= _chain_rate(layout, high, cap, count)


@given(totals, caps, groups, groups, st.sampled_from(LAYOUTS))
def test_more_drives_to_share_them_never_raise_it(
    total: float, cap: float, a: int, b: int, layout: Layout
) -> None:
    few, many = sorted((a, b))
    assert _chain_rate(layout, total, cap, many) <= _chain_rate(layout, total, cap, few)


@given(totals, caps, groups, st.sampled_from(LAYOUTS))
def test_the_rate_is_the_reads_over_the_groups_data_drives(
    total: float, cap: float, count: int, layout: Layout
) -> None:
    data = layout.group_size - layout.parity
    # every drive of these layouts serves reads: the cap is on each drive's share
    by_hand = min(total / (count * data) * data / layout.group_size, cap)
    got = _chain_rate(layout, total, cap, count)
    assert got <= cap * (1 + 1e-15)
    assert math.isclose(got, by_hand, rel_tol=1e-14, abs_tol=0.0), (got, by_hand)


@given(totals, caps, groups)
def test_dedicated_parity_caps_each_data_drive_then_takes_the_mean(
    total: float, cap: float, count: int
) -> None:
    """RAID-DP's parity drives hold no data and serve no reads: its data drives are each
    capped, and the chain takes the mean over the group; every other layout caps each
    drive's share (a mirror's copies and rotating parity serve reads too)."""
    dedicated = Layout("RAID-DP (14+2)", "raid-dp", 2, 16)
    rotating = Layout("RAID 6 (14+2)", "raid6", 2, 16)
    per_data = total / (count * 14)
    assert math.isclose(
        _chain_rate(dedicated, total, cap, count), min(per_data, cap) * 14 / 16, rel_tol=1e-14
    )
    assert math.isclose(
        _chain_rate(rotating, total, cap, count), min(per_data * 14 / 16, cap), rel_tol=1e-14
    )
