"""Typer application: ``planner evaluate | derive | validate | schema | tui | fit ...``."""

from __future__ import annotations

import gc
import os
import re
import shutil
import signal
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from planner import __version__
from planner.cli.compare import compare_methods
from planner.cli.fit import fit
from planner.cli.help_text import unwrap_help
from planner.cli.options import (
    FormatOption,
    OutputOption,
    ScenarioFile,
    SetOption,
    TierOption,
    WorkloadScenarioFile,
    chosen_format,
)
from planner.cli.output import (
    EXIT_FAILURE,
    broken_pipe_exit,
    emit,
    fail,
    flush_stdout,
    forget_files,
    is_output_error,
    load_plan,
    output_error_exit,
    prepare_stdout,
    print_error,
    print_note,
)
from planner.cli.recommend import recommend
from planner.cli.report import report
from planner.cli.schema import schema
from planner.cli.sensitivity import sensitivity
from planner.cli.simulate import simulate
from planner.cli.sweep import sweep
from planner.core.arrays.presets import MAX_PARITY

if TYPE_CHECKING:
    from planner.analysis import derivation_cache
    from planner.analysis.derivation import SectorShare

app = typer.Typer(
    name="planner",
    help="Compare RAID layouts by the drives they cost and their risk of data loss.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"planner {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Compare RAID layouts by the drives they cost and their risk of data loss."""
    forget_files()


@app.command()
def evaluate(
    file: ScenarioFile = None,
    output_format: FormatOption = None,
    output: OutputOption = None,
    overrides: SetOption = None,
    methods: Annotated[
        bool,
        typer.Option(
            "--methods",
            help="Add the MTTDL approximation and the model without latent defects, as "
            "ratios to the exact P(loss); simulations: compare-methods.",
        ),
    ] = False,
) -> None:
    """Compare the scenario's layouts: drives, P(loss) per group and aggregate, relative risk.

    A plan (tiers:) shows each tier's table, then the plan's drives, cost and P(any tier
    loses data) over the mission, counting each tier's baseline layout.
    """
    output_format = chosen_format(output_format, output)
    from planner.cli.render import render_comparison, render_plan_comparison

    plan = load_plan(file, overrides)
    if plan.tiered:
        from planner.analysis.plan import plan_comparison

        render_plan_comparison(plan_comparison(plan, methods), output_format, output)
        return
    from planner.analysis.compare import compare_data

    scenario = plan.tiers[0].scenario
    data = compare_data(scenario, overrides or (), methods=methods)
    render_comparison(scenario, data, output_format, output)


@app.command()
def size(
    file: WorkloadScenarioFile = None,
    output_format: FormatOption = None,
    output: OutputOption = None,
    overrides: SetOption = None,
    tier: TierOption = None,
) -> None:
    """Size each layout for the scenario's workload: disks for capacity and IOPS, and risk."""
    output_format = chosen_format(output_format, output)
    from planner.cli.size import run_size

    run_size(file, output_format, output, overrides, tier)


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


@app.command()
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


@app.command()
def validate(
    file: Annotated[Path, typer.Argument(help="Scenario YAML file to check.", dir_okay=False)],
    overrides: SetOption = None,
) -> None:
    """Check a scenario file; print a summary, or each problem: file:line:column, field, fix."""
    plan = load_plan(file, overrides, every_error=True)
    if plan.tiered:
        typer.echo(f"{file}: OK: plan {plan.name!r}, {len(plan.tiers)} tiers")
    for tier in plan.tiers:
        scenario = tier.scenario
        layouts = ", ".join(layout.label for layout in scenario.layouts)
        where = f"  tier {tier.name!r}:" if plan.tiered else f"{file}: OK: {scenario.name!r},"
        typer.echo(
            f"{where} {len(scenario.layouts)} "
            f"layout{'s' if len(scenario.layouts) != 1 else ''} ({layouts}), "
            f"baseline {scenario.baseline_label()!r}"
        )


@app.command()
def tui(file: ScenarioFile = None, overrides: SetOption = None) -> None:
    """Explore the scenario interactively: edit parameters and layouts, see the risk live."""
    plan = load_plan(file, overrides)  # a bad file is reported before the screen opens
    # Textual paints a changed screen on a timer of TEXTUAL_FPS ticks a second (60 unless
    # set), read when Textual is imported: at 120 new results wait at most 8 ms to be
    # painted rather than 17 (benchmarks/bench_tui.py). A value the user set is kept.
    os.environ.setdefault("TEXTUAL_FPS", "120")
    from planner.tui import make_app

    tui_app = make_app(file, plan, overrides or ())
    # What is loaded by now (SymPy, SciPy, Textual: a hundred thousand objects) lives as long
    # as the process: out of the collector's sight, a full collection no longer walks it in
    # the middle of a keystroke (~60 ms, the slowest frames of benchmarks/bench_tui.py).
    gc.freeze()
    tui_app.run()
    if tui_app.saved_on_quit is not None:  # the notice went with the screen
        typer.echo(f"Saved the scenario to {tui_app.saved_on_quit}")
    if tui_app.return_code:  # SIGTERM or SIGHUP (planner/tui/hangup.py): 128 + the signal
        raise SystemExit(tui_app.return_code)


app.command()(simulate)  # body and options: planner/cli/simulate.py
app.command("compare-methods")(compare_methods)  # planner/cli/compare.py
app.command()(sweep)  # planner/cli/sweep.py
app.command()(sensitivity)  # planner/cli/sensitivity.py
app.command()(recommend)  # planner/cli/recommend.py
app.command()(report)  # planner/cli/report.py
app.command()(schema)  # planner/cli/schema.py
app.command()(fit)  # planner/cli/fit.py
unwrap_help(app)  # wrapped at the terminal's width, not the source's


def main() -> None:
    """Console-script entry point.

    Runs the app without Typer's own exit handling so that a usage mistake (an unknown
    option value, a missing argument) is one ``planner: error:`` line with exit code 2,
    like every other bad input; unexpected errors exit 1 without a traceback.
    """
    prepare_stdout()
    _exit_on_termination()
    # The cycle collector runs every 20,000 new objects instead of Python's 700: a command
    # imports its libraries as it starts (NumPy, SciPy, Pydantic's models, Textual), and at
    # the default the young collections took ~70 ms of a 0.8 s start-up (a tenth of the
    # CPU of a Textual session too); planner makes few reference cycles, so memory is flat.
    gc.set_threshold(20_000, 10, 10)
    try:
        _run_app()
    finally:
        # Nothing is left to collect once the command is done: Python's shutdown would
        # still walk every object it tracks in full collections (~160 ms of CPU at the end
        # of `planner evaluate`, ~45 ms after `--help`, loaded machine). Frozen objects are
        # still freed by their reference counts; the process is ending.
        gc.freeze()


def _run_app() -> None:
    """:func:`main`'s run of the app: every way out is an exit code (SystemExit)."""
    try:
        code = app(standalone_mode=False)
        flush_stdout()
    except BrokenPipeError:
        broken_pipe_exit()
    except OSError as err:
        if not is_output_error(err) or os.environ.get("PLANNER_DEBUG"):
            raise
        output_error_exit(err)
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except typer.Abort:
        raise SystemExit(130) from None
    except typer.TyperException as err:
        if type(err).__name__ == "NoArgsIsHelpError":
            # `planner` alone: Typer has printed the help while building this error.
            raise SystemExit(0) from None
        print_error(_usage_message(err))
        raise SystemExit(err.exit_code) from None
    except Exception as err:
        if os.environ.get("PLANNER_DEBUG"):
            raise
        print_error(f"unexpected {type(err).__name__}: {err} (set PLANNER_DEBUG=1 for a traceback)")
        raise SystemExit(EXIT_FAILURE) from None
    raise SystemExit(code if isinstance(code, int) else 0)


def _exit_on_termination() -> None:
    """SIGTERM and SIGHUP end planner as SIGINT does: cleanup runs, exit 128 + signal.

    Their default action ends the process on the spot: SIGTERM (``timeout``, ``kill``,
    systemd) in the middle of ``-o sweep.json`` left its 26 MB temporary file behind. The
    handler raises SystemExit instead, so every ``finally`` and ``except BaseException``
    on the way out runs (the atomic writes remove their temporary files).
    """

    def _exit(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)  # Windows has no SIGHUP
        if number is not None:
            signal.signal(number, _exit)


_COMMAND_HINTS = dict.fromkeys(
    ("cost", "costs", "price", "prices", "tco", "budget"),
    "Cost is a column of planner evaluate (give drive.price in the scenario), and planner "
    "recommend ranks the layouts by it.",
)
"""What a natural guess at a command that does not exist is called here."""


def _usage_message(err: typer.TyperException) -> str:
    """``planner evaluate: Invalid value for '--format': ... (see --help)`` on one line.

    A mistake at the top (an unknown command) is not prefixed with the program's name:
    ``planner: error: planner: No such command`` said it twice.
    """
    ctx = getattr(err, "ctx", None)
    where = getattr(ctx, "command_path", "planner") if ctx is not None else "planner"
    top = ctx is None or getattr(ctx, "parent", None) is None
    message = " ".join(err.format_message().split())
    hint = _set_hint(sys.argv[1:]) if "extra argument" in message else ""
    unknown = re.match(r"No such command '([^']*)'", message)
    if unknown is not None and unknown[1].lower() in _COMMAND_HINTS:
        hint = f" {_COMMAND_HINTS[unknown[1].lower()]}"
    return f"{'' if top else f'{where}: '}{message}{hint} (see {where} --help)"


def _set_hint(args: list[str]) -> str:
    """``; --set takes KEY=VALUE as one word: --set drive.arr=4%`` for ``--set drive.arr 4%``."""
    for index, arg in enumerate(args[:-1]):
        key = args[index + 1]
        if arg == "--set" and "=" not in key and index + 2 < len(args):
            return f"; --set takes KEY=VALUE as one word: --set {key}={args[index + 2]}"
    return ""
