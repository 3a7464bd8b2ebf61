"""solve_mmatrix: entrywise accuracy on badly conditioned M-matrices, versus mpmath LU."""

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.markov.rates import Rates
from planner.core.markov.transient import generator_matrix, mttdl_hours, solve_mmatrix


def mpmath_solution(off: np.ndarray, excess: np.ndarray, rhs: np.ndarray) -> list[mpmath.mpf]:
    """Solve exactly the matrix solve_mmatrix is given: off-diagonals as stored, diagonal =
    row excess + sum |off-diagonal| (exact in 80-digit arithmetic), by mpmath.lu_solve."""
    size = off.shape[0]
    with mpmath.workdps(80):
        m = mpmath.matrix(size, size)
        for i in range(size):
            for j in range(size):
                if i != j:
                    m[i, j] = mpmath.mpf(off[i, j])
            m[i, i] = mpmath.mpf(excess[i]) + mpmath.fsum(
                -mpmath.mpf(off[i, j]) for j in range(size) if j != i
            )
        x = mpmath.lu_solve(m, mpmath.matrix([mpmath.mpf(v) for v in rhs]))
        return [+x[i] for i in range(size)]


def as_m_matrix(off: np.ndarray, excess: np.ndarray) -> np.ndarray:
    m = off.copy()
    np.fill_diagonal(m, 0.0)
    m[np.diag_indices(m.shape[0])] = excess - m.sum(axis=1)
    return m


def assert_entrywise(x: np.ndarray, expected: list[mpmath.mpf], rel: float) -> None:
    for got, want in zip(x, expected, strict=True):
        assert abs(mpmath.mpf(got) - want) <= rel * abs(want), (got, want)


def test_chain_with_tiny_exit_rates() -> None:
    """-A of the k = 4 chain with λOp = 1e-8 /h: condition number ~7e24 (1-norm, 60 digits)."""
    q = generator_matrix(4, 5, Rates(1e-8, 1e-9, 1.0, 168.0))
    a = -q[:-1, :-1]
    excess = q[:-1, -1].copy()
    rhs = np.ones(a.shape[0])
    # the condition number in 60-digit arithmetic: a float SVD saturates near 1e16 and its
    # value then depends on the LAPACK build (numpy 2.4 reports 1.1e16 here, older builds 1e30)
    with mpmath.workdps(60):
        exact = mpmath.matrix(a.tolist())
        assert mpmath.mnorm(exact, 1) * mpmath.mnorm(exact**-1, 1) > 1e24
    expected = mpmath_solution(a, excess, rhs)
    assert_entrywise(solve_mmatrix(a, excess, rhs), expected, rel=1e-13)
    # a plain LU solve cannot get this right; the test is meaningful
    plain = np.linalg.solve(a, rhs)
    assert abs(plain[0] - float(expected[0])) > 1e-6 * float(expected[0])
    assert mttdl_hours(4, 5, Rates(1e-8, 1e-9, 1.0, 168.0)) == pytest.approx(
        float(expected[0]), rel=1e-13
    )


def test_random_ill_conditioned_m_matrix() -> None:
    rng = np.random.default_rng(20240611)
    size = 12
    off = -rng.uniform(0.0, 1.0, (size, size)) * (rng.uniform(size=(size, size)) < 0.6)
    np.fill_diagonal(off, 0.0)
    # a chain of strong couplings so that the matrix is irreducible
    for i in range(size - 1):
        off[i, i + 1] = -rng.uniform(0.5, 1.0)
        off[i + 1, i] = -rng.uniform(0.5, 1.0)
    excess = np.zeros(size)
    excess[-1] = 1e-14  # barely non-singular: cond ~1e15 and beyond
    rhs = rng.uniform(0.1, 1.0, size)
    m = as_m_matrix(off, excess)
    assert np.linalg.cond(m) > 1e13
    expected = mpmath_solution(off, excess, rhs)
    assert_entrywise(solve_mmatrix(m, excess, rhs), expected, rel=1e-12)


@settings(max_examples=30, deadline=None)
@given(
    size=st.integers(2, 9),
    seed=st.integers(0, 2**32 - 1),
    log_excess=st.floats(-16.0, 0.0),
)
def test_random_m_matrices(size: int, seed: int, log_excess: float) -> None:
    rng = np.random.default_rng(seed)
    off = -rng.uniform(0.0, 1.0, (size, size)) * (rng.uniform(size=(size, size)) < 0.7)
    np.fill_diagonal(off, 0.0)
    for i in range(size - 1):
        off[i, i + 1] = -rng.uniform(0.1, 1.0)
        off[i + 1, i] = -rng.uniform(0.1, 1.0)
    excess = np.zeros(size)
    excess[rng.integers(size)] = 10.0**log_excess
    rhs = rng.uniform(0.0, 1.0, size)
    m = as_m_matrix(off, excess)
    expected = mpmath_solution(off, excess, rhs)
    assert_entrywise(solve_mmatrix(m, excess, rhs), expected, rel=1e-11)
