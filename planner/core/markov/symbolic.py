"""Symbolic derivation of the n+k model with SymPy: generator matrix and closed-form MTTDL.

Everything is derived from the transition rules of :mod:`planner.core.markov.chain`, once per
parity count, and cached. The exact MTTDL fraction is computed in
:mod:`planner.core.markov.mttdl_algebra` (seconds up to k = 6); the leading order for
lambda << mu by :func:`leading_order_mttdl` (milliseconds for any k). SymPy is imported
lazily so that commands that do not need formulas start quickly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, cached_property
from typing import Any

from planner.core.markov.chain import Chain, build_chain
from planner.core.markov.mttdl_algebra import VARIABLES, MttdlPolynomials, Terms, mttdl_polynomials

SYMBOL_NAMES = VARIABLES
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
        mttdl: exact mean time to data loss from the pristine state (hours), the fraction
            ``numerator / denominator``; None when only the leading order was derived.
        mttdl_approx: leading-order term of ``mttdl`` for lambda << mu.
        polynomials: the exact fraction as integer terms (None with ``mttdl``).
    """

    chain: Chain
    symbols: dict[str, Any]
    generator: Any
    rates: tuple[Any, ...]
    mttdl_approx: Any
    polynomials: MttdlPolynomials | None = None

    @cached_property
    def mttdl(self) -> Any:
        """The exact MTTDL (hours) as a SymPy fraction, built on first use; None without."""
        if self.polynomials is None:
            return None
        return _expression(self.polynomials.numerator) / _expression(self.polynomials.denominator)

    @property
    def numerator(self) -> Any:
        """The exact MTTDL's numerator (expanded SymPy polynomial), or None."""
        return None if self.polynomials is None else _expression(self.polynomials.numerator)

    @property
    def denominator(self) -> Any:
        """The exact MTTDL's denominator (expanded SymPy polynomial), or None."""
        return None if self.polynomials is None else _expression(self.polynomials.denominator)


def _symbols() -> dict[str, Any]:
    import sympy as sp

    return {name: sp.Symbol(name, positive=True, integer=(name == "N")) for name in SYMBOL_NAMES}


def _expression(terms: Terms) -> Any:
    """The SymPy expression of a polynomial given as integer terms (no text is parsed)."""
    import sympy as sp

    symbols = _symbols()
    ordered = [symbols[name] for name in VARIABLES]
    return sp.Add(
        *(
            coefficient * sp.Mul(*(x**e for x, e in zip(ordered, exponents, strict=True)))
            for exponents, coefficient in terms
        )
    )


def transition_rate_expressions(chain: Chain, symbols: dict[str, Any]) -> tuple[Any, ...]:
    """The symbolic rate ``multiplier * rate`` of each transition of ``chain``."""
    n_drives = symbols["N"]
    out = []
    for t in chain.transitions:
        multiplier = t.concurrent if t.drives_excluded is None else n_drives - t.drives_excluded
        out.append(multiplier * symbols[t.event.value])
    return tuple(out)


def symbolic_generator(chain: Chain, rates: tuple[Any, ...]) -> Any:
    """The SymPy generator Q of ``chain`` with the given transition rates, loss last."""
    import sympy as sp

    size = len(chain.states)
    q = sp.zeros(size, size)
    for t, rate in zip(chain.transitions, rates, strict=True):
        q[t.source, t.target] += rate
    for i in range(size):
        q[i, i] = -sum(q[i, j] for j in range(size) if j != i)
    return q


@cache
def derive(parity: int, rebuild_streams: int | None = 1) -> Derivation:
    """Derive the generator and exact MTTDL of the n+k chain with ``parity`` = k (cached).

    The exact fraction comes from :func:`planner.core.markov.mttdl_algebra.mttdl_polynomials`
    (seconds for k <= 5, about ten for k = 6, minutes beyond). ``rebuild_streams``:
    concurrent rebuilds (1, the paper's model; None: every failed drive at once), so a
    state with f failed drives rebuilds at ``min(f, streams) mu_op``.
    """
    return derivation_from(mttdl_polynomials(parity, rebuild_streams), rebuild_streams)


def derivation_from(polynomials: MttdlPolynomials, rebuild_streams: int | None = 1) -> Derivation:
    """The derivation of the n+k chain whose exact MTTDL fraction is ``polynomials``.

    For a fraction computed earlier (e.g. stored by the caller): everything else here takes
    milliseconds. ``rebuild_streams`` must be the one the fraction was computed with.
    """
    leading = derive_leading_order(polynomials.parity, rebuild_streams)
    return replace(leading, polynomials=polynomials)


@cache
def derive_leading_order(parity: int, rebuild_streams: int | None = 1) -> Derivation:
    """The derivation without the exact MTTDL (``mttdl`` None): milliseconds for any k."""
    chain = build_chain(parity, rebuild_streams)
    symbols = _symbols()
    rates = transition_rate_expressions(chain, symbols)
    return Derivation(
        chain=chain,
        symbols=symbols,
        generator=symbolic_generator(chain, rates),
        rates=rates,
        mttdl_approx=leading_order_mttdl(chain, rates),
    )


def leading_order_mttdl(chain: Chain, rates: tuple[Any, ...]) -> Any:
    """MTTDL to leading order for lambda << mu, by the failure levels of the chain.

    With every failure rate small against the repair rates, the chain spends almost all its
    time in the pristine state, and the probability of a state ``m`` failures up (``f + l =
    m``) is, to leading order, the flow into it from level ``m - 1`` over its repair rate:
    ``p(s) = sum_{s'} p(s') rate(s' -> s) / repair(s)``, ``p(pristine) = 1`` (flows down from
    level ``m + 1``, and the defect holder's failure ``(f, 1) -> (f + 1, 0)`` within a level,
    are of higher order). Data loss happens from level k at the rate
    ``sum_s p(s) rate(s -> loss)``, and the MTTDL is its inverse: the ratio of the
    lowest-order (in the lambdas) parts of the exact fraction's numerator and denominator,
    without computing the fraction (a test checks the two agree).
    """
    import sympy as sp

    from planner.core.markov.chain import Event

    failures = (Event.OPERATIONAL_FAILURE, Event.LATENT_DEFECT)
    repair = [sp.Integer(0)] * len(chain.states)
    for t, rate in zip(chain.transitions, rates, strict=True):
        if t.event not in failures:
            repair[t.source] += rate
    probability: dict[int, Any] = {0: sp.Integer(1)}
    loss_rate = sp.Integer(0)
    levels = sorted(range(chain.transient_count), key=lambda i: _level(chain, i))
    for i in levels[1:]:
        inflow = sp.Add(
            *(
                probability[t.source] * rate
                for t, rate in zip(chain.transitions, rates, strict=True)
                if t.target == i
                and t.event in failures
                and _level(chain, t.source) < _level(chain, i)
            )
        )
        probability[i] = inflow / repair[i]
    for t, rate in zip(chain.transitions, rates, strict=True):
        if t.target == chain.loss_index:
            loss_rate += probability[t.source] * rate
    return sp.factor(1 / loss_rate)


def _level(chain: Chain, index: int) -> int:
    state = chain.states[index]
    return state.failed + state.latent


def latex_symbol_names() -> dict[Any, str]:
    r"""Symbol -> LaTeX name mapping for printing (``\lambda_{Op}`` as in the paper)."""
    symbols = _symbols()
    return {symbols[name]: tex for name, tex in _LATEX_NAMES.items()}


def to_latex(expr: Any) -> str:
    """LaTeX of an expression with the paper's symbol names."""
    import sympy as sp

    return str(sp.latex(expr, symbol_names=latex_symbol_names()))


SPLIT_SYMBOLIC_MAX_PARITY = 2
"""Largest k whose sector-loss share :func:`sector_loss_share` derives in about a second
(k = 3 takes ten or more: the exact rational function has hundreds of terms)."""


@cache
def sector_loss_share(parity: int, rebuild_streams: int | None = 1) -> tuple[Any, Any]:
    """The share of first losses that lose sectors, exact and to leading order (SymPy).

    A group that runs long enough loses data; in the paper's chain its first loss is a
    latent defect's stripes (a move out of
    :attr:`~planner.core.markov.chain.Chain.sector_loss_sources`) with probability ``s`` and the
    whole group otherwise. ``s`` is the absorption probability from the pristine state:
    ``x = (-A)^-1 r`` with ``A`` the transient block of Q and ``r`` the rates of the
    sector-loss moves, so the share of first losses that lose sectors tends to ``s`` as
    the mission grows (issue 20's P(sectors lost) also counts sector losses after a group
    is restored: :mod:`planner.core.markov.loss_figures`).

    The leading order keeps, in numerator and denominator, the lowest power of the failure
    and defect rates (lambda << mu); for k = 1 it is
    ``lambda_ld mu_op / (lambda_ld mu_op + lambda_op mu_scrub)``: sector losses dominate when
    defects times the scrub time outweigh failures times the rebuild time.

    Returns:
        ``(exact, leading)`` SymPy expressions in the symbols of :data:`SYMBOL_NAMES`.
    """
    import sympy as sp

    chain = build_chain(parity, rebuild_streams)
    symbols = _symbols()
    rates = transition_rate_expressions(chain, symbols)
    size = chain.transient_count
    a = sp.zeros(size, size)
    r = sp.zeros(size, 1)
    sources = set(chain.sector_loss_sources)
    for t, rate in zip(chain.transitions, rates, strict=True):
        a[t.source, t.source] -= rate
        if t.target != chain.loss_index:
            a[t.source, t.target] += rate
        elif t.source in sources:
            r[t.source] += rate
    exact = sp.factor(sp.together((-a).LUsolve(r)[0]))
    epsilon = sp.Symbol("epsilon", positive=True)
    small = {symbols["lambda_op"]: epsilon * symbols["lambda_op"]}
    small[symbols["lambda_ld"]] = epsilon * symbols["lambda_ld"]
    numerator, denominator = sp.fraction(sp.together(exact))

    def lowest(poly: Any) -> Any:
        terms = sp.Poly(sp.expand(poly.subs(small, simultaneous=True)), epsilon)
        degree = min(monomial[0] for monomial in terms.monoms())
        return sp.factor(terms.coeff_monomial(epsilon**degree))

    leading = sp.factor(lowest(numerator) / lowest(denominator))
    return exact, leading
