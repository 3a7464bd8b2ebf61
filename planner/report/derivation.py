"""Render the symbolic n+k model: states, transitions, generator and MTTDL.

Expressions are shown in the paper's variables: ``n`` data drives per group
(``N = n + k``), lambda_Op, lambda_Ld, mu_Op, mu_Scrub. The leading-order MTTDL comes
first (a short formula); the exact one follows as ``P / D`` with both polynomials in the
collected form of :mod:`planner.report.derivation_forms`, wrapped to the width. LaTeX is a
fragment for a document that loads ``amsmath`` (``equation*`` and ``align*``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from planner.analysis.model import SectorShare
from planner.core.markov.chain import Chain, Transition
from planner.core.markov.symbolic import Derivation, to_latex
from planner.report.derivation_forms import (
    CollectedPolynomial,
    NPoly,
    RateTerm,
    collect,
    fraction_forms,
    leading_order_forms,
)

DEFAULT_WIDTH = 100
"""Width the exact form is wrapped to when the caller gives none (files, pipes)."""

_RATE_SYMBOL_NAMES = ("lambda_op", "lambda_ld", "mu_op", "mu_scrub")
_TEXT_RATES = ("λOp", "λLd", "μOp", "μScrub")
_LATEX_RATES = (r"\lambda_{Op}", r"\lambda_{Ld}", r"\mu_{Op}", r"\mu_{Scrub}")
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
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


def _title(d: Derivation) -> str:
    return _chain_title(d.chain)


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


def not_computed_note(parity: int) -> str:
    """Why the exact MTTDL is missing (only the leading order was derived)."""
    return (
        f"The exact MTTDL of the n+{parity} model is not computed: it takes up to "
        f"minutes with SymPy (`planner derive --parity {parity} --force` computes it "
        "once); the leading order above is exact as the failure rates become small "
        "against the repair rates."
    )


# --- text ---------------------------------------------------------------------------------


Forms = tuple[CollectedPolynomial, CollectedPolynomial]
"""The collected numerator and denominator of the exact MTTDL (computed once, e.g. cached)."""


def _forms(d: Derivation, forms: Forms | None) -> Forms | None:
    if forms is not None or d.polynomials is None:
        return forms
    k = d.chain.parity
    return collect(d.polynomials.numerator, k), collect(d.polynomials.denominator, k)


def derivation_text(d: Derivation, width: int | None = None, forms: Forms | None = None) -> str:
    """Plain terminal text of a derivation (see :func:`model_text`).

    ``forms``: the collected exact MTTDL if already known (else collected here).
    """
    return model_text(d.chain, leading_order_forms(d), _forms(d, forms), width)


def model_text(chain: Chain, leading: Forms, exact: Forms | None, width: int | None = None) -> str:
    """Plain terminal text from plain data (no SymPy), every line within ``width`` (100).

    Args:
        chain: the n+k chain.
        leading: collected numerator and denominator of the leading-order MTTDL.
        exact: the same for the exact MTTDL, or None when it was not computed.
        width: terminal cells (at least 60).

    The generator matrix is drawn when it fits the width, else a note says how to get it.
    Sections are separated by blank lines; the two MTTDL sections start with "MTTDL".
    """
    width = DEFAULT_WIDTH if width is None else max(60, width)
    out = [_chain_title(chain), "", "States (numbered as in the paper)"]
    out.append(_hanging("  ", "f failed drives, l = 1 an undiscovered latent defect", width))
    for i, s in enumerate(chain.states, start=1):
        out.append(_hanging(f"  {i:>2}  {s.short():<6}  ", s.describe(), width))
    out += ["", "Transitions (rates per hour)"]
    rates = [_text_transition_rate(chain, t) for t in chain.transitions]
    rate_width = max(len(r) for r in rates)
    for t, rate in zip(chain.transitions, rates, strict=True):
        source = f"{t.source + 1} {chain.states[t.source].short()}"
        target = f"{t.target + 1} {chain.states[t.target].short()}"
        head = f"  {source:<9} -> {target:<9}  {rate:<{rate_width}}  "
        out.append(_hanging(head, t.event.description, width))
    out += ["", "Generator matrix Q (row: from, column: to)"]
    grid = _text_generator(chain, rates)
    if max(len(line) for line in grid) <= width:
        out += grid
    else:
        out.append(
            _wrap(
                "  Off-diagonal entries: the transition rates above; each diagonal entry is "
                "minus the sum of its row's others (too wide to draw here: "
                f"`planner derive --parity {chain.parity} --format latex` typesets it).",
                width,
            )
        )
    out += ["", "MTTDL, leading order for λ << μ (hours) = A / B"]
    out += [_text_polynomial(name, form, width) for name, form in zip("AB", leading, strict=True)]
    out += ["", "MTTDL from state 1, exact (hours) = P / D"]
    if exact is None:
        out.append(_wrap("  " + not_computed_note(chain.parity), width))
    else:
        out += [_text_polynomial(name, form, width) for name, form in zip("PD", exact, strict=True)]
    return "\n".join(out) + "\n"


def _hanging(head: str, text: str, width: int) -> str:
    """``head`` then ``text`` wrapped under itself within ``width`` (a table row)."""
    import textwrap

    room = max(20, width - len(head))
    lines = textwrap.wrap(text, width=room) or [""]
    return "\n".join([head + lines[0], *(" " * len(head) + line for line in lines[1:])])


def _chain_title(chain: Chain) -> str:
    k = chain.parity
    title = f"n+{k} model: {k} parity drive{'s' if k > 1 else ''}, N = n + {k} drives per group"
    streams = chain.rebuild_streams
    if streams is None:
        return f"{title}; every failed drive rebuilt at once"
    return title if streams == 1 else f"{title}; up to {streams} rebuilds at once"


def _text_transition_rate(chain: Chain, t: Transition) -> str:
    name = _TEXT_RATES[_RATE_SYMBOL_NAMES.index(t.event.value)]
    if t.drives_excluded is None:
        return name if t.concurrent == 1 else f"{t.concurrent} {name}"
    c = chain.parity - t.drives_excluded
    return f"{'n' if c == 0 else f'(n + {c})'} {name}"


def _text_generator(chain: Chain, rates: list[str]) -> list[str]:
    """The generator as an aligned grid of strings (diagonal: minus the row's rates)."""
    size = len(chain.states)
    cells = [["0"] * size for _ in range(size)]
    for t, rate in zip(chain.transitions, rates, strict=True):
        cell = cells[t.source][t.target]
        cells[t.source][t.target] = rate if cell == "0" else f"{cell} + {rate}"
    for i in range(size):
        leaving = [rate for t, rate in zip(chain.transitions, rates, strict=True) if t.source == i]
        cells[i][i] = " − ".join(["−" + leaving[0], *leaving[1:]]) if leaving else "0"
    widths = [max(len(cells[i][j]) for i in range(size)) for j in range(size)]
    return [
        "    [ " + "   ".join(cells[i][j].center(widths[j]) for j in range(size)) + " ]"
        for i in range(size)
    ]


def _wrap(text: str, width: int) -> str:
    import textwrap

    return textwrap.fill(text, width=width, initial_indent="", subsequent_indent="  ")


def _text_npoly(poly: NPoly) -> str:
    parts = []
    for power, coefficient in poly:
        magnitude = abs(coefficient)
        body = "n" + (str(power).translate(_SUPERSCRIPTS) if power > 1 else "") if power else ""
        number = str(magnitude) if magnitude != 1 or not power else ""
        parts.append(("−" if coefficient < 0 else "+", number + body))
    text = ("−" if parts[0][0] == "−" else "") + parts[0][1]
    for sign, body in parts[1:]:
        text += f" {sign} {body}"
    return text


def _text_rates(exponents: tuple[int, ...]) -> str:
    return " ".join(
        name + (str(e).translate(_SUPERSCRIPTS) if e > 1 else "")
        for name, e in zip(_TEXT_RATES, exponents, strict=True)
        if e
    )


def _text_term(term: RateTerm) -> tuple[str, str]:
    """``(sign, body)`` of one term, e.g. ``("+", "3 (n + 1)² λOp μOp")``."""
    factors = []
    for poly, power in term.factors:
        text = _text_npoly(poly)
        if len(poly) > 1 or power > 1:
            text = f"({text})"
        factors.append(text + (str(power).translate(_SUPERSCRIPTS) if power > 1 else ""))
    magnitude = abs(term.content)
    pieces = [str(magnitude)] if magnitude != 1 or not (factors or any(term.exponents)) else []
    body = " ".join([*pieces, "".join(factors), _text_rates(term.exponents)]).strip()
    return ("−" if term.content < 0 else "+"), " ".join(body.split())


def _text_common(poly: CollectedPolynomial) -> str:
    linear = "".join(
        ("n" if c == 0 else f"(n + {c})") + (str(p).translate(_SUPERSCRIPTS) if p > 1 else "")
        for c, p in poly.common_factors
    )
    return " ".join(x for x in (linear, _text_rates(poly.common_rates)) if x)


def _text_polynomial(name: str, poly: CollectedPolynomial, width: int, indent: str = "  ") -> str:
    """``  P = common × (t1 + t2 ...)``, the sum packed into lines of at most ``width``.

    A lone number goes before the common factor (``2 μOp² μScrub``); ``indent`` starts
    the first line, continuation lines four spaces further in.
    """
    common = _text_common(poly)
    terms = [_text_term(t) for t in poly.terms]
    single = len(terms) == 1 and terms[0][0] == "+"
    if single and common and terms[0][1] == "1":
        return _pack([f"{indent}{name} = {common}"], width)
    if single and common and terms[0][1].isdigit():
        return _pack([f"{indent}{name} = {terms[0][1]} {common}"], width)
    head = f"{indent}{name} = " + (f"{common} × " if common else "")
    if single:
        return _pack([head + terms[0][1]], width)
    opening = head + ("(" if common else "")
    lines = [opening + ("−" if terms[0][0] == "−" else "") + terms[0][1]]
    indent = indent + " " * 4
    for sign, body in terms[1:]:
        piece = f" {sign} {body}"
        if len(lines[-1]) + len(piece) <= width:
            lines[-1] += piece
        else:
            lines.append(indent + piece.lstrip())
    if common:
        lines[-1] += ")"
    return _pack(lines, width)


def _pack(lines: list[str], width: int) -> str:
    """Lines too long even alone (one huge term) are cut at spaces, never beyond ``width``."""
    import textwrap

    out = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
        else:
            out += textwrap.wrap(line, width=width, subsequent_indent=" " * 8)
    return "\n".join(out)


# --- LaTeX --------------------------------------------------------------------------------


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


def derivation_latex(d: Derivation, forms: Forms | None = None) -> str:
    r"""A LaTeX fragment (``amsmath``): generator matrix, leading-order and exact MTTDL.

    Long forms break over lines in ``align*``; add ``\allowdisplaybreaks`` to the preamble
    to let them break across pages.
    """
    out = [
        f"% {_title(d)}",
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
    collected = _forms(d, forms)
    if collected is None:
        out += [r"\end{align*}", f"% {not_computed_note(d.chain.parity)}"]
        return "\n".join(out) + "\n"
    out[-1] += r" \\"
    body = [r"\mathrm{MTTDL} &= \frac{P}{D} && \text{exact, where}"]
    for name, form in zip("PD", collected, strict=True):
        body += _latex_polynomial(name, form)
    out += [line + r" \\" for line in body[:-1]] + [body[-1], r"\end{align*}"]
    return "\n".join(out) + "\n"


# --- Markdown -----------------------------------------------------------------------------


def derivation_markdown(d: Derivation, forms: Forms | None = None) -> str:
    """GitHub Markdown: tables of states and transitions, math blocks for Q and MTTDL."""
    out = [f"### {_title(d)}", "", "| # | (f, l) | meaning |", "|---:|:---|:---|"]
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
    collected = _forms(d, forms)
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


# --- what is lost -------------------------------------------------------------------------

SHARE_TITLE = "What is lost first: the share s of first losses that lose sectors, not the group"
SHARE_MEANING = (
    "A latent defect among the events loses its stripes (a file to restore); k + 1 "
    "overlapping failures lose the group. As the mission grows, the share of the paper "
    "chain's first losses that lose sectors tends to s; planner evaluate gives P(group "
    "lost), P(sectors lost) and the expected sector-loss events for any mission "
    "(docs/loss.md)."
)


def _share_missing(share: SectorShare) -> str:
    return (
        f"The symbolic share is derived for k <= 2 (for k = {share.parity} it grows to "
        "hundreds of terms); "
        "planner evaluate gives the loss figures numerically for any k (docs/loss.md)."
    )


def share_text(share: SectorShare, width: int | None = None) -> str:
    """The share as terminal text, in the MTTDL's notation: ``s ≈ a / b``, ``s = p / q``.

    Numerator and denominator are collected and wrapped as the MTTDL's polynomials are
    (:func:`_text_polynomial`), every line within ``width`` (100).
    """
    width = DEFAULT_WIDTH if width is None else max(60, width)
    out = ["", _wrap(SHARE_TITLE, width), _wrap("  " + SHARE_MEANING, width)]
    if share.exact is None or share.leading is None:
        return "\n".join([*out, _wrap("  " + _share_missing(share), width)]) + "\n"
    for title, names, expr in (
        ("Leading order for λ << μ: s ≈ a / b", "ab", share.leading),
        ("Exact (n data drives): s = p / q", "pq", share.exact),
    ):
        out.append(f"  {title}")
        forms = fraction_forms(expr, share.parity)
        out += [
            _text_polynomial(name, form, width, indent="    ")
            for name, form in zip(names, forms, strict=True)
        ]
    return "\n".join(out) + "\n"


def share_markdown(share: SectorShare) -> str:
    """The share as Markdown with display math."""
    out = ["", f"**{SHARE_TITLE}.** {SHARE_MEANING}", ""]
    if share.exact is None or share.leading is None:
        return "\n".join([*out, _share_missing(share)]) + "\n"
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
        return "\n".join([*out, f"% {_share_missing(share)}"]) + "\n"
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
