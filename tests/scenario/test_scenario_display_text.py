"""Text a scenario shows (its name, layout labels, currency) holds no control or bidi
characters (issue 21, item 8).

A ``name:`` or ``label:`` with ``\\e]0;PWNED\\a`` (retitles the terminal), ``\\e[2J`` (clears
it) or U+202E (reverses what follows) was printed raw in tables and Markdown;
``costs.currency`` already refused control characters.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import ScenarioError, load_scenario_text

BASE = """\
name: {name}
drive:
  arr: 2%
  latent_defects_per_hour: 1e-5
  price: 300
restore:
  rebuild_hours: 24
  scrub_hours: 168
aggregate:
  data_disks: 24
layouts:
  - raid: raid6
    group_size: 8
    label: {label}
costs:
  currency: {currency}
"""

HOSTILE = {
    "OSC title": "\x1b]0;PWNED\x07",
    "clear screen": "\x1b[2J",
    "right-to-left override": "\u202e",
    "isolate": "\u2067",
    "C1 CSI": "\x9b2J",
    "newline": "\n",
    "tab": "\t",
}


def _text(name: str = "plain", label: str = "plain", currency: str = "USD") -> str:
    # JSON strings are YAML double-quoted strings: the escapes reach the loader as such
    return BASE.format(
        name=json.dumps(name), label=json.dumps(label), currency=json.dumps(currency)
    )


@pytest.mark.parametrize("field", ["name", "label", "currency"])
@pytest.mark.parametrize("kind", list(HOSTILE))
def test_hostile_characters_are_refused_at_load(field: str, kind: str) -> None:
    value = f"A{HOSTILE[kind]}B"[: 8 if field == "currency" else None]  # a currency: 8
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(_text(**{field: value}), "s.yaml")
    error = caught.value
    assert error.field in {"name", "layouts[0].label", "costs.currency"}
    assert error.field.endswith(field)
    assert error.line is not None
    message = str(error)
    assert "control" in message
    assert all(ord(c) >= 32 and c not in "\x7f\u202e\u2067\x9b" for c in message)


def test_ordinary_text_is_kept() -> None:
    scenario = load_scenario_text(_text("Café — 20 TB, Ünïcode", "RAID 6 (10+2) «ok»", "€"))
    assert scenario.name == "Café — 20 TB, Ünïcode"
    assert scenario.layouts[0].label == "RAID 6 (10+2) «ok»"


def test_nothing_raw_reaches_the_terminal(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(_text(name="\x1b]0;PWNED\x07"), encoding="utf-8")
    result = CliRunner().invoke(app, ["evaluate", str(path), "-f", "markdown"])
    assert result.exit_code == 2
    assert "\x1b]0" not in result.output
    assert "s.yaml:1:7: name:" in result.stderr
