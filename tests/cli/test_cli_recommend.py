"""``planner recommend`` without a ``target:`` section: the TUI's F7 and ``report``'s target."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from planner.cli import app

RUNNER = CliRunner()
NOTE = "by default: the scenario sets no target; add a `target:` section"


def test_help_promises_the_bundled_default_and_says_what_target_it_gets() -> None:
    result = RUNNER.invoke(app, ["recommend", "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.replace("│", " ").split())
    assert "Default: the bundled NS3574 42-data-disk aggregate" in text
    assert "1 in 10,000" in text


def test_the_bundled_default_is_searched_for_one_in_ten_thousand() -> None:
    result = RUNNER.invoke(app, ["recommend", "-f", "json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["target"]["max_p_loss"] == 1e-4
    assert document["target"]["max_drives"] is None
    top = document["recommended"]
    assert top is not None
    assert top["p_loss_aggregate"] <= 1e-4
    # every candidate meeting the target costs at least the recommended one (drives)
    assert all(c["total_disks"] >= top["total_disks"] for c in document["candidates"])
    assert any(NOTE in line for line in document["summary"])


def test_the_table_and_markdown_say_the_target_is_the_default() -> None:
    for fmt in ("table", "markdown"):
        result = RUNNER.invoke(app, ["recommend", "-f", fmt], env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.stderr
        assert NOTE in " ".join(result.stdout.split()), fmt


def test_a_given_target_has_no_default_note() -> None:
    result = RUNNER.invoke(app, ["recommend", "--set", "target.max_p_loss=1e-3", "-f", "json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["target"]["max_p_loss"] == 1e-3
    assert not any(NOTE in line for line in document["summary"])
