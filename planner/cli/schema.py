"""``planner schema``: the scenario format, as JSON Schema or as the Markdown reference."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer

from planner.cli.options import OutputOption
from planner.cli.output import emit


class SchemaFormat(StrEnum):
    """Output formats of ``planner schema``."""

    json = "json"
    markdown = "markdown"


def schema(
    output_format: Annotated[
        SchemaFormat,
        typer.Option(
            "--format",
            "-f",
            help="json: the JSON Schema, for an editor's YAML language server; markdown: "
            "the reference of every key (docs/scenario-reference.md).",
        ),
    ] = SchemaFormat.json,
    output: OutputOption = None,
) -> None:
    """Print the scenario format: its JSON Schema (for editors) or a Markdown reference."""
    from planner.scenario import scenario_json_schema

    document = scenario_json_schema()
    if output_format is SchemaFormat.json:
        emit(json.dumps(document, indent=2) + "\n", output, "the JSON Schema")
        return
    from planner.report.scenario_reference import scenario_reference_markdown

    emit(scenario_reference_markdown(document), output, "the scenario reference")
