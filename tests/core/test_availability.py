"""Availability and magnitude: the going-on chain's integrals (planner.core.markov.going_on).

The expected whole-group losses, the expected sector-loss events and the hours a year a
group is degraded (f >= 1) or critical (f = k) are checked against tests/reference.py's
chain written from the issue's rules (60-digit mpmath, Van Loan's block exponential; its
spectral integral once, as a check of the reference), k = 1 to 3, with and without latent
defects, in parallel rebuilds, a pool's sigma and correlated; against the closed form of a
single-parity group without defects; and for directions (Hypothesis) that must hold.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.arrays.availability import layout_availability
from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.core.markov import expm_compiled
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.loss_figures import chain_figures
from planner.core.markov.rates import HOURS_PER_YEAR, Rates
from planner.core.markov.transient import loss_figures
from tests import reference

TOLERANCE = 1e-9
ODD = Rates(3.7e-6, 2.3e-4, 17.0, 131.0)
CORRELATED = Rates(
    4.3e-6,
    1.7e-4,
    23.0,
    151.0,
    degraded_multiplier=3.0,
    shocks_per_hour=0.7 / 8760.0,
    shock_drive_probability=0.06,
)
CASES = [
    (1, 8, ODD, 43_800.0),
    (2, 12, ODD, 43_800.0),
    (3, 15, ODD, 8_760.0),
    (2, 10, dataclasses.replace(ODD, latent_defects_per_hour=0.0), 43_800.0),
    (3, 14, dataclasses.replace(ODD, rebuild_streams=None), 43_800.0),
    (2, 48, dataclasses.replace(ODD, defect_stripe_share=0.033), 43_800.0),  # a pool
    (1, 5, CORRELATED, 43_800.0),
    (3, 12, CORRELATED, 20_000.0),
]
NAMES = {
    "expected_group_losses": "expected_group_losses",
    "expected_sector_loss_events": "expected_sector_loss_events",
    "degraded_hours_per_year": "degraded_fraction",
    "critical_hours_per_year": "critical_fraction",
}
"""Each figure and the reference's integral it is (a fraction times a year's hours)."""


def _reference(parity: int, drives: int, rates: Rates, hours: float, **how: str) -> dict[str, Any]:
    return reference.going_on_integrals(
        parity,
        drives,
        rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
        hours,
        share=rates.defect_stripe_share,
        streams=rates.rebuild_streams,
        multiplier=rates.degraded_multiplier,
        shocks_per_hour=rates.shocks_per_hour,
        q=rates.shock_drive_probability,
        **how,
    )


def _check(figures: object, expected: dict[str, Any], index: int | None = None) -> None:
    for name, key in NAMES.items():
        value = getattr(figures, name)
        value = float(value if index is None else value[index])
        want = expected[key] * (HOURS_PER_YEAR if key.endswith("fraction") else 1)
        if want == 0:
            assert value == 0.0, name
        else:
            assert reference.relative_error(value, want) < TOLERANCE, name


@pytest.mark.parametrize(("parity", "drives", "rates", "hours"), CASES)
def test_one_layout_matches_the_mpmath_chain(
    parity: int, drives: int, rates: Rates, hours: float
) -> None:
    _check(loss_figures(parity, drives, rates, hours), _reference(parity, drives, rates, hours))


def test_a_stack_matches_the_mpmath_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cases of one parity and one rebuild at a time in one stack, on the kernel and on
    the NumPy path (one test: each reference is computed once for both)."""
    for path in ("compiled", "numpy"):
        if path == "numpy":
            monkeypatch.setattr(expm_compiled, "KERNEL", None)
        for parity in (2, 3):
            cases = [c for c in CASES if c[0] == parity and c[2].rebuild_streams == 1]
            inputs = ChainInputs.from_rates(
                np.array([c[1] for c in cases], dtype=float),
                [c[2] for c in cases],
                np.array([c[3] for c in cases]),
                mixed=True,
            )
            figures = chain_figures(parity, inputs)
            for i, (_, drives, rates, hours) in enumerate(cases):
                _check(figures, _reference(parity, drives, rates, hours), i)


FIGURES = (
    "p_loss",
    "p_group_lost",
    "p_sectors_lost",
    "expected_sector_loss_events",
    "expected_group_losses",
    "degraded_hours_per_year",
    "critical_hours_per_year",
)


def test_one_layout_and_the_stack_give_the_same_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """loss_figures (one layout) = chain_figures (a stack), on the kernel and on NumPy's
    one-matrix path (expm_row's lean row with four reward columns): a few ulps."""
    for parity, drives, rates, hours in CASES:
        stack = chain_figures(parity, ChainInputs.of_rates(drives, rates, hours))
        one = loss_figures(parity, drives, rates, hours)
        with monkeypatch.context() as patched:
            patched.setattr(expm_compiled, "KERNEL", None)
            lean = loss_figures(parity, drives, rates, hours)
        for name in FIGURES:
            expected = float(getattr(stack, name))
            assert getattr(one, name) == pytest.approx(expected, rel=1e-12, abs=0), name
            assert getattr(lean, name) == pytest.approx(expected, rel=1e-12, abs=0), name


def test_the_reference_two_ways() -> None:
    """The reference's block exponential against its own spectral integral."""
    block = _reference(2, 10, CORRELATED, 30_000.0)
    spectral = _reference(2, 10, CORRELATED, 30_000.0, method="spectral")
    for key, value in block.items():
        assert reference.relative_error(float(value), spectral[key]) < 1e-12, key


@pytest.mark.parametrize(("drives", "hours"), [(2, 43_800.0), (8, 8_760.0), (14, 50.0)])
def test_single_parity_without_defects_is_a_repairable_pair(drives: int, hours: float) -> None:
    """Up -> down at N λ, down -> up at μ + (N - 1) λ (a second failure restored)."""
    rates = Rates(2.9e-5, 0.0, 31.0, 168.0)
    figures = loss_figures(1, drives, rates, hours)
    fraction = reference.two_state_degraded_fraction(drives, 2.9e-5, 31.0, hours)
    assert reference.relative_error(figures.degraded_hours_per_year / HOURS_PER_YEAR, fraction) < (
        1e-12
    )
    assert figures.critical_hours_per_year == figures.degraded_hours_per_year  # k = 1
    assert figures.expected_sector_loss_events == 0.0


def test_a_long_mission_tends_to_the_steady_state() -> None:
    """Over a century the degraded fraction is N λ / (N λ + μ + (N - 1) λ) to 1e-4."""
    lam, mu, drives = 1e-5, 1 / 24.0, 2
    figures = loss_figures(1, drives, Rates(lam, 0.0, 24.0, 168.0), 100 * HOURS_PER_YEAR)
    steady = drives * lam / (drives * lam + mu + (drives - 1) * lam)
    assert figures.degraded_hours_per_year / HOURS_PER_YEAR == pytest.approx(steady, rel=1e-4)


def test_a_failed_rebuild_counts_as_a_group_lost() -> None:
    """restore.on_unreadable_sector: fail-rebuild: every sector-loss event loses the group."""
    lose = loss_figures(2, 12, ODD, 43_800.0)
    fail = loss_figures(2, 12, ODD, 43_800.0, sectors_fail_rebuild=True)
    assert fail.expected_sector_loss_events == 0.0
    assert fail.expected_group_losses == lose.expected_group_losses + (
        lose.expected_sector_loss_events
    )
    assert fail.degraded_hours_per_year == lose.degraded_hours_per_year


def test_a_mission_of_no_hours_is_pristine_all_along() -> None:
    figures = chain_figures(2, ChainInputs.of(10.0, 1e-5, 1e-4, 12.0, 168.0, 0.0))
    for name in NAMES:
        assert float(getattr(figures, name)) == 0.0, name


ARR = st.floats(0.002, 0.3)
DEFECTS = st.floats(0.0, 1e-3)
REBUILD = st.floats(2.0, 300.0)


def _stack(parity: int, drives: list[float], rates: list[Rates], years: float) -> object:
    inputs = ChainInputs.from_rates(
        np.array(drives), rates, np.full(len(rates), years * HOURS_PER_YEAR), mixed=True
    )
    return chain_figures(parity, inputs)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(1, 3),
    st.integers(0, 20),
    ARR,
    DEFECTS,
    REBUILD,
    st.floats(1.01, 4.0),
    st.sampled_from([1, None]),
)
def test_longer_rebuilds_never_lower_the_degraded_hours(
    parity: int,
    extra_drives: int,
    arr: float,
    defects: float,
    rebuild: float,
    longer: float,
    streams: int | None,
) -> None:
    base = Rates(arr / HOURS_PER_YEAR, defects, rebuild, 168.0, streams)
    slow = dataclasses.replace(base, rebuild_hours=rebuild * longer)
    drives = float(parity + 2 + extra_drives)
    figures = _stack(parity, [drives, drives], [base, slow], 5.0)
    degraded = figures.degraded_hours_per_year  # type: ignore[attr-defined]
    critical = figures.critical_hours_per_year  # type: ignore[attr-defined]
    assert degraded[1] >= degraded[0]
    assert critical[1] >= critical[0]


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3), st.integers(0, 20), ARR, DEFECTS, REBUILD)
def test_more_parity_never_raises_the_critical_hours_or_the_group_losses(
    parity: int, extra_drives: int, arr: float, defects: float, rebuild: float
) -> None:
    """The same drives, one more of them parity: k + 1 down at once is rarer than k."""
    rates = Rates(arr / HOURS_PER_YEAR, defects, rebuild, 168.0)
    drives = float(parity + 3 + extra_drives)
    fewer = _stack(parity, [drives], [rates], 5.0)
    more = _stack(parity + 1, [drives], [rates], 5.0)
    assert more.critical_hours_per_year[0] <= fewer.critical_hours_per_year[0]  # type: ignore[attr-defined]
    assert more.expected_group_losses[0] <= fewer.expected_group_losses[0]  # type: ignore[attr-defined]


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3), st.integers(0, 20), ARR, DEFECTS, REBUILD, st.floats(1.01, 3.0))
def test_more_failures_never_lower_what_is_lost_or_the_degraded_hours(
    parity: int, extra_drives: int, arr: float, defects: float, rebuild: float, factor: float
) -> None:
    rates = Rates(arr / HOURS_PER_YEAR, defects, rebuild, 168.0)
    worse = dataclasses.replace(rates, op_failures_per_hour=rates.op_failures_per_hour * factor)
    drives = float(parity + 2 + extra_drives)
    figures = _stack(parity, [drives, drives], [rates, worse], 5.0)
    for name in ("expected_group_losses", "expected_sector_loss_events", "degraded_hours_per_year"):
        values = getattr(figures, name)
        assert values[1] >= values[0], name


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 3), st.integers(0, 20), ARR, DEFECTS, REBUILD, st.floats(1.01, 3.0))
def test_the_nomdl_never_falls_when_the_arr_rises(
    parity: int, extra_drives: int, arr: float, defects: float, rebuild: float, factor: float
) -> None:
    layout = Layout("g", None, parity, parity + 2 + extra_drives)
    rates = Rates(arr / HOURS_PER_YEAR, defects, rebuild, 168.0)
    worse = dataclasses.replace(rates, op_failures_per_hour=rates.op_failures_per_hour * factor)
    nomdl = []
    for r in (rates, worse):
        figures = loss_figures(parity, layout.group_size, r, 5 * HOURS_PER_YEAR)
        lost = layout_availability(layout, figures, 3, 18.0)
        assert lost.nomdl_bytes_per_tb is not None
        nomdl.append(lost.nomdl_bytes_per_tb)
    assert nomdl[1] >= nomdl[0]


def test_the_nomdl_weighs_each_loss_by_what_it_loses() -> None:
    """By hand: RAID 6 of 12 on 10 TB drives (9 TB usable each), 256 KiB stripe units."""
    layout = Layout("raid6 12", "raid6", 2, 12)
    figures = loss_figures(2, 12, ODD, 43_800.0)
    lost = layout_availability(layout, figures, 4, 9.0, 256 * 1024)
    group_bytes = 10 * 9.0 * 1e12  # ten data drives of 9 TB
    stripe_bytes = 10 * 256 * 1024
    expected_bytes = 4 * (
        figures.expected_group_losses * group_bytes
        + figures.expected_sector_loss_events * stripe_bytes
    )
    assert lost.nomdl_bytes_per_tb == pytest.approx(expected_bytes / (4 * 90.0), rel=1e-14)
    assert lost.expected_group_losses == 4 * figures.expected_group_losses
    assert layout_availability(layout, figures, 4, None).nomdl_bytes_per_tb is None


def test_a_zfs_pool_loses_every_groups_data_with_one() -> None:
    """Only 0.69% of a dRAID pool's stripes span p + 1 failed drives, but the vdev cannot
    open then, and the ZFS pool with it: a loss takes all of the aggregate's groups."""
    pool = Layout("draid2", "draid2", 2, 48, Declustered(data=8, spares=2))
    figures = loss_figures(2, 48, pool.chain_rates(ODD), 43_800.0)
    usable_tb = float(pool.data_capacity) * 9.0
    sectors = figures.expected_sector_loss_events * 8 * 128 * 1024 / usable_tb
    for groups in (1, 3):
        lost = layout_availability(pool, figures, groups, 9.0)
        whole = figures.expected_group_losses * groups * 1e12
        assert lost.nomdl_bytes_per_tb == pytest.approx(whole + sectors, rel=1e-14)
    assert pool.fraction_lost_on_overlap < 0.01
