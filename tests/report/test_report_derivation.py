"""planner derive's forms: readable, faithful to the polynomials, LaTeX that compiles."""

from __future__ import annotations

import re
import shutil
import subprocess
from fractions import Fraction
from math import prod
from pathlib import Path

import pytest

from planner.analysis.derivation import sector_share
from planner.analysis.mttdl_forms import (
    CollectedPolynomial,
    collect,
    exact_forms,
    form_from_data,
    form_to_data,
    fraction_forms,
    in_data_drives,
    leading_order_forms,
)
from planner.core.markov.mttdl_algebra import mttdl_polynomials
from planner.core.markov.symbolic import Derivation, derive, derive_leading_order
from planner.report.derivation import model_text, share_text
from planner.report.derivation_latex import derivation_latex, derivation_markdown

# the modules that derive chains symbolically run on one worker: each derivation is
# made once and then read from that worker's cache (make test: --dist loadgroup)
pytestmark = pytest.mark.xdist_group("derivations")


def derivation_text(d: Derivation, width: int | None = None) -> str:
    """The terminal text of a derivation, its forms collected as planner derive's are."""
    return model_text(d.chain, leading_order_forms(d), exact_forms(d), width)


def latex_of(d: Derivation) -> str:
    return derivation_latex(d, exact_forms(d))


def evaluate_form(form: CollectedPolynomial, n: int, rates: tuple[Fraction, ...]) -> Fraction:
    """The collected form evaluated exactly: common factors times the sum of its terms."""

    def npoly(poly: tuple[tuple[int, int], ...]) -> int:
        return sum(c * n**p for p, c in poly)

    def monomial(exponents: tuple[int, ...]) -> Fraction:
        return prod((r**e for r, e in zip(rates, exponents, strict=True)), start=Fraction(1))

    common = monomial(form.common_rates) * prod((n + c) ** p for c, p in form.common_factors)
    total = sum(
        (
            t.content * prod(npoly(f) ** e for f, e in t.factors) * monomial(t.exponents)
            for t in form.terms
        ),
        start=Fraction(0),
    )
    return common * total


def evaluate_terms(terms: tuple[tuple[tuple[int, ...], int], ...], point: tuple) -> Fraction:
    return sum(
        (c * prod((x**e for x, e in zip(point, m, strict=True)), start=Fraction(1)))
        for m, c in terms
    )


RATES = (Fraction(3, 10**6), Fraction(7, 10**5), Fraction(1, 11), Fraction(1, 170))


@pytest.mark.parametrize("parity", [1, 2, 3, 4])
def test_collected_forms_are_the_polynomials(parity: int) -> None:
    """Factoring and collecting lose nothing: the forms equal the polynomials in N."""
    polynomials = mttdl_polynomials(parity)
    for terms in (polynomials.numerator, polynomials.denominator):
        form = collect(terms, parity)
        assert form_from_data(form_to_data(form)) == form
        for n in (1, 5, 17):
            expected = evaluate_terms(terms, (n + parity, *RATES))
            assert evaluate_form(form, n, RATES) == expected
    # the data-drive substitution alone, against the same evaluation
    shifted = in_data_drives(polynomials.numerator, parity)
    assert evaluate_terms(tuple(shifted.items()), (4, *RATES)) == evaluate_terms(
        polynomials.numerator, (4 + parity, *RATES)
    )


def test_denominator_shows_the_paper_factors() -> None:
    """k = 1: D = n (n + 1) λOp (λOp μScrub + λLd μOp + ...), as NS3574 Figure 1 implies."""
    form = collect(mttdl_polynomials(1).denominator, 1)
    assert form.common_factors == ((0, 1), (1, 1))
    assert form.common_rates == (1, 0, 0, 0)


@pytest.mark.parametrize("parity", [1, 2, 7])
def test_leading_order_forms_equal_the_formula(parity: int) -> None:
    d = derive_leading_order(parity)
    numerator, denominator = leading_order_forms(d)
    n = 9
    value = evaluate_form(numerator, n, RATES) / evaluate_form(denominator, n, RATES)
    s = d.symbols
    sub = {s["N"]: n + parity} | {
        s[name]: r
        for name, r in zip(("lambda_op", "lambda_ld", "mu_op", "mu_scrub"), RATES, strict=True)
    }
    assert Fraction(str(d.mttdl_approx.subs(sub))) == value


@pytest.mark.parametrize("width", [60, 80, 100, 132])
@pytest.mark.parametrize("parity", [1, 2, 4])
def test_every_text_line_fits_the_width(parity: int, width: int) -> None:
    """The issue's complaint: `derive --parity 2` printed lines of 2,827 characters."""
    text = derivation_text(derive(parity), width=width)
    assert max(len(line) for line in text.splitlines()) <= width
    assert "MTTDL, leading order" in text
    assert "  P = " in text
    assert "  D = " in text


def test_default_width_is_100() -> None:
    assert max(len(line) for line in derivation_text(derive(3)).splitlines()) <= 100


def test_sections_start_with_mttdl_for_the_tui() -> None:
    sections = derivation_text(derive(2)).split("\n\n")
    assert [s.splitlines()[0] for s in sections if s.startswith("MTTDL")] == [
        "MTTDL, leading order for λ << μ (hours) = A / B",
        "MTTDL from state 1, exact (hours) = P / D",
    ]


def test_leading_order_only_says_so() -> None:
    text = derivation_text(derive_leading_order(8))
    assert "not computed" in text
    assert "  P = " not in text
    latex = latex_of(derive_leading_order(8))
    assert "not computed" in latex
    assert latex.count(r"\begin{align*}") == latex.count(r"\end{align*}") == 1


def check_latex_structure(latex: str) -> None:
    for environment in ("equation*", "align*"):
        assert latex.count(rf"\begin{{{environment}}}") == latex.count(rf"\end{{{environment}}}")
    assert latex.count(r"\left") == latex.count(r"\right")
    assert latex.count(r"\Bigl") == latex.count(r"\Bigr")
    assert latex.count("{") == latex.count("}")
    body = latex.split(r"\begin{align*}")[1]
    for line in body.split("\\\\\n")[:-1]:  # each align line has one alignment point
        assert line.count("&") in (1, 3), line


@pytest.mark.parametrize("parity", [1, 2, 4])
def test_latex_structure(parity: int) -> None:
    latex = latex_of(derive(parity))
    check_latex_structure(latex)
    assert latex.startswith("% n+")
    assert "$" not in latex  # a fragment for display math, not inline


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
@pytest.mark.parametrize("parity", [2, 5])
def test_latex_compiles(parity: int, tmp_path: Path) -> None:
    (tmp_path / "fragment.tex").write_text(latex_of(derive(parity)), encoding="utf-8")
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage{amsmath}\n\\allowdisplaybreaks\n"
        "\\begin{document}\n\\input{fragment}\n\\end{document}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, re.findall(r"^!.*$", done.stdout, re.MULTILINE)
    assert (tmp_path / "doc.pdf").stat().st_size > 1000


def test_markdown_math_blocks() -> None:
    markdown = derivation_markdown(derive(2), exact_forms(derive(2)))
    assert markdown.count("$$") % 2 == 0
    assert r"\begin{aligned}" in markdown
    assert "| 6 | loss |" in markdown


@pytest.mark.parametrize(("parity", "streams"), [(1, 1), (2, 1), (2, None)])
def test_share_forms_are_the_share(parity: int, streams: int | None) -> None:
    """The collected forms of the sector-loss share equal SymPy's fractions, exactly."""
    share = sector_share(parity, streams)
    n = 9
    for expr in (share.leading, share.exact):
        numerator, denominator = fraction_forms(expr, parity)
        value = evaluate_form(numerator, n, RATES) / evaluate_form(denominator, n, RATES)
        names = {x.name: x for x in expr.free_symbols}
        point = dict(zip(("lambda_op", "lambda_ld", "mu_op", "mu_scrub"), RATES, strict=True))
        point["N"] = n + parity
        sub = {names[k]: v for k, v in point.items() if k in names}
        assert Fraction(str(expr.subs(sub))) == value


@pytest.mark.parametrize("width", [60, 80, 100, 132])
@pytest.mark.parametrize(("parity", "streams"), [(1, 1), (2, 1), (2, None)])
def test_share_text_fits_the_width_in_the_mttdl_notation(
    parity: int, streams: int | None, width: int
) -> None:
    text = share_text(sector_share(parity, streams), width)
    assert max(len(line) for line in text.splitlines()) <= width
    for syntax in ("*", "⋅", "─"):
        assert syntax not in text
    assert "  Exact (n data drives): s = p / q" in text
    assert "    q = " in text


POOL_SCENARIO = """
drive: {arr: 1.9%, latent_defects_per_hour: 1.08e-4}
restore: {rebuild_hours: 12, scrub_hours: 168}
aggregate: {data_disks: 42}
layouts:
  - {raid: raid-dp, group_size: 9}
  - {raid: draid2, children: 20, data: 8, spares: 1}
baseline: raid-dp 9
"""


def test_model_title_says_what_the_chain_models() -> None:
    """A group's title counts its drives; a pool's says what its chain models for a pool.

    A draid2 pool of 20 children, 8d and 1 spare was titled "N = 20 drives per group (18
    data + 2 parity)" while the compare notes said "20 (8d+2p, 1s)" and "15.2 drives' worth
    of data". The pool holds (20 - 1) x 8 / 10 = 15.2 drives of data; 3 drives down at
    once lose the stripes spanning all of them, C(17, 7) / C(20, 10) = 11% (2 digits).
    MTTDL hours read with 3 significant digits whatever their size (they were 2.1e+09 for
    one layout and 7.716e+09 for another).
    """
    from dataclasses import replace
    from math import comb

    from planner.analysis.compare import comparison
    from planner.report.derivation import model_title
    from planner.scenario import load_scenario_text

    group, pool = comparison(load_scenario_text(POOL_SCENARIO)).results
    title = model_title(replace(group, mttdl_hours=2.1e9), baseline=True)
    assert title == (
        "Model of raid-dp 9 (◆ baseline): n+2, N = 9 drives per group (7 data + 2 parity); "
        "MTTDL of one group 240,000 years (2.10 billion h)"
    )
    assert model_title(replace(group, mttdl_hours=7.716e9)).endswith("(7.72 billion h)")
    assert model_title(replace(group, mttdl_hours=5.202e5)).endswith(" 59 years (520,000 h)")
    title = model_title(pool)
    assert title.startswith(
        "Model of draid2:8d:20c:1s: the n+2 chain on all 20 drives of the pool (N = 20): "
        "stripes of 8d+2p, 1 distributed spare, 15.2 drives' worth of data; "
        f"3 drives down at once leave {comb(17, 7) / comb(20, 10):.0%} of the stripes beyond "
        "repair and fault the vdev, which takes its ZFS pool; "
        "MTTDL of the pool "
    )
    assert "drives per group" not in title
    assert "18 data" not in title
