"""Where the output goes wrong (issue 13, items 2 and 8).

A full disk or a closed stdout was "unexpected OSError/AttributeError": those run the real
``planner`` process, whose standard output is what goes wrong. ``-o`` over a symlink
replaced the link; over a device or FIFO it made a regular file; a recursive merge key was
"unexpected AttributeError" with exit 1: those are files the command opens, checked with
the Typer app in-process (an unexpected exception there is exit 1 and fails the test).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from planner.cli import app

PLANNER = [sys.executable, "-m", "planner"]


def run_here(*args: str) -> Result:
    """``planner ARGS`` in-process: the Typer app, its exit code and both streams."""
    return CliRunner().invoke(app, list(args))


def one_error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("planner: error: ")
    assert len(lines[0]) < 300
    assert "unexpected" not in lines[0]
    return lines[0]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_stdout_is_one_plain_line() -> None:
    with open("/dev/full", "w") as full:
        out = subprocess.run(
            [*PLANNER, "evaluate", "-f", "json"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=120,
        )
    assert out.returncode == 1
    assert one_error_line(out.stderr).endswith("cannot write the output: No space left on device")


def test_a_reader_that_goes_away_is_a_quiet_exit() -> None:
    process = subprocess.Popen(
        [*PLANNER, "sweep", "--all", "-f", "csv"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    process.stdout.close()  # like `| head -c1`, before planner (a second to start) writes
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 1
    assert stderr == ""


def test_a_reader_that_goes_away_mid_output_is_a_quiet_exit_1() -> None:
    """``| head -c1`` on an output bigger than the pipe: the first write is cut short.

    The kernel took 64 KiB of a 350 KB write and the rest was dropped with exit 0 (a script
    would have taken the cut output for the whole); the rest of the output must be tried.
    """
    process = subprocess.Popen(
        [*PLANNER, "sweep", "--all", "--vary", "drive.arr=1%..5%:100", "-f", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    assert process.stdout.read(1) == b"{"  # planner is writing now; the reader goes away
    process.stdout.close()
    assert process.stderr is not None
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 1
    assert stderr == b""


def test_a_closed_stdout_is_one_plain_line() -> None:
    command = " ".join(PLANNER) + " evaluate >&-"
    out = subprocess.run(
        ["sh", "-c", command], capture_output=True, text=True, check=False, timeout=120
    )
    assert out.returncode == 1
    assert one_error_line(out.stderr).endswith("standard output is closed")


def test_output_over_a_symlink_writes_its_target(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    out = run_here("evaluate", "-f", "markdown", "-o", str(link))
    assert out.exit_code == 0, out.stderr
    assert link.is_symlink()
    assert "NS3574 aggregate" in real.read_text(encoding="utf-8")


def test_output_to_a_fifo_is_written_to_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    out = run_here("evaluate", "-f", "csv", "-o", str(fifo))
    reader.join(timeout=60)
    assert out.exit_code == 0, out.stderr
    assert b"\nlabel,raid," in received[0]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_output_over_a_read_only_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "report.md"
    path.write_text("keep", encoding="utf-8")
    path.chmod(0o444)
    out = run_here("evaluate", "-f", "markdown", "-o", str(path))
    assert out.exit_code == 2
    assert one_error_line(out.stderr).endswith("report.md: cannot write: the file is read-only")
    assert path.read_text(encoding="utf-8") == "keep"


def test_validate_refuses_a_recursive_merge_key_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text("drive: &m\n  <<: *m\n", encoding="utf-8")
    out = run_here("validate", str(path))
    assert out.exit_code == 2
    assert f"{path}:2:7: drive.<<: alias *m refers to" in one_error_line(out.stderr)


def test_piped_tables_never_cut_a_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # review: a priced 20 TB scenario has ~25 columns; piped or -o, every cell stays whole
    monkeypatch.delenv("COLUMNS", raising=False)
    scenario = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"
    piped = CliRunner().invoke(app, ["evaluate", str(scenario)])
    assert piped.exit_code == 0, piped.stderr
    assert "…" not in piped.stdout
    assert "90,732" in piped.stdout  # RAID 10's total cost, whole
    target = tmp_path / "table.txt"
    written = CliRunner().invoke(app, ["evaluate", str(scenario), "-o", str(target)])
    assert written.exit_code == 0
    assert "…" not in target.read_text(encoding="utf-8")


def test_plain_text_gives_a_wide_table_its_measured_width_and_wraps_text_at_200() -> None:
    from rich.console import Console
    from rich.table import Table

    from planner.cli.render import plain_text

    table = Table("label", *(f"column {i}" for i in range(40)))
    table.add_row("a layout with a long label", *(f"{i * 1234.5678:,.4f}" for i in range(40)))
    words = " ".join(["sentence"] * 60)  # 539 characters
    text = plain_text([table, words], ["a note " * 50])
    measured = Console(width=10_000).measure(table).maximum
    lines = text.splitlines()
    table_lines = [line for line in lines if "column 39" in line or "1234.5678" in line]
    assert table_lines
    assert all(len(line) == measured > 200 for line in table_lines)
    assert "…" not in text
    prose = [line for line in lines if "sentence" in line or "a note" in line]
    assert len(prose) > 4
    assert all(len(line.rstrip()) <= 200 for line in prose)


def test_piped_text_has_no_trailing_spaces() -> None:
    """A piped table's title and the notes wrapped at 200 ended in spaces (newcomer review).

    A titled table pads its title to the table's width, and wrapped prose kept the space
    where it broke: lines a diff or an editor shows as changed whitespace.
    """
    from rich.table import Table

    from planner.cli.render import plain_text

    table = Table("label", "P(loss)", title="a title much shorter than the table")
    table.add_row("a layout with a long label" * 3, "0.012%")
    text = plain_text([table, "word " * 80], ["a note " * 50])
    assert text.splitlines()[0].strip() == "a title much shorter than the table"
    assert [line for line in text.splitlines() if line != line.rstrip()] == []
    assert text.endswith("\n")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["evaluate", "-f", "csv"], "-o"),
        (["report"], "-o"),
        (["size"], "-o"),
        (["derive", "-k", "1"], "-o"),
        (["schema"], "-o"),
        (["sweep", "--group-sizes", "4"], "--plot"),
    ],
)
def test_a_missing_folder_is_said_alike_by_every_command(
    tmp_path: Path, args: list[str], option: str
) -> None:
    """One wording, with the fix, whatever the command, and before any work.

    evaluate said "cannot write: folder ... does not exist" (no fix), report "the folder
    ... does not exist; create it or choose another -o".
    """
    folder = tmp_path / "nope" / "dir"
    suffix = ".svg" if option == "--plot" else ".md"
    target = folder / f"out{suffix}"
    result = run_here(*args, option, str(target))
    assert result.exit_code == 2, result.output
    assert one_error_line(result.stderr) == (
        f"planner: error: {option} {target}: the folder {folder} does not exist; "
        f"create it or choose another {option}"
    )
    assert not result.stdout
    assert not (tmp_path / "nope").exists()


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["evaluate"], "-o"),
        (["report"], "-o"),
        (["size"], "-o"),
        (["derive", "-k", "1"], "-o"),
        (["schema"], "-o"),
        (["fit", "scenarios/fleet-log-example.csv"], "-o"),
        (["sweep", "--group-sizes", "4"], "--plot"),
    ],
)
def test_a_name_ending_in_a_slash_is_a_folder_even_when_missing(
    tmp_path: Path, args: list[str], option: str
) -> None:
    """``-o out/`` names a folder: it was written as a file called ``out`` (exit 0).

    pathlib drops the trailing slash (``Path("out/") == Path("out")``), so a folder that
    does not exist yet was taken for a file name; the user meant "put it in there".
    """
    target = f"{tmp_path / 'out'}/"
    result = subprocess.run(
        [*PLANNER, *args, option, target], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2, result.stderr
    long_name = "--output" if option == "-o" else option
    assert one_error_line(result.stderr).startswith(
        f"planner: error: {args[0]} {long_name}: '{target}' ends in '/', so it names a folder"
    )
    assert not result.stdout
    assert list(tmp_path.iterdir()) == []
