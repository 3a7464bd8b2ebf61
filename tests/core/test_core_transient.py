"""Transient loss probability against the independent 100-digit mpmath reference.

The reference chain is tests/reference.py (written from the paper's rules, NS3574
"Probability of data loss", not from planner's code). P(T) = exp(Q T) is computed by
eigendecomposition at 100 digits (cross-checked with mpmath.expm) and compared with
planner's double-precision p_loss_group.
"""

import functools
import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.markov.rates import Rates
from planner.core.markov.transient import p_loss_group
from tests import reference

# one worker runs the whole module, so the cached references and runs are computed once
# (make test runs pytest with --dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_core_transient")

DPS = 100
YEAR = 8760.0


@functools.cache  # the covering test reads the values the case tests computed
def reference_p_loss(parity: int, drives: int, rates: Rates, hours: float) -> mpmath.mpf:
    """(pristine, loss) entry of V diag(exp(λ_i T)) V^-1 at DPS digits (tests/reference.py)."""
    return reference.p_loss_eig(parity, drives, *reference.rate_args(rates), hours, dps=DPS)


def reference_p_loss_expm(parity: int, drives: int, rates: Rates, hours: float) -> mpmath.mpf:
    """The same entry by mpmath's own scaling-and-squaring exponential."""
    with mpmath.workdps(DPS):
        return reference.p_loss(parity, drives, *reference.rate_args(rates), hours)


def assert_close(actual: float, expected: mpmath.mpf, rel: float = 1e-9) -> None:
    assert expected > 0
    error = abs(mpmath.mpf(actual) - expected) / expected
    assert error <= rel, f"planner {actual!r} vs reference {mpmath.nstr(expected, 20)}"


PAPER = Rates(0.019 / YEAR, 1.08e-4, 12.0, 168.0)
TINY = Rates(1e-8, 1.08e-5, 12.0, 168.0)
TINY_NO_LATENT = Rates(1e-8, 0.0, 6.0, 168.0)

CASES = [
    # (parity, drives, rates, mission hours)
    (1, 2, PAPER, 5 * YEAR),
    (1, 8, PAPER, 5 * YEAR),
    (1, 60, PAPER, 5 * YEAR),
    (2, 9, PAPER, 5 * YEAR),
    (2, 22, PAPER, 5 * YEAR),
    (2, 60, PAPER, 1.0),
    (3, 12, PAPER, 5 * YEAR),
    (4, 16, PAPER, 10 * YEAR),
    (3, 4, TINY, 5 * YEAR),  # ~1e-18
    (3, 40, TINY, 5 * YEAR),
    (4, 5, TINY, 5 * YEAR),  # ~1e-25
    (4, 60, TINY, 5 * YEAR),
    (4, 5, TINY_NO_LATENT, YEAR),  # ~1e-32
    (4, 60, TINY_NO_LATENT, 24.0),
    (1, 3, Rates(1e-3, 1e-2, 100.0, 1000.0), 20 * YEAR),  # near certain loss
]


@pytest.mark.parametrize(("parity", "drives", "rates", "hours"), CASES)
def test_p_loss_group_matches_reference(
    parity: int, drives: int, rates: Rates, hours: float
) -> None:
    expected = reference_p_loss(parity, drives, rates, hours)
    # two independent high-precision methods agree far beyond what is asserted below
    with mpmath.workdps(DPS):
        cross = reference_p_loss_expm(parity, drives, rates, hours)
        assert abs(cross - expected) <= mpmath.mpf(10) ** -40 * expected
    assert_close(p_loss_group(parity, drives, rates, hours), expected)


@pytest.mark.parametrize(
    ("case", "generator"), [(CASES[3], True), (CASES[12], True), (CASES[14], False)]
)
def test_the_references_exponential_is_mpmaths(
    case: tuple[int, int, Rates, float], generator: bool
) -> None:
    """reference.expm takes mpmath.expm's steps on lists: every entry the same number.

    The stiff RAID 6 case, the tiny (~1e-32) one of quadruple parity, and a matrix that is
    not a generator (the near-certain case's, its rows no longer summing to 0, as
    aged_bounds takes).
    """
    parity, drives, rates, hours = case
    lop, lld, rebuild_hours, scrub_hours = reference.rate_args(rates)
    with mpmath.workdps(60):
        rebuild, scrub = 1 / mpmath.mpf(rebuild_hours), 1 / mpmath.mpf(scrub_hours)
        matrix = reference.generator(parity, drives, lop, lld, rebuild, scrub) * hours
        if not generator:
            matrix -= mpmath.eye(matrix.rows) * matrix[0, 1]
        assert reference.expm(matrix) == mpmath.expm(matrix)


def test_reference_covers_tiny_probabilities() -> None:
    """The case list really exercises probabilities at and far below 1e-15.

    Its cases at the tiny rates show it alone: a minimum and a count over part of the list
    bound those over all of it.
    """
    tiny = [case for case in CASES if case[2] in (TINY, TINY_NO_LATENT)]
    smallest = min(reference_p_loss(*case) for case in tiny)
    assert smallest < 1e-30
    assert sum(reference_p_loss(*case) < 1e-15 for case in tiny) >= 4


def test_zero_mission_loses_nothing() -> None:
    assert p_loss_group(2, 9, PAPER, 0.0) == 0.0


# 25 examples of a 100-digit eigendecomposition each (up to 0.1 s): the fixed CASES above
# hold the corners; these roam the space between them.
@settings(max_examples=25, deadline=None)
@given(
    parity=st.integers(1, 4),
    extra=st.integers(1, 56),
    log_lop=st.floats(-8.5, -4.0),
    log_lld=st.floats(-7.0, -3.0),
    rebuild_hours=st.floats(1.0, 200.0),
    scrub_hours=st.floats(24.0, 2000.0),
    # 36 seconds to 11 years: short missions too, where a Padé exponential cancels (scipy's
    # leaves relative errors up to ~1e-8 below 1 h); planner's series has no cancellation.
    log_hours=st.floats(-2.0, 5.0),
)
def test_p_loss_group_random_cases(
    parity: int,
    extra: int,
    log_lop: float,
    log_lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    log_hours: float,
) -> None:
    drives = parity + extra
    rates = Rates(10.0**log_lop, 10.0**log_lld, rebuild_hours, scrub_hours)
    hours = 10.0**log_hours
    expected = reference_p_loss(parity, drives, rates, hours)
    assert_close(p_loss_group(parity, drives, rates, hours), expected)
    assert math.isfinite(float(expected))
