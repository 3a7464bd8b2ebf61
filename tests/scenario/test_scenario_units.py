"""Capacities in TB or TiB (issue 20, item 5), in a file, in ``--set`` and in the TUI's field.

1 TB = 10^12 bytes, 1 TiB = 2^40 bytes: the expected values are worked out here from those
two definitions, not read from the parser.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import load_scenario
from planner.scenario.edits import parse_text, spec_of, with_value

SCENARIO = """\
name: units
drive:
  arr: 1%
  latent_defects_per_hour: 1e-5
  capacity_tb: {drive}
  class: 7.2k
restore:
  rebuild_hours: 24
  scrub_hours: 168
aggregate:
  data_disks: 24
layouts:
  - raid: raid6
    group_size: 8
workload:
  iops: 100
  read_fraction: 0.5
  capacity_tb: {workload}
target:
  usable_tb: {target}
"""


def _write(tmp_path: Path, drive: str = "4", workload: str = "10", target: str = "10") -> Path:
    path = tmp_path / "units.yaml"
    text = SCENARIO.format(drive=drive, workload=workload, target=target)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "tb"),
    [
        ("400", 400.0),
        ("400 TB", 400.0),
        ("400TB", 400.0),
        ("400 tb", 400.0),
        ("363.8 TiB", 363.8 * 2**40 / 1e12),
        ("1 TiB", 1.099511627776),
        ("1,000 TB", 1000.0),
        ("2e3 TiB", 2000 * 2**40 / 1e12),
    ],
)
def test_tb_fields_take_tb_and_tib(tmp_path: Path, text: str, tb: float) -> None:
    scenario = load_scenario(_write(tmp_path, workload=text, target=text))
    assert scenario.target is not None
    assert scenario.workload is not None
    assert scenario.target.usable_tb == pytest.approx(tb, rel=1e-15)
    assert scenario.workload.capacity_tb == pytest.approx(tb, rel=1e-15)


def test_drive_capacity_takes_tib_and_set_does_too(tmp_path: Path) -> None:
    scenario = load_scenario(_write(tmp_path, drive="3.638 TiB"))
    assert scenario.drive.capacity_tb == pytest.approx(3.638 * 1.099511627776, rel=1e-15)
    scenario = load_scenario(_write(tmp_path), ["target.usable_tb=363.8 TiB"])
    assert scenario.target is not None
    assert scenario.target.usable_tb == pytest.approx(363.8 * 2**40 / 1e12, rel=1e-15)
    assert scenario.target.usable_tb == pytest.approx(400.0, abs=0.01)


@pytest.mark.parametrize(
    ("where", "text", "fragments"),
    [
        ("target", "400 GB", ["'GB' is not a unit of capacity here", "TiB", "400 GB is 0.4 TB"]),
        ("workload", "1 PiB", ["'PiB' is not a unit", "1 PiB is 1125.9 TB"]),
        ("target", "400 apples", ["'apples' is not a unit", "e.g. 400 TB or 363.8 TiB"]),
        ("target", "363,8 TiB", ["not a number: write the decimal point as '.'"]),
        ("drive", "4 GiB", ["'GiB' is not a unit", "0.00429497 TB"]),
        ("target", "-5 TB", ["out of range"]),
        # the newcomer review: a number followed by words had no hint
        ("drive", "12 TB drives", ["'12 TB drives' is not a capacity", "e.g. 400 TB"]),
    ],
)
def test_other_units_are_one_line_at_the_position_exit_2(
    tmp_path: Path, where: str, text: str, fragments: list[str]
) -> None:
    path = _write(tmp_path, **{where: text})
    field = {"target": "target.usable_tb", "workload": "workload.capacity_tb"}.get(
        where, "drive.capacity_tb"
    )
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert "\n" not in line
    assert "Traceback" not in line
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, t in enumerate(lines, 1) if text in t)
    column = lines[number - 1].index(text) + 1
    assert f"{path}:{number}:{column}: {field}: " in line
    for fragment in fragments:
        assert fragment in line


def test_other_units_in_set_name_the_override(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["validate", str(_write(tmp_path)), "--set", "workload.capacity_tb=400 GB"]
    )
    assert result.exit_code == 2
    assert result.stderr.strip().startswith(
        "planner: error: --set workload.capacity_tb=400 GB: workload.capacity_tb: 'GB' is not"
    )


def test_the_tui_field_takes_tib(tmp_path: Path) -> None:
    scenario = load_scenario(_write(tmp_path))
    spec = spec_of("drive.capacity_tb")
    typed = parse_text(spec, "18.19 TiB")
    edited = with_value(scenario, spec, typed)
    assert edited.drive.capacity_tb == pytest.approx(18.19 * 2**40 / 1e12, rel=1e-15)
    assert "TiB" in spec.hint


def test_the_tui_field_refuses_other_units_as_the_file_does() -> None:
    from planner.scenario.edits import EditError

    with pytest.raises(EditError, match="'GB' is not a unit of capacity here"):
        parse_text(spec_of("drive.capacity_tb"), "4 GB")
