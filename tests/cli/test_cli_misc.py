"""derive, schema, --version, --help and the installed console script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner import __version__
from planner.cli import app


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.stdout


@pytest.mark.parametrize("command", [[], ["evaluate"], ["derive"], ["validate"], ["schema"]])
def test_help_everywhere(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "Usage" in result.stdout


def test_help_shows_flags_as_flags_not_as_taking_a_value() -> None:
    """Typer 0.29 printed ``--methods <bool>`` and ``--help <bool>``: a newcomer then typed
    ``--methods true`` and "true" was read as the scenario file (newcomer review)."""
    for command in (["evaluate"], ["sweep"], []):
        result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
        assert result.exit_code == 0
        assert "<bool>" not in result.stdout, command
        assert "--help" in result.stdout


def test_schema_is_json_schema() -> None:
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert {"drive", "restore", "aggregate", "layouts"} <= set(schema["properties"])


@pytest.mark.parametrize("fmt", ["text", "latex", "markdown"])
def test_derive_formats(fmt: str) -> None:
    result = CliRunner().invoke(app, ["derive", "--parity", "2", "--format", fmt])
    assert result.exit_code == 0, result.stderr
    assert "MTTDL" in result.stdout
    if fmt == "markdown":
        assert "| 6 | loss |" in result.stdout
        assert "$$" in result.stdout


def test_derive_parity_out_of_range() -> None:
    result = CliRunner().invoke(app, ["derive", "--parity", "0"])
    assert result.exit_code == 2


def test_python_dash_m_and_console_script() -> None:
    """The real installed entry points, in a subprocess."""
    out = subprocess.run(
        [sys.executable, "-m", "planner", "--version"], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0
    assert __version__ in out.stdout
    script = Path(sys.executable).parent / "planner"
    exe = str(script) if script.exists() else shutil.which("planner")
    assert exe is not None, "the planner console script is not installed"
    out = subprocess.run(
        [exe, "evaluate", "--format", "json"], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["layouts"]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["derive", "--parity", "9"], "--parity"),
        (["evaluate", "--set"], "requires an argument"),
    ],
)
def test_usage_mistakes_are_one_line_exit_2(args: list[str], fragment: str) -> None:
    """The installed entry point turns Typer's usage errors into one planner: error: line.

    An unknown command and a bad choice (``evaluate --format xml``) are checked the same way
    by tests/cli/test_cli_exit_codes.py, each in its own process.
    """
    out = subprocess.run(
        [sys.executable, "-m", "planner", *args], capture_output=True, text=True, check=False
    )
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("planner: error: ")
    assert fragment in lines[0]
    assert "Traceback" not in out.stderr


def test_no_arguments_shows_help() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "planner"], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0
    assert "Usage" in out.stdout + out.stderr


def test_the_wrote_note_keeps_a_long_path_on_one_line(tmp_path: Path) -> None:
    """Scripts read the path back from stderr: it is never wrapped nor read as markup."""
    folder = tmp_path / ("a-long-folder-name-" * 6) / "[bold]x"
    folder.mkdir(parents=True)
    out = folder / "comparison.md"
    result = CliRunner().invoke(app, ["evaluate", "-f", "markdown", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"Wrote markdown output to {out}\n"


def test_derive_parallel_rebuilds() -> None:
    """--parallel-rebuilds N: rebuilds with 2 or more drives failed read 2 μOp for N = 2
    (k = 3: never 3 μOp); all, or N >= k, means every failed drive at once; 0 is refused,
    as in a scenario file (issue 21, item 12)."""
    one = CliRunner().invoke(app, ["derive", "--parity", "2"])
    two = CliRunner().invoke(app, ["derive", "--parity", "3", "--parallel-rebuilds", "2"])
    every = CliRunner().invoke(app, ["derive", "--parity", "2", "--parallel-rebuilds", "all"])
    assert one.exit_code == two.exit_code == every.exit_code == 0, two.stderr
    assert "2 μOp" not in one.stdout
    assert "2 μOp" in two.stdout
    assert "up to 2 rebuilds at once" in two.stdout
    assert "3 μOp" not in two.stdout
    assert "every failed drive rebuilt at once" in every.stdout
    for word in ("-1", "0", "yes", "65"):
        bad = CliRunner().invoke(app, ["derive", "--parity", "2", "--parallel-rebuilds", word])
        assert bad.exit_code == 2
        assert "from 1 to 64 (1: one at a time), or all" in bad.stderr


def test_shell_completion_is_offered_and_completes_commands_and_options() -> None:
    help_text = CliRunner().invoke(app, ["--help"]).stdout
    assert "--install-completion" in help_text
    assert "--show-completion" in help_text
    script = Path(sys.executable).with_name("planner")
    exe = str(script) if script.exists() else shutil.which("planner")
    assert exe is not None

    def complete(words: str) -> list[str]:
        env = {
            **os.environ,
            "_PLANNER_COMPLETE": "complete_bash",
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split()) - 1),
        }
        out = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()

    assert complete("planner ev") == ["evaluate"]
    assert "--vary" in complete("planner sweep --va")


@pytest.mark.parametrize(
    ("name", "given", "starts"),
    [
        ("x.json", [], "{"),
        ("x.CSV", [], "# Inputs"),
        ("x.md", [], "#"),
        ("x.txt", [], "NS3574"),
        ("x", [], "NS3574"),
        ("x.xlsx", ["-f", "csv"], "# Inputs"),
        ("x.json", ["-f", "table"], "NS3574"),
        ("x.csv", ["-f", "json"], "{"),
    ],
)
def test_o_without_f_writes_the_format_its_name_ends_in(
    tmp_path: Path, name: str, given: list[str], starts: str
) -> None:
    """``-o x.json`` without ``-f`` wrote a box-drawn table into x.json (newcomer review):
    the name's suffix picks the format; ``-f`` given wins; .txt or no suffix gets the table."""
    target = tmp_path / name
    result = CliRunner().invoke(app, ["evaluate", *given, "-o", str(target)])
    assert result.exit_code == 0, result.output
    text = target.read_text(encoding="utf-8")
    assert text.lstrip().startswith(starts), text[:200]
    if starts == "{":
        json.loads(text)
    if starts == "# Inputs":
        assert text.splitlines()[1].startswith("label,raid,"), text[:300]
    if name.endswith(".md") and not given:
        assert "|" in text
        assert "┃" not in text
        assert "│" not in text


@pytest.mark.parametrize("name", ["out.xlsx", "out.html", "out.yaml"])
def test_o_of_a_format_planner_does_not_write_is_refused(tmp_path: Path, name: str) -> None:
    """``-o out.xlsx`` wrote a box-drawn text table into out.xlsx and said so (newcomer
    review): a suffix planner has no format for is a usage error, exit 2, nothing written,
    and the line says which names and ``-f`` values work."""
    target = tmp_path / name
    result = CliRunner().invoke(app, ["evaluate", "-o", str(target)])
    assert result.exit_code == 2, result.output
    assert not target.exists()
    # Typer's box in the test runner; the console script prints it as one line
    message = " ".join(result.output.translate(str.maketrans("", "", "│╭╮╰╯─")).split())
    assert f"planner does not write {target.suffix} files ({name})" in message, message
    assert ".json, .csv, .md or .txt" in message, message
    assert "with -f" in message, message
