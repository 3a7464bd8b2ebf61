"""The option and argument types every command shares, declared once.

``planner evaluate``, ``size``, ``simulate``, ``compare-methods``, ``sweep``,
``sensitivity``, ``validate`` and ``tui`` take the same scenario argument (``size`` its
:data:`WorkloadScenarioFile`), ``--set``, ``--format`` and ``--output``; each command
module imports them from here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from planner.cli.output import Format, fail, note_input, note_output


def scenario_name(value: Path | None) -> Path | None:
    """The scenario argument, recorded so that no output of the command can replace it."""
    if value is not None:
        note_input(value)
    return value


ScenarioFile = Annotated[
    Path | None,
    typer.Argument(
        help="Scenario YAML file. Default: the bundled NS3574 42-data-disk aggregate.",
        show_default=False,
        dir_okay=False,
        callback=scenario_name,
    ),
]
WorkloadScenarioFile = Annotated[
    Path | None,
    typer.Argument(
        help="Scenario YAML file with a workload: section, e.g. scenarios/lenovo-s3200.yaml "
        "(the bundled default scenario has none).",
        show_default=False,
        dir_okay=False,
        callback=scenario_name,
    ),
]
"""The scenario of ``planner size``: it needs a workload, which the bundled default lacks."""
SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        help="Override a scenario value, e.g. --set drive.arr=2.5% (repeatable).",
        metavar="KEY=VALUE",
    ),
]


def file_to_write(typed: str) -> Path:
    """The name of a file to write as typed (Typer's ``parser``), refused if it is a folder.

    pathlib drops a trailing slash (``Path("out/") == Path("out")``), so ``-o out/``, meant
    as "into the folder out", wrote a file called ``out`` where none existed; the name is
    judged here, before it becomes a Path. A folder that exists is refused as Click's
    ``dir_okay=False`` did. ``''`` passes, for the option's own callback to name.
    """
    if typed.endswith(("/", os.sep)):
        raise typer.BadParameter(
            f"'{typed}' ends in '/', so it names a folder; name the file to write in it"
        )
    if typed and Path(typed).is_dir():
        raise typer.BadParameter(f"'{typed}' is a folder, not a file")
    return Path(typed)


def output_name(value: Path | None) -> Path | None:
    """``-o`` as given: ``-`` is stdout (None); an empty name is bad input.

    Click turns ``-o ''`` into ``Path('.')`` before a callback sees it, and refuses ``-o .``
    itself as a folder, so ``.`` here can only have been the empty name.
    """
    if value is None or str(value) == "-":
        return None
    if str(value) == ".":
        fail("-o '': the file name is empty; name a file, or leave -o out for stdout")
    note_output(value, "-o")
    return value


OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        help="Write to this file (atomically) instead of stdout (- is stdout).",
        parser=file_to_write,
        metavar="<file>",
        callback=output_name,
    ),
]
FormatOption = Annotated[
    Format | None,
    typer.Option(
        "--format",
        "-f",
        help="Output format. Default: the one -o's name ends in (.json, .csv, .md), else table.",
        show_default=False,
    ),
]

_FORMAT_OF_SUFFIX = {
    "": Format.table,
    ".txt": Format.table,
    ".text": Format.table,
    ".md": Format.markdown,
    ".markdown": Format.markdown,
    ".csv": Format.csv,
    ".json": Format.json,
}


def chosen_format(output_format: Format | None, output: Path | None) -> Format:
    """``-f`` if given, else the format ``-o``'s name ends in, else the table.

    A newcomer's ``-o x.json`` without ``-f`` wrote a box-drawn table into x.json, and
    ``-o x.xlsx`` a text table into x.xlsx: a suffix with no format of planner's is a usage
    error (exit 2) unless ``-f`` says what to write.

    Raises:
        typer.BadParameter: ``-o`` names a file of a format planner does not write.
    """
    if output_format is not None:
        return output_format
    if output is None:
        return Format.table
    found = _FORMAT_OF_SUFFIX.get(output.suffix.lower())
    if found is None:
        raise typer.BadParameter(
            f"planner does not write {output.suffix} files ({output.name}): name the file "
            ".json, .csv, .md or .txt (a table), or choose the format with -f "
            "(table, markdown, csv, json)",
            param_hint="'-o'",
        )
    return found


TierOption = Annotated[
    str | None,
    typer.Option(
        "--tier",
        help="For a plan (a scenario with tiers:), the tier to use, by name; needed when the "
        "plan has more than one.",
        metavar="NAME",
        show_default=False,
    ),
]
"""The tier a one-aggregate command (sweep, sensitivity, simulate, size, ...) takes of a plan."""
