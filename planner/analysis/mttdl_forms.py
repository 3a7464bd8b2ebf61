"""Readable forms of the exact MTTDL fraction: in n data drives, collected, factored.

The exact MTTDL of the n+k chain is a fraction of two polynomials with hundreds of terms
(k = 4: 312 over 203). Printed as SymPy gives it, that is one line of thousands of
characters. Here each polynomial is rewritten in ``n = N - k`` (the paper's variable),
the factors every term shares (a monomial, the linear factors ``n + c``) are taken out, and
the rest is collected by monomials in the rates, the terms of lowest degree in the failure
rates (the ones that dominate for lambda << mu) first, each with its coefficient, a
polynomial in ``n``, factored. The pieces are plain data, kept by
:mod:`planner.analysis.derivation_cache` and rendered as text or LaTeX by
:mod:`planner.report.derivation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any

from planner.core.markov.mttdl_algebra import VARIABLES, MttdlPolynomials, Terms

if TYPE_CHECKING:
    from planner.core.markov.symbolic import Derivation

RATE_NAMES = ("lambda_op", "lambda_ld", "mu_op", "mu_scrub")
"""The rates, in the order of the exponents of :class:`RateTerm`."""

NPoly = tuple[tuple[int, int], ...]
"""A polynomial in n as ``((power, coefficient), ...)``, highest power first."""


@dataclass(frozen=True)
class RateTerm:
    """``coefficient(n) x lambda_op^a lambda_ld^b mu_op^c mu_scrub^d``.

    Attributes:
        exponents: ``(a, b, c, d)``.
        content: the integer content of the coefficient (its sign included).
        factors: the coefficient's factors over the integers, ``(polynomial in n, power)``.
    """

    exponents: tuple[int, int, int, int]
    content: int
    factors: tuple[tuple[NPoly, int], ...]


@dataclass(frozen=True)
class CollectedPolynomial:
    """A polynomial in n and the rates as ``common x sum of terms``.

    Attributes:
        common_rates: exponents of the rate monomial every term shares.
        common_factors: linear factors ``(c, power)`` for ``(n + c)^power`` every term
            shares (``c = 0`` is ``n``).
        terms: the remaining sum, lowest total degree in the failure rates first.
    """

    common_rates: tuple[int, int, int, int]
    common_factors: tuple[tuple[int, int], ...]
    terms: tuple[RateTerm, ...]


Forms = tuple[CollectedPolynomial, CollectedPolynomial]
"""Collected numerator and denominator of a fraction (an MTTDL, a share of losses)."""


def in_data_drives(terms: Terms, parity: int) -> dict[tuple[int, ...], int]:
    """Substitute ``N = n + k``: terms over ``(n, rates...)`` as exponent tuples."""
    out: dict[tuple[int, ...], int] = {}
    for (power_n, *rates), coefficient in terms:
        for j in range(power_n + 1):
            key = (j, *rates)
            out[key] = out.get(key, 0) + coefficient * comb(power_n, j) * parity ** (power_n - j)
    return {key: value for key, value in out.items() if value}


def collect(terms: Terms, parity: int) -> CollectedPolynomial:
    """The polynomial ``terms`` (over N and the rates) in the readable collected form."""
    import sympy as sp

    ring, n, *_ = sp.ring("n," + ",".join(RATE_NAMES), sp.ZZ)
    poly = ring.from_dict(in_data_drives(terms, parity))
    lowest = tuple(min(m[v] for m in poly.monoms()) for v in range(1 + len(RATE_NAMES)))
    monomial = ring.from_dict({lowest: 1})
    poly = poly.exquo(monomial)
    linear: list[tuple[int, int]] = [(0, lowest[0])] if lowest[0] else []
    for c in range(1, parity + 2):
        power = 0
        while True:
            quotient, remainder = poly.div(n + c)
            if remainder:
                break
            poly, power = quotient, power + 1
        if power:
            linear.append((c, power))
    n_ring, _ = sp.ring("n", sp.ZZ)
    groups: dict[tuple[int, int, int, int], dict[tuple[int], int]] = {}
    for (power_n, *rates), coefficient in poly.terms():
        groups.setdefault((rates[0], rates[1], rates[2], rates[3]), {})[(power_n,)] = coefficient
    rate_terms = []
    for exponents, coefficients in groups.items():
        content, factors = n_ring.from_dict(coefficients).factor_list()
        rate_terms.append(
            RateTerm(
                exponents=exponents,
                content=int(content),
                factors=tuple((_npoly(f), int(e)) for f, e in factors),
            )
        )
    rate_terms.sort(key=lambda t: (t.exponents[0] + t.exponents[1], _descending(t.exponents)))
    return CollectedPolynomial(
        common_rates=(lowest[1], lowest[2], lowest[3], lowest[4]),
        common_factors=tuple(linear),
        terms=tuple(rate_terms),
    )


def _descending(exponents: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(-e for e in exponents)


def _npoly(poly: Any) -> NPoly:
    return tuple(sorted(((int(m[0]), int(c)) for m, c in poly.terms()), reverse=True))


def form_to_data(form: CollectedPolynomial) -> dict[str, Any]:
    """Plain JSON-ready data of a collected polynomial (for a cache)."""
    return {
        "common_rates": list(form.common_rates),
        "common_factors": [list(f) for f in form.common_factors],
        "terms": [
            [list(t.exponents), t.content, [[[list(m) for m in p], e] for p, e in t.factors]]
            for t in form.terms
        ],
    }


def form_from_data(data: object) -> CollectedPolynomial:
    """Rebuild :func:`form_to_data`'s output, checking every type.

    Raises:
        ValueError: anything that is not exactly such data.
    """
    if not isinstance(data, dict):
        raise ValueError("not an object")
    terms = []
    for row in _list(data.get("terms")):
        exponents, content, factors = _list(row, 3)
        terms.append(
            RateTerm(
                exponents=_rates(exponents),
                content=_int(content),
                factors=tuple(
                    (tuple((_int(m[0]), _int(m[1])) for m in map(_pair, _list(p))), _int(e))
                    for p, e in map(_pair, _list(factors))
                ),
            )
        )
    return CollectedPolynomial(
        common_rates=_rates(data.get("common_rates")),
        common_factors=tuple(
            (_int(c), _int(p)) for c, p in map(_pair, _list(data.get("common_factors")))
        ),
        terms=tuple(terms),
    )


def _list(value: object, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError("bad list")
    return value


def _pair(value: object) -> tuple[Any, Any]:
    first, second = _list(value, 2)
    return first, second


def _int(value: object) -> int:
    if type(value) is not int:
        raise ValueError("not an integer")
    return value


def _rates(value: object) -> tuple[int, int, int, int]:
    a, b, c, d = (_int(v) for v in _list(value, 4))
    return a, b, c, d


def leading_order_forms(d: Derivation) -> Forms:
    """The leading-order MTTDL of ``d`` as collected numerator and denominator."""
    return fraction_forms(d.mttdl_approx, d.chain.parity)


def polynomial_forms(polynomials: MttdlPolynomials) -> Forms:
    """The exact MTTDL fraction as collected numerator and denominator."""
    parity = polynomials.parity
    return collect(polynomials.numerator, parity), collect(polynomials.denominator, parity)


def exact_forms(d: Derivation) -> Forms | None:
    """The exact MTTDL of ``d`` collected, or None when only its leading order was derived."""
    return None if d.polynomials is None else polynomial_forms(d.polynomials)


def fraction_forms(expr: Any, parity: int) -> Forms:
    """A rational SymPy expression as collected numerator and denominator.

    ``expr`` is in N and the rates, its symbols named as in
    :data:`~planner.core.markov.mttdl_algebra.VARIABLES`. The leading-order MTTDL and the share
    of losses that lose sectors are shown this way.
    """
    import sympy as sp

    numerator, denominator = sp.fraction(sp.together(expr))
    present = {x.name: x for x in expr.free_symbols}
    ordered = [present.get(name, sp.Symbol(name)) for name in VARIABLES]
    out = []
    for part in (numerator, denominator):
        poly = sp.Poly(part, *ordered)
        terms = tuple(sorted((m, int(c)) for m, c in poly.terms()))
        out.append(collect(terms, parity))
    return out[0], out[1]
