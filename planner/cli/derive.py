"""``planner derive``: the n+k Markov model, its generator and MTTDL, as text, LaTeX or Markdown."""

from __future__ import annotations

import os
import shutil
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from planner.cli.options import OutputOption
from planner.cli.output import emit, fail, print_note
from planner.core.arrays.presets import MAX_PARITY

if TYPE_CHECKING:
    from planner.analysis import derivation_cache
    from planner.analysis.derivation import SectorShare


class DeriveFormat(StrEnum):
    """Output formats of ``planner derive``."""

    text = "text"
    latex = "latex"
    markdown = "markdown"


ParallelRebuildsOption = Annotated[
    str,
    typer.Option(
        "--parallel-rebuilds",
        "-p",
        help="Concurrent rebuild streams: 1 (default) one at a time, the paper's model; "
        "N up to 64 (min(f, N)·μOp with f drives failed); all, every failed drive at "
        "once. As restore.parallel_rebuilds in a scenario.",
    ),
]
CorrelatedOption = Annotated[
    bool,
    typer.Option(
        "--correlated",
        help="The chain with correlated failures: the degraded multiplier m and shocks "
        "(λSh, q); the exact MTTDL for k = 1, and k = 2 with --drives (docs/correlated.md).",
    ),
]
DrivesOption = Annotated[
    int | None,
    typer.Option("--drives", "-N", min=2, max=1000, help="With --correlated: drives per group N."),
]


def derive(
    parity: Annotated[
        int,
        typer.Option("--parity", "-k", min=1, max=MAX_PARITY, help="Parity drives per group (k)."),
    ],
    output_format: Annotated[
        DeriveFormat, typer.Option("--format", "-f", help="Output format.")
    ] = DeriveFormat.text,
    output: OutputOption = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Compute the exact MTTDL for k = 7 or 8 too (0.5-2 min, once: it is cached).",
        ),
    ] = False,
    leading_order: Annotated[
        bool,
        typer.Option("--leading-order", help="Only the leading-order MTTDL (instant for any k)."),
    ] = False,
    parallel_rebuilds: ParallelRebuildsOption = "1",
    correlated: CorrelatedOption = False,
    drives: DrivesOption = None,
) -> None:
    """Show the n+k Markov model: states, transitions, generator matrix, closed-form MTTDL.

    The exact MTTDL is computed once per k and kept in the user's cache directory
    ($XDG_CACHE_HOME/planner or ~/.cache/planner); for k = 7 and 8 it takes half a minute
    to two minutes, so it is only computed with --force (the leading order is always shown).
    """
    from planner.analysis import derivation_cache
    from planner.analysis.derivation import chain_streams, sector_share
    from planner.scenario.restore import parse_rebuild_streams

    try:
        streams = parse_rebuild_streams(parallel_rebuilds)
    except ValueError as err:
        fail(f"--parallel-rebuilds: {err}")
    if correlated or drives is not None:
        text = _correlated_text(parity, drives, streams, output_format, output, correlated)
        emit(text, output, f"the correlated n+{parity} model")
        return
    exact = not leading_order and (parity <= derivation_cache.EXACT_WITHOUT_ASKING or force)
    streams = chain_streams(parity, streams)
    model = _model_with_status(parity, exact, streams)
    if model.exact is None and not leading_order:
        expected = derivation_cache.EXPECTED_TIME.get(parity, "minutes")
        print_note(
            f"planner: note: the exact MTTDL of the n+{parity} model takes about {expected} "
            "the first time; add --force to compute it (it is cached afterwards)"
        )
    share = sector_share(parity, streams)
    emit(_derivation_text(model, share, output_format, output), output, f"the n+{parity} model")


def _derivation_text(
    model: derivation_cache.Model,
    share: SectorShare,
    output_format: DeriveFormat,
    output: Path | None,
) -> str:
    """The model and the loss split as text (the terminal's width), LaTeX or Markdown."""
    from planner.report import derivation, derivation_latex

    if output_format is DeriveFormat.text:
        # the terminal's width, or COLUMNS where it is set (piped: as Rich sizes the tables)
        sized = output is None and (sys.stdout.isatty() or bool(os.environ.get("COLUMNS")))
        width = shutil.get_terminal_size().columns if sized else None
        text = derivation.model_text(model.chain, model.leading, model.exact, width)
        return text + derivation.share_text(share, width)
    if output_format is DeriveFormat.latex:
        text = derivation_latex.derivation_latex(model.derivation(), model.exact)
        return text + derivation_latex.share_latex(share)
    text = derivation_latex.derivation_markdown(model.derivation(), model.exact)
    return text + derivation_latex.share_markdown(share)


def _correlated_text(
    parity: int,
    drives: int | None,
    streams: int | None,
    output_format: DeriveFormat,
    output: Path | None,
    correlated: bool = True,
) -> str:
    """The correlated chain as text (the terminal's width), LaTeX or Markdown.

    Exit 2 for ``--drives`` without ``--correlated``, or a group that cannot hold its parity.
    """
    from planner.analysis.derivation import correlated_derivation
    from planner.report import derivation_correlated as render

    if not correlated:
        fail("--drives goes with --correlated")
    if drives is not None and drives <= parity:
        fail(f"--drives: a group of {drives} drives cannot hold {parity} parity drives")

    if sys.stderr.isatty():
        from rich.console import Console

        status = f"Deriving the correlated n+{parity} model with SymPy (once; cached)..."
        with Console(stderr=True).status(status):
            model = correlated_derivation(parity, drives, streams)
    else:
        model = correlated_derivation(parity, drives, streams)
    if output_format is DeriveFormat.text:
        tty = output is None and sys.stdout.isatty()
        return render.correlated_text(model, shutil.get_terminal_size().columns if tty else None)
    if output_format is DeriveFormat.latex:
        return render.correlated_latex(model)
    return render.correlated_markdown(model)


def _model_with_status(parity: int, exact: bool, streams: int | None = 1) -> derivation_cache.Model:
    """The model from the cache or derived, with a spinner on a terminal while SymPy works."""
    from planner.analysis import derivation_cache

    cached = derivation_cache.load(parity) if streams == 1 else None
    if cached is not None or not exact or not sys.stderr.isatty():
        return cached or derivation_cache.model(parity, exact=exact, rebuild_streams=streams)
    from rich.console import Console

    status = f"Deriving the exact MTTDL of the n+{parity} model with SymPy (once; cached)..."
    with Console(stderr=True).status(status):
        return derivation_cache.model(parity, exact=True, rebuild_streams=streams)
