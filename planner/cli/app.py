"""Typer application: ``planner evaluate | derive | validate | schema | tui | fit ...``."""

from __future__ import annotations

import gc
import os
import re
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from planner import __version__
from planner.cli.compare import compare_methods
from planner.cli.derive import derive
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
    flush_stdout,
    forget_files,
    is_output_error,
    load_plan,
    output_error_exit,
    prepare_stdout,
    print_error,
)
from planner.cli.recommend import recommend
from planner.cli.report import report
from planner.cli.schema import schema
from planner.cli.sensitivity import sensitivity
from planner.cli.simulate import simulate
from planner.cli.sweep import sweep

if TYPE_CHECKING:
    pass

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


app.command()(derive)  # body and options: planner/cli/derive.py


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
    text = message if top else _plainer(getattr(ctx, "info_name", where), message)
    text = text if hint else text.removesuffix(".")  # not Click's '...'. (see ...)
    return f"{text}{hint} (see {where} --help)"


def _plainer(command: str, message: str) -> str:
    """Click's words as planner's: ``evaluate -o: ...``, not ``Invalid value for '-o': ...``.

    ``planner: error: planner evaluate: Invalid value for '-o': planner does not write ...``
    named the program twice (a newcomer's find); a folder given for a file says so.
    """
    invalid = re.match(r"Invalid value for ((?:'[^']+'(?: / )?)+): (.*)", message)
    if invalid is None:
        return f"{command}: {message}"
    name, detail = re.findall(r"'([^']+)'", invalid[1])[0], invalid[2]  # --format, not -f
    folder = re.fullmatch(r"(?:File|Path|Directory) '(.*)' is a directory\.", detail)
    if folder is not None:
        detail = f"'{folder[1]}' is a folder, not a file"
    return f"{command}{' ' + name if name.startswith('-') else ''}: {detail}"


def _set_hint(args: list[str]) -> str:
    """``; --set takes KEY=VALUE as one word: --set drive.arr=4%`` for ``--set drive.arr 4%``."""
    for index, arg in enumerate(args[:-1]):
        key = args[index + 1]
        if arg == "--set" and "=" not in key and index + 2 < len(args):
            return f"; --set takes KEY=VALUE as one word: --set {key}={args[index + 2]}"
    return ""
