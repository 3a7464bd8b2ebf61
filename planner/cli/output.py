"""Shared plumbing of the commands: error reporting, exit codes, stdout and output files."""

from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

if TYPE_CHECKING:
    from planner.scenario import Plan, Scenario

EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1
EXIT_BROKEN_PIPE = EXIT_FAILURE
"""Exit code when the reader of stdout went away, silently (as Click, and Python's docs
on SIGPIPE, do: the output was not all delivered, and nobody is left to read why)."""

_OUTPUT_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EPIPE, errno.EBADF, errno.EIO, errno.EFBIG, errno.EDQUOT}
)
"""Errors of writing stdout (a full disk, a closed pipe or descriptor, an I/O error)."""


class _ClosedStdout(io.TextIOBase):
    """Stands in for a closed stdout (``planner ... >&-``): writing it is an OSError."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def prepare_stdout() -> None:
    """Make a closed stdout an OSError on write (Python leaves ``sys.stdout`` None)."""
    if sys.stdout is None:
        sys.stdout = _ClosedStdout()


def flush_stdout() -> None:
    """Flush stdout now, so that a full disk or closed pipe is seen while it can be reported."""
    if sys.stdout is not None:
        sys.stdout.flush()


def is_output_error(err: OSError) -> bool:
    """Whether ``err`` is a failure to write the output (stdout) rather than a bug."""
    return err.errno in _OUTPUT_ERRNOS


def _stdout_to_devnull() -> None:
    """Point stdout's descriptor at /dev/null, once its reader is gone or its disk full.

    Python's last flush then has nowhere to fail (it would print an "Exception ignored"
    message); nothing is lost that anyone could read.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass


def broken_pipe_exit() -> NoReturn:
    """The reader of stdout went away (``planner ... | head -c1``): exit 1 without a word."""
    _stdout_to_devnull()
    raise SystemExit(EXIT_BROKEN_PIPE)


def output_error_exit(err: OSError) -> NoReturn:
    """Say in one line that the output could not be written (a full disk...), exit 1."""
    print_error(f"cannot write the output: {err.strerror or err}")
    _stdout_to_devnull()
    raise SystemExit(EXIT_FAILURE)


class Format(StrEnum):
    """Output formats of the table commands."""

    table = "table"
    markdown = "markdown"
    csv = "csv"
    json = "json"


def print_error(message: str) -> None:
    """Print one line ``planner: error: ...`` to stderr (``message`` is plain text)."""
    from rich.console import Console
    from rich.text import Text

    # A Text, not markup: the message is never parsed (escaped markup printed a trailing
    # backslash twice).
    line = Text.assemble(("planner: error:", "bold red"), " ", message)
    Console(stderr=True, highlight=False, soft_wrap=True).print(line)


def print_note(message: str) -> None:
    """Print one plain line to stderr: never wrapped (scripts read paths back), no markup."""
    from rich.console import Console

    Console(stderr=True, highlight=False, soft_wrap=True).print(message, markup=False)


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print one line ``planner: error: ...`` to stderr and exit with ``code``."""
    print_error(message)
    raise typer.Exit(code)


def _set_suggestion(override: str, path: Path | None) -> str:
    """``drive.arr=4%`` for a ``--set`` word without '=', as one shell word.

    ``--set 'drive.arr 4%'`` (or ``drive.arr: 4%``, as in the file) holds key and value;
    ``--set drive.arr 4%`` was split by the shell, and 4% became the scenario file.
    """
    import shlex

    key, _, value = override.strip().partition(" ")
    key = key.removesuffix(":")
    value = value.strip()
    if not value:
        value = path.name if path is not None and not path.exists() else "VALUE"
    return shlex.quote(f"{key or 'KEY'}={value}")


_read_files: list[Path] = []
"""The scenario files the running command reads (regular files only)."""

_output_files: list[tuple[str, Path]] = []
"""The files the running command was asked to write, with their option (``-o``)."""


def forget_files() -> None:
    """Start a command with no files read or to write (the app's callback, once a run)."""
    _read_files.clear()
    _output_files.clear()


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except (OSError, ValueError):
        return False


def refuse_writing_input(path: Path, option: str = "-o") -> None:
    """Exit 2 if ``path`` is a scenario file this command reads (same inode, any name).

    ``planner evaluate s.yaml -o s.yaml`` once replaced the scenario, comments and all, with
    the table. Only regular files are recorded as read: ``/dev/stdin`` read and
    ``/dev/stdout`` written may be the same terminal.
    """
    for source in _read_files:
        if _same_file(source, path):
            fail(
                f"{option} {path}: that is the scenario file this command reads ({source}); "
                "writing it would replace the scenario: choose another file"
            )


def note_input(path: Path) -> None:
    """Record the scenario file ``path`` as read; refuse an output already named that is it.

    Called as the command line is parsed, so the refusal comes before any work.
    """
    if not path.is_file():
        return
    _read_files.append(path)
    for option, output in _output_files:
        refuse_writing_input(output, option)


def note_output(path: Path, option: str) -> None:
    """Record ``path`` as to be written by ``option``; refuse it if it is a scenario read.

    A path whose folder does not exist is refused too, before any work.
    """
    _output_files.append((option, path))
    refuse_writing_input(path, option)
    refuse_missing_folder(path, option)


def refuse_missing_folder(path: Path, option: str = "-o") -> None:
    """Exit 2 if the folder ``path`` would be written in does not exist.

    Every command says it in these words, with the fix: ``-o out/x.md: the folder out
    does not exist; create it or choose another -o``.
    """
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        fail(
            f"{option} {path}: the folder {folder} does not exist; "
            f"create it or choose another {option}"
        )


def _check_overrides(path: Path | None, overrides: list[str] | None) -> None:
    for override in overrides or ():
        if "=" not in override:
            fail(
                f"--set {override}: expected KEY=VALUE as one word, with no space around "
                f"'=': --set {_set_suggestion(override, path)}"
            )


def load_plan(path: Path | None, overrides: list[str] | None, *, every_error: bool = False) -> Plan:
    """Load a plan (a single-aggregate file is a plan of one tier; bundled default when None).

    Exits 2 on bad input: one line, or with ``every_error`` one line per problem found
    (``planner validate``).
    """
    from planner.scenario import Plan, ScenarioError, load_default_scenario
    from planner.scenario import load_plan as load_file

    _check_overrides(path, overrides)
    try:
        if path is None:
            return Plan.single(load_default_scenario(overrides or ()), overrides or ())
        return load_file(path, overrides or ())
    except ScenarioError as err:
        if not every_error:
            fail(str(err))
        for each in err.all_errors:
            print_error(each.line_text())
        raise typer.Exit(EXIT_BAD_INPUT) from None


def load(path: Path | None, overrides: list[str] | None, tier: str | None = None) -> Scenario:
    """Load and validate a scenario (bundled default when ``path`` is None) or exit 2.

    A plan's tier is chosen by name (``--tier``); a plan of several tiers needs one.
    """
    plan = load_plan(path, overrides)
    where = str(path) if path is not None else "<default scenario>"
    if not plan.tiered:
        if tier is not None:
            fail(f"--tier {tier}: {where} describes one aggregate (it has no tiers: list)")
        return plan.tiers[0].scenario
    if tier is None:
        if len(plan.tiers) == 1:
            return plan.tiers[0].scenario
        names = ", ".join(plan.names)
        fail(f"{where} is a plan of {len(plan.tiers)} tiers ({names}); choose one: --tier NAME")
    try:
        return plan.tier_named(tier).scenario
    except KeyError as missing:
        fail(f"--tier {tier}: {where}: {missing.args[0]}")


def write_atomic(path: Path, text: str | bytes | Iterable[str | bytes], option: str = "-o") -> None:
    """Write ``text`` (or bytes, e.g. an image) to ``path`` atomically, or exit.

    See :func:`planner.scenario.files.write_atomic`; a path that cannot be written (missing folder,
    no permission, read-only) is bad input (exit 2), and the old file is left as it was.
    ``option`` names the path in errors (``-o``, ``--plot``).
    """
    from planner.scenario.files import write_atomic as write

    refuse_writing_input(path, option)
    refuse_missing_folder(path, option)
    try:
        write(path, text)
    except OSError as err:
        # The user named a path that cannot be written: bad input, like a bad scenario.
        reason = err.strerror or str(err)
        fail(f"{path}: cannot write: {reason}")


def check_destinations(paths: Iterable[Path]) -> None:
    """Exit 2 unless every one of ``paths`` can be written by :func:`write_files`."""
    from planner.scenario.files import check_replaceable

    for path in paths:
        refuse_writing_input(path)
        try:
            check_replaceable([path])
        except OSError as err:
            fail(f"{path}: cannot write: {err.strerror or err}")


def write_files(files: dict[Path, str | bytes]) -> None:
    """Write ``files`` as one step (all replaced, or none), or exit 2 naming the one at fault."""
    from planner.scenario.files import write_atomic_set

    check_destinations(files)
    try:
        write_atomic_set(files)
    except OSError as err:
        fail(f"{err.filename or 'the output'}: cannot write: {err.strerror or err}")


def write_stdout(text: str | bytes) -> None:
    """Write ``text`` (or UTF-8 bytes) to stdout whole, or raise the OSError that stopped it.

    Through ``sys.stdout`` a write bigger than a pipe's buffer, cut short because the reader
    went away (``| head -c1``), was dropped silently after its first 64 KiB and planner
    exited 0. Writing the descriptor directly, every byte is tried: a reader that left is a
    BrokenPipeError, which :func:`broken_pipe_exit` turns into exit 1.
    """
    stream = sys.stdout
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # a test's captured or a closed stdout
        stream.write(text.decode() if isinstance(text, bytes) else text)
        return
    stream.flush()
    encoded = (
        text
        if isinstance(text, bytes)
        else text.encode(stream.encoding or "utf-8", stream.errors or "strict")
    )
    data = memoryview(encoded)
    while data:
        data = data[os.write(fd, data) :]


def emit(text: str | Iterable[str | bytes], output: Path | None, what: str) -> None:
    """Print ``text`` (or its chunks, as they come) to stdout, or write it to ``output``."""
    if output is None:
        for chunk in [text] if isinstance(text, str) else text:
            write_stdout(chunk)
        return
    write_atomic(output, text)
    print_note(f"Wrote {what} to {output}")
