"""Symbolic derivation of the n+k model with SymPy: generator matrix and closed-form MTTDL.

Everything is derived from the transition rules of :mod:`planner.core.model`, once per
parity count, and cached. SymPy is imported lazily so that commands that do not need
formulas start quickly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from planner.core.model import Chain, build_chain

SYMBOL_NAMES = ("N", "lambda_op", "lambda_ld", "mu_op", "mu_scrub")
"""Argument order of every lambdified function: drives, then the four rates per hour."""

_LATEX_NAMES = {
    "N": "N",
    "lambda_op": r"\lambda_{Op}",
    "lambda_ld": r"\lambda_{Ld}",
    "mu_op": r"\mu_{Op}",
    "mu_scrub": r"\mu_{Scrub}",
}


@dataclass(frozen=True)
class Derivation:
    """Symbolic results for one parity count.

    Attributes:
        chain: the state space and transitions.
        symbols: SymPy symbols keyed by name (see :data:`SYMBOL_NAMES`).
        generator: the generator matrix Q (SymPy Matrix), loss state last.
        rates: the symbolic rate of each transition, in chain order.
        mttdl: exact mean time to data loss from the pristine state (hours).
        mttdl_approx: leading-order term of ``mttdl`` for lambda << mu.
    """

    chain: Chain
    symbols: dict[str, Any]
    generator: Any
    rates: tuple[Any, ...]
    mttdl: Any
    mttdl_approx: Any


def _symbols() -> dict[str, Any]:
    import sympy as sp

    return {name: sp.Symbol(name, positive=True, integer=(name == "N")) for name in SYMBOL_NAMES}


def transition_rate_expressions(chain: Chain, symbols: dict[str, Any]) -> tuple[Any, ...]:
    """The symbolic rate ``multiplier * rate`` of each transition of ``chain``."""
    n_drives = symbols["N"]
    out = []
    for t in chain.transitions:
        multiplier = 1 if t.drives_excluded is None else n_drives - t.drives_excluded
        out.append(multiplier * symbols[t.event.value])
    return tuple(out)


@cache
def derive(parity: int) -> Derivation:
    """Derive the generator and MTTDL of the n+k chain with ``parity`` = k (cached per k)."""
    import sympy as sp

    chain = build_chain(parity)
    symbols = _symbols()
    rates = transition_rate_expressions(chain, symbols)
    size = len(chain.states)
    q = sp.zeros(size, size)
    for t, rate in zip(chain.transitions, rates, strict=True):
        q[t.source, t.target] += rate
    for i in range(size):
        q[i, i] = -sum(q[i, j] for j in range(size) if j != i)
    numerator, denominator = _mttdl_fraction(q, symbols)
    mttdl = sp.factor(numerator) / sp.factor(denominator)
    return Derivation(
        chain=chain,
        symbols=symbols,
        generator=q,
        rates=rates,
        mttdl=mttdl,
        mttdl_approx=sp.factor(
            _lowest_order(numerator, symbols) / _lowest_order(denominator, symbols)
        ),
    )


def _mttdl_fraction(q: Any, symbols: dict[str, Any]) -> tuple[Any, Any]:
    """MTTDL = x[0] of ``-A x = 1`` as a reduced fraction of polynomials, by Cramer's rule.

    Determinants over the polynomial ring ZZ[N, lambda..., mu...] are exact and fraction
    free, far faster than a symbolic LU solve followed by ``cancel`` (k = 4 in about 2 s).
    """
    import sympy as sp
    from sympy.polys.matrices import DomainMatrix

    size = q.shape[0] - 1
    m = -q[:size, :size]
    m0 = m.copy()
    m0[:, 0] = sp.ones(size, 1)
    # Both matrices must share one polynomial ring so the gcd can be taken in it.
    ring_vars = [symbols[name] for name in SYMBOL_NAMES]
    domain = sp.ZZ[tuple(ring_vars)]
    den = DomainMatrix.from_Matrix(m).convert_to(domain).det()
    num = DomainMatrix.from_Matrix(m0).convert_to(domain).det()
    g = domain.gcd(num, den)
    return domain.to_sympy(domain.exquo(num, g)), domain.to_sympy(domain.exquo(den, g))


def _lowest_order(poly_expr: Any, symbols: dict[str, Any]) -> Any:
    """The terms of lowest total degree in the failure rates (lambda_op, lambda_ld).

    Scaling every failure rate by eps -> 0, the ratio of the lowest-order parts of the
    numerator and denominator is the leading-order MTTDL for lambda << mu.
    """
    import sympy as sp

    lambdas = (symbols["lambda_op"], symbols["lambda_ld"])
    poly = sp.Poly(sp.expand(poly_expr), *lambdas)
    low = min(sum(monom) for monom in poly.monoms())
    return sp.Add(
        *(
            coeff * lambdas[0] ** monom[0] * lambdas[1] ** monom[1]
            for monom, coeff in poly.terms()
            if sum(monom) == low
        )
    )


def latex_symbol_names() -> dict[Any, str]:
    r"""Symbol -> LaTeX name mapping for printing (``\lambda_{Op}`` as in the paper)."""
    symbols = _symbols()
    return {symbols[name]: tex for name, tex in _LATEX_NAMES.items()}


def to_latex(expr: Any) -> str:
    """LaTeX of an expression with the paper's symbol names."""
    import sympy as sp

    return str(sp.latex(expr, symbol_names=latex_symbol_names()))


def to_pretty(expr: Any, width: int | None = None) -> str:
    """Unicode pretty-printed form of an expression (for terminals).

    ``width`` (terminal cells) wraps long expressions into blocks of that width; without it
    the expression is never wrapped (for scrolling views).
    """
    import sympy as sp

    if width is None:
        return str(sp.pretty(expr, use_unicode=True, wrap_line=False))
    return str(sp.pretty(expr, use_unicode=True, num_columns=width))


def to_text(expr: Any) -> str:
    """One-line plain text of an expression."""
    import sympy as sp

    return str(sp.sstr(expr))
