"""Render the symbolic n+k model as terminal text: states, transitions, generator and MTTDL.

Expressions are shown in the paper's variables: ``n`` data drives per group
(``N = n + k``), lambda_Op, lambda_Ld, mu_Op, mu_Scrub. The leading-order MTTDL comes
first (a short formula); the exact one follows as ``P / D`` with both polynomials in the
collected form of :mod:`planner.analysis.mttdl_forms`, wrapped to the width. LaTeX and
Markdown: :mod:`planner.report.derivation_latex`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from planner.analysis.mttdl_forms import CollectedPolynomial, Forms, NPoly, RateTerm
from planner.core.markov.chain import Chain, Transition
from planner.report.numbers import drives_worth, format_years, hours_text
from planner.report.percentages import format_percent

if TYPE_CHECKING:
    from planner.analysis.derivation import SectorShare
    from planner.analysis.derivation_cache import Model
    from planner.core.arrays.layouts import Layout

DEFAULT_WIDTH = 100
"""Width the exact form is wrapped to when the caller gives none (files, pipes)."""

RATE_SYMBOL_NAMES = ("lambda_op", "lambda_ld", "mu_op", "mu_scrub")
_TEXT_RATES = ("λOp", "λLd", "μOp", "μScrub")
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def not_computed_note(parity: int) -> str:
    """Why the exact MTTDL is missing (only the leading order was derived)."""
    return (
        f"The exact MTTDL of the n+{parity} model is not computed: it takes up to "
        f"minutes with SymPy (`planner derive --parity {parity} --force` computes it "
        "once); the leading order above is exact as the failure rates become small "
        "against the repair rates."
    )


def model_text(chain: Chain, leading: Forms, exact: Forms | None, width: int | None = None) -> str:
    """Plain terminal text from plain data (no SymPy), every line within ``width`` (100).

    Args:
        chain: the n+k chain.
        leading: collected numerator and denominator of the leading-order MTTDL.
        exact: the same for the exact MTTDL, or None when it was not computed.
        width: terminal cells (at least 60).

    The generator matrix is drawn when it fits the width, else a note says how to get it.
    Sections are separated by blank lines; the two MTTDL sections come last.
    """
    width = DEFAULT_WIDTH if width is None else max(60, width)
    out = [chain_title(chain), "", "States (numbered as in the paper)"]
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
            wrap(
                "  Off-diagonal entries: the transition rates above; each diagonal entry is "
                "minus the sum of its row's others (too wide to draw here: "
                f"`planner derive --parity {chain.parity} --format latex` typesets it).",
                width,
            )
        )
    for section in _mttdl_sections(chain.parity, leading, exact, width):
        out += ["", section]
    return "\n".join(out) + "\n"


CLOSED_FORM_INTRO = (
    "Closed form (planner.report.derivation; n data drives per group, rates per hour)"
)
"""The line above the MTTDL formulas of the TUI's model view."""


def closed_form_text(model: Model, width: int | None = None) -> str:
    """The two MTTDL sections of :func:`model_text`, leading order first (the model view).

    ``model``: :func:`planner.analysis.derivation.closed_form`'s, leading and exact forms.
    """
    width = DEFAULT_WIDTH if width is None else max(60, width)
    sections = _mttdl_sections(model.parity, model.leading, model.exact, width)
    return "\n\n".join([CLOSED_FORM_INTRO, *sections]) + "\n"


class Modelled(Protocol):
    """A layout's chain with its MTTDL: a compare table's row or its aggregate."""

    @property
    def layout(self) -> Layout:
        """The layout whose chain is modelled."""

    @property
    def mttdl_hours(self) -> float:
        """One group's MTTDL (h)."""


def aggregate_words(sized: bool, groups: int, pool: bool = False) -> str:
    """Which aggregate a group belongs to: ``one of the 4 groups of its sized aggregate``."""
    whose = "its sized aggregate" if sized else "aggregate.data_disks"
    noun = "pool" if pool else "group"
    if groups == 1:
        return f"the one {noun} of {whose}"
    return f"one of the {groups} {noun}s of {whose}"


def model_title(result: Modelled, baseline: bool = False, aggregate: str = "") -> str:
    """What the chain of ``result``'s layout models, and its MTTDL (the TUI's model view).

    ``aggregate``: which aggregate the group is of (:func:`aggregate_words`), said where a
    workload gives a layout two (its sized one and ``aggregate.data_disks``'), else "".

    A RAID group: ``n+2, N = 9 drives per group (7 data + 2 parity)``. A declustered pool
    (docs/declustered.md) is one chain over all its C drives, spares included, whose
    stripes hold d data and p parity blocks, and k + 1 drives down at once leave only the
    stripes spanning them beyond repair, though the vdev faults and takes its ZFS pool: its
    title says so (``8d+2p``, the drives' worth of data a pool holds, the share on k + 1).
    The MTTDL reads in years and in hours, each with the house's formatter (3 significant
    digits for the hours).
    """
    layout = result.layout
    k, size = layout.parity, layout.group_size
    mark = " (◆ baseline)" if baseline else ""
    mttdl = f"{format_years(result.mttdl_hours)} ({hours_text(result.mttdl_hours)} h)"
    pool = layout.declustered
    where = f", {aggregate}" if aggregate else ""
    if pool is None:
        return (
            f"Model of {layout.label}{mark}: n+{k}, N = {size} drives per group "
            f"({size - k} data + {k} parity){where}; MTTDL of one group {mttdl}"
        )
    spares = f"{pool.spares} distributed spare{'s' if pool.spares != 1 else ''}"
    return (
        f"Model of {layout.label}{mark}: the n+{k} chain on all {size} drives of the pool "
        f"(N = {size}): stripes of {pool.data}d+{k}p, {spares}, "
        f"{drives_worth(f'{round(layout.data_disks_per_group, 1):g}')} of data; "
        f"{k + 1} drives down at once "
        f"leave {format_percent(layout.fraction_lost_on_overlap)} of the stripes beyond repair "
        f"and fault the vdev, which takes its ZFS pool{where}; "
        f"MTTDL of the pool {mttdl}"
    )


def _mttdl_sections(parity: int, leading: Forms, exact: Forms | None, width: int) -> list[str]:
    """The leading-order MTTDL ``A / B`` and the exact one ``P / D`` (or why it is missing)."""
    lead = ["MTTDL, leading order for λ << μ (hours) = A / B"]
    lead += [_text_polynomial(name, form, width) for name, form in zip("AB", leading, strict=True)]
    full = ["MTTDL from state 1, exact (hours) = P / D"]
    if exact is None:
        full.append(wrap("  " + not_computed_note(parity), width))
    else:
        full += [
            _text_polynomial(name, form, width) for name, form in zip("PD", exact, strict=True)
        ]
    return ["\n".join(lead), "\n".join(full)]


def _hanging(head: str, text: str, width: int) -> str:
    """``head`` then ``text`` wrapped under itself within ``width`` (a table row)."""
    import textwrap

    room = max(20, width - len(head))
    lines = textwrap.wrap(text, width=room) or [""]
    return "\n".join([head + lines[0], *(" " * len(head) + line for line in lines[1:])])


def chain_title(chain: Chain) -> str:
    """``n+2 model: 2 parity drives, N = n + 2 drives per group`` (and the rebuilds)."""
    k = chain.parity
    title = f"n+{k} model: {k} parity drive{'s' if k > 1 else ''}, N = n + {k} drives per group"
    streams = chain.rebuild_streams
    if streams is None:
        return f"{title}; every failed drive rebuilt at once"
    return title if streams == 1 else f"{title}; up to {streams} rebuilds at once"


def _text_transition_rate(chain: Chain, t: Transition) -> str:
    name = _TEXT_RATES[RATE_SYMBOL_NAMES.index(t.event.value)]
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


def wrap(text: str, width: int) -> str:
    """``text`` filled to ``width``, continuation lines indented by two spaces."""
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


# --- what is lost -------------------------------------------------------------------------

SHARE_TITLE = "What is lost first: the share s of first losses that lose sectors, not the group"
SHARE_MEANING = (
    "A latent defect among the events loses its stripes (a file to restore); k + 1 "
    "overlapping failures lose the group. As the mission grows, the share of the paper "
    "chain's first losses that lose sectors tends to s; planner evaluate gives P(group "
    "lost), P(sectors lost) and the expected sector-loss events for any mission "
    "(docs/loss.md)."
)


def share_missing(share: SectorShare) -> str:
    """Why the symbolic share is not shown (k above 2)."""
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
    out = ["", wrap(SHARE_TITLE, width), wrap("  " + SHARE_MEANING, width)]
    if share.exact is None or share.leading is None:
        return "\n".join([*out, wrap("  " + share_missing(share), width)]) + "\n"
    for title, names, forms in (
        ("Leading order for λ << μ: s ≈ a / b", "ab", share.leading_forms),
        ("Exact (n data drives): s = p / q", "pq", share.exact_forms),
    ):
        out.append(f"  {title}")
        assert forms is not None  # collected with the expressions
        out += [
            _text_polynomial(name, form, width, indent="    ")
            for name, form in zip(names, forms, strict=True)
        ]
    return "\n".join(out) + "\n"
