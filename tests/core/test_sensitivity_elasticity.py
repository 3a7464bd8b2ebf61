"""Elasticities d ln P / d ln x from the rate parts of Q, against finite differences."""

import mpmath
import numpy as np
import pytest

from planner.core.design.sensitivity import RATE_SYMBOLS, elasticities, rate_parts
from planner.core.design.sweep import Parameter
from planner.core.markov.batch import generator_stack, p_loss_group_batch
from tests import reference

YEAR = 8760.0
STEP = 1e-4  # relative step of the central differences

INPUT_INDEX = {
    Parameter.OP_FAILURES_PER_HOUR: 0,
    Parameter.LATENT_DEFECTS_PER_HOUR: 1,
    Parameter.REBUILD_HOURS: 2,
    Parameter.SCRUB_HOURS: 3,
    Parameter.MISSION_HOURS: 4,
}


def finite_difference(parity: int, drives: int, inputs: list[float], which: int) -> float:
    """Central difference of ln P in ln x (P from the batch evaluator)."""
    up, down = list(inputs), list(inputs)
    up[which] *= 1 + STEP
    down[which] *= 1 - STEP
    p_up = float(p_loss_group_batch(parity, drives, *up))
    p_down = float(p_loss_group_batch(parity, drives, *down))
    return float((np.log(p_up) - np.log(p_down)) / (np.log1p(STEP) - np.log1p(-STEP)))


CASES = [
    (1, 8, [0.019 / YEAR, 1.08e-4, 12.0, 168.0, 5 * YEAR]),  # the paper's RAID 5
    (2, 9, [0.019 / YEAR, 1.08e-4, 12.0, 168.0, 5 * YEAR]),  # the paper's RAID-DP
    (2, 40, [5e-6, 1e-6, 48.0, 720.0, YEAR]),
    (3, 12, [1e-7, 1e-5, 24.0, 336.0, 10 * YEAR]),  # P ~ 1e-17
    (4, 20, [3e-6, 2e-4, 8.0, 100.0, 3 * YEAR]),
    (1, 30, [1e-4, 1e-3, 72.0, 2000.0, 10 * YEAR]),  # P near 1
]


@pytest.mark.parametrize(("parity", "drives", "inputs"), CASES)
def test_elasticities_match_finite_differences(
    parity: int, drives: int, inputs: list[float]
) -> None:
    e = elasticities(parity, drives, *inputs)
    for parameter, which in INPUT_INDEX.items():
        expected = finite_difference(parity, drives, inputs, which)
        assert float(e[parameter]) == pytest.approx(expected, rel=1e-5, abs=1e-9), parameter


def test_arr_and_operational_failure_rate_are_the_same_input() -> None:
    e = elasticities(2, 9, 2e-6, 1e-4, 12.0, 168.0, 5 * YEAR)
    assert float(e[Parameter.ARR]) == float(e[Parameter.OP_FAILURES_PER_HOUR])


def test_rate_elasticities_sum_to_the_mission_elasticity() -> None:
    """P depends on rates x T only: scaling every rate by c is scaling T by c."""
    rng = np.random.default_rng(8)
    drives = rng.integers(5, 40, 30)
    e = elasticities(3, drives, 2e-6, 1e-4, rng.uniform(4, 72, 30), 168.0, 5 * YEAR)
    rates = (
        e[Parameter.OP_FAILURES_PER_HOUR]
        + e[Parameter.LATENT_DEFECTS_PER_HOUR]
        - e[Parameter.REBUILD_HOURS]
        - e[Parameter.SCRUB_HOURS]
    )
    np.testing.assert_allclose(rates, e[Parameter.MISSION_HOURS], rtol=1e-9)


def test_small_rates_give_the_textbook_powers() -> None:
    """With lambda << mu and no latent defects, P ~ (N lambda)^(k+1) T / mu^k, up to a
    start-up transient of relative size ~ 1 / (mu T)."""
    for parity in (1, 2, 3):
        e = elasticities(parity, 10, 1e-8, 0.0, 12.0, 168.0, 10 * YEAR)
        assert float(e[Parameter.OP_FAILURES_PER_HOUR]) == pytest.approx(parity + 1, rel=1e-4)
        assert float(e[Parameter.REBUILD_HOURS]) == pytest.approx(parity, rel=1e-3)
        assert float(e[Parameter.MISSION_HOURS]) == pytest.approx(1.0, rel=1e-3)
        assert float(e[Parameter.LATENT_DEFECTS_PER_HOUR]) == 0.0


@pytest.mark.parametrize("parity", [1, 2, 3, 6, 8])
def test_rate_parts_are_theta_dq_dtheta_of_the_reference(parity: int) -> None:
    """theta dQ/dtheta from the independent mpmath chain: Q(2 theta) - Q(theta) (Q is
    linear in each rate, so this difference is exact, not a finite-difference estimate)."""
    rates = [2e-6, 1e-4, 1 / 12.0, 1 / 168.0]
    for drives in (parity + 1, parity + 13):
        parts = rate_parts(parity, drives, rates[0], rates[1], 1 / rates[2], 1 / rates[3])
        with mpmath.workdps(40):
            base = reference.generator(parity, drives, *rates)
            for which, name in enumerate(RATE_SYMBOLS):
                doubled = list(rates)
                doubled[which] *= 2
                expected = reference.generator(parity, drives, *doubled) - base
                want = np.array(expected.tolist(), dtype=float)
                np.testing.assert_allclose(parts[name], want, rtol=1e-15, atol=0, err_msg=name)
    total = sum(parts[name] for name in RATE_SYMBOLS)
    np.testing.assert_allclose(
        total, generator_stack(parity, drives, 2e-6, 1e-4, 12.0, 168.0), rtol=1e-15, atol=0
    )


def test_zero_probability_gives_nan_elasticity() -> None:
    e = elasticities(2, 9, 2e-6, 1e-4, 12.0, 168.0, 0.0)
    assert all(np.isnan(v) for v in e.values())


def test_broadcast_shape() -> None:
    e = elasticities(2, [[8], [16]], 2e-6, 1e-4, [6.0, 12.0, 24.0], 168.0, 5 * YEAR)
    assert all(v.shape == (2, 3) for v in e.values())
