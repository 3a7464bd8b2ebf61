"""Aggregate probability 1 - (1 - p)^g against mpmath at 50 digits, and helpers."""

import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.markov.aggregate import p_loss_any
from planner.core.markov.transient import losses_per_10k_groups, p_loss_aggregate, relative_risk
from tests.reference import any_loss, relative_error


def reference(p: float, groups: int) -> mpmath.mpf:
    with mpmath.workdps(50):
        return +(1 - (1 - mpmath.mpf(p)) ** groups)


@pytest.mark.parametrize(
    ("p", "groups"),
    [
        (1e-15, 1000),
        (1e-15, 1),
        (1e-300, 7),
        (2.0763e-5, 6),
        (0.0805, 6),
        (0.5, 100),
        (1e-9, 10**6),
    ],
)
def test_p_loss_aggregate_matches_mpmath(p: float, groups: int) -> None:
    expected = reference(p, groups)
    assert p_loss_aggregate(p, groups) == pytest.approx(float(expected), rel=1e-13)


def test_one_group_is_the_group() -> None:
    assert p_loss_aggregate(0.123, 1) == pytest.approx(0.123, rel=1e-15)


def test_certain_loss_and_no_loss() -> None:
    assert p_loss_aggregate(1.0, 5) == 1.0
    assert p_loss_aggregate(0.0, 5) == 0.0


def test_needs_a_group() -> None:
    with pytest.raises(ValueError, match="at least one group"):
        p_loss_aggregate(0.1, 0)


@settings(max_examples=60, deadline=None)
@given(log_p=st.floats(-300.0, -1e-3), groups=st.integers(1, 10**6))
def test_p_loss_aggregate_random(log_p: float, groups: int) -> None:
    p = 10.0**log_p
    expected = reference(p, groups)
    assert p_loss_aggregate(p, groups) == pytest.approx(float(expected), rel=1e-11)


def test_losses_per_10k_and_relative_risk() -> None:
    assert losses_per_10k_groups(0.0033) == pytest.approx(33.0)
    assert relative_risk(0.06, 0.00002) == pytest.approx(3000.0)
    assert relative_risk(1e-3, 0.0) == math.inf
    assert relative_risk(0.0, 0.0) == 1.0


@pytest.mark.parametrize(
    "p_losses",
    [
        [1e-15, 3e-14, 2e-16],  # where 1 - prod(1 - p) in floating point loses digits
        [2.0763e-5, 0.0805, 1e-9],
        [1e-300, 1e-300],
        [0.5],
        [0.3, 0.3, 0.3, 0.3],
    ],
)
def test_p_loss_any_matches_the_mpmath_product(p_losses: list[float]) -> None:
    assert relative_error(p_loss_any(p_losses), any_loss(p_losses)) < 1e-13


def test_p_loss_any_edges() -> None:

    assert p_loss_any([]) == 0.0
    assert p_loss_any([0.0, 0.0]) == 0.0
    assert p_loss_any([1e-3, 1.0]) == 1.0
    assert p_loss_any([0.25]) == pytest.approx(0.25, rel=1e-15)
    # equal parts are an aggregate of groups, the same rule
    assert p_loss_any([1e-9] * 6) == pytest.approx(p_loss_aggregate(1e-9, 6), rel=1e-15)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        p_loss_any([-0.1])


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.floats(0, 0.99), min_size=1, max_size=5),
    st.floats(1e-12, 0.5),
)
def test_p_loss_any_never_falls_when_a_tier_is_added(p_losses: list[float], extra: float) -> None:

    assert p_loss_any([*p_losses, extra]) >= p_loss_any(p_losses)
    assert max(p_losses) <= p_loss_any(p_losses) <= min(1.0, sum(p_losses)) * (1 + 1e-12)
