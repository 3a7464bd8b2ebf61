"""``--set`` overrides: applied before validation, errors naming the override."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.scenario import ScenarioError, load_default_scenario, load_scenario
from planner.scenario.overrides import parse_override

TEXT = """\
name: overrides
drive:
  arr: 1.9%
  latent_defects_per_hour: 1.08e-4
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
baseline: raid-dp 16
"""


@pytest.fixture
def path(tmp_path: Path) -> Path:
    file = tmp_path / "base.yaml"
    file.write_text(TEXT, encoding="utf-8")
    return file


def rejected(path: Path, *overrides: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, overrides)
    assert "\n" not in str(info.value)
    return info.value


def test_percent_override(path: Path) -> None:
    assert load_scenario(path, ["drive.arr=2.5%"]).drive.arr == pytest.approx(0.025)


def test_number_overrides(path: Path) -> None:
    scenario = load_scenario(
        path,
        [
            "restore.rebuild_hours=24",
            "mission_years=10",
            "layouts[1].group_size=10",
            "aggregate.data_disks=60",
        ],
    )
    assert scenario.restore.rebuild_hours == 24
    assert scenario.mission_years == 10
    assert scenario.mission_hours == 10 * 8760
    assert scenario.layouts[1].group_size == 10
    assert scenario.layouts[1].label == "raid5 10"
    assert scenario.aggregate.data_disks == 60


def test_text_override_with_spaces(path: Path) -> None:
    scenario = load_scenario(path, ["baseline=raid5 8", "name=NS3574: what if"])
    assert scenario.baseline_label() == "raid5 8"
    assert scenario.name == "NS3574: what if"


def test_quoted_text_override(path: Path) -> None:
    assert load_scenario(path, ["name='  spaced  '"]).name == "  spaced  "


def test_label_override_and_baseline_together(path: Path) -> None:
    scenario = load_scenario(path, ["layouts[2].label=DP 14+2", "baseline=DP 14+2"])
    assert scenario.layouts[2].label == "DP 14+2"
    assert scenario.baseline_label() == "DP 14+2"


def test_later_override_wins(path: Path) -> None:
    assert load_scenario(path, ["drive.arr=2%", "drive.arr=3%"]).drive.arr == pytest.approx(0.03)


def test_whole_layout_as_a_flow_mapping(path: Path) -> None:
    scenario = load_scenario(path, ["layouts[1]={raid: raid6, group_size: 9}"])
    assert (scenario.layouts[1].raid, scenario.layouts[1].parity) == ("raid6", 2)


def test_rate_override_replaces_the_alternatives(path: Path) -> None:
    scenario = load_scenario(path, ["drive.mtbf_hours=1000000"])
    assert scenario.drive.arr is None
    assert scenario.rates().op_failures_per_hour == pytest.approx(1e-6)
    scenario = load_scenario(
        path, ["drive.read_errors_per_byte=8e-14", "drive.bytes_read_per_hour=1.35e9"]
    )
    assert scenario.drive.latent_defects_per_hour is None
    assert scenario.rates().latent_defects_per_hour == pytest.approx(1.08e-4)


def test_null_clears_an_optional_key(path: Path) -> None:
    assert load_scenario(path, ["drive.capacity_tb=1.2"]).drive.capacity_tb == 1.2
    assert load_scenario(path, ["drive.capacity_tb=null"]).drive.capacity_tb is None


def test_null_clears_an_optional_text_key_too(path: Path) -> None:
    """``baseline=null`` was read as the text 'null' ("names no layout")."""
    assert load_scenario(path, ["baseline=null"]).baseline is None
    assert load_scenario(path, ["baseline=~"]).baseline is None
    with pytest.raises(ScenarioError, match="names no layout"):  # quoted, it is the text
        load_scenario(path, ["baseline='null'"])


def test_an_empty_value_is_refused_not_taken_for_null(path: Path) -> None:
    """``drive.arr=`` cleared the key, and the error then blamed the scenario file."""
    with pytest.raises(ScenarioError, match=r"no value after '='.*null removes the key") as info:
        load_scenario(path, ["drive.capacity_tb="])
    assert str(info.value).startswith("--set drive.capacity_tb=:")


def test_override_creates_a_missing_section(tmp_path: Path) -> None:
    file = tmp_path / "norestore.yaml"
    file.write_text(TEXT.replace("restore:\n  rebuild_hours: 12\n  scrub_hours: 168\n", ""))
    scenario = load_scenario(file, ["restore.rebuild_hours=6", "restore.scrub_hours=48"])
    assert (scenario.restore.rebuild_hours, scenario.restore.scrub_hours) == (6, 48)


def test_default_scenario_with_overrides() -> None:
    scenario = load_default_scenario(["drive.arr=4%"])
    assert scenario.drive.arr == pytest.approx(0.04)


@pytest.mark.parametrize(
    ("override", "fragment", "field"),
    [
        (
            "restore.rebuild_hour=24",
            "unknown key 'rebuild_hour' in restore; did you mean 'rebuild_hours'?",
            "restore.rebuild_hour",
        ),
        ("drives.arr=2%", "unknown key 'drives'; did you mean 'drive'?", "drives"),
        ("drive.zzz=2%", "unknown key 'zzz' in drive (known: arr, afr,", "drive.zzz"),
        ("layouts[1].groupsize=10", "did you mean 'group_size'?", "layouts[1].groupsize"),
        ("drive.arr.x=1", "drive.arr is a single value", None),
        ("restore[0]=1", "restore is not a list", None),
        ("drive..arr=1", "is not a key name", None),
        ("drive.arr", "expected KEY=VALUE", None),
        ("=3", "expected KEY=VALUE", None),
        ("layouts[7].group_size=10", "layouts[7] does not exist: layouts has 3 entries", None),
        ("layouts[3]={raid: raid6}", "layouts[3] does not exist: there are 3 entries", None),
        ("drive.arr=[1", "not valid YAML", "drive.arr"),
        ("drive.arr=!!python/object/apply:os.system [true]", "is not allowed", "drive.arr"),
    ],
)
def test_malformed_or_unknown(path: Path, override: str, fragment: str, field: str | None) -> None:
    err = rejected(path, override)
    assert err.path == f"--set {override}"
    assert fragment in err.message
    assert (err.line, err.column) == (None, None)
    if field is not None:
        assert err.field == field


@pytest.mark.parametrize(
    ("override", "field", "fragment"),
    [
        ("drive.arr=1.9", "drive.arr", "did you mean 1.9%?"),
        ("restore.rebuild_hours=-4", "restore.rebuild_hours", "at least 0.001 hours"),
        ("mission_years=abc", "mission_years", "expected a number, got 'abc'"),
        ("aggregate.data_disks=42.5", "aggregate.data_disks", "whole number"),
        (
            "layouts[1].group_size=1",
            "layouts[1].group_size",
            "1 is out of range: must be at least 2 (1 parity drive and at least one data drive)",
        ),
        ("layouts[0].group_size=4", "layouts[0].group_size", "raid10 groups always have 2"),
        ("layouts[1].raid=raid55", "layouts[1].raid", "did you mean 'raid5'?"),
        ("baseline=raid6 8", "baseline", "names no layout"),
        ("layouts[1]={raid: raid6}", "layouts[1].group_size", "raid6 needs a group_size"),
    ],
)
def test_bad_value_points_at_the_override(
    path: Path, override: str, field: str, fragment: str
) -> None:
    err = rejected(path, override)
    assert err.path == f"--set {override}"
    assert (err.line, err.column, err.field) == (None, None, field)
    assert fragment in err.message
    assert str(err).startswith(f"--set {override}: {field}: ")


def test_file_error_still_points_at_the_file(path: Path) -> None:
    path.write_text(TEXT.replace("scrub_hours: 168", "scrub_hours: -1"))
    err = rejected(path, "drive.arr=2%")
    assert (err.path, err.line, err.field) == (str(path), 7, "restore.scrub_hours")


def test_override_error_is_reported_first(path: Path) -> None:
    path.write_text(TEXT.replace("scrub_hours: 168", "scrub_hours: -1"))
    err = rejected(path, "restore.rebuild_hours=0")
    assert err.path == "--set restore.rebuild_hours=0"
    assert [e.field for e in err.all_errors] == ["restore.rebuild_hours", "restore.scrub_hours"]


def test_parse_override() -> None:
    override = parse_override("layouts[2].group_size = 12")
    assert override.loc == ("layouts", 2, "group_size")
    assert override.value == 12
    assert override.source == "--set layouts[2].group_size = 12"
    assert parse_override("drive.arr=2.5%").value == "2.5%"
    assert parse_override("drive.latent_defects_per_hour=1e-4").value == pytest.approx(1e-4)


@given(
    st.one_of(
        st.integers(-(10**12), 10**12).map(str),
        st.floats(allow_nan=False, allow_infinity=False, width=64).map(lambda x: f"{x:.12g}"),
        st.floats(allow_nan=False, allow_infinity=False, width=64).map(repr),
        st.sampled_from(["012", "+5", "-0.5", ".5", "5.", "1.5e3", "1.08e-05", "1e5", "0x10"]),
    )
)
def test_a_plain_number_reads_as_the_yaml_parser_reads_it(value_text: str) -> None:
    # --set reads plain numbers without the YAML parser (the tornado sets twelve a redraw);
    # the value must be exactly what the parser gives.
    from planner.scenario.document import parse_yaml, to_plain

    expected = to_plain(parse_yaml(value_text, "test"), "test")
    got = parse_override(f"drive.arr={value_text}").value
    assert type(got) is type(expected)
    assert got == expected or (got != got and expected != expected)


def test_a_number_too_long_for_int_is_the_usual_error_not_a_crash() -> None:
    """5,000 digits passed the plain-number fast path to int(), which refuses > 4,300."""
    with pytest.raises(ScenarioError, match="5,000 characters; at most 100"):
        parse_override("target.max_p_loss=" + "1" * 5000)


@pytest.mark.parametrize(
    ("overrides", "renamed_by", "new_label"),
    [
        (["layouts[2].group_size=12"], "--set layouts[2].group_size=12", "raid-dp 12"),
        (["layouts[2].label=main"], "--set layouts[2].label=main", "main"),
        (
            ["drive.arr=2%", "layouts[2]={raid: raid6, group_size: 16}", "mission_years=4"],
            "--set layouts[2]={raid: raid6, group_size: 16}",
            "raid6 16",
        ),
    ],
)
def test_a_renamed_baseline_says_which_override_renamed_it(
    path: Path, overrides: list[str], renamed_by: str, new_label: str
) -> None:
    """The baseline's layout renamed by a --set: the error names that --set and the new name.

    ``--set layouts[2].group_size=12`` on NS3574's default scenario said "did you mean
    'raid-dp 16'?", another layout, while 'raid-dp 12', the one just renamed, was meant.
    """
    err = rejected(path, *overrides)
    assert err.field == "baseline"
    assert err.message.startswith(
        f"baseline 'raid-dp 16' names no layout: {renamed_by} made it {new_label!r}; "
    )
    # The two fixes are shell words: pasted into a shell, each gives --set its value.
    fixes = shlex.split(err.message.split("; add ", 1)[1].replace("(or ", "").split(" to keep")[0])
    assert fixes == ["--set", f"baseline={new_label}", "--set", "layouts[2].label=raid-dp 16"]
    assert "did you mean" not in err.message
    assert err.message.count(renamed_by) == 1


def test_a_suggested_fix_survives_a_quote_in_the_label(path: Path) -> None:
    """A label with a quote in it is still one shell word in the suggested --set (it was
    wrapped in single quotes as written, which a ' inside broke)."""
    err = rejected(path, "layouts[2].label=Bob's")
    rebase = err.message.split("; add ", 1)[1].split(" (or ")[0]
    assert shlex.split(rebase) == ["--set", "baseline=Bob's"]
