"""The pure parsers behind ``planner sweep --vary/--parity/--group-sizes``."""

from __future__ import annotations

import pytest

from planner.cli.ranges import DEFAULT_COUNT, RangeError, parse_int_list, parse_vary
from planner.core.design.sweep import Parameter


def test_arr_in_percent() -> None:
    vary = parse_vary("drive.arr=1%..5%:9")
    assert vary.field.name == "drive.arr"
    assert vary.field.parameter is Parameter.ARR
    assert vary.values == (0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05)
    assert vary.core_values() == list(vary.values)
    assert not vary.log


def test_arr_as_fraction_and_spaces() -> None:
    assert parse_vary(" drive.arr = 0.01 .. 0.03 : 3 ").values == (0.01, 0.02, 0.03)


def test_default_count_and_single_value() -> None:
    assert len(parse_vary("restore.scrub_hours=24..336").values) == DEFAULT_COUNT
    assert parse_vary("restore.scrub_hours=168..168").values == (168.0,)


def test_log_spacing() -> None:
    assert parse_vary("restore.rebuild_hours=6..48:4", log=True).values == (6, 12, 24, 48)
    assert parse_vary("drive.latent_defects_per_hour=1e-5..1e-3:3", log=True).values == (
        1e-5,
        1e-4,
        1e-3,
    )


def test_mission_years_convert_to_hours() -> None:
    vary = parse_vary("mission_years=1..3:3")
    assert vary.values == (1, 2, 3)
    assert vary.core_values() == [8760, 17520, 26280]
    assert vary.field.parameter is Parameter.MISSION_HOURS


def test_data_disks_are_whole_and_unique() -> None:
    assert parse_vary("aggregate.data_disks=40..42:9").values == (40, 41, 42)
    assert parse_vary("aggregate.data_disks=24..96:4").values == (24, 48, 72, 96)


def test_latent_defect_rate_may_start_at_zero() -> None:
    assert parse_vary("drive.latent_defects_per_hour=0..2e-4:3").values == (0, 1e-4, 2e-4)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("drive.arr", "expected FIELD=START..STOP[:COUNT]"),
        ("drive.arr=1%", "expected FIELD=START..STOP[:COUNT]"),
        ("drive.ar=1%..2%", "did you mean 'drive.arr'?"),
        ("arr=1%..2%", "did you mean 'drive.arr'?"),
        ("scrub_hours=1..2", "did you mean 'restore.scrub_hours'?"),
        ("zzz=1..2", "known: drive.arr, drive.latent_defects_per_hour"),
        ("drive.arr=1..2", "did you mean 1%?"),
        ("drive.arr=50%..150%", "not below 100%"),
        ("drive.arr=abc..2%", "'abc' is not a number"),
        ("restore.rebuild_hours=6%..12%", "only drive.arr takes a percentage"),
        ("restore.rebuild_hours=-1..12", "must be above 0"),
        ("restore.rebuild_hours=6..48:x", "count 'x' is not a whole number"),
        ("restore.rebuild_hours=6..48:0", "count must be 1 to 1000"),
        ("restore.rebuild_hours=6..48:5000", "count must be 1 to 1000"),
        ("restore.rebuild_hours=6..48:1", "one value needs START equal to STOP"),
        ("aggregate.data_disks=40.5..42", "must be a whole number"),
        ("drive.latent_defects_per_hour=-1e-4..1e-4", "must be 0 or more"),
    ],
)
def test_bad_vary(text: str, fragment: str) -> None:
    with pytest.raises(RangeError) as info:
        parse_vary(text)
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message


def test_log_needs_positive_ends() -> None:
    with pytest.raises(RangeError, match="--log needs START and STOP above 0"):
        parse_vary("drive.latent_defects_per_hour=0..1e-4:3", log=True)


def test_int_lists() -> None:
    assert parse_int_list("2..6", "--group-sizes", 2, 1000) == [2, 3, 4, 5, 6]
    assert parse_int_list("4, 8,16", "--group-sizes", 2, 1000) == [4, 8, 16]
    assert parse_int_list("2..4,3,16", "--group-sizes", 2, 1000) == [2, 3, 4, 16]
    assert parse_int_list("1..3", "--parity", 1, 6) == [1, 2, 3]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "is not a whole number"),
        ("2..", "is not a whole number"),
        ("a", "is not a whole number"),
        ("8..4", "runs backwards"),
        ("1..4", "1 is not between 2 and 1000"),
        ("2..2000", "2000 is not between 2 and 1000"),
        ("-3", "is not a whole number"),
    ],
)
def test_bad_int_lists(text: str, fragment: str) -> None:
    with pytest.raises(RangeError) as info:
        parse_int_list(text, "--group-sizes", 2, 1000)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("text", "log"),
    [
        ("drive.arr=5%..1%", False),
        ("drive.arr=5%..1%:3", True),
        ("restore.rebuild_hours=48..6", False),
        ("aggregate.data_disks=100..10:4", False),
    ],
)
def test_a_backwards_vary_range_is_refused_as_group_sizes_are(text: str, log: bool) -> None:
    """--vary drive.arr=5%..1% ran and said "from 1% to 5%"; --group-sizes 30..2 is refused."""
    start, stop = text.split("=")[1].split(":")[0].split("..")
    with pytest.raises(RangeError) as info:
        parse_vary(text, log)
    assert str(info.value) == (
        f"--vary {text!r}: {start}..{stop} runs backwards; write {stop}..{start}"
    )
    with pytest.raises(RangeError) as sizes:
        parse_int_list("30..2", "--group-sizes", 2, 1000)
    # newcomer review: the line said what was wrong, not what would be right
    assert str(sizes.value) == "--group-sizes '30..2': 30..2 runs backwards; write 2..30"


def test_a_range_of_one_value_is_not_backwards() -> None:
    assert parse_vary("drive.arr=2%..2%").values == (0.02,)


def test_an_unknown_field_lists_every_field_it_can_vary() -> None:
    """A buyer's review: the error said "and 10 more: planner schema lists them", and
    ``planner schema`` says nothing of ``--vary``. The message names them all now."""
    from typer.testing import CliRunner

    from planner.analysis.varied_fields import FIELDS_BY_NAME
    from planner.cli import app

    result = CliRunner().invoke(app, ["sweep", "--vary", "drive.capacity_tb=10..20:3"])
    assert result.exit_code == 2
    message = result.stderr.strip()
    assert "\n" not in message  # one line, as every refusal
    assert "planner schema" not in message
    assert "is not a field it can vary" in message
    for name in FIELDS_BY_NAME:
        assert name in message, name
    assert "with a correlation section: correlation.degraded_multiplier" in message
