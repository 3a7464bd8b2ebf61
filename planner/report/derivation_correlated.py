"""Render the correlated n+k chain (``planner derive --correlated``): text, LaTeX, Markdown.

States, transitions with their symbolic rates (the degraded multiplier m on the failures
out of states with a drive down, each shock with its binomial probability), and the exact
MTTDL where SymPy derives it (:mod:`planner.core.markov.correlated_algebra`), or why not.
The fraction is printed as SymPy writes it, its polynomials collected by the shock rate and
the multiplier; ``u``-free: ``(1 - q)^N`` is written out.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

from planner.report.derivation import DEFAULT_WIDTH, chain_title

if TYPE_CHECKING:
    from planner.analysis.derivation import CorrelatedDerivation

_LATEX_NAMES = {
    "N": "N",
    "lambda_op": r"\lambda_{Op}",
    "lambda_ld": r"\lambda_{Ld}",
    "mu_op": r"\mu_{Op}",
    "mu_scrub": r"\mu_{Scrub}",
    "m": "m",
    "lambda_shock": r"\lambda_{Sh}",
    "q": "q",
    "sigma": r"\sigma",
}
_TEXT_NAMES = {
    "lambda_op": "λOp",
    "lambda_ld": "λLd",
    "mu_op": "μOp",
    "mu_scrub": "μScrub",
    "lambda_shock": "λSh",
}

SYMBOLS_NOTE = (
    "m: the degraded multiplier (every failure while a drive is down runs m times as fast); "
    "λSh: shocks per group-hour; q: the probability that a shock fails each working drive, "
    "the latent defect's holder included (its defect goes with it: a factor q where it "
    "fails, 1 - q where it does not) (docs/correlated.md)."
)


def title(d: CorrelatedDerivation) -> str:
    """The chain's title with the correlation and the group size."""
    size = "N symbolic" if d.drives is None else f"N = {d.drives}"
    return f"{chain_title(d.chain)}; correlated failures, {size}"


def missing_note(d: CorrelatedDerivation) -> str:
    """Why the exact MTTDL is not shown (k = 2 without N, k >= 3)."""
    if d.parity == 2:
        return (
            "The exact MTTDL of the correlated n+2 chain needs a group size: give --drives "
            "(seconds; with N symbolic SymPy takes about five minutes)."
        )
    return (
        f"The exact MTTDL of the correlated n+{d.parity} chain is not derived: SymPy takes "
        "minutes (k = 3 with N = 8: about five). planner evaluates it numerically "
        "(`planner evaluate`, the exact chain)."
    )


def _text(expr: Any) -> str:
    import sympy as sp

    text = str(sp.sstr(expr))
    for name, shown in _TEXT_NAMES.items():
        text = text.replace(name, shown)
    return text


def _latex(expr: Any) -> str:
    import sympy as sp

    names = {x: _LATEX_NAMES[x.name] for x in expr.free_symbols if x.name in _LATEX_NAMES}
    return str(sp.latex(expr, symbol_names=names))


def _parts(d: CorrelatedDerivation) -> tuple[Any, Any] | None:
    """Numerator and denominator collected by the shock rate and the multiplier."""
    import sympy as sp

    if d.mttdl is None:
        return None
    numerator, denominator = sp.fraction(d.mttdl.expression())
    keys = sorted(
        (x for x in numerator.free_symbols | denominator.free_symbols if x.name in ("m",)),
        key=str,
    )
    shock = [
        x for x in numerator.free_symbols | denominator.free_symbols if x.name == "lambda_shock"
    ]
    by = shock + keys
    return sp.collect(numerator, by), sp.collect(denominator, by)


def correlated_text(d: CorrelatedDerivation, width: int | None = None) -> str:
    """Terminal text: states, transitions with their rates, the MTTDL (or why not)."""
    width = DEFAULT_WIDTH if width is None else max(60, width)
    out = [title(d), "", "States"]
    out += [f"  {i:>2}  {s.short():<6}  {s.describe()}" for i, s in enumerate(d.chain.states, 1)]
    out += ["", "Transitions (rates per hour)"]
    for t, rate in zip(d.chain.transitions, d.rates, strict=True):
        source = f"{t.source + 1} {d.chain.states[t.source].short()}"
        target = f"{t.target + 1} {d.chain.states[t.target].short()}"
        head = f"  {source:<9} -> {target:<9}  "
        out.append(
            textwrap.fill(
                _text(rate), width, initial_indent=head, subsequent_indent=" " * len(head)
            )
        )
    out += ["", textwrap.fill(SYMBOLS_NOTE, width), "", "MTTDL from state 1, exact (hours) = P / D"]
    parts = _parts(d)
    if parts is None:
        out.append(
            textwrap.fill(missing_note(d), width, initial_indent="  ", subsequent_indent="  ")
        )
    else:
        for name, poly in zip("PD", parts, strict=True):
            out.append(
                textwrap.fill(
                    _text(poly), width, initial_indent=f"  {name} = ", subsequent_indent="      "
                )
            )
    return "\n".join(out) + "\n"


def correlated_latex(d: CorrelatedDerivation) -> str:
    r"""A LaTeX fragment (``amsmath``): the rates and the exact MTTDL ``P / D``."""
    out = [f"% {title(d)}", f"% {SYMBOLS_NOTE}", r"\begin{align*}"]
    rows = [
        f"{t.source + 1} \\to {t.target + 1} &: {_latex(rate)}"
        for t, rate in zip(d.chain.transitions, d.rates, strict=True)
    ]
    out += [row + r" \\" for row in rows[:-1]] + [rows[-1], r"\end{align*}"]
    parts = _parts(d)
    if parts is None:
        return "\n".join([*out, f"% {missing_note(d)}"]) + "\n"
    out += [
        r"\begin{align*}",
        r"\mathrm{MTTDL} &= \frac{P}{D}, \text{ where} \\",
        f"P &= {_latex(parts[0])} \\\\",
        f"D &= {_latex(parts[1])}",
        r"\end{align*}",
    ]
    return "\n".join(out) + "\n"


def correlated_markdown(d: CorrelatedDerivation) -> str:
    """GitHub Markdown: tables of states and transitions, math for the MTTDL."""
    out = [f"### {title(d)}", "", "| # | (f, l) | meaning |", "|---:|:---|:---|"]
    out += [f"| {i} | {s.short()} | {s.describe()} |" for i, s in enumerate(d.chain.states, 1)]
    out += ["", "| from | to | rate per hour |", "|:---|:---|:---|"]
    names = [s.short() for s in d.chain.states]
    for t, rate in zip(d.chain.transitions, d.rates, strict=True):
        source, target = f"{t.source + 1} {names[t.source]}", f"{t.target + 1} {names[t.target]}"
        out.append(f"| {source} | {target} | ${_latex(rate)}$ |")
    out += ["", SYMBOLS_NOTE, ""]
    parts = _parts(d)
    if parts is None:
        return "\n".join([*out, missing_note(d)]) + "\n"
    out += [
        "Mean time to data loss from state 1 (hours), exact:",
        "",
        "$$",
        r"\begin{aligned}",
        r"\mathrm{MTTDL} &= \frac{P}{D}, \text{ where} \\",
        f"P &= {_latex(parts[0])} \\\\",
        f"D &= {_latex(parts[1])}",
        r"\end{aligned}",
        "$$",
    ]
    return "\n".join(out) + "\n"
