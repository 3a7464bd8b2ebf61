"""The correlated chain in symbols: its rates, and its exact MTTDL where SymPy manages.

The correlated n+k chain (:func:`planner.core.markov.chain.build_chain` with
``correlated``) adds to the paper's four rates the degraded multiplier ``m``, the shock rate
``lambda_shock`` (per group-hour) and each drive's probability ``q`` of failing at a shock.
A shock's rate is ``lambda_shock C(W, j) q^j (1 - q)^(W - j)`` with ``W = N - f - l``, times
q or ``1 - q`` out of a state with a latent defect (its holder hit or spared); the jumps past
parity, ``lambda_shock (1 - sum_{i < j} C(W, i) q^i (1 - q)^(W - i))`` with ``W = N - f``
(exact in symbols: no rounding to cancel).

The exact MTTDL is ``det(M0) / det(M)`` as in :mod:`planner.core.markov.mttdl_algebra` (the
same fraction-free elimination): every entry is a polynomial once N is a number. For a
symbolic N the binomial coefficients are polynomials in N and ``(1 - q)^(N - e)`` is
``u / (1 - q)^e`` with the symbol ``u = (1 - q)^N``; each row is multiplied by the power of
``(1 - q)`` (and the factorials) that clears its denominators, which changes both
determinants by the same factor. Measured on a 2-core machine: k = 1 in well under a
second with N symbolic; k = 2 in seconds for a given N (about five minutes with N
symbolic); k = 3 for N = 8 about five minutes. :data:`CORRELATED_EXACT_MAX_PARITY` and
:func:`correlated_exact_feasible` say which ones planner derives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from planner.core.markov.chain import Chain, ShockHolder, Transition, build_chain
from planner.core.markov.mttdl_algebra import Terms, _bareiss_banded

CORRELATED_VARIABLES = (
    "N",
    "lambda_op",
    "lambda_ld",
    "mu_op",
    "mu_scrub",
    "m",
    "lambda_shock",
    "q",
    "u",
)
"""Order of the exponents in every term; ``u`` stands for ``(1 - q)^N``."""

CORRELATED_EXACT_MAX_PARITY = 2
"""Largest k whose correlated MTTDL planner derives (k = 2 needs a given N)."""


def correlated_exact_feasible(parity: int, drives: int | None) -> bool:
    """SymPy derives this exact MTTDL in seconds: k = 1 (any N), k = 2 with N given."""
    return parity == 1 or (parity == CORRELATED_EXACT_MAX_PARITY and drives is not None)


@dataclass(frozen=True)
class CorrelatedMttdl:
    """``MTTDL = numerator / denominator`` (hours) of the correlated n+k chain, reduced.

    Attributes:
        parity: k.
        drives: N when it was given, else None (N symbolic, ``u = (1 - q)^N``).
        rebuild_streams: concurrent rebuilds of the chain.
        numerator, denominator: integer terms over :data:`CORRELATED_VARIABLES`.
    """

    parity: int
    drives: int | None
    rebuild_streams: int | None
    numerator: Terms
    denominator: Terms

    def expression(self) -> Any:
        """The MTTDL as a SymPy expression, ``u`` written as ``(1 - q)^N``."""
        import sympy as sp

        symbols = correlated_symbols()
        ordered = [symbols[name] for name in CORRELATED_VARIABLES]

        def poly(terms: Terms) -> Any:
            return sp.Add(
                *(
                    c * sp.Mul(*(x**e for x, e in zip(ordered, exponents, strict=True)))
                    for exponents, c in terms
                )
            )

        q, u, n = symbols["q"], symbols["u"], symbols["N"]
        fraction = poly(self.numerator) / poly(self.denominator)
        return fraction.subs(u, (1 - q) ** n)


def correlated_symbols() -> dict[str, Any]:
    """SymPy symbols of :data:`CORRELATED_VARIABLES` (N a positive integer, the rest positive)."""
    import sympy as sp

    return {
        name: sp.Symbol(name, positive=True, integer=(name == "N")) for name in CORRELATED_VARIABLES
    }


def correlated_rate_expressions(chain: Chain, drives: int | None = None) -> tuple[Any, ...]:
    """The symbolic rate of each transition of a correlated ``chain`` (N symbolic or given)."""
    import sympy as sp

    s = correlated_symbols()
    n = s["N"] if drives is None else sp.Integer(drives)
    q = s["q"]
    out = []
    for t in chain.transitions:
        if t.is_shock:
            working = n - (t.drives_excluded or 0)

            def point(i: int, w: Any = working) -> Any:
                return sp.binomial(w, i) * q**i * (1 - q) ** (w - i)

            share = (
                1 - sp.Add(*(point(i) for i in range(t.shock))) if t.shock_tail else point(t.shock)
            )
            # the holder's 1 - q joins the power: (1 - q)^(N - 1), not (1 - q) (1 - q)^(N - 2)
            rate = _share_factor(t) * _holder_factor(t, q) * s["lambda_shock"] * share
            out.append(sp.powsimp(rate))
            continue
        count = t.concurrent if t.drives_excluded is None else n - t.drives_excluded
        rate = _share_factor(t) * count * s[t.event.value]
        out.append(s["m"] * rate if t.degraded else rate)
    return tuple(out)


def _share_factor(t: Transition) -> Any:
    """A pool's stripe share on ``t`` as a SymPy factor (``sigma``, ``1 - sigma`` or 1)."""
    import sympy as sp

    from planner.core.markov.chain import StripeShare

    sigma = sp.Symbol("sigma", positive=True)
    return {StripeShare.ALL: 1, StripeShare.SHARE: sigma, StripeShare.REST: 1 - sigma}[t.share]


def _holder_factor(t: Transition, q: Any) -> Any:
    """The defect's holder on a shock ``t`` as a factor in ``q``: 1, q (hit) or 1 - q (spared)."""
    return {ShockHolder.NONE: 1, ShockHolder.HIT: q, ShockHolder.SPARED: 1 - q}[t.holder]


@cache
def correlated_mttdl(
    parity: int, drives: int | None = None, rebuild_streams: int | None = 1
) -> CorrelatedMttdl:
    """The exact MTTDL of the correlated n+``parity`` chain (traditional group, sigma = 1).

    ``drives``: N, or None for N symbolic. See the module docstring for the cost; the
    callers ask only for :func:`correlated_exact_feasible` cases.
    """
    import sympy as sp

    ring, *generators = sp.ring(",".join(CORRELATED_VARIABLES), sp.QQ)
    g = dict(zip(CORRELATED_VARIABLES, generators, strict=True))
    chain = build_chain(parity, rebuild_streams, False, True)
    size = chain.transient_count
    n = g["N"] if drives is None else ring(drives)
    entries = [(t, *_ring_rate(t, g, n, drives, ring)) for t in chain.transitions]
    # each row times (1 - q)^(its largest power) clears the denominators (symbolic N)
    top = [0] * size
    for t, _, power in entries:
        top[t.source] = max(top[t.source], power)
    rows: list[dict[int, Any]] = [
        {i: ring.zero, size: (1 - g["q"]) ** top[size - 1 - i]} for i in range(size)
    ]
    position = [size - 1 - i for i in range(size)]  # the pristine state last
    for t, rate, power in entries:
        value = rate * (1 - g["q"]) ** (top[t.source] - power)
        i = position[t.source]
        rows[i][i] += value
        if t.target != chain.loss_index:
            j = position[t.target]
            rows[i][j] = rows[i].get(j, ring.zero) - value
    numerator, denominator = _bareiss_banded(rows, size, ring)
    common = numerator.gcd(denominator)
    numerator, denominator = numerator.exquo(common), denominator.exquo(common)
    scale_n, numerator = numerator.clear_denoms()
    scale_d, denominator = denominator.clear_denoms()
    numerator, denominator = numerator * scale_d, denominator * scale_n
    if denominator.LC < 0:
        numerator, denominator = -numerator, -denominator
    return CorrelatedMttdl(
        parity, drives, rebuild_streams, _integer_terms(numerator), _integer_terms(denominator)
    )


def _ring_rate(
    t: Transition, g: dict[str, Any], n: Any, drives: int | None, ring: Any
) -> tuple[Any, int]:
    """``(rate, e)``: the rate of ``t`` is ``rate / (1 - q)^e`` (e > 0 only for N symbolic)."""
    if not t.is_shock:
        count = t.concurrent if t.drives_excluded is None else n - t.drives_excluded
        rate = count * g[t.event.value]
        return (g["m"] * rate if t.degraded else rate), 0
    excluded = t.drives_excluded or 0
    q = g["q"]

    def point(i: int) -> tuple[Any, int]:
        if drives is not None:
            working = drives - excluded
            if i > working:
                return ring.zero, 0
            return math.comb(working, i) * q**i * (1 - q) ** (working - i), 0
        falling = ring.one
        for r in range(i):
            falling *= n - excluded - r
        # C(N - e, i) q^i (1 - q)^(N - e - i) = falling / i! q^i u / (1 - q)^(e + i)
        return falling * sp_rational(1, math.factorial(i)) * q**i * g["u"], excluded + i

    if not t.shock_tail:
        share, power = point(t.shock)
    else:
        parts = [point(i) for i in range(t.shock)]
        power = max(p for _, p in parts)
        share = (1 - q) ** power - sum(
            (value * (1 - q) ** (power - p) for value, p in parts), ring.zero
        )
    return g["lambda_shock"] * _holder_factor(t, q) * share, power


def sp_rational(numerator: int, denominator: int) -> Any:
    """The rational ``numerator / denominator`` in SymPy's QQ."""
    import sympy as sp

    return sp.QQ(numerator, denominator)


def _integer_terms(poly: Any) -> Terms:
    return tuple(sorted((tuple(int(e) for e in m), int(c)) for m, c in poly.terms()))
