"""The spec-sheet (web calculator) method beside the paper's latent-defect model.

Checked against its closed form for one rebuild, and against a published calculator
figure: the Super User question "Formula to calculate probability of unrecoverable read
error during RAID rebuild" (reproduced in the nvidia/Nemotron-CC-Math-v1 dataset,
https://huggingface.co/datasets/nvidia/Nemotron-CC-Math-v1) gives, for reading one 6 TB
drive, 38% at 1e-14 errors per bit and 4.7% at 1e-15, and for one 3 TB drive 21% and 2.4%;
for RAID 5 of 2+1 x 3 TB (two drives read) 38% and 4.7%.
"""

from __future__ import annotations

import math

import pytest

from planner.core.markov.chain import State, build_chain
from planner.core.markov.expm import expm_metzler
from planner.core.markov.methods import (
    analytic_methods,
    critical_rebuild_bits,
    p_loss_spec_sheet,
    p_unreadable_in_rebuild,
    spec_sheet_generator,
)
from planner.core.markov.rates import PAPER_RATES, Rates
from tests import reference


@pytest.mark.parametrize(
    ("parity", "drives", "capacity_tb", "errors_per_bit", "published", "half_digit"),
    [
        (1, 2, 6.0, 1e-14, 0.38, 0.005),  # RAID 1, 1+1 x 6 TB
        (1, 2, 6.0, 1e-15, 0.047, 0.0005),
        (1, 2, 3.0, 1e-14, 0.21, 0.005),  # RAID 10: the mirror of the failed 3 TB drive
        (1, 2, 3.0, 1e-15, 0.024, 0.0005),
        (1, 3, 3.0, 1e-14, 0.38, 0.005),  # RAID 5, 2+1 x 3 TB: two drives read
        (1, 4, 2.0, 1e-15, 0.047, 0.0005),  # RAID 5, 3+1 x 2 TB
    ],
)
def test_the_published_calculator_figures(
    parity: int,
    drives: int,
    capacity_tb: float,
    errors_per_bit: float,
    published: float,
    half_digit: float,
) -> None:
    bits = critical_rebuild_bits(parity, drives, capacity_tb)
    p = p_unreadable_in_rebuild(bits, errors_per_bit)
    # the source rounds to two significant digits: within half its last digit
    assert abs(p - published) <= half_digit
    # and the calculator's own form, 1 - (1 - rate)^bits, agrees to 1e-12
    assert p == pytest.approx(-math.expm1(bits * math.log1p(-errors_per_bit)), rel=1e-12)


def test_a_tiny_probability_keeps_its_digits() -> None:
    assert p_unreadable_in_rebuild(1e3, 1e-17) == pytest.approx(1e-14, rel=1e-12)


@pytest.mark.parametrize(("parity", "drives"), [(1, 2), (1, 8), (2, 12), (3, 15)])
def test_one_critical_rebuild_ends_in_loss_with_the_closed_form_probability(
    parity: int, drives: int
) -> None:
    """From the critical state, with failures negligible, P(loss) before the rebuild ends is p."""
    p = p_unreadable_in_rebuild(critical_rebuild_bits(parity, drives, 20.0), 1e-15)
    rates = Rates(1e-13, 1e-4, 30.0, 168.0)
    q = spec_sheet_generator(parity, drives, rates, p)
    chain = build_chain(parity)
    critical = chain.states.index(State(parity, 0))
    exp = expm_metzler(q * 3_000.0, generator=True)  # 100 mean rebuilds: it has ended
    # closed form of the absorbing choice at the critical state: p mu / (mu + (N-k) lambda)
    mu, lam = 1 / 30.0, 1e-13
    expected = p * mu / (mu + (drives - parity) * lam)
    assert exp[critical, chain.loss_index] == pytest.approx(expected, rel=1e-9)


def test_with_no_read_errors_it_is_the_classic_no_latent_model() -> None:
    methods = analytic_methods(2, 9, PAPER_RATES, 43_800.0, spec_sheet=(0.3, 0.0))
    assert methods.p_spec_sheet == pytest.approx(methods.p_no_latent, rel=1e-13)


def test_against_the_independent_reference_with_p_zero() -> None:
    p = p_loss_spec_sheet(1, 8, PAPER_RATES, 43_800.0, 0.0)
    expected = reference.p_loss(1, 8, PAPER_RATES.op_failures_per_hour, 0.0, 12.0, 168.0, 43_800.0)
    assert reference.relative_error(p, expected) < 1e-12


def test_more_capacity_or_errors_raise_the_spec_sheet_risk() -> None:
    low = analytic_methods(1, 8, PAPER_RATES, 43_800.0, spec_sheet=(2.0, 1e-15)).p_spec_sheet
    high = analytic_methods(1, 8, PAPER_RATES, 43_800.0, spec_sheet=(20.0, 1e-15)).p_spec_sheet
    worse = analytic_methods(1, 8, PAPER_RATES, 43_800.0, spec_sheet=(20.0, 1e-14)).p_spec_sheet
    assert low is not None
    assert high is not None
    assert worse is not None
    assert low < high < worse


def _draid_stripes(children: int, data: int, parity: int, spares: int, slices: int) -> list:
    """The stripes of a dRAID-like layout, one block of each drive per row.

    As OpenZFS dRAID lays a pool out: every slice of rows takes one random permutation of
    the children (seeded here, precomputed maps there), the last ``spares`` positions
    are spare space, and groups of ``w = d + p`` consecutive positions fill the other
    ``C - s`` positions row after row, a group running on into the next row of its slice
    when it does not fit (so a slice is lcm(w, C - s) / (C - s) rows). Returns the stripes
    (as sets of drives) and the rows.
    """
    import random

    width, columns = data + parity, children - spares
    rows_per_slice = math.lcm(width, columns) // columns
    rng = random.Random(20)
    stripes = []
    for _ in range(slices):
        order = list(range(children))
        rng.shuffle(order)
        positions = [order[i % columns] for i in range(rows_per_slice * columns)]
        for start in range(0, len(positions), width):
            group = positions[start : start + width]
            assert len(set(group)) == width  # a stripe spans w different drives
            stripes.append(frozenset(group))
    return [stripes, slices * rows_per_slice]


def test_critical_stripes_of_a_pool_match_an_enumerated_layout() -> None:
    # draid2:8d:48c:2s, laid out over 40 slices (200 rows): for every pair of failed drives,
    # the critical rebuild reads the d surviving blocks of each stripe holding both. On
    # average over the pairs, that is the closed form's drives' worth per row.
    from fractions import Fraction
    from itertools import combinations

    from planner.core.arrays.declustered import critical_rebuild_drives

    stripes, rows = _draid_stripes(48, 8, 2, 2, slices=40)
    pairs = list(combinations(range(48), 2))
    read = [sum(8 for s in stripes if a in s and b in s) for a, b in pairs]
    mean = Fraction(sum(read), len(pairs) * rows)
    assert critical_rebuild_drives(2, 48, 8, 2) == mean
    assert float(mean) == pytest.approx(1.468, abs=5e-4)  # against 46 drives read whole
    # and any one pair of a real layout is near that mean: the layout spreads stripes
    assert max(read) / rows < 3 * float(mean)


def test_a_pools_spec_sheet_reads_only_its_critical_stripes() -> None:
    # Issue 20: draid2:8d:48c:2s of 20 TB at 1e-15 per bit; reading 46 drives whole gave
    # 0.999, the critical stripes 1.468 drives' worth: 1 - exp(-1.468 x 20e12 x 8 x 1e-15)
    from planner.core.arrays.declustered import Declustered
    from planner.core.arrays.layouts import Layout

    pool = Layout("pool", "draid2", 2, 48, Declustered(8, 2))
    read = 8 * 46 / 10 * (10 * 9) / (48 * 47)
    bits = critical_rebuild_bits(2, 48, 20.0, pool.critical_rebuild_drives)
    p = p_unreadable_in_rebuild(bits, 1e-15)
    assert p == pytest.approx(-math.expm1(-read * 20e12 * 8 * 1e-15), rel=1e-12)
    assert p == pytest.approx(0.21, abs=0.005)
    # a traditional group still reads its N - k drives whole
    assert Layout("r6", "raid6", 2, 12).critical_rebuild_drives == 10
