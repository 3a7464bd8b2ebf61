"""Shared plumbing of the commands: error reporting, exit codes and atomic output files."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

if TYPE_CHECKING:
    from planner.scenario import Scenario

EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1


class Format(StrEnum):
    """Output formats of the table commands."""

    table = "table"
    markdown = "markdown"
    csv = "csv"
    json = "json"


def print_error(message: str) -> None:
    """Print one line ``planner: error: ...`` to stderr (``message`` is plain text)."""
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"[bold red]planner: error:[/] {escape(message)}", markup=True
    )


def print_note(message: str) -> None:
    """Print one plain line to stderr: never wrapped (scripts read paths back), no markup."""
    from rich.console import Console

    Console(stderr=True, highlight=False, soft_wrap=True).print(message, markup=False)


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print one line ``planner: error: ...`` to stderr and exit with ``code``."""
    print_error(message)
    raise typer.Exit(code)


def load(path: Path | None, overrides: list[str] | None) -> Scenario:
    """Load and validate a scenario (bundled default when ``path`` is None) or exit 2."""
    from planner.scenario import ScenarioError, load_default_scenario, load_scenario

    try:
        if path is None:
            return load_default_scenario(overrides or ())
        return load_scenario(path, overrides or ())
    except ScenarioError as err:
        fail(str(err))


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes, e.g. an image) to ``path`` atomically, or exit.

    See :func:`planner.files.write_atomic`; a path that cannot be written (missing folder,
    no permission, read-only) is bad input (exit 2), and the old file is left as it was.
    """
    from planner.files import write_atomic as write

    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        fail(f"{path}: cannot write: folder {directory} does not exist")
    try:
        write(path, text)
    except OSError as err:
        # The user named a path that cannot be written: bad input, like a bad scenario.
        fail(f"{path}: cannot write: {err.strerror or err}")


def emit(text: str, output: Path | None, what: str) -> None:
    """Print ``text`` to stdout, or write it atomically to ``output`` and say where."""
    if output is None:
        sys.stdout.write(text)
        return
    write_atomic(output, text)
    print_note(f"Wrote {what} to {output}")
