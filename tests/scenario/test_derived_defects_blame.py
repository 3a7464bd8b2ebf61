"""A latent-defect rate derived out of range names the ``--set`` it was derived from.

A reviewer's ``--set workload.io_size_kb=1000000`` made the workload's reads, and so the
latent-defect rate they give a spec-sheet drive, too large: the error was blamed on
``recommend-400tb.yaml:17:1: drive.unrecoverable_read_errors_per_bit``, a key the file
does not even write, and said nothing of the workload. Now the ``--set`` of any input the
rate is made from is named, and the message says what the rate was made of.

The drive here gives no sustained rate, so nothing but its IOPS caps its reads: 14,000 read
IOPS over 24 data drives is more than a 7.2k drive's 80, so each reads 80 x 100 MB a second,
2.88e13 bytes an hour, x 8 x 1e-15 errors per bit: 0.23 latent defects per drive-hour, and
with reads of 1 GB 2.3, above the most a drive-hour may have (1).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import ScenarioError, load_scenario_text

BASE = """\
drive:
  arr: 1%
  class: 7.2k
  capacity_tb: 20
  unrecoverable_read_errors_per_bit: 1e-15
restore:
  rebuild_hours: 24
  scrub_hours: 168
aggregate:
  data_disks: 24
layouts:
  - raid: raid6
    group_size: 12
workload:
  iops: 20000
  read_fraction: 0.7
  capacity_tb: 400
  io_size_kb: 100000
"""

SAID = (
    "8 x the spec sheet's 1e-15 errors per bit x 2.88e+14 bytes read per drive-hour (the "
    "workload's: 80 reads/s per drive x 1,000,000 KB) is 2.3 latent defects per drive-hour; it "
    "must be below 1 per drive-hour (NS3574: 1.08e-4)"
)


def _rejected(text: str, *overrides: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, "w.yaml", overrides)
    return caught.value


def test_the_set_that_made_the_reads_too_large_is_named() -> None:
    error = _rejected(BASE, "workload.io_size_kb=1000000")
    assert (error.path, error.field) == ("--set workload.io_size_kb=1000000", "workload.io_size_kb")
    assert error.message == SAID
    assert (error.line, error.column) == (None, None)


@pytest.mark.parametrize(
    "override",
    [
        "drive.iops_per_drive=1000",  # 583 reads/s a drive, 1.68 defects per drive-hour
        "drive.class=ssd",
        "drive.unrecoverable_read_errors_per_bit=1e-14",
        "workload={iops: 20000, read_fraction: 0.7, capacity_tb: 400, io_size_kb: 1e6}",
    ],
)  # fmt: skip
def test_any_input_of_the_derived_rate_set_is_named(override: str) -> None:
    error = _rejected(BASE, override)
    assert error.path.startswith(f"--set {override}"[:60])  # a long --set is shortened
    assert "latent defects per drive-hour; it must be below 1 per" in error.message


def test_in_the_file_the_rate_is_refused_saying_what_it_was_made_of() -> None:
    error = _rejected(BASE.replace("io_size_kb: 100000", "io_size_kb: 1e6"))
    assert error.path == "w.yaml"
    assert error.message == SAID


def test_the_cli_says_it_in_one_line_and_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(BASE, encoding="utf-8")
    result = CliRunner().invoke(
        app, ["evaluate", str(path), "--set", "workload.io_size_kb=1000000"]
    )
    assert result.exit_code == 2
    assert result.stderr == (
        f"planner: error: --set workload.io_size_kb=1000000: workload.io_size_kb: {SAID}\n"
    )


TODAY = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"


@pytest.mark.parametrize(
    ("sets", "named"),
    [
        (["restore.load=null", "restore.load_factor=1000"], "restore.load_factor=1000"),
        (["drive.sustained_mb_per_s=0.01"], "drive.sustained_mb_per_s=0.01"),
    ],
)
def test_a_rebuild_time_derived_out_of_range_names_the_set_too(sets: list[str], named: str) -> None:
    """A load factor of 1000 over the shipped 20 TB drives gives 19,493 h, and the error
    was blamed on the file's drive.sustained_mb_per_s line (the review's helper)."""
    args = ["evaluate", str(TODAY)]
    for text in sets:
        args += ["--set", text]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    line = result.stderr.strip()
    assert line.startswith(f"planner: error: --set {named}: "), line
    assert "the rebuild model gives" in line
    assert "today-20tb-nl-sas.yaml:" not in line


def test_a_large_io_size_reads_as_typed_in_the_notes() -> None:
    """The second review: "x 1e+06 KB" in a note, where the file says 1000000."""
    search = TODAY.parent / "recommend-400tb.yaml"
    sets = ["--set", "workload.io_size_kb=1000000", "-f", "markdown"]
    result = CliRunner().invoke(app, ["evaluate", str(search), *sets])
    assert result.exit_code == 0, result.output
    assert "14,000 read IOPS x 1,000,000 KB over the data drives" in result.output
    assert "e+06" not in result.output
