"""Every rejection of the scenario schema, with the line, column, field and hint reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.scenario import ScenarioError, load_scenario

BASE = """\
name: test scenario
mission_years: 5
drive:
  arr: 1.9%
  latent_defects_per_hour: 1.08e-4
  capacity_tb: 0.3
restore:
  rebuild_hours: 12
  scrub_hours: 168
aggregate:
  data_disks: 42
layouts:
  - raid: raid10
  - raid: raid5
    group_size: 8
  - raid: raid-dp
    group_size: 16
  - parity: 3
    group_size: 12
    label: triple parity 12
baseline: raid-dp 16
"""


def edit(old: str, new: str) -> str:
    assert BASE.count(old) == 1, old
    return BASE.replace(old, new)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def rejected(tmp_path: Path, text: str) -> ScenarioError:
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.path == str(path)
    return info.value


def test_base_is_valid(tmp_path: Path) -> None:
    scenario = load_scenario(write(tmp_path, BASE))
    assert [layout.label for layout in scenario.layouts] == [
        "raid10 2",
        "raid5 8",
        "raid-dp 16",
        "triple parity 12",
    ]


def test_error_string_is_one_line_in_the_documented_form(tmp_path: Path) -> None:
    err = rejected(tmp_path, edit("arr: 1.9%", "arr: 1.9"))
    assert str(err) == (
        f"{tmp_path / 'scenario.yaml'}:4:8: drive.arr: 1.9 is not a fraction of drives per "
        "year, below 1: did you mean 1.9%?"
    )


def test_a_huge_fraction_has_one_example_and_no_doubled_parentheses(tmp_path: Path) -> None:
    """ARR 1e308 read "(must be below 1) (e.g. 0.019 or 1.9%)" (newcomer review)."""
    err = rejected(tmp_path, edit("arr: 1.9%", "arr: 1e308"))
    assert err.message.endswith(
        "1e+308 is not a fraction of drives per year, below 1: write e.g. 0.019 or 1.9%"
    ), err.message
    assert ") (" not in err.message
    assert (err.line, err.column, err.field) == (4, 8, "drive.arr")
    assert "\n" not in str(err)
    assert "\n" not in str(err)


@pytest.mark.parametrize("value", ["1e-25", "1e-21"])
def test_a_spec_sheet_error_rate_out_of_range_reads_whole(tmp_path: Path, value: str) -> None:
    """URE/bit 1e-25 read "errors per bit read (spec sheet) (spec sheets give ...", and the
    line was cut at "'1 sector pe…" (a newcomer's finding)."""
    text = edit("latent_defects_per_hour: 1.08e-4", f"unrecoverable_read_errors_per_bit: {value}")
    err = rejected(tmp_path, text)
    assert ") (" not in err.message, err.message
    assert "…" not in err.message, err.message
    assert err.message.endswith("'1 sector per 10^15 bits' is 1e-15)"), err.message


# (old text, new text, line, column, field, fragment of the message)
REJECTIONS = [
    # operational failure rate
    ("arr: 1.9%", "arr: 1.9", 4, 8, "drive.arr", "did you mean 1.9%?"),
    (
        "arr: 1.9%",
        "arr: 190%",
        4,
        8,
        "drive.arr",
        "not below 100% of drives per year; write a yearly failure rate like 1.9%",
    ),
    ("arr: 1.9%", "arr: 0", 4, 8, "drive.arr", "must be at least 0.0001% = 1e-06 ("),
    ("arr: 1.9%", "arr: -0.01", 4, 8, "drive.arr", "must be at least 0.0001% = 1e-06 ("),
    ("arr: 1.9%", "arr: lots", 4, 8, "drive.arr", "like 1.9%"),
    ("arr: 1.9%", "arr: '0.019'", 4, 8, "drive.arr", "percentage like 1.9%"),
    ("arr: 1.9%", "arr: true", 4, 8, "drive.arr", "expected a number, got true"),
    ("arr: 1.9%", "afr: 2.5", 4, 8, "drive.afr", "did you mean 2.5%?"),
    ("arr: 1.9%", "mtbf_hours: 500", 4, 15, "drive.mtbf_hours", "at least 1000 hours"),
    ("arr: 1.9%", "mtbf_hours: .inf", 4, 15, "drive.mtbf_hours", "finite"),
    ("arr: 1.9%", "arr: 1.9%\n  afr: 2%", 5, 8, "drive.afr", "only one of arr, afr or mtbf_hours"),
    ("  arr: 1.9%\n", "", 3, 1, "drive", "one of arr (e.g. 1.9%), afr or mtbf_hours"),
    # latent defects
    ("1.08e-4", "-1.0e-4", 5, 28, "drive.latent_defects_per_hour", "at least 0"),
    ("1.08e-4", "1.5", 5, 28, "drive.latent_defects_per_hour", "less than 1"),
    (
        "  latent_defects_per_hour: 1.08e-4\n",
        "",
        3,
        1,
        "drive",
        "read_errors_per_byte (NS3574 Table 1)",
    ),
    (
        "latent_defects_per_hour: 1.08e-4",
        "bytes_read_per_hour: 1.35e10",
        5,
        24,
        "drive.bytes_read_per_hour",
        "needs read_errors_per_byte or",
    ),
    (
        "latent_defects_per_hour: 1.08e-4",
        "latent_defects_per_hour: 1.08e-4\n  bytes_read_per_hour: 1.35e10",
        6,
        24,
        "drive.bytes_read_per_hour",
        "not both",
    ),
    (
        "latent_defects_per_hour: 1.08e-4",
        "read_errors_per_byte: 0\n  bytes_read_per_hour: 1.35e10",
        5,
        25,
        "drive.read_errors_per_byte",
        "greater than 0",
    ),
    (
        "latent_defects_per_hour: 1.08e-4",
        "read_errors_per_byte: 1.0e-5\n  bytes_read_per_hour: 1.35e10",
        5,
        25,
        "drive.read_errors_per_byte",
        "at most 1e-06",
    ),
    (
        "latent_defects_per_hour: 1.08e-4",
        "read_errors_per_byte: 8.0e-15\n  bytes_read_per_hour: 1.0e13",
        6,
        24,
        "drive.bytes_read_per_hour",
        "less than 1e+13",
    ),
    (
        "latent_defects_per_hour: 1.08e-4",
        "read_errors_per_byte: 8.0e-15\n  bytes_read_per_hour: 0",
        6,
        24,
        "drive.bytes_read_per_hour",
        "greater than 0",
    ),
    # capacity
    ("capacity_tb: 0.3", "capacity_tb: 0", 6, 16, "drive.capacity_tb", "at least 0.001 TB"),
    ("capacity_tb: 0.3", "capacity_tb: 1001", 6, 16, "drive.capacity_tb", "at most 1000 TB"),
    # restore
    ("rebuild_hours: 12", "rebuild_hours: 0", 8, 18, "restore.rebuild_hours", "at least 0.001"),
    ("rebuild_hours: 12", "rebuild_hours: 8761", 8, 18, "restore.rebuild_hours", "8760 hours"),
    ("rebuild_hours: 12", "rebuild_hours: -3", 8, 18, "restore.rebuild_hours", "-3"),
    ("scrub_hours: 168", "scrub_hours: 0", 9, 16, "restore.scrub_hours", "at least 0.001"),
    ("scrub_hours: 168", "scrub_hours: 87601", 9, 16, "restore.scrub_hours", "at most 87600"),
    ("scrub_hours: 168", "scrub_hours: 1 week", 9, 16, "restore.scrub_hours", "expected a number"),
    (
        "rebuild_hours: 12",
        "rebuild_hour: 12",
        8,
        3,
        "restore.rebuild_hour",
        "unknown key 'rebuild_hour'; did you mean 'rebuild_hours'?",
    ),
    (
        "  scrub_hours: 168\n",
        "",
        7,
        1,
        "restore.scrub_hours",
        "missing required key 'scrub_hours'",
    ),
    # mission
    ("mission_years: 5", "mission_years: 0", 2, 16, "mission_years", "at least 0.001 years"),
    ("mission_years: 5", "mission_years: 101", 2, 16, "mission_years", "at most 100 years"),
    # aggregate: strict integer counts
    ("data_disks: 42", "data_disks: 0", 11, 15, "aggregate.data_disks", "at least 1"),
    ("data_disks: 42", "data_disks: 100001", 11, 15, "aggregate.data_disks", "at most 100000"),
    ("data_disks: 42", "data_disks: 42.5", 11, 15, "aggregate.data_disks", "whole number"),
    ("data_disks: 42", "data_disks: '42'", 11, 15, "aggregate.data_disks", "without quotes"),
    ("data_disks: 42", "data_disks: true", 11, 15, "aggregate.data_disks", "whole number"),
    ("data_disks: 42", "data_disk: 42", 11, 3, "aggregate.data_disk", "did you mean 'data_disks'"),
    # layouts
    (
        "raid: raid5\n",
        "raid: raid55\n",
        14,
        11,
        "layouts[1].raid",
        "unknown RAID preset 'raid55'; did you mean 'raid5'? (known: raid10, raid1,",
    ),
    ("raid: raid5\n", "raid: 5\n", 14, 11, "layouts[1].raid", "preset name"),
    (  # not raid4, single parity: ZFS stops at 3 (a ZFS admin was offered raid4)
        "raid: raid5\n",
        "raid: raidz4\n",
        14,
        11,
        "layouts[1].raid",
        "unknown RAID preset 'raidz4'; RAID-Z has at most 3 parity drives (raidz3); more is an "
        "n+k group of hardware RAID: parity: 4 and no raid",
    ),
    (
        "group_size: 8",
        "group_size: 1",
        15,
        17,
        "layouts[1].group_size",
        "1 is out of range: must be at least 2 (1 parity drive and at least one data drive)",
    ),
    ("group_size: 8", "group_size: 1001", 15, 17, "layouts[1].group_size", "at most 1000"),
    ("group_size: 8", "group_size: 8.5", 15, 17, "layouts[1].group_size", "whole number"),
    ("group_size: 8", "group_size: '8'", 15, 17, "layouts[1].group_size", "without quotes"),
    ("    group_size: 8\n", "", 14, 5, "layouts[1].group_size", "raid5 needs a group_size"),
    ("group_size: 12", "group_size: 3", 19, 17, "layouts[3].group_size", "cannot hold 3 parity"),
    ("parity: 3", "parity: 0", 18, 13, "layouts[3].parity", "at least 1"),
    ("parity: 3", "parity: 9", 18, 13, "layouts[3].parity", "at most 8"),
    (
        "parity: 3",
        "parity: null",
        18,
        5,
        "layouts[3]",
        "needs raid (a preset such as raid6) or parity",
    ),
    (
        "  - raid: raid10\n",
        "  - raid: raid10\n    group_size: 4\n",
        14,
        17,
        "layouts[0].group_size",
        "raid10 groups always have 2 drives, not 4",
    ),
    (
        "raid: raid-dp\n",
        "raid: raid-dp\n    parity: 3\n",
        17,
        13,
        "layouts[2].parity",
        "raid-dp has 2 parity drive(s) per group, not 3",
    ),
    (
        "label: triple parity 12",
        "label: raid5 8",
        20,
        12,
        "layouts[3].label",
        "duplicate label 'raid5 8' (also layouts[1])",
    ),
    ("label: triple parity 12", "label: '  '", 20, 12, "layouts[3].label", "blank"),
    (
        "    group_size: 16\n",
        "    group_size: 16\n    groupsize: 3\n",
        18,
        5,
        "layouts[2].groupsize",
        "did you mean 'group_size'?",
    ),
    ("  - raid: raid10\n", "  - raid10\n", 13, 5, "layouts[0]", "expected a mapping"),
    # baseline and top level
    (
        "baseline: raid-dp 16",
        "baseline: raid-dp 61",
        21,
        11,
        "baseline",
        "names no layout; did you mean 'raid-dp 16'? layouts: 'raid10 2', 'raid5 8',",
    ),
    ("baseline: raid-dp 16", "basline: raid-dp 16", 21, 1, "basline", "did you mean 'baseline'?"),
    ("name: test scenario", "name: 7", 1, 7, "name", "expected text"),
    ("drive:\n  arr: 1.9%", "drive: 5\nx:\n  arr: 1.9%", 3, 8, "drive", "expected a mapping"),
]


@pytest.mark.parametrize(
    ("old", "new", "line", "column", "field", "fragment"),
    REJECTIONS,
    ids=[f"{r[4]}:{r[1].strip()[:30]}" for r in REJECTIONS],
)
def test_rejection(
    tmp_path: Path, old: str, new: str, line: int, column: int, field: str, fragment: str
) -> None:
    err = rejected(tmp_path, edit(old, new))
    assert fragment in err.message
    assert (err.line, err.column, err.field) == (line, column, field), str(err)


def test_missing_section_is_reported_where_the_document_starts(tmp_path: Path) -> None:
    err = rejected(tmp_path, edit("aggregate:\n  data_disks: 42\n", ""))
    assert err.field == "aggregate"
    assert (err.line, err.column) == (1, 1)
    assert "missing required key 'aggregate'" in err.message
    assert str(err).startswith(f"{tmp_path / 'scenario.yaml'}:1:1: aggregate: missing")


@pytest.mark.parametrize("count", ["42.0", "4.2e1"])
def test_a_whole_count_written_as_a_float_is_that_count(tmp_path: Path, count: str) -> None:
    scenario = load_scenario(write(tmp_path, edit("data_disks: 42", f"data_disks: {count}")))
    assert scenario.aggregate.data_disks == 42
    assert isinstance(scenario.aggregate.data_disks, int)


def test_empty_layouts(tmp_path: Path) -> None:
    text = BASE.split("layouts:")[0] + "layouts: []\n"
    err = rejected(tmp_path, text)
    assert (err.line, err.field) == (12, "layouts")
    assert "at least one" in err.message


def test_misspelt_key_reported_once_not_also_as_missing(tmp_path: Path) -> None:
    err = rejected(tmp_path, edit("scrub_hours: 168", "scrub_hour: 168"))
    assert "unknown key 'scrub_hour'" in err.message
    assert len(err.all_errors) == 1  # the missing 'scrub_hours' is the same mistake
    assert "more" not in str(err)


def test_several_errors_first_by_position(tmp_path: Path) -> None:
    text = edit("rebuild_hours: 12", "rebuild_hours: -1").replace("arr: 1.9%", "arr: 1.9")
    err = rejected(tmp_path, text)
    assert err.field == "drive.arr"
    assert [e.field for e in err.all_errors] == ["drive.arr", "restore.rebuild_hours"]
    assert err.all_errors[1].line == 8


def test_raid_and_parity_may_agree(tmp_path: Path) -> None:
    text = edit("raid: raid-dp\n", "raid: raid-dp\n    parity: 2\n")
    scenario = load_scenario(write(tmp_path, text))
    assert scenario.layouts[2].parity == 2


def test_raid10_with_its_own_group_size_is_fine(tmp_path: Path) -> None:
    text = edit("  - raid: raid10\n", "  - raid: raid10\n    group_size: 2\n")
    assert load_scenario(write(tmp_path, text)).layouts[0].group_size == 2


def test_preset_names_are_canonicalised(tmp_path: Path) -> None:
    text = edit("raid: raid5\n", "raid: RAID_5\n")
    layout = load_scenario(write(tmp_path, text)).layouts[1]
    assert (layout.raid, layout.label) == ("raid5", "raid5 8")


def test_a_key_merged_from_an_anchor_is_reported_at_its_mapping(tmp_path: Path) -> None:
    text = "x-common: &dp {raid: raid-dp, group_size: 2}\n" + edit(
        "  - raid: raid-dp\n    group_size: 16\n", "  - <<: *dp\n    label: dp\n"
    )
    err = rejected(tmp_path, text)
    assert err.field == "x-common"  # the unknown top-level key sorts first (line 1)
    groups = [e for e in err.all_errors if e.field == "layouts[2].group_size"]
    assert groups
    assert groups[0].line == 17
    assert "cannot hold 2 parity drives" in groups[0].message


@pytest.mark.parametrize(
    ("value", "streams"), [("false", 1), ("1", 1), ("true", None), ("2", 2), ("64", 64)]
)
def test_parallel_rebuilds_values(tmp_path: Path, value: str, streams: int | None) -> None:
    text = edit("  scrub_hours: 168\n", f"  scrub_hours: 168\n  parallel_rebuilds: {value}\n")
    scenario = load_scenario(write(tmp_path, text))
    assert scenario.restore.rebuild_streams == streams
    assert scenario.rates().rebuild_streams == streams


def test_parallel_rebuilds_default_is_one_at_a_time(tmp_path: Path) -> None:
    scenario = load_scenario(write(tmp_path, BASE))
    assert scenario.restore.parallel_rebuilds is False
    assert scenario.rates().rebuild_streams == 1


@pytest.mark.parametrize("value", ["0", "65", "1.5", "yes please", "-2"])
def test_parallel_rebuilds_rejections(tmp_path: Path, value: str) -> None:
    text = edit("  scrub_hours: 168\n", f"  scrub_hours: 168\n  parallel_rebuilds: {value}\n")
    error = rejected(tmp_path, text)
    message = str(error)
    assert "restore.parallel_rebuilds" in message
    assert "number of rebuild streams from 1 to 64" in message
    assert len(message.splitlines()) == 1


def test_an_upper_bound_is_not_explained_by_the_lower_bounds_reason(tmp_path: Path) -> None:
    # review: "must be at most 1000 TB (no drive holds less than a gigabyte)"
    err = rejected(tmp_path, edit("capacity_tb: 0.3", "capacity_tb: 1500"))
    assert "at most 1000" in err.message
    assert "gigabyte" not in err.message
    assert "largest drives" in err.message
    low = rejected(tmp_path, edit("capacity_tb: 0.3", "capacity_tb: 0.0001"))
    assert "gigabyte" in low.message


@pytest.mark.parametrize(
    ("written", "bound"),
    [("150%", "must be at most 100%"), ("1.5", "must be at most 100%"), ("-5%", "at least 0%")],
)
def test_a_percentage_field_states_its_bound_as_a_percentage(
    tmp_path: Path, written: str, bound: str
) -> None:
    """A probability written '150%' was told it "must be at most 1" (newcomer review)."""
    text = BASE + f"correlation:\n  shock_drive_probability: {written}\n"
    error = rejected(tmp_path, text)
    assert bound in str(error), str(error)
    assert "at most 1 " not in str(error)


def test_an_empty_failure_rate_is_named_at_its_own_line(tmp_path: Path) -> None:
    """`arr:` with no value was reported at the drive: line as "give the operational
    failure rate as one of arr, afr or mtbf_hours" (newcomer review)."""
    error = rejected(tmp_path, edit("  arr: 1.9%\n", "  arr:\n"))
    assert error.field == "drive.arr"
    assert error.line == 4
    assert "no value: write one, e.g. 1.9%" in error.message


def test_a_zfs_parity_past_3_is_said_whole_without_the_preset_list(tmp_path: Path) -> None:
    """The raidz4 line ended in "(known: raid10, ..., drai…)", cut at the line's length:
    its hint says what to write, and the preset list is left off (failed first)."""
    err = rejected(tmp_path, edit("raid: raid5\n", "raid: raidz4\n"))
    assert err.message.endswith("parity: 4 and no raid")
    assert "known:" not in err.message
