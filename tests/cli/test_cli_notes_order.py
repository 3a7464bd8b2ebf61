"""What qualifies a table's numbers is said right under it, before what explains them.

At 80 columns ``planner evaluate`` of recommend-400tb.yaml printed 57 lines of notes; that
every figure was of 24 data drives, not the 400 TB the scenario asks ("Not sized for the
workload"), came 18 lines down, and how far the chain may read low (the critical-rebuild
bound) 33. A buyer stops reading long before. They now follow the mission line, in the
terminal and in the Markdown, and every note is still there. This test failed first.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "recommend-400tb.yaml"

QUALIFIERS = ("Mission 5 years", "Not sized for the workload", "NS3574's chain does not count")
"""The mission line, the fixed aggregate's note and the critical-rebuild bound, in order."""

EXPLANATIONS = ("The loss figures do not sum", "Rebuild 77.2 h", "Usable TB:", "Latent defects")


def _starts(lines: list[str], prefixes: tuple[str, ...]) -> list[int]:
    return [next(i for i, line in enumerate(lines) if line.startswith(p)) for p in prefixes]


def test_the_qualifiers_come_first_and_nothing_is_dropped() -> None:
    runner = CliRunner()
    markdown = runner.invoke(app, ["evaluate", str(SCENARIO), "-f", "markdown"])
    assert markdown.exit_code == 0, markdown.output
    notes = [line[2:] for line in markdown.stdout.splitlines() if line.startswith("- ")]
    first = _starts(notes, QUALIFIERS)
    assert first == sorted(first)
    assert max(first) < min(_starts(notes, EXPLANATIONS)), notes
    assert first[0] <= 1  # the inputs line, then the mission

    table = runner.invoke(app, ["evaluate", str(SCENARIO)], env={"COLUMNS": "80"})
    assert table.exit_code == 0, table.output
    text = " ".join(table.stdout.split())
    assert text.index("Not sized for the workload") < text.index("The loss figures do not sum")
    for note in notes[1:]:  # the same notes (the table's has no inputs line)
        assert " ".join(note.replace("**", "").replace("`", "").split())[:60] in text, note
