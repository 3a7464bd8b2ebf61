"""Each command's help wraps at the terminal's width, not at the source's.

At 80 columns ``planner evaluate --help`` read "... cost and P(any tier" and then "loses
data) over the mission": Typer kept the line breaks of the docstring's later paragraphs.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from planner.cli.app import app

COMMANDS = [
    info.name or info.callback.__name__ for info in app.registered_commands if info.callback
]


def _paragraphs(text: str) -> list[list[str]]:
    """The help's description: the lines above the first box, in paragraphs."""
    described = text.split("╭", 1)[0].splitlines()
    paragraphs: list[list[str]] = [[]]
    for line in described:
        words = line.strip()
        if not words:
            paragraphs.append([])
        elif not words.startswith("Usage:"):
            paragraphs[-1].append(words)
    return [p for p in paragraphs if p]


@pytest.mark.parametrize("command", COMMANDS)
def test_no_line_of_a_paragraph_stops_short_at_80_columns(command: str) -> None:
    result = CliRunner().invoke(app, [command.replace("_", "-"), "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    paragraphs = _paragraphs(result.output)
    assert paragraphs, result.output
    for paragraph in paragraphs:
        for line in paragraph[:-1]:  # the last line of a paragraph may be short
            assert len(line) >= 55, (command, line, paragraph)
