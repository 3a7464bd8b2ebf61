"""Render the symbolic n+k model as LaTeX and Markdown: generator matrix and MTTDL.

Expressions are shown in the paper's variables, ``n`` data drives per group (``N = n + k``):
SymPy rewrites the derivation's expressions for display (:func:`_in_data_drives`). LaTeX is a
fragment for a document that loads ``amsmath`` (``equation*`` and ``align*``); Markdown
uses GitHub's display math. Terminal text: :mod:`planner.report.derivation`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from planner.analysis.mttdl_forms import CollectedPolynomial, Forms, NPoly, RateTerm
from planner.core.markov.symbolic import to_latex
from planner.report.derivation import (
    SHARE_MEANING,
    SHARE_TITLE,
    chain_title,
    not_computed_note,
    share_missing,
)

if TYPE_CHECKING:
    from planner.analysis.derivation import SectorShare
    from planner.core.markov.symbolic import Derivation

_LATEX_RATES = (r"\lambda_{Op}", r"\lambda_{Ld}", r"\mu_{Op}", r"\mu_{Scrub}")
_LATEX_TERMS_PER_LINE = 2


def _n_symbol() -> Any:
    import sympy as sp

    return sp.Symbol("n", positive=True, integer=True)


def _in_data_drives(d: Derivation, expr: Any) -> Any:
    """Rewrite a short ``expr`` with ``N = n + k`` and factor it (the leading order)."""
    import sympy as sp

    return sp.factor(expr.subs(d.symbols["N"], _n_symbol() + d.chain.parity))


def _rates_in_data_drives(d: Derivation) -> list[Any]:
    """Each transition's rate with its multiplier written ``n + c`` (built, not factored)."""
    k = d.chain.parity
    n = _n_symbol()
    out = []
    for t in d.chain.transitions:
        rate = d.symbols[t.event.value]
        out.append(rate if t.drives_excluded is None else (n + k - t.drives_excluded) * rate)
    return out


def _generator_in_data_drives(d: Derivation) -> Any:
    import sympy as sp

    size = len(d.chain.states)
    q = sp.zeros(size, size)
    for t, rate in zip(d.chain.transitions, _rates_in_data_drives(d), strict=True):
        q[t.source, t.target] += rate
    for i in range(size):
        q[i, i] = -sum(q[i, j] for j in range(size) if j != i)
    return q


def _transition_rows(d: Derivation, show: Callable[[Any], str]) -> list[tuple[str, str, str, str]]:
    states = d.chain.states
    return [
        (
            f"{t.source + 1} {states[t.source].short()}",
            f"{t.target + 1} {states[t.target].short()}",
            show(rate),
            t.event.description,
        )
        for t, rate in zip(d.chain.transitions, _rates_in_data_drives(d), strict=True)
    ]


def _latex_npoly(poly: NPoly) -> str:
    parts = []
    for power, coefficient in poly:
        magnitude = abs(coefficient)
        body = ("n" + (f"^{{{power}}}" if power > 1 else "")) if power else ""
        number = str(magnitude) if magnitude != 1 or not power else ""
        parts.append(("-" if coefficient < 0 else "+", " ".join(x for x in (number, body) if x)))
    text = ("-" if parts[0][0] == "-" else "") + parts[0][1]
    for sign, body in parts[1:]:
        text += f" {sign} {body}"
    return text


def _latex_rates(exponents: tuple[int, ...]) -> str:
    return " ".join(
        name + (f"^{{{e}}}" if e > 1 else "")
        for name, e in zip(_LATEX_RATES, exponents, strict=True)
        if e
    )


def _latex_term(term: RateTerm) -> tuple[str, str]:
    factors = []
    for poly, power in term.factors:
        text = _latex_npoly(poly)
        if len(poly) > 1 or power > 1:
            text = rf"\left({text}\right)"
        factors.append(text + (f"^{{{power}}}" if power > 1 else ""))
    magnitude = abs(term.content)
    pieces = [str(magnitude)] if magnitude != 1 or not (factors or any(term.exponents)) else []
    body = " ".join(x for x in [*pieces, " ".join(factors), _latex_rates(term.exponents)] if x)
    return ("-" if term.content < 0 else "+"), body


def _latex_polynomial(name: str, poly: CollectedPolynomial) -> list[str]:
    """Lines of an ``align*`` body: the common factor, then two terms per line."""
    linear = " ".join(
        ("n" if c == 0 else rf"\left(n + {c}\right)") + (f"^{{{p}}}" if p > 1 else "")
        for c, p in poly.common_factors
    )
    common = " ".join(x for x in (linear, _latex_rates(poly.common_rates)) if x)
    terms = [_latex_term(t) for t in poly.terms]
    chunks = []
    for start in range(0, len(terms), _LATEX_TERMS_PER_LINE):
        group = terms[start : start + _LATEX_TERMS_PER_LINE]
        text = " ".join(f"{sign} {body}" for sign, body in group)
        chunks.append(text[2:] if start == 0 and text.startswith("+ ") else text)
    if common and len(terms) > 1:
        chunks[0] = rf"{common} \Bigl[ " + chunks[0]
        chunks[-1] += r" \Bigr]"
    elif common and chunks[0] == "1":
        chunks[0] = common
    elif common:
        chunks[0] = f"{common} {chunks[0]}"
    lines = [f"{name} &= {chunks[0]}"]
    lines += [rf"&\quad {chunk}" for chunk in chunks[1:]]
    return lines


def derivation_latex(d: Derivation, forms: Forms | None) -> str:
    r"""A LaTeX fragment (``amsmath``): generator matrix, leading-order and exact MTTDL.

    ``forms``: the collected exact MTTDL (:func:`planner.analysis.mttdl_forms.exact_forms`,
    or the cache's), None when only the leading order was derived. Long forms break over
    lines in ``align*``; add ``\allowdisplaybreaks`` to the preamble to let them break
    across pages.
    """
    out = [
        f"% {chain_title(d.chain)}",
        r"% A fragment for a document with \usepackage{amsmath}; n data drives per group,",
        r"% rates per hour, MTTDL in hours. \allowdisplaybreaks lets long forms span pages.",
        r"\begin{equation*}",
        f"Q = {to_latex(_generator_in_data_drives(d))}",
        r"\end{equation*}",
        r"\begin{align*}",
        r"\mathrm{MTTDL} &\approx "
        + to_latex(_in_data_drives(d, d.mttdl_approx))
        + r" && \text{leading order for } \lambda \ll \mu",
    ]
    collected = forms
    if collected is None:
        out += [r"\end{align*}", f"% {not_computed_note(d.chain.parity)}"]
        return "\n".join(out) + "\n"
    out[-1] += r" \\"
    body = [r"\mathrm{MTTDL} &= \frac{P}{D} && \text{exact, where}"]
    for name, form in zip("PD", collected, strict=True):
        body += _latex_polynomial(name, form)
    out += [line + r" \\" for line in body[:-1]] + [body[-1], r"\end{align*}"]
    return "\n".join(out) + "\n"


def derivation_markdown(d: Derivation, forms: Forms | None) -> str:
    """GitHub Markdown: tables of states and transitions, math blocks for Q and MTTDL.

    ``forms``: as :func:`derivation_latex`'s.
    """
    out = [f"### {chain_title(d.chain)}", "", "| # | (f, l) | meaning |", "|---:|:---|:---|"]
    for i, s in enumerate(d.chain.states, start=1):
        out.append(f"| {i} | {s.short()} | {s.describe()} |")
    out += ["", "| from | to | rate per hour | event |", "|:---|:---|:---|:---|"]
    for source, target, rate, what in _transition_rows(d, lambda e: f"${to_latex(e)}$"):
        out.append(f"| {source} | {target} | {rate} | {what} |")
    approx = to_latex(_in_data_drives(d, d.mttdl_approx))
    out += [
        "",
        "Generator matrix (row: from, column: to):",
        "",
        "$$",
        f"Q = {to_latex(_generator_in_data_drives(d))}",
        "$$",
        "",
        "Mean time to data loss from state 1 (hours), leading order for $\\lambda \\ll \\mu$:",
        "",
        "$$",
        f"\\mathrm{{MTTDL}} \\approx {approx}",
        "$$",
        "",
    ]
    collected = forms
    if collected is None:
        out.append(not_computed_note(d.chain.parity))
        return "\n".join(out) + "\n"
    lines = [r"\mathrm{MTTDL} &= \frac{P}{D}, \text{ where}"]
    for name, form in zip("PD", collected, strict=True):
        lines += _latex_polynomial(name, form)
    out += [
        "Exact:",
        "",
        "$$",
        r"\begin{aligned}",
        *[line + r" \\" for line in lines[:-1]],
        lines[-1],
        r"\end{aligned}",
        "$$",
    ]
    return "\n".join(out) + "\n"


def share_markdown(share: SectorShare) -> str:
    """The share as Markdown with display math."""
    out = ["", f"**{SHARE_TITLE}.** {SHARE_MEANING}", ""]
    if share.exact is None or share.leading is None:
        return "\n".join([*out, share_missing(share)]) + "\n"
    out += [
        "$$",
        f"s \\approx {to_latex(_data_drives(share, share.leading))} \\quad "
        f"(\\lambda \\ll \\mu), \\qquad s = {to_latex(_data_drives(share, share.exact))}",
        "$$",
    ]
    return "\n".join(out) + "\n"


def share_latex(share: SectorShare) -> str:
    """The share as a LaTeX fragment (amsmath)."""
    out = [f"% {SHARE_TITLE}."]
    if share.exact is None or share.leading is None:
        return "\n".join([*out, f"% {share_missing(share)}"]) + "\n"
    out += [
        r"\begin{align*}",
        f"s &\\approx {to_latex(_data_drives(share, share.leading))} && "
        "\\text{leading order for } \\lambda \\ll \\mu \\\\",
        f"s &= {to_latex(_data_drives(share, share.exact))} && \\text{{exact}}",
        r"\end{align*}",
    ]
    return "\n".join(out) + "\n"


def _data_drives(share: SectorShare, expr: Any) -> Any:
    """``expr`` with N = n + k, in data drives as the rest of the derivation."""
    import sympy as sp

    names = {x.name: x for x in expr.free_symbols}
    if "N" not in names:
        return expr
    return sp.factor(expr.subs(names["N"], _n_symbol() + share.parity))
