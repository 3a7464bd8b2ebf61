"""Render the symbolic n+k model: states, transitions, generator and MTTDL.

Expressions are shown in the paper's variables: ``n`` data drives per group
(``N = n + k``), lambda_Op, lambda_Ld, mu_Op, mu_Scrub.
"""

from __future__ import annotations

from typing import Any

from planner.core.derive import Derivation, to_latex, to_pretty, to_text


def _in_data_drives(d: Derivation, expr: Any) -> Any:
    """Rewrite ``expr`` with ``N = n + k`` so multipliers read (n+2), (n+1), n as in the paper."""
    import sympy as sp

    n = sp.Symbol("n", positive=True, integer=True)
    return sp.factor(expr.subs(d.symbols["N"], n + d.chain.parity))


def _title(d: Derivation) -> str:
    k = d.chain.parity
    return f"n+{k} model: {k} parity drive{'s' if k > 1 else ''}, N = n + {k} drives per group"


def _transition_rows(d: Derivation, show: Any) -> list[tuple[str, str, str, str]]:
    states = d.chain.states
    rows = []
    for t, rate in zip(d.chain.transitions, d.rates, strict=True):
        rows.append(
            (
                f"{t.source + 1} {states[t.source].short()}",
                f"{t.target + 1} {states[t.target].short()}",
                show(_in_data_drives(d, rate)),
                t.event.description,
            )
        )
    return rows


def derivation_text(d: Derivation, width: int | None = None) -> str:
    """Plain terminal text with Unicode pretty-printed formulas.

    ``width`` wraps the formulas to that many terminal cells (None: never wrap).
    """
    out = [_title(d), "", "States (numbered as in the paper; f failed drives, l latent defect)"]
    for i, s in enumerate(d.chain.states, start=1):
        out.append(f"  {i:>2}  {s.short():<6}  {s.describe()}")
    out += ["", "Transitions (rates per hour)"]
    rows = _transition_rows(d, to_text)
    rate_width = max(len(r[2]) for r in rows)
    for source, target, rate, what in rows:
        out.append(f"  {source:<9} -> {target:<9}  {rate:<{rate_width}}  {what}")
    out += [
        "",
        "Generator matrix Q (row: from, column: to)",
        _indent(to_pretty(_in_data_drives_matrix(d), _formula_width(width))),
    ]
    out += [
        "",
        "MTTDL from state 1, exact (hours)",
        _indent(to_pretty(_in_data_drives(d, d.mttdl), _formula_width(width))),
    ]
    out += [
        "",
        "MTTDL, leading order for lambda << mu (hours)",
        _indent(to_pretty(_in_data_drives(d, d.mttdl_approx), _formula_width(width))),
    ]
    return "\n".join(out) + "\n"


def _formula_width(width: int | None) -> int | None:
    """Width left for a formula after the 4-cell indent."""
    return None if width is None else max(40, width - 4)


def _in_data_drives_matrix(d: Derivation) -> Any:
    return d.generator.applyfunc(lambda e: _in_data_drives(d, e))


def _indent(block: str) -> str:
    return "\n".join("    " + line for line in block.splitlines())


def derivation_latex(d: Derivation) -> str:
    """LaTeX equations: generator matrix, exact and approximate MTTDL."""
    q = to_latex(_in_data_drives_matrix(d))
    exact = to_latex(_in_data_drives(d, d.mttdl))
    approx = to_latex(_in_data_drives(d, d.mttdl_approx))
    return (
        f"% {_title(d)}\n"
        f"Q = {q}\n\n"
        f"\\mathrm{{MTTDL}} = {exact}\n\n"
        f"\\mathrm{{MTTDL}} \\approx {approx}\n"
    )


def derivation_markdown(d: Derivation) -> str:
    """GitHub Markdown: tables of states and transitions, math blocks for Q and MTTDL."""
    out = [f"### {_title(d)}", "", "| # | (f, l) | meaning |", "|---:|:---|:---|"]
    for i, s in enumerate(d.chain.states, start=1):
        out.append(f"| {i} | {s.short()} | {s.describe()} |")
    out += ["", "| from | to | rate per hour | event |", "|:---|:---|:---|:---|"]
    for source, target, rate, what in _transition_rows(d, lambda e: f"${to_latex(e)}$"):
        out.append(f"| {source} | {target} | {rate} | {what} |")
    exact = to_latex(_in_data_drives(d, d.mttdl))
    approx = to_latex(_in_data_drives(d, d.mttdl_approx))
    out += [
        "",
        "Generator matrix (row: from, column: to):",
        "",
        "$$",
        f"Q = {to_latex(_in_data_drives_matrix(d))}",
        "$$",
        "",
        "Mean time to data loss from state 1 (hours), exact:",
        "",
        "$$",
        f"\\mathrm{{MTTDL}} = {exact}",
        "$$",
        "",
        "Leading order for $\\lambda \\ll \\mu$:",
        "",
        "$$",
        f"\\mathrm{{MTTDL}} \\approx {approx}",
        "$$",
    ]
    return "\n".join(out) + "\n"
