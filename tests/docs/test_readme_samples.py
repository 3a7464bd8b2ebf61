"""The README's samples are what the commands print.

A newcomer runs the README's commands first and compares: a sample that no longer matches
(a count that moved, a note reworded) tells them the tool or the page is wrong. Each ```sh
block of one ``.venv/bin/planner`` command followed by a plain block of output is run at
80 columns, as the samples were taken, and the sample must appear in the output, whitespace
aside (the prose is wrapped for the page, the tool wraps at the terminal's width).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = re.compile(r"```sh\n\.venv/bin/planner ([^\n]*)\n```\n\n```\n(.*?)```", re.DOTALL)


def _samples() -> list[tuple[str, str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [(match[1], match[2]) for match in SAMPLE.finditer(text)]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_readme_has_samples() -> None:
    assert len(_samples()) >= 4


@pytest.mark.parametrize(("command", "sample"), _samples(), ids=[c for c, _ in _samples()])
def test_a_readme_sample_is_what_the_command_prints(
    command: str, sample: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, shlex.split(command), env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert _flat(sample) in _flat(result.output), result.output
