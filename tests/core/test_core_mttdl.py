"""MTTDL: the exact fraction and the numeric solve against the independent mpmath chain.

The references: the textbook n+1 closed form without latent defects, and
tests/reference.py (the chain written from the paper's rules, solved by mpmath LU at 60
digits). The exact fraction is evaluated in exact rational arithmetic (Fractions), so
the comparison is limited only by the reference's 60 digits.
"""

from fractions import Fraction
from math import prod

import mpmath
import numpy as np
import pytest
import sympy as sp

from planner.core.markov.mttdl_algebra import Terms, mttdl_polynomials
from planner.core.markov.rates import PAPER_RATES, Rates
from planner.core.markov.symbolic import derive, derive_leading_order
from planner.core.markov.transient import generator_matrix, mttdl_hours
from tests import reference


def exact_point(drives: int, rates: Rates) -> tuple[Fraction, ...]:
    """The inputs as exact rationals (the floats' binary values), in the terms' order."""
    return (
        Fraction(drives),
        Fraction(rates.op_failures_per_hour),
        Fraction(rates.latent_defects_per_hour),
        1 / Fraction(rates.rebuild_hours),
        1 / Fraction(rates.scrub_hours),
    )


def evaluate(terms: Terms, point: tuple[Fraction, ...]) -> Fraction:
    return sum(
        (c * prod((x**e for x, e in zip(point, m, strict=True)), start=Fraction(1)))
        for m, c in terms
    )


def exact_mttdl(parity: int, drives: int, rates: Rates) -> Fraction:
    polynomials = mttdl_polynomials(parity)
    point = exact_point(drives, rates)
    return evaluate(polynomials.numerator, point) / evaluate(polynomials.denominator, point)


def reference_mttdl(parity: int, drives: int, rates: Rates) -> mpmath.mpf:
    return reference.mttdl(
        parity,
        drives,
        rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
    )


def classic_mttdl(drives: int, lam: float, mu: float) -> mpmath.mpf:
    """Textbook n+1 MTTDL without latent defects: ((2n+1)λ + μ) / (n (n+1) λ²), n = N - 1."""
    with mpmath.workdps(50):
        n = drives - 1
        lam_, mu_ = mpmath.mpf(lam), mpmath.mpf(mu)
        return +(((2 * n + 1) * lam_ + mu_) / (n * (n + 1) * lam_**2))


@pytest.mark.parametrize(
    ("drives", "lam", "rebuild_hours"),
    [(2, 0.019 / 8760, 12.0), (8, 0.019 / 8760, 12.0), (22, 1e-5, 48.0), (60, 1e-8, 1.0)],
)
def test_k1_without_latent_defects_is_classic_formula(
    drives: int, lam: float, rebuild_hours: float
) -> None:
    rates = Rates(lam, 0.0, rebuild_hours, 168.0)
    expected = classic_mttdl(drives, lam, 1 / rebuild_hours)
    assert mttdl_hours(1, drives, rates) == pytest.approx(float(expected), rel=1e-13)
    assert reference.relative_error(float(exact_mttdl(1, drives, rates)), expected) < 1e-15


MTTDL_CASES = [
    (1, 2, PAPER_RATES),
    (1, 8, PAPER_RATES),
    (2, 9, PAPER_RATES),
    (2, 22, PAPER_RATES),
    (3, 12, PAPER_RATES),
    (3, 30, Rates(1e-8, 1.08e-4, 12.0, 168.0)),
    (4, 30, Rates(1e-8, 1.08e-4, 12.0, 168.0)),
    (4, 60, Rates(1e-6, 1e-3, 72.0, 336.0)),
    (4, 5, Rates(1e-8, 0.0, 1.0, 168.0)),  # condition number ~1e30
    (5, 14, Rates(3e-6, 2e-5, 24.0, 336.0)),
]


@pytest.mark.parametrize(("parity", "drives", "rates"), MTTDL_CASES)
def test_exact_fraction_and_numeric_solve_match_the_reference(
    parity: int, drives: int, rates: Rates
) -> None:
    expected = reference_mttdl(parity, drives, rates)
    with mpmath.workdps(60):
        fraction = exact_mttdl(parity, drives, rates)
        exact = mpmath.mpf(fraction.numerator) / fraction.denominator
        assert abs(exact - expected) <= mpmath.mpf(10) ** -25 * expected
    assert mttdl_hours(parity, drives, rates) == pytest.approx(float(expected), rel=1e-12)


@pytest.mark.parametrize("parity", [1, 2, 3, 4, 6])
@pytest.mark.parametrize("drives", [8, 17])
def test_symbolic_generator_equals_numeric(parity: int, drives: int) -> None:
    rates = Rates(3e-6, 7e-5, 11.0, 170.0)
    s = derive_leading_order(parity).symbols
    sub = {s["N"]: drives} | {
        s[name]: sp.Rational(value) for name, value in rates.by_symbol().items()
    }
    q = derive_leading_order(parity).generator.subs(sub)
    symbolic = np.array(q.evalf(30).tolist(), dtype=float)
    numeric = generator_matrix(parity, drives, rates)
    np.testing.assert_allclose(numeric, symbolic, rtol=1e-15, atol=0)


def test_k1_leading_order_is_paper_form() -> None:
    s = derive(1).symbols
    n_drives, lop, lld, mop, msc = (
        s[k] for k in ("N", "lambda_op", "lambda_ld", "mu_op", "mu_scrub")
    )
    expected = mop * msc / (n_drives * (n_drives - 1) * lop * (lld * mop + lop * msc))
    assert sp.simplify(derive(1).mttdl_approx - expected) == 0


def lowest_order_part(terms: Terms) -> Terms:
    """The terms of lowest total degree in the failure rates (exponents 1 and 2)."""
    low = min(m[1] + m[2] for m, _ in terms)
    return tuple((m, c) for m, c in terms if m[1] + m[2] == low)


@pytest.mark.parametrize("parity", [1, 2, 3, 4])
def test_leading_order_is_the_ratio_of_the_lowest_order_parts(parity: int) -> None:
    """The failure-level formula equals the textbook definition of the leading order."""
    polynomials = mttdl_polynomials(parity)
    numerator = lowest_order_part(polynomials.numerator)
    denominator = lowest_order_part(polynomials.denominator)
    approx = derive_leading_order(parity).mttdl_approx
    s = derive_leading_order(parity).symbols
    for drives in (parity + 1, parity + 9):
        point = exact_point(drives, Rates(3e-6, 7e-5, 11.0, 170.0))
        names = ("N", "lambda_op", "lambda_ld", "mu_op", "mu_scrub")
        value = approx.subs({s[k]: sp.Rational(x) for k, x in zip(names, point, strict=True)})
        assert Fraction(str(value)) == evaluate(numerator, point) / evaluate(denominator, point)


@pytest.mark.parametrize("parity", [1, 3, 5, 8])
def test_leading_order_ratio_tends_to_one(parity: int) -> None:
    """Against the independent reference MTTDL as the failure rates shrink (up to k = 8)."""
    function = sp.lambdify(
        [
            derive_leading_order(parity).symbols[k]
            for k in ("N", "lambda_op", "lambda_ld", "mu_op", "mu_scrub")
        ],
        derive_leading_order(parity).mttdl_approx,
        modules="mpmath",
    )
    drives = parity + 7
    gaps = []
    # -A has a condition number ~ (mu / lambda)^(k + 1), 1e100 at k = 8: enough digits
    with mpmath.workdps(200):
        for eps in (mpmath.mpf("1e-6"), mpmath.mpf("1e-9"), mpmath.mpf("1e-12")):
            lop, lld, mu_op, mu_scrub = 2 * eps, 50 * eps, mpmath.mpf(1) / 12, mpmath.mpf(1) / 168
            q = reference.generator(parity, drives, lop, lld, mu_op, mu_scrub)
            size = q.rows - 1
            a = mpmath.matrix([[-q[i, j] for j in range(size)] for i in range(size)])
            exact = mpmath.lu_solve(a, mpmath.matrix([1] * size))[0]
            gaps.append(abs(exact / function(drives, lop, lld, mu_op, mu_scrub) - 1))
    assert gaps[0] > gaps[1] > gaps[2]
    assert gaps[2] < 1e-6
    # the error of a leading-order term shrinks linearly with the rates
    assert gaps[1] / gaps[2] == pytest.approx(1e3, rel=1e-2)
