"""Issue 20: latent defects are made by the workload's reads, not by the scrubs.

NS3574 Table 1 multiplies read errors per byte by the bytes read per hour. Every expected
rate below is worked out by hand in the test (errors per bit x 8 x bytes per hour), from
the paper's field figure (2.7e11 bytes per day per drive), a workload's read IOPS x I/O
size over the data drives, or a given figure; never from the code's output.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import ScenarioError, load_scenario_text
from planner.scenario.defects import workload_read_defects

SPEC = """\
name: spec sheet
drive:
  arr: 1%
  capacity_tb: 20
  sustained_mb_per_s: 250
  unrecoverable_read_errors_per_bit: 1.0e-15
restore:
  scrub_hours: 168
aggregate:
  data_disks: 24
layouts:
  - raid: raid6
    group_size: 12
"""

WORKLOAD = """\
workload:
  iops: 1000
  read_fraction: 0.6
  capacity_tb: 100
  io_size_kb: 16
"""

FIELD_BYTES_PER_HOUR = 2.7e11 / 24  # NS3574: 2.7e11 bytes per day per drive


def rate(text: str, overrides: list[str] | None = None) -> float:
    return load_scenario_text(text, overrides=overrides or []).latent_defects_per_hour


def test_without_reads_given_the_rate_is_ns3574s_field_figure() -> None:
    # 8 x 1e-15 errors per byte x 1.125e10 bytes per drive-hour = 9e-5
    assert rate(SPEC) == pytest.approx(8 * 1e-15 * FIELD_BYTES_PER_HOUR, rel=1e-14)
    assert rate(SPEC) == pytest.approx(9.0e-5, rel=1e-14)


@pytest.mark.parametrize("scrub_hours", [1, 24, 168, 672, 1344, 87600])
def test_the_scrub_interval_does_not_enter_the_rate(scrub_hours: int) -> None:
    """The finding: 8 x URE x (host + capacity / scrub_hours) rose as scrubs got shorter."""
    assert rate(SPEC, [f"restore.scrub_hours={scrub_hours}"]) == pytest.approx(9.0e-5, rel=1e-14)


def test_bytes_read_per_hour_given_wins() -> None:
    # 8 x 1e-15 x 1e10 = 8e-5
    assert rate(SPEC, ["drive.bytes_read_per_hour=1e10"]) == pytest.approx(8e-5, rel=1e-14)


def test_a_workload_spreads_its_reads_over_the_data_drives() -> None:
    text = SPEC.replace("  arr: 1%", "  arr: 1%\n  class: 7.2k") + WORKLOAD
    # 1,000 IOPS x 0.6 reads = 600 reads/s over 24 data drives = 25 per drive (under the
    # 7.2k class's 80); 25 x 16,000 bytes x 3,600 s = 1.44e9 bytes/h; x 8e-15 = 1.152e-5
    assert rate(text) == pytest.approx(1.152e-5, rel=1e-14)
    # twice the data drives, half the reads each
    assert rate(text, ["aggregate.data_disks=48"]) == pytest.approx(0.576e-5, rel=1e-14)


def test_a_drive_reads_no_more_than_its_iops() -> None:
    text = SPEC.replace("  arr: 1%", "  arr: 1%\n  class: 7.2k") + WORKLOAD.replace(
        "iops: 1000", "iops: 20000"
    ).replace("  io_size_kb: 16\n", "")
    # 12,000 reads/s over 24 drives is 500 each, more than the 80 a 7.2k drive does:
    # 80 x 8,192 bytes (default: 8 KiB, the Exchange 2007 page) x 3,600 s x 8e-15
    assert rate(text) == pytest.approx(80 * 8192 * 3600 * 8e-15, rel=1e-14)


def test_a_drive_reads_no_faster_than_its_sustained_rate() -> None:
    """A reviewer's ``--set workload.io_size_kb=1000000``: 80 reads of 1 GB a second a drive."""
    text = SPEC.replace("  arr: 1%", "  arr: 1%\n  class: 7.2k") + WORKLOAD.replace(
        "iops: 1000", "iops: 20000"
    )
    # 12,000 reads/s over 24 drives, 80 each (the 7.2k class), x 1e9 bytes is 8e10 bytes
    # a second, more than the drive's 250 MB/s: 2.5e8 x 3,600 s x 8e-15 = 7.2e-3
    big = ["workload.io_size_kb=1000000"]
    assert rate(text, big) == pytest.approx(250e6 * 3600 * 8e-15, rel=1e-14)
    # 80 reads of 16 KB, 1.28 MB/s, are far under it: the IOPS cap alone
    assert rate(text) == pytest.approx(80 * 16e3 * 3600 * 8e-15, rel=1e-14)
    # an aggregate sized for the workload spreads the reads over its own drives, each
    # capped alike: 12 reads/s of 1 GB over 1,000 drives, 1.2e8 bytes/s over 100,000
    scenario = load_scenario_text(text, overrides=big)
    reads = workload_read_defects(scenario.drive, scenario.workload)
    assert reads is not None
    assert reads.per_hour(1000) == pytest.approx(250e6 * 3600 * 8e-15, rel=1e-14)
    assert reads.per_hour(100_000) == pytest.approx(0.12 * 1e9 * 3600 * 8e-15, rel=1e-14)
    assert "at most the drive's IOPS and 250 MB/s each" in scenario.latent_defect_notes()[0]


def test_a_drive_without_a_sustained_rate_is_capped_by_its_iops_alone() -> None:
    text = SPEC.replace("  sustained_mb_per_s: 250\n", "  class: 7.2k\n").replace(
        "  scrub_hours: 168", "  rebuild_hours: 24\n  scrub_hours: 168"
    ) + WORKLOAD.replace("iops: 1000", "iops: 20000").replace("io_size_kb: 16", "io_size_kb: 1e5")
    # 80 reads/s of 1e8 bytes: 2.88e13 bytes/h x 8e-15 = 0.2304
    assert rate(text) == pytest.approx(80 * 1e8 * 3600 * 8e-15, rel=1e-14)
    note = load_scenario_text(text).latent_defect_notes()[0]
    assert "at most the drive's IOPS each" in note


def test_a_capacity_only_workload_reads_what_the_field_read() -> None:
    # iops: 0 says no IOPS need sizing, not that nothing is read: 0 defects made a layout
    # look safer than the same request without a workload section (recommend-400tb:
    # raid6 25 against raid-tp 26).
    text = SPEC.replace("  arr: 1%", "  arr: 1%\n  class: 7.2k") + WORKLOAD.replace(
        "iops: 1000", "iops: 0"
    )
    assert rate(text) == pytest.approx(9.0e-5, rel=1e-14)


def test_read_errors_per_byte_alone_take_the_field_figure() -> None:
    text = SPEC.replace("unrecoverable_read_errors_per_bit: 1.0e-15", "read_errors_per_byte: 8e-14")
    # 8e-14 x 1.125e10 = 9e-4
    assert rate(text) == pytest.approx(9e-4, rel=1e-14)


def test_table1_with_both_factors_is_unchanged() -> None:
    text = SPEC.replace(
        "unrecoverable_read_errors_per_bit: 1.0e-15",
        "read_errors_per_byte: 8.0e-15\n  bytes_read_per_hour: 1.35e10",
    )
    # NS3574 Table 1: 8e-15 x 1.35e10 = 1.08e-4
    assert rate(text) == pytest.approx(1.08e-4, rel=1e-14)


def test_set_latent_defects_per_hour_overrides_a_spec_sheet() -> None:
    """The finding: this --set was refused on a scenario giving the errors per bit."""
    assert rate(SPEC, ["drive.latent_defects_per_hour=2.5e-4"]) == 2.5e-4
    # ... and the spec-sheet method keeps its error rate
    scenario = load_scenario_text(SPEC, overrides=["drive.latent_defects_per_hour=2.5e-4"])
    assert scenario.drive.unrecoverable_read_errors_per_bit == 1e-15


def test_set_latent_defects_per_hour_on_a_catalogue_drive_keeps_the_spec_sheet() -> None:
    text = SPEC.replace(
        "  capacity_tb: 20\n  sustained_mb_per_s: 250\n  unrecoverable_read_errors_per_bit: "
        "1.0e-15\n",
        "  model: nl-sas-20tb\n",
    )
    scenario = load_scenario_text(text, overrides=["drive.latent_defects_per_hour=3e-4"])
    assert scenario.latent_defects_per_hour == 3e-4
    assert scenario.drive.unrecoverable_read_errors_per_bit == 1e-15


def test_two_error_rates_are_refused() -> None:
    with pytest.raises(ScenarioError, match="not both"):
        load_scenario_text(SPEC.replace("  arr: 1%", "  arr: 1%\n  read_errors_per_byte: 8e-15"))


def cli_json(tmp_path: object, *args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, [*args, "-f", "json"])
    assert result.exit_code == 0, result.stderr
    document: dict[str, object] = json.loads(result.stdout)
    return document


def test_the_output_names_the_rates_source(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "spec.yaml"  # type: ignore[operator]
    path.write_text(SPEC, encoding="utf-8")
    derived = cli_json(tmp_path, "evaluate", str(path))["inputs"]
    assert isinstance(derived, dict)
    assert derived["latent_defects_source"] == (
        "8 x drive.unrecoverable_read_errors_per_bit x NS3574's field read rate"
    )
    given = cli_json(
        tmp_path, "evaluate", str(path), "--set", "drive.latent_defects_per_hour=2.5e-4"
    )["inputs"]
    assert isinstance(given, dict)
    assert given["latent_defects_per_hour"] == 2.5e-4
    assert given["latent_defects_source"] == (
        "drive.latent_defects_per_hour, overriding the spec sheet"
    )
    text = CliRunner().invoke(app, ["evaluate", str(path)], env={"COLUMNS": "400"}).stdout
    assert "Latent defects 9e-5 per drive-hour: 8 x 1e-15 errors per bit x 1.125e10" in text
    assert "scrubs find defects, they do not make them" in text


def test_the_spec_sheet_method_stays_beside_an_override(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "spec.yaml"  # type: ignore[operator]
    path.write_text(SPEC, encoding="utf-8")
    document = cli_json(
        tmp_path,
        "evaluate",
        str(path),
        "--methods",
        "--set",
        "drive.latent_defects_per_hour=2.5e-4",
    )
    layouts = document["layouts"]
    assert isinstance(layouts, list)
    assert layouts[0]["p_loss_spec_sheet"] is not None


def test_the_field_figure_says_it_is_per_drive_whatever_its_size() -> None:
    """A buyer's review: at a fixed 400 TB, 30 TB drives read RAID 10 safer than 8 TB ones,
    because the field figure reads the same bytes from each drive, so fewer drives read less
    in all. The note says so where the rate stands, and what compares drive sizes."""
    note = load_scenario_text(SPEC).latent_defect_notes()[0]
    assert "bytes per day per drive whatever its size" in note
    assert "to compare drive sizes, give a workload" in note
    # with a workload the reads follow the data (the test above): no such caveat
    text = SPEC.replace("  arr: 1%", "  arr: 1%\n  class: 7.2k") + WORKLOAD
    workload_note = load_scenario_text(text).latent_defect_notes()[0]
    assert "whatever its size" not in workload_note
