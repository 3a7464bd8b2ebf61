"""Every user mistake: one line on stderr naming file:line:column and field, exit code 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.cli.output import print_error

GOOD = """\
name: test
mission_years: 5
drive:
  arr: 1.9%
  latent_defects_per_hour: 1.08e-4
restore:
  rebuild_hours: 12
  scrub_hours: 168
aggregate:
  data_disks: 42
layouts:
  - raid: raid5
    group_size: 8
  - raid: raid-dp
    group_size: 16
baseline: raid-dp 16
"""

CASES = [
    # (replace this, with that, expected line, field fragment, hint fragment)
    ("arr: 1.9%", "arr: 1.9", 4, "drive.arr", "1.9%"),
    ("rebuild_hours: 12", "rebuild_hour: 12", 7, "rebuild_hour", "rebuild_hours"),
    ("rebuild_hours: 12", "rebuild_hours: -3", 7, "restore.rebuild_hours", ""),
    ("raid: raid5", "raid: raid55", 12, "layouts[0]", "raid5"),
    ("group_size: 16", "group_size: 2", 15, "layouts[1]", ""),
    ("baseline: raid-dp 16", "baseline: raid-dp 15", 16, "baseline", "raid-dp 16"),
    ("arr: 1.9%", "arr: 1.9%\n  mtbf_hours: 1000000", 5, "drive.mtbf_hours", "arr"),
]


@pytest.mark.parametrize(("old", "new", "line", "field", "hint"), CASES)
def test_scenario_mistakes(
    tmp_path: Path, old: str, new: str, line: int, field: str, hint: str
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["evaluate", str(path)])
    assert result.exit_code == 2, result.stdout
    err = result.stderr.strip()
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert f"{path}:{line}:" in err
    assert field in err
    assert hint in err


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"", "empty"),
        (b"name: [unclosed\n", ":1:"),
        (b"\xff\xfe\x00bad", "UTF-8"),
        (b"!!python/object/apply:os.system ['echo pwned']\n", "tag"),
        (b"- just\n- a list\n", "mapping"),
    ],
)
def test_unreadable_files(tmp_path: Path, content: bytes, fragment: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_bytes(content)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    err = result.stderr.strip()
    assert "Traceback" not in err
    # the path, or its end after "…" where a long message would not fit beside it whole
    shown_path = err.removeprefix("planner: error: ").split(":")[0]
    assert str(path).endswith(shown_path.removeprefix("…")), err
    assert shown_path.endswith(f"{os.sep}s.yaml")
    assert fragment.lower() in err.lower()


def test_missing_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["evaluate", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2
    assert "nope.yaml" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_override_names_the_override() -> None:
    result = CliRunner().invoke(app, ["evaluate", "--set", "drive.ar=2%"])
    assert result.exit_code == 2
    assert "drive.ar" in result.stderr
    assert "arr" in result.stderr


def test_a_set_that_renames_the_baseline_says_so() -> None:
    """NS3574's default scenario with its baseline's group resized: one line, exit 2.

    It said "did you mean 'raid-dp 16'?" (another layout) instead of the one just renamed.
    """
    scenario = Path(__file__).parents[2] / "scenarios" / "ns3574-default.yaml"
    override = "layouts[2].group_size=12"
    result = CliRunner().invoke(app, ["evaluate", str(scenario), "--set", override])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert (
        f"baseline 'raid-dp 9' names no layout: --set {override} made it 'raid-dp 12'; "
        "add --set 'baseline=raid-dp 12'"
    ) in result.stderr
    assert "did you mean" not in result.stderr


def test_unknown_format_is_usage_error() -> None:
    result = CliRunner().invoke(app, ["evaluate", "--format", "xml"])
    assert result.exit_code == 2


def test_validate_ok(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(GOOD, encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.stderr
    assert "OK" in result.stdout


def one_line_error(args: list[str]) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_number_with_a_unit_says_the_unit(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        GOOD.replace("data_disks: 42", "data_disks: 42\n").replace(
            "latent_defects_per_hour: 1.08e-4",
            "latent_defects_per_hour: 1.08e-4\n  capacity_tb: 12GB",
        ),
        encoding="utf-8",
    )
    line = one_line_error(["validate", str(path)])
    assert "drive.capacity_tb" in line
    # a capacity takes TB or TiB (issue 20); another unit is refused with its TB figure
    assert "'GB' is not a unit of capacity here" in line
    assert "12 GB is 0.012 TB" in line
    line = one_line_error(
        [
            "validate",
            str(path),
            "--set",
            "drive.capacity_tb=12",
            "--set",
            "restore.rebuild_hours=24h",
        ]
    )
    assert "write 24 (a number of hours, no unit)" in line


def test_set_with_a_space_says_key_equals_value() -> None:
    line = one_line_error(["evaluate", "--set", "drive.arr", "4%"])
    assert "KEY=VALUE as one word" in line
    assert "--set drive.arr=4%" in line


@pytest.mark.parametrize(
    ("word", "suggested"),
    [
        ("drive.arr 4%", "--set drive.arr=4%"),  # one shell word with a space (quoted)
        ("drive.arr  4%", "--set drive.arr=4%"),
        ("drive.arr: 4%", "--set drive.arr=4%"),  # written as in the YAML file
        ("restore.rebuild_hours 24", "--set restore.rebuild_hours=24"),
        ("name My test", "--set 'name=My test'"),  # a value with a space stays one word
    ],
)
def test_set_with_a_space_inside_one_word_suggests_key_equals_value(
    word: str, suggested: str
) -> None:
    """`--set 'drive.arr 4%'` suggested `--set drive.arr 4%=VALUE` (newcomer review)."""
    line = one_line_error(["evaluate", "--set", word])
    assert "KEY=VALUE as one word" in line
    assert line.endswith(f": {suggested}"), line
    assert "%=VALUE" not in line
    assert "=VALUE" not in line.split(": ")[-1]


def test_set_with_only_a_key_still_asks_for_a_value() -> None:
    line = one_line_error(["evaluate", "--set", "drive.arr"])
    assert line.endswith(": --set drive.arr=VALUE"), line


def test_a_scenario_without_layouts_shows_an_example(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(GOOD[: GOOD.index("layouts:")], encoding="utf-8")
    line = one_line_error(["validate", str(path)])
    assert "missing required key 'layouts'" in line
    assert "e.g. layouts: [{raid: raid5, group_size: 8}, {raid: raid-dp, group_size: 16}]" in line


def test_a_missing_section_says_where_it_would_go(tmp_path: Path) -> None:
    """A whole missing section had no line or column (newcomer review)."""
    path = tmp_path / "s.yaml"
    restore = GOOD.index("restore:")
    path.write_text(GOOD[:restore] + GOOD[GOOD.index("aggregate:") :], encoding="utf-8")
    line = one_line_error(["validate", str(path)])
    assert line.startswith(f"planner: error: {path}:1:1: restore: missing required key")
    assert "e.g. restore: {rebuild_hours: 12, scrub_hours: 168}" in line


@pytest.mark.parametrize("override", ["drive.arr=", "restore.rebuild_hours=  "])
def test_an_empty_set_value_names_the_override(override: str) -> None:
    """It was blamed on the scenario file ('<default scenario>:11:1: drive: give ...')."""
    line = one_line_error(["evaluate", "--set", override])
    assert line.startswith(f"planner: error: --set {override.strip()}")
    assert "no value after '='" in line


@pytest.mark.parametrize(
    ("override", "shown"),
    [
        ("aggregate.data_disks=1e5", "100000"),
        ("aggregate.data_disks=1e20", "1e+20"),
        ("aggregate.data_disks=1e300", "1e+300"),
        ("layouts[1].group_size=1e300", "1e+300"),
    ],
)
def test_a_count_in_exponent_form_is_read_as_that_count(override: str, shown: str) -> None:
    """1e20 is a whole number: it was 'not a whole number; write 1000...' (318 characters)."""
    result = CliRunner().invoke(app, ["evaluate", "-f", "json", "--set", override])
    if shown == "100000":  # in range: evaluated as 100000
        assert result.exit_code == 0, result.stderr
        return
    line = one_line_error(["evaluate", "--set", override])
    assert "not a whole number" not in line
    assert f"{shown} is out of range: must be at most" in line
    assert len(line) < 200


def test_a_negative_percentage_is_called_negative() -> None:
    """'-3%' was 'not a number' while '-0.03' was out of range (newcomer review)."""
    line = one_line_error(["evaluate", "--set", "drive.arr=-3%"])
    assert "not a number" not in line
    assert "'-3%' is negative" in line


@pytest.mark.parametrize("command", ["validate", "evaluate"])
def test_a_group_too_small_for_raid6_is_told_its_least_size_at_once(
    tmp_path: Path, command: str
) -> None:
    """`group_size: 1` under raid6 said "at least 2", then 2 said "at least 3" (newcomer)."""
    least = "1 is out of range: must be at least 3 (2 parity drives and at least one data drive)"
    raid6 = GOOD.replace("raid: raid5", "raid: raid6")
    path, good = tmp_path / "s.yaml", tmp_path / "good.yaml"
    path.write_text(raid6.replace("group_size: 8", "group_size: 1"), encoding="utf-8")
    good.write_text(raid6, encoding="utf-8")
    line = one_line_error([command, str(path)])
    assert line == f"planner: error: {path}:13:17: layouts[0].group_size: {least}"
    line = one_line_error([command, str(good), "--set", "layouts[0].group_size=1"])
    assert line == f"planner: error: --set layouts[0].group_size=1: layouts[0].group_size: {least}"


@pytest.mark.parametrize("message", ["ends with \\", "a\\[bold]b\\", "[red]x[/] \\"])
def test_an_error_line_is_the_message_as_given(
    message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The error line is the message, character for character: it went through Rich
    markup escaped, and Rich's escape of a trailing backslash printed two of them."""
    print_error(message)
    assert capsys.readouterr().err == f"planner: error: {message}\n"
