"""Golden Markdown export, compared byte for byte.

The golden file was reviewed by hand when written (its numbers are checked independently
against the paper and mpmath in tests/core); this test guards the format a design document
pastes: headings, column order, alignment row, number formatting, footnotes.
Regenerate after an intended change with:
``planner evaluate scenarios/ns3574-table4.yaml -f markdown > tests/report/golden/ns3574-table4.md``
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]


def test_table4_markdown_is_unchanged() -> None:
    result = CliRunner().invoke(
        app, ["evaluate", str(ROOT / "scenarios" / "ns3574-table4.yaml"), "-f", "markdown"]
    )
    assert result.exit_code == 0, result.stderr
    golden = (Path(__file__).parent / "golden" / "ns3574-table4.md").read_text(encoding="utf-8")
    assert result.stdout == golden
