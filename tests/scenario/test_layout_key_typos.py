"""A misspelt key in a layout is named as one, at the key, not as the key it misspells missing.

A newcomer wrote ``group_sise: 12`` under a raid6 layout and was told
``layouts[1].group_size: raid6 needs a group_size``, at the ``raid:`` line: the layout's
defaults are filled in before pydantic checks its keys, so the missing key was refused
first. Every other misspelt key is told ``unknown key 'ar'; did you mean 'arr'?`` at the
key itself, and so are these now (a pool's misspelt ``children`` was told so, but at its value).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import ScenarioError, load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
TODAY = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"

BASE = """\
drive:
  arr: 1%
  latent_defects_per_hour: 1e-5
restore: {rebuild_hours: 24, scrub_hours: 168}
aggregate:
  data_disks: 24
layouts:
  - raid: raid5
    group_size: 8
  - raid: raid6
    group_size: 12
  - raid: draid2
    children: 48
  - parity: 3
    group_size: 15
"""


def _rejected(old: str, new: str, *overrides: str) -> ScenarioError:
    assert not old or BASE.count(old) == 1, old
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(BASE.replace(old, new), "t.yaml", overrides)
    return caught.value


@pytest.mark.parametrize(
    ("old", "new", "field", "line", "meant"),
    [
        ("    group_size: 12\n", "    group_sise: 12\n", "layouts[1].group_sise", 11, "group_size"),
        ("    children: 48\n", "    childern: 48\n", "layouts[2].childern", 13, "children"),
        ("  - parity: 3\n", "  - pairty: 3\n", "layouts[3].pairty", 14, "parity"),
        ("  - raid: raid6\n", "  - riad: raid6\n", "layouts[1].riad", 10, "raid"),
    ],
)  # fmt: skip
def test_a_misspelt_layout_key_is_named_at_the_key(
    old: str, new: str, field: str, line: int, meant: str
) -> None:
    error = _rejected(old, new)
    typo = field.rsplit(".", 1)[1]
    # column 5: the key, after "  - " or four spaces
    assert str(error) == (
        f"t.yaml:{line}:5: {field}: unknown key {typo!r}; did you mean {meant!r}?"
    )


def test_a_misspelt_key_in_a_layout_set_whole_names_the_set() -> None:
    error = _rejected("", "", "layouts[1]={raid: raid6, group_sise: 12}")
    assert error.path == "--set layouts[1]={raid: raid6, group_sise: 12}"
    assert error.field == "layouts[1].group_sise"
    assert error.message == "unknown key 'group_sise'; did you mean 'group_size'?"


def test_a_misspelt_key_set_alone_is_named_as_before() -> None:
    error = _rejected("", "", "layouts[1].group_sise=12")
    assert error.message == "unknown key 'group_sise' in layouts[1]; did you mean 'group_size'?"


def test_the_shipped_scenario_with_the_typo_exits_2_with_one_line(tmp_path: Path) -> None:
    text = TODAY.read_text(encoding="utf-8")
    assert text.count("    group_size: 12\n") == 1
    path = tmp_path / "t.yaml"
    path.write_text(text.replace("    group_size: 12\n", "    group_sise: 12\n"), "utf-8")
    line = text[: text.index("    group_size: 12\n")].count("\n") + 1
    with pytest.raises(ScenarioError):
        load_scenario(path)
    result = CliRunner().invoke(app, ["evaluate", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"planner: error: {path}:{line}:5: layouts[1].group_sise: unknown key "
        "'group_sise'; did you mean 'group_size'?\n"
    )
