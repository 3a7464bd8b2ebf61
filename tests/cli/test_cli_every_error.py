"""A scenario with several mistakes: validate lists them all, other commands say how many.

From a newcomer's review: one misspelt key read "(and 1 more)" though there was one
mistake (the key it should have been was also reported missing); the other mistakes of a
file could only be found one run at a time; and a long hint was cut mid-word, hiding the fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_texts import SMALL
from typer.testing import CliRunner

from planner.cli import app

GOOD = SMALL


def _run(tmp_path: Path, text: str, *args: str) -> tuple[int, list[str]]:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, [args[0], str(path), *args[1:]])
    return result.exit_code, result.stderr.splitlines()


def test_a_misspelt_key_is_one_mistake(tmp_path: Path) -> None:
    code, lines = _run(tmp_path, GOOD.replace("scrub_hours:", "scrub_hour:"), "validate")
    assert code == 2
    assert len(lines) == 1, lines
    assert "did you mean 'scrub_hours'?" in lines[0]
    assert "more" not in lines[0]


def test_validate_lists_every_mistake_one_line_each(tmp_path: Path) -> None:
    text = GOOD.replace("arr: 1.9%", "arr: -1%").replace("raid: raid5", "raid: raid7")
    code, lines = _run(tmp_path, text, "validate")
    assert code == 2
    assert len(lines) == 2, lines
    assert all(line.startswith("planner: error: ") for line in lines)
    assert "drive.arr" in lines[0]
    assert "layouts[0]" in lines[1]
    assert not any("more" in line for line in lines)
    code, lines = _run(tmp_path, text, "evaluate")
    assert code == 2
    assert len(lines) == 1
    assert lines[0].endswith("(and 1 more: planner validate lists them)")


def test_a_long_hint_is_never_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint fits whole beside a file named as a user names it, from its folder.

    A line stays under 300 characters, the path shown whole up to 120: from pytest's own
    temporary folder (~80 characters, longer once its number passed 1000) the hint's end
    gave way, as it does for a user naming a file that deep.
    """
    monkeypatch.chdir(tmp_path)
    text = GOOD.replace("  latent_defects_per_hour: 1.08e-4\n", "  capacity_tb: 4\n")
    Path("s.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", "s.yaml"])
    code, lines = result.exit_code, result.stderr.splitlines()
    assert code == 2
    assert len(lines) == 1
    assert "…" not in lines[0]
    assert "unrecoverable_read_errors_per_bit" in lines[0]
    assert "nl-sas-20tb" in lines[0]


def test_a_bound_of_one_takes_the_singular(tmp_path: Path) -> None:
    """Second newcomer review: "must be at least 1 drives"."""
    text = GOOD + "enclosures:\n  members_per_enclosure: 0\n"
    code, lines = _run(tmp_path, text, "validate")
    assert code == 2
    assert "must be at least 1 drive (" in lines[0], lines
