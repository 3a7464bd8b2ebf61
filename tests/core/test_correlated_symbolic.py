"""The correlated chain in symbols: its rates and its exact MTTDL (SymPy).

The closed form is evaluated exactly at rational inputs and compared with the independent
mpmath chain of tests/reference.py (its MTTDL by LU at 60 digits); at neutral values it is
the independent chain's exact fraction; the symbolic rates, evaluated, are the numeric
generator's. ``planner derive --correlated`` shows it, and says where SymPy would take
minutes.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
import sympy as sp
from typer.testing import CliRunner

from planner.analysis import derivation_cache
from planner.cli import app
from planner.core.markov.chain import build_chain
from planner.core.markov.correlated_algebra import (
    correlated_mttdl,
    correlated_rate_expressions,
    correlated_symbols,
)
from planner.core.markov.generator import transition_values
from planner.core.markov.mttdl_algebra import mttdl_polynomials
from planner.core.markov.rates import Rates
from tests import reference

INPUTS = {
    "lambda_op": Fraction(43, 10**7),
    "lambda_ld": Fraction(17, 10**5),
    "mu_op": Fraction(1, 23),
    "mu_scrub": Fraction(1, 151),
    "m": Fraction(3),
    "lambda_shock": Fraction(7, 87_600),
    "q": Fraction(6, 100),
}
"""Odd rational inputs (per hour), so the closed form is evaluated exactly."""


def _terms(terms: tuple[tuple[tuple[int, ...], int], ...], values: list[Fraction]) -> Fraction:
    """A polynomial given as integer terms, at ``values`` (exactly)."""
    total = Fraction(0)
    for exponents, c in terms:
        term = Fraction(c)
        for x, e in zip(values, exponents, strict=True):
            term *= x**e
        total += term
    return total


def _exact(parity: int, fixed: int | None, drives: int, inputs: dict[str, Fraction]) -> Fraction:
    """The closed form's MTTDL at ``inputs`` with N = ``drives`` (u = (1 - q)^N), exactly."""
    fraction = correlated_mttdl(parity, fixed)
    names = ("lambda_op", "lambda_ld", "mu_op", "mu_scrub", "m", "lambda_shock", "q")
    u = (1 - inputs["q"]) ** drives
    values = [Fraction(drives), *(inputs[n] for n in names), u]
    return _terms(fraction.numerator, values) / _terms(fraction.denominator, values)


def _reference_mttdl(parity: int, drives: int, inputs: dict[str, Fraction]) -> mpmath.mpf:
    with mpmath.workdps(60):
        v = {k: mpmath.mpf(x.numerator) / x.denominator for k, x in inputs.items()}
        return reference.correlated_figures(
            parity, drives, v["lambda_op"], v["lambda_ld"], 1 / v["mu_op"], 1 / v["mu_scrub"],
            1.0, v["m"], v["lambda_shock"], v["q"],
        )["mttdl_hours"]  # fmt: skip


@pytest.mark.parametrize(("parity", "fixed", "drives"), [(1, None, 5), (1, None, 9), (2, 4, 4)])
def test_closed_form_is_the_mpmath_chain(parity: int, fixed: int | None, drives: int) -> None:
    """k = 1 with N symbolic (two N from one fraction), k = 2 for a given N."""
    value = _exact(parity, fixed, drives, INPUTS)
    expected = _reference_mttdl(parity, drives, INPUTS)
    assert reference.relative_error(float(value), expected) < 1e-14


def test_neutral_values_give_the_independent_fraction() -> None:
    """m = 1, no shocks: exactly the n+2 chain's exact MTTDL (mttdl_algebra)."""
    neutral = {**INPUTS, "m": Fraction(1), "lambda_shock": Fraction(0)}
    polynomials = mttdl_polynomials(2)
    values = [Fraction(4), *(neutral[n] for n in ("lambda_op", "lambda_ld", "mu_op", "mu_scrub"))]
    independent = _terms(polynomials.numerator, values) / _terms(polynomials.denominator, values)
    assert _exact(2, 4, 4, neutral) == independent


def test_the_expression_writes_u_out() -> None:
    """The SymPy form has (1 - q)^N for u, and gives the terms' value."""
    s = correlated_symbols()
    expr = correlated_mttdl(1).expression()
    assert s["u"] not in expr.free_symbols
    values = {s[k]: sp.Rational(v.numerator, v.denominator) for k, v in INPUTS.items()}
    value = sp.Rational(expr.subs({**values, s["N"]: 5}))
    exact = _exact(1, None, 5, INPUTS)
    assert value == sp.Rational(exact.numerator, exact.denominator)


def test_symbolic_rates_are_the_generator_rates() -> None:
    rates = Rates(4.3e-6, 1.7e-4, 23.0, 151.0, None, 0.0, 1.0, 3.0, 7 / 87_600, 0.06)
    chain = build_chain(3, None, False, True)
    s = correlated_symbols()
    values = {s[k]: float(v) for k, v in INPUTS.items()} | {s["N"]: 11}
    symbolic = [float(e.subs(values)) for e in correlated_rate_expressions(chain)]
    assert symbolic == pytest.approx(list(transition_values(3, 11, rates)), rel=1e-12)


def test_derive_correlated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shown = CliRunner().invoke(app, ["derive", "-k", "1", "--correlated"])
    assert shown.exit_code == 0, shown.stderr
    assert "correlated failures, N symbolic" in shown.stdout
    assert "λOp*m*(N - 1)" in shown.stdout  # the failure out of (1, 0), degraded
    assert "  P = " in shown.stdout
    assert "  D = " in shown.stdout
    assert derivation_cache.correlated_entry_path(1, None, 1).exists()  # kept for next time
    needs = CliRunner().invoke(app, ["derive", "-k", "2", "--correlated", "-f", "markdown"])
    assert needs.exit_code == 0
    assert "needs a group size: give --drives" in needs.stdout
    bad = CliRunner().invoke(app, ["derive", "-k", "2", "--drives", "6"])
    assert bad.exit_code == 2
    assert "--drives goes with --correlated" in bad.stderr
