"""The option and argument types every command shares, declared once.

``planner evaluate``, ``size``, ``simulate``, ``compare-methods``, ``sweep``,
``sensitivity``, ``validate`` and ``tui`` take the same scenario argument (``size`` its
:data:`WorkloadScenarioFile`), ``--set``, ``--format`` and ``--output``; each command
module imports them from here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from planner.cli.output import Format

ScenarioFile = Annotated[
    Path | None,
    typer.Argument(
        help="Scenario YAML file. Default: the bundled NS3574 42-data-disk aggregate.",
        show_default=False,
        dir_okay=False,
    ),
]
WorkloadScenarioFile = Annotated[
    Path | None,
    typer.Argument(
        help="Scenario YAML file with a workload: section, e.g. scenarios/lenovo-s3200.yaml "
        "(the bundled default scenario has none).",
        show_default=False,
        dir_okay=False,
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
OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output", "-o", help="Write to this file (atomically) instead of stdout.", dir_okay=False
    ),
]
FormatOption = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]
