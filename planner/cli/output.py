"""Shared plumbing of the commands: error reporting, exit codes and atomic output files."""

from __future__ import annotations

import os
import sys
import tempfile
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


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print one line ``planner: error: ...`` to stderr and exit with ``code``."""
    from rich.console import Console

    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"[bold red]planner: error:[/] {message}", markup=True
    )
    raise typer.Exit(code)


def load(path: Path | None, overrides: list[str] | None) -> Scenario:
    """Load and validate a scenario (bundled default when ``path`` is None) or exit 2."""
    from planner.scenario import ScenarioError, load_default_scenario, load_scenario

    try:
        if path is None:
            return load_default_scenario(overrides or ())
        return load_scenario(path, overrides or ())
    except ScenarioError as err:
        fail(_escape(str(err)))


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically.

    The text goes to a temporary file in the same folder, then a rename replaces ``path``:
    a reader never sees a half-written file and a failure leaves the old file intact.
    """
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        fail(f"{path}: cannot write: folder {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        fail(f"{path}: cannot write: {err.strerror or err}", EXIT_FAILURE)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def emit(text: str, output: Path | None, what: str) -> None:
    """Print ``text`` to stdout, or write it atomically to ``output`` and say where."""
    if output is None:
        sys.stdout.write(text)
        return
    write_atomic(output, text)
    from rich.console import Console

    Console(stderr=True, highlight=False).print(f"Wrote {what} to {output}")
