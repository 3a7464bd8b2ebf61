"""``planner sweep``: P(loss) and drives for each parity count and group size, or over a field.

* no ``--vary``: every parity count (``--parity``, default 1,2,3) and group size
  (``--group-sizes``, default 2..30), only even divisions of the data drives unless ``--all``
  (NS3574 Tables 2 and 3);
* ``--vary FIELD=START..STOP:COUNT`` alone: the scenario's own layouts at each value;
* ``--vary`` with ``--parity`` or ``--group-sizes``: the group-size sweep at each value.

The rows come from :func:`planner.analysis.sweep.sweep_report` (one batch evaluation).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from planner.cli.options import (
    FormatOption,
    OutputOption,
    ScenarioFile,
    SetOption,
    TierOption,
    chosen_format,
    file_to_write,
)
from planner.cli.output import Format, fail, load, note_output, print_note, write_atomic
from planner.core.arrays.presets import MAX_PARITY

if TYPE_CHECKING:
    from planner.analysis.sweep import SweepReport

DEFAULT_PARITIES = "1,2,3"
DEFAULT_GROUP_SIZES = "2..30"
MAX_GROUP_SIZE = 1000
MAX_CASES = 200_000
"""Most layout-and-value cases one sweep evaluates (about a second, and the rows' memory)."""
PLOT_EXTRA = "install the plot extra: pip install 'planner[plot]'"

ParityOption = Annotated[
    str | None,
    typer.Option(
        "--parity",
        "-k",
        help=f"Parity drives per group: 1,2,3 or 1..3 \\[default: {DEFAULT_PARITIES}].",
        metavar="LIST",
        show_default=False,
    ),
]
GroupSizesOption = Annotated[
    str | None,
    typer.Option(
        "--group-sizes",
        "-g",
        help=f"Drives per group: 2..30, 4,8,16 or 2..8,16 \\[default: {DEFAULT_GROUP_SIZES}].",
        metavar="LIST",
        show_default=False,
    ),
]
AllOption = Annotated[
    bool,
    typer.Option(
        "--all",
        help="Every group size, not only those whose data drives divide the aggregate "
        "evenly; uneven ones are marked * with their extra data drives.",
    ),
]
VaryOption = Annotated[
    str | None,
    typer.Option(
        "--vary",
        help="Vary one field: drive.arr=1%..5%:9, drive.latent_defects_per_hour, "
        "restore.rebuild_hours, restore.scrub_hours, mission_years, aggregate.data_disks or "
        "aggregate.hot_spares, or a field of the scenario's correlation, enclosures or ageing "
        "section (an unknown field's error lists them all; docs/sweeps.md) (:COUNT default "
        "9). Alone: over the "
        "scenario's layouts; with --parity or --group-sizes: crossed with them.",
        metavar="FIELD=START..STOP[:COUNT]",
        show_default=False,
    ),
]
LogOption = Annotated[
    bool, typer.Option("--log", help="Space the --vary values evenly on a log scale.")
]


def _plot_name(value: Path | None) -> Path | None:
    if value is not None:
        note_output(value, "--plot")
    return value


PlotOption = Annotated[
    Path | None,
    typer.Option(
        "--plot",
        help="Also write a chart of the sweep, PNG or SVG by suffix "
        "(pip install 'planner\\[plot]').",
        parser=file_to_write,
        metavar="<file>",
        show_default=False,
        callback=_plot_name,
    ),
]


def sweep(
    file: ScenarioFile = None,
    parity: ParityOption = None,
    group_sizes: GroupSizesOption = None,
    include_uneven: AllOption = False,
    vary: VaryOption = None,
    log: LogOption = False,
    output_format: FormatOption = None,
    output: OutputOption = None,
    plot: PlotOption = None,
    overrides: SetOption = None,
    tier: TierOption = None,
) -> None:
    """Sweep group sizes (and one field): drives and P(loss) for each, as NS3574 Tables 2-3."""
    output_format = chosen_format(output_format, output)
    from planner.analysis.sweep import empty_sweep_reason, sweep_cases, sweep_report
    from planner.cli.ranges import RangeError, parse_int_list, parse_vary

    image_format = _plot_format(plot) if plot is not None else None
    try:
        varied = parse_vary(vary, log) if vary is not None else None
        parities = parse_int_list(parity or DEFAULT_PARITIES, "--parity", 1, MAX_PARITY)
        sizes = parse_int_list(
            group_sizes or DEFAULT_GROUP_SIZES, "--group-sizes", 2, MAX_GROUP_SIZE
        )
    except RangeError as err:
        fail(str(err))
    if log and varied is None:
        fail("--log spaces the values of --vary; give --vary too")
    scenario = load(file, overrides, tier)
    by_layout = varied is not None and parity is None and group_sizes is None
    cases = sweep_cases(scenario, parities, sizes, varied, by_layout)
    if cases > MAX_CASES:
        fail(
            f"that sweep has {cases:,} cases, more than {MAX_CASES:,}; "
            "narrow --group-sizes, --parity or the --vary count"
        )
    try:
        report = sweep_report(
            scenario, parities, sizes, include_uneven, varied, by_layout, overrides or ()
        )
    except ValueError as err:
        fail(str(err))
    if not len(report):
        fail(
            empty_sweep_reason(
                parities, sizes, include_uneven, sizes_text=group_sizes or DEFAULT_GROUP_SIZES
            )
        )
    if plot is not None and image_format is not None:
        _write_plot(report, plot, image_format)
    render_sweep(report, output_format, output)


def _plot_format(path: Path) -> str:
    """The image format of ``--plot`` by its suffix; exit 2 for another or no matplotlib."""
    import importlib.util

    suffix = path.suffix.lower().lstrip(".")
    if suffix not in ("png", "svg"):
        fail(f"--plot {path}: name a .png or .svg file")
    if importlib.util.find_spec("matplotlib") is None:
        fail(PLOT_EXTRA)
    return suffix


def _write_plot(report: SweepReport, path: Path, image_format: str) -> None:
    try:
        from planner.report.sweep_plot import plot_bytes

        data = plot_bytes(report, image_format)
    except ImportError:
        fail(PLOT_EXTRA)
    write_atomic(path, data, "--plot")
    print_note(f"Wrote the {image_format.upper()} chart to {path}")


def render_sweep(report: SweepReport, output_format: Format, output: Path | None) -> None:
    """Print or write ``report`` as a Rich table, Markdown, CSV or JSON."""
    from planner.cli.render import render_report, texts_of
    from planner.report import sweep as render

    streams = {Format.json: render.json_stream, Format.csv: render.csv_stream}

    def text(kind: Format) -> str | Iterable[str | bytes]:
        # JSON and CSV stream row by row: a 200,000-row sweep never becomes one string.
        return streams[kind](report) if kind in streams else texts_of(render, report)(kind)

    render_report(
        output_format,
        output,
        lambda width: render.to_rich_table(report, max_width=width),
        render.table_notes(report),
        text,
    )
