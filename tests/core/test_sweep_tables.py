"""The group-size sweep reproduces NS3574 Tables 2 and 3 (and the data of Figures 3 and 6).

Rows (drives per group, groups, drives per aggregate, overhead drives) are the paper's,
exactly. Probabilities are checked against the independent mpmath chain of
tests/reference.py (the paper's rules, not planner's code), with the
paper's inputs: ARR 1.9% / 8,760 h, 1.08e-4 latent defects per hour, 12 h rebuild, 168 h
scrub, 5 years, 42 data disks.
"""

import mpmath
import pytest

from planner.core.design.sweep import SweepRow, group_size_sweep
from planner.core.markov.rates import PAPER_RATES
from tests import reference

FIVE_YEARS = 5 * 8760.0

TABLE_2 = [  # n+1: (HDD per RAID group, RAID groups, HDD per aggregate, overhead HDDs)
    (2, 42, 84, 42),
    (3, 21, 63, 21),
    (4, 14, 56, 14),
    (7, 7, 49, 7),
    (8, 6, 48, 6),
    (15, 3, 45, 3),
    (22, 2, 44, 2),
]
TABLE_3 = [  # n+2
    (5, 14, 70, 28),
    (8, 7, 56, 14),
    (9, 6, 54, 12),
    (16, 3, 48, 6),
    (23, 2, 46, 4),
]


def reference_p_group(parity: int, drives: int) -> mpmath.mpf:
    return reference.p_loss(parity, drives, 0.019 / 8760, 1.08e-4, 12.0, 168.0, FIVE_YEARS)


def shape(row: SweepRow) -> tuple[int, int, int, int]:
    return (row.group_size, row.groups, row.total_disks, row.overhead_disks)


def check_probabilities(rows: list[SweepRow]) -> None:
    for row in rows:
        p = reference_p_group(row.parity, row.group_size)
        aggregate = reference.aggregate(p, row.groups)
        # The paper's inputs are given to 2-3 digits, so the rate conversions differ from
        # mpmath's by an ulp or so; that, not the method, sets this tolerance.
        assert row.p_loss_group == pytest.approx(float(p), rel=1e-13)
        assert row.p_loss_aggregate == pytest.approx(float(aggregate), rel=1e-13)
        assert row.losses_per_10k_groups == pytest.approx(1e4 * float(p), rel=1e-13)


def test_table_2_is_the_even_n_plus_1_sweep() -> None:
    rows = group_size_sweep([1], range(2, 24), 42, PAPER_RATES, FIVE_YEARS)
    assert [shape(r) for r in rows] == TABLE_2
    assert all(r.exact_division and r.data_disks_provided == 42 for r in rows)
    check_probabilities(rows)


def test_table_3_is_the_even_n_plus_2_sweep() -> None:
    """Table 3 lists sizes from 5; 3 (a 3-way mirror) and 4 (2+2) also divide 42 evenly
    and the sweep keeps them: the paper's table simply starts at five drives."""
    rows = group_size_sweep([2], range(2, 24), 42, PAPER_RATES, FIVE_YEARS)
    assert [shape(r) for r in rows] == [(3, 42, 126, 84), (4, 21, 84, 42), *TABLE_3]
    from_five = group_size_sweep([2], range(5, 24), 42, PAPER_RATES, FIVE_YEARS)
    assert [shape(r) for r in from_five] == TABLE_3
    check_probabilities(rows)


def test_both_parities_in_one_sweep_keep_order() -> None:
    rows = group_size_sweep([2, 1], range(2, 24), 42, PAPER_RATES, FIVE_YEARS)
    assert [r.parity for r in rows] == [2] * 7 + [1] * 7
    assert [shape(r) for r in rows if r.parity == 1] == TABLE_2


def test_paper_prose_figures() -> None:
    """Figure 3's RAID 5 point: R = 0.92 per group, 0.60 for six groups (40% loss); Figure
    2: 33 RAID 10 losses in 10,000 groups; Figure 5: 3 to 4 for 22-drive RAID-DP."""
    rows = {
        (r.parity, r.group_size): r
        for r in group_size_sweep([1, 2], range(2, 24), 42, PAPER_RATES, FIVE_YEARS, True)
    }
    assert round(1 - rows[1, 8].p_loss_group, 2) == 0.92
    assert round(rows[1, 8].p_loss_aggregate, 2) == 0.40
    assert round(rows[1, 2].losses_per_10k_groups) == 33
    assert 3.0 <= rows[2, 22].losses_per_10k_groups <= 4.0


def test_uneven_sizes_show_the_rounding() -> None:
    rows = group_size_sweep([1], range(2, 24), 42, PAPER_RATES, FIVE_YEARS, include_uneven=True)
    assert [r.group_size for r in rows] == list(range(2, 24))
    by_size = {r.group_size: r for r in rows}
    five = by_size[5]  # 4 data disks per group: 11 groups hold 44 data disks
    assert (five.groups, five.total_disks, five.overhead_disks) == (11, 55, 11)
    assert not five.exact_division
    assert five.data_disks_provided == 44
    assert sum(r.exact_division for r in rows) == len(TABLE_2)
