"""Reading the CLI's CSV as a tool would: ``#`` comment lines (the inputs) skipped."""

from __future__ import annotations


def csv_lines(text: str) -> list[str]:
    """The CSV's lines without the leading ``# Inputs: ...`` comment (as pandas comment="#")."""
    lines = text.splitlines(keepends=True)
    assert lines[0].startswith("# Inputs: "), lines[0]
    return [line for line in lines if not line.startswith("#")]
