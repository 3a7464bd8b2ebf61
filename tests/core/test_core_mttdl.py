"""MTTDL: classic closed form, SymPy derivation versus numeric solve, leading order."""

import mpmath
import numpy as np
import pytest
import sympy as sp

from planner.core.derive import derive
from planner.core.evaluate import generator_matrix, mttdl_hours
from planner.core.rates import PAPER_RATES, Rates


def _substitution(parity: int, drives: int, rates: Rates) -> dict[sp.Symbol, sp.Rational]:
    """Exact rationals of the float inputs, so evalf(40) is not limited by the inputs."""
    s = derive(parity).symbols
    values = rates.by_symbol()
    sub = {s["N"]: sp.Integer(drives)}
    sub.update({s[name]: sp.Rational(value) for name, value in values.items()})
    return sub


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
    symbolic = derive(1).mttdl.subs(_substitution(1, drives, rates)).evalf(40)
    with mpmath.workdps(50):
        assert abs(mpmath.mpf(str(symbolic)) - expected) / expected < 1e-30


def test_k1_symbolic_without_latent_defects_reduces_to_classic_formula() -> None:
    s = derive(1).symbols
    n_drives, lam, mu = s["N"], s["lambda_op"], s["mu_op"]
    n = n_drives - 1
    classic = ((2 * n + 1) * lam + mu) / (n * (n + 1) * lam**2)
    assert sp.simplify(derive(1).mttdl.subs(s["lambda_ld"], 0) - classic) == 0


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
]


@pytest.mark.parametrize(("parity", "drives", "rates"), MTTDL_CASES)
def test_symbolic_mttdl_matches_numeric(parity: int, drives: int, rates: Rates) -> None:
    symbolic = derive(parity).mttdl.subs(_substitution(parity, drives, rates)).evalf(40)
    assert mttdl_hours(parity, drives, rates) == pytest.approx(float(symbolic), rel=1e-12)


@pytest.mark.parametrize("parity", [1, 2, 3, 4])
@pytest.mark.parametrize("drives", [6, 17])
def test_symbolic_generator_equals_numeric(parity: int, drives: int) -> None:
    rates = Rates(3e-6, 7e-5, 11.0, 170.0)
    q = derive(parity).generator.subs(_substitution(parity, drives, rates))
    symbolic = np.array(q.evalf(30).tolist(), dtype=float)
    numeric = generator_matrix(parity, drives, rates)
    np.testing.assert_allclose(numeric, symbolic, rtol=1e-15, atol=0)
    # diagonals agree in absolute terms too (they are sums, rounding once in numpy)
    assert np.abs(numeric - symbolic).max() <= 1e-15 * np.abs(symbolic).max()


def test_k1_leading_order_is_paper_form() -> None:
    s = derive(1).symbols
    n_drives, lop, lld, mop, msc = (
        s[k] for k in ("N", "lambda_op", "lambda_ld", "mu_op", "mu_scrub")
    )
    expected = mop * msc / (n_drives * (n_drives - 1) * lop * (lld * mop + lop * msc))
    assert sp.simplify(derive(1).mttdl_approx - expected) == 0


@pytest.mark.parametrize("parity", [1, 2, 3, 4])
def test_leading_order_ratio_tends_to_one(parity: int) -> None:
    d = derive(parity)
    drives = parity + 7
    gaps = []
    for eps in (sp.Rational(1, 10**6), sp.Rational(1, 10**9), sp.Rational(1, 10**12)):
        sub = {
            d.symbols["N"]: drives,
            d.symbols["lambda_op"]: 2 * eps,
            d.symbols["lambda_ld"]: 50 * eps,
            d.symbols["mu_op"]: sp.Rational(1, 12),
            d.symbols["mu_scrub"]: sp.Rational(1, 168),
        }
        ratio = (d.mttdl.subs(sub) / d.mttdl_approx.subs(sub)).evalf(40)
        gaps.append(abs(ratio - 1))
    assert gaps[0] > gaps[1] > gaps[2]
    # the first correction is of order N λLd / μScrub (~7e-5 at eps = 1e-9)
    assert gaps[2] < 1e-6
    # the error of a leading-order term shrinks linearly with the rates
    assert gaps[1] / gaps[2] == pytest.approx(1e3, rel=1e-2)
