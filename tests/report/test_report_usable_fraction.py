"""The share of a drive that holds data is said where usable TB is shown (newcomer review:
evaluate gave 11.3 usable TB for 42 x 0.3 TB with no word of the 0.9, and the scenario
reference gave its default as "none")."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]


def test_the_inputs_say_the_usable_share() -> None:
    plain = CliRunner().invoke(app, ["evaluate", "-f", "markdown"])
    assert plain.exit_code == 0, plain.stderr
    assert "0.3 TB drives (90% usable)" in plain.stdout
    edited = CliRunner().invoke(
        app, ["evaluate", "--set", "drive.usable_fraction=0.8", "-f", "json"]
    )
    assert json.loads(edited.stdout)["inputs"]["usable_fraction"] == 0.8


def test_the_reference_gives_the_usable_share_default() -> None:
    text = (ROOT / "docs" / "scenario-reference.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `usable_fraction`"))
    assert "| `0.9` |" in row, row


def test_the_table_says_how_usable_tb_is_counted() -> None:
    """A newcomer found 1,920 TB for 96 x 20 TB and read 1,728 with no word of the 0.9."""
    today = str(ROOT / "scenarios" / "today-20tb-nl-sas.yaml")
    for sets, fraction, words in (
        ([], 0.9, "x 20 TB x 0.9 usable (drive.usable_fraction, 0.9 when not given"),
        (["--set", "drive.usable_fraction=0.8"], 0.8, "x 20 TB x 0.8 usable (drive.usable_f"),
    ):
        shown = CliRunner().invoke(app, ["evaluate", today, *sets], env={"COLUMNS": "200"})
        assert shown.exit_code == 0, shown.stderr
        text = " ".join(shown.stdout.split())
        assert f"Usable TB: the data drives' worth {words}" in text
        raid10 = next(line for line in shown.stdout.splitlines() if "RAID 10" in line)
        assert f"{96 * 20 * fraction:,.1f}" in raid10  # 96 data drives, RAID 10's row
