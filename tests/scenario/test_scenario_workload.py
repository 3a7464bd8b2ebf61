"""The workload section, drive sizing fields, rebuild model and per-layout write penalty.

Every rejection reports the line, column, field and a hint, like the rest of the scenario.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.core.arrays.rebuild import LOAD_FACTORS
from planner.core.design.layout_comparison import compare_layouts
from planner.core.design.sizing import MailboxWorkload, PlainWorkload
from planner.core.markov.rates import Rates
from planner.scenario import (
    Scenario,
    ScenarioError,
    load_scenario,
    load_scenario_text,
    scenario_json_schema,
)
from planner.scenario.edits import scenario_data

BASE = """\
name: sizing test
drive:
  arr: 1.9%
  latent_defects_per_hour: 1.08e-4
  capacity_tb: 0.3
  class: 10k
restore:
  rebuild_mb_per_s: 27
  scrub_hours: 168
aggregate:
  data_disks: 42
workload:
  users: 4000
  iops_per_user: 0.33
  mailbox_mb: 250
layouts:
  - raid: raid10
  - raid: raid6
    group_size: 8
    write_penalty: 1
"""

PLAIN = """\
workload:
  iops: 1000
  read_fraction: 0.7
  capacity_tb: 10
"""


def edit(old: str, new: str, text: str = BASE) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def plain_text() -> str:
    start = BASE.index("workload:")
    end = BASE.index("layouts:")
    return BASE[:start] + PLAIN + BASE[end:]


def rejected(tmp_path: Path, text: str) -> ScenarioError:
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.path == str(path)
    return info.value


# 0.3 TB = 3e11 bytes at 27e6 bytes/s = 11,111.1 s = 3.0864 h (written out by hand).
HOURS_0_3_TB_AT_27 = 3e11 / 27e6 / 3600


def test_mailbox_workload_loads_and_converts() -> None:
    scenario = load_scenario_text(BASE)
    assert scenario.workload is not None
    assert scenario.workload.kind == "mailbox"
    workload = scenario.workload.core_workload()
    assert workload == MailboxWorkload(users=4000, iops_per_user=0.33, mailbox_mb=250)
    drive = scenario.core_drive()
    assert (drive.capacity_tb, drive.iops, drive.usable_fraction) == (0.3, 130.0, 0.9)
    assert drive.rebuild_mb_per_s == 27
    assert scenario.write_penalties() == {"raid6 8": 1.0}


def test_mailbox_optional_factors_reach_the_core() -> None:
    text = edit(
        "  mailbox_mb: 250\n",
        "  mailbox_mb: 250\n  read_fraction: 0.6\n  log_overhead_fraction: 0\n"
        "  iops_headroom_fraction: 0\n  database_overhead_fraction: 1\n",
    )
    workload = load_scenario_text(text).workload
    assert workload is not None
    core = workload.core_workload()
    assert isinstance(core, MailboxWorkload)
    # 4,000 x 0.33 = 1,320 IOPS: 60 % reads, no headroom, no log writes.
    assert core.read_iops == pytest.approx(792.0)
    assert core.write_iops == pytest.approx(528.0)
    assert core.database_overhead_fraction == 1.0


def test_plain_workload_loads_and_converts() -> None:
    scenario = load_scenario_text(plain_text())
    assert scenario.workload is not None
    assert scenario.workload.kind == "plain"
    assert scenario.workload.core_workload() == PlainWorkload(
        iops=1000, read_fraction=0.7, capacity_tb=10
    )


def test_drive_iops_per_drive_overrides_the_class() -> None:
    text = edit("  class: 10k\n", "  class: 10k\n  iops_per_drive: 85\n  usable_fraction: 0.8\n")
    drive = load_scenario_text(text).core_drive()
    assert (drive.iops, drive.usable_fraction) == (85, 0.8)
    alias = load_scenario_text(edit("class: 10k", "class: NL-SAS"))
    assert alias.drive.drive_class == "7.2k"
    assert alias.drive.iops == 80


def test_no_workload_is_fine_for_evaluate() -> None:
    start, end = BASE.index("workload:"), BASE.index("layouts:")
    scenario = load_scenario_text(BASE[:start] + BASE[end:])
    assert scenario.workload is None


# --- the rebuild model feeds the reliability model -------------------------------------


def test_rebuild_model_feeds_rates() -> None:
    scenario = load_scenario_text(BASE)
    assert scenario.restore.rebuild_hours is None
    assert scenario.rebuild_hours == pytest.approx(HOURS_0_3_TB_AT_27)
    assert scenario.rates().rebuild_hours == pytest.approx(HOURS_0_3_TB_AT_27)


def test_figure8_rebuild_is_about_an_hour_and_a_half() -> None:
    scenario = load_scenario_text(BASE, overrides=["drive.capacity_tb=0.144"])
    # NS3574 Figure 8: 144 GB in 1 h 30 min 32 s, "~27 MB/sec".
    assert scenario.rates().rebuild_hours == pytest.approx(1.5, abs=0.05)


@pytest.mark.parametrize(
    ("extra", "hours"),
    [
        ("  load: idle\n", HOURS_0_3_TB_AT_27),
        ("  load: busy\n", HOURS_0_3_TB_AT_27 * LOAD_FACTORS["busy"]),
        ("  load: Busy_Worst\n", HOURS_0_3_TB_AT_27 * LOAD_FACTORS["busy-worst"]),
        ("  load_factor: 2\n", 2 * HOURS_0_3_TB_AT_27),
        ("  replace_delay_hours: 24\n", 24 + HOURS_0_3_TB_AT_27),
        ("  load_factor: 2\n  replace_delay_hours: 24\n", 24 + 2 * HOURS_0_3_TB_AT_27),
    ],
)
def test_load_and_delay(extra: str, hours: float) -> None:
    text = edit("  rebuild_mb_per_s: 27\n", "  rebuild_mb_per_s: 27\n" + extra)
    assert load_scenario_text(text).rates().rebuild_hours == pytest.approx(hours)


def test_derived_hours_reach_the_evaluation() -> None:
    scenario = load_scenario_text(BASE, overrides=["restore.load=busy"])
    given = Rates(
        op_failures_per_hour=scenario.drive.op_failures_per_hour,
        latent_defects_per_hour=1.08e-4,
        rebuild_hours=HOURS_0_3_TB_AT_27 * LOAD_FACTORS["busy"],
        scrub_hours=168,
    )
    kwargs = {"data_disks": 42, "mission_hours": scenario.mission_hours}
    derived = compare_layouts(scenario.core_layouts(), rates=scenario.rates(), **kwargs)
    by_hand = compare_layouts(scenario.core_layouts(), rates=given, **kwargs)
    for a, b in zip(derived.results, by_hand.results, strict=True):
        assert a.p_loss_aggregate == pytest.approx(b.p_loss_aggregate, rel=1e-12)


def test_override_switches_between_the_two_ways() -> None:
    hours = load_scenario_text(BASE, overrides=["restore.rebuild_hours=12"])
    assert hours.restore.rebuild_mb_per_s is None
    assert hours.rates().rebuild_hours == 12
    text = edit("rebuild_mb_per_s: 27", "rebuild_hours: 12")
    rate = load_scenario_text(text, overrides=["restore.rebuild_mb_per_s=27"])
    assert rate.restore.rebuild_hours is None
    assert rate.rates().rebuild_hours == pytest.approx(HOURS_0_3_TB_AT_27)
    both = load_scenario_text(BASE, overrides=["restore.load=busy", "restore.load_factor=2"])
    assert (both.restore.load, both.restore.load_factor) == (None, 2)


def test_class_override_and_hint() -> None:
    assert load_scenario_text(BASE, overrides=["drive.class=15k"]).drive.iops == 180
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(BASE, overrides=["drive.clas=15k"])
    assert info.value.path == "--set drive.clas=15k"
    assert "did you mean 'class'?" in info.value.message


def test_scenario_data_keeps_the_sizing_fields() -> None:
    scenario = load_scenario_text(BASE)
    again = Scenario.model_validate(scenario_data(scenario))
    assert again.drive.drive_class == "10k"
    assert again.workload == scenario.workload
    assert again.rebuild_hours == scenario.rebuild_hours


def test_json_schema_has_the_new_fields() -> None:
    defs = scenario_json_schema()["$defs"]
    assert {"class", "iops_per_drive", "usable_fraction"} <= set(defs["DriveSpec"]["properties"])
    restore = defs["Restore"]
    assert {"rebuild_mb_per_s", "load", "load_factor", "replace_delay_hours"} <= set(
        restore["properties"]
    )
    assert restore["required"] == ["scrub_hours"]
    assert {"users", "iops_per_user", "mailbox_mb", "iops", "read_fraction"} <= set(
        defs["Workload"]["properties"]
    )
    assert len(defs["Workload"]["oneOf"]) == 2
    assert "write_penalty" in defs["LayoutSpec"]["properties"]


# --- rejections: (old text, new text, line, column, field, fragment of the message) ----

REJECTIONS = [
    # workload keys and values
    (
        "iops_per_user: 0.33",
        "iops_per_usr: 0.33",
        14,
        3,
        "workload.iops_per_usr",
        "unknown key 'iops_per_usr'; did you mean 'iops_per_user'?",
    ),
    ("users: 4000", "users: 0", 13, 10, "workload.users", "at least 1"),
    ("users: 4000", "users: 4000.0", 13, 10, "workload.users", "write 4000"),
    ("users: 4000", "users: '4000'", 13, 10, "workload.users", "without quotes"),
    ("iops_per_user: 0.33", "iops_per_user: -1", 14, 18, "workload.iops_per_user", "at least 0"),
    ("mailbox_mb: 250", "mailbox_mb: 0", 15, 15, "workload.mailbox_mb", "greater than 0"),
    (
        "  mailbox_mb: 250\n",
        "  mailbox_mb: 250\n  read_fraction: 1.5\n",
        16,
        18,
        "workload.read_fraction",
        "at most 1",
    ),
    (
        "  iops_per_user: 0.33\n",
        "",
        12,
        1,
        "workload.iops_per_user",
        "a mailbox workload needs iops_per_user: database IOPS per mailbox",
    ),
    (
        "  mailbox_mb: 250\n",
        "  mailbox_mb: 250\n  iops: 1000\n",
        16,
        9,
        "workload.iops",
        "iops belongs to a plain workload, but this is a mailbox workload (users is given)",
    ),
    (
        "workload:\n  users: 4000\n  iops_per_user: 0.33\n  mailbox_mb: 250\n",
        "workload: {}\n",
        12,
        1,
        "workload",
        "give a mailbox workload (users, iops_per_user, mailbox_mb) or a plain one",
    ),
    (
        "workload:\n  users: 4000\n  iops_per_user: 0.33\n  mailbox_mb: 250\n",
        "workload: 4000\n",
        12,
        11,
        "workload",
        "expected a mapping",
    ),
    # drive sizing fields
    ("class: 10k", "class: 10krpm", 6, 10, "drive.class", "choose one of ['10k', '15k'"),
    ("class: 10k", "clas: 10k", 6, 3, "drive.clas", "did you mean 'class'?"),
    ("class: 10k", "iops_per_drive: 0", 6, 19, "drive.iops_per_drive", "at least 1 (no drive"),
    (
        "class: 10k",
        "class: 10k\n  usable_fraction: 1.5",
        7,
        20,
        "drive.usable_fraction",
        "at most 1",
    ),
    ("  class: 10k\n", "", 2, 1, "drive.class", "give drive.class (7.2k, 10k, 15k or ssd)"),
    # the restore time: exactly one way
    (
        "rebuild_mb_per_s: 27",
        "rebuild_mb_per_s: 27\n  rebuild_hours: 12",
        8,
        21,
        "restore.rebuild_mb_per_s",
        "give rebuild_hours or the rebuild model rebuild_mb_per_s, not both",
    ),
    ("  rebuild_mb_per_s: 27\n", "", 7, 1, "restore", "give the restore time as rebuild_hours"),
    (
        "rebuild_mb_per_s: 27",
        "rebuild_hours: 12\n  load: busy",
        9,
        9,
        "restore.load",
        "load belongs to the rebuild model",
    ),
    (
        "rebuild_mb_per_s: 27",
        "rebuild_mb_per_s: 27\n  load: busy\n  load_factor: 2",
        10,
        16,
        "restore.load_factor",
        "give load (busy) or load_factor, not both",
    ),
    (
        "rebuild_mb_per_s: 27",
        "rebuild_mb_per_s: 27\n  load: heavy",
        9,
        9,
        "restore.load",
        "unknown rebuild load 'heavy'; choose one of ['busy', 'busy-worst', 'idle']",
    ),
    (
        "rebuild_mb_per_s: 27",
        "rebuild_mb_per_s: 27\n  replace_delay_hours: -1",
        9,
        24,
        "restore.replace_delay_hours",
        "at least 0",
    ),
    (
        "rebuild_mb_per_s: 27",
        "rebuild_mb_per_s: 0",
        8,
        21,
        "restore.rebuild_mb_per_s",
        "greater than 0",
    ),
    (
        "rebuild_mb_per_s: 27",
        "rebuild_mb_per_s: 0.001",
        8,
        21,
        "restore.rebuild_mb_per_s",
        "at most 8760 hours (check the rate's units: MB/s)",
    ),
    (  # a newcomer's review: a year's wait was blamed on the rate's units
        "rebuild_mb_per_s: 27",
        "rebuild_mb_per_s: 27\n  replace_delay_hours: 8760",
        9,
        24,
        "restore.replace_delay_hours",
        "8,760 of them the wait for a replacement; at most 8,760 hours (replace_delay_hours "
        "is in hours: 72 is three days)",
    ),
    # per-layout write penalty
    ("write_penalty: 1", "write_penalty: 0", 20, 20, "layouts[1].write_penalty", "greater than 0"),
    ("write_penalty: 1", "write_penalty: six", 20, 20, "layouts[1].write_penalty", "a number"),
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
    assert (err.line, err.column, err.field) == (line, column, field)
    # the path, or its end after "…" where the message would not fit beside it whole
    location, _, message = str(err).partition(f":{line}:{column}: {field}: ")
    assert str(tmp_path / "scenario.yaml").endswith(location.removeprefix("…")), str(err)
    assert message == err.message


def test_rebuild_model_needs_the_drive_capacity(tmp_path: Path) -> None:
    start, end = BASE.index("workload:"), BASE.index("layouts:")
    text = edit("  capacity_tb: 0.3\n", "", BASE[:start] + BASE[end:])
    err = rejected(tmp_path, text)
    assert (err.line, err.column, err.field) == (7, 21, "restore.rebuild_mb_per_s")
    assert "the rebuild model needs drive.capacity_tb" in err.message


def test_workload_needs_the_drive_capacity(tmp_path: Path) -> None:
    text = edit("rebuild_mb_per_s: 27", "rebuild_hours: 12", edit("  capacity_tb: 0.3\n", ""))
    err = rejected(tmp_path, text)
    assert (err.line, err.column, err.field) == (2, 1, "drive.capacity_tb")
    assert "sizing a workload needs drive.capacity_tb" in err.message


@pytest.mark.parametrize(
    ("old", "new", "field", "fragment"),
    [
        ("  read_fraction: 0.7\n", "", "workload.read_fraction", "a plain workload needs"),
        ("iops: 1000", "iops: 0", "workload.iops", "neither IOPS nor capacity"),
        # users decides the kind: the plain key is the stray one
        ("iops: 1000", "iops: 1000\n  users: 10", "workload.iops", "belongs to a plain"),
        ("capacity_tb: 10", "capacity_tb: -1", "workload.capacity_tb", "at least 0"),
    ],
)
def test_plain_rejections(tmp_path: Path, old: str, new: str, field: str, fragment: str) -> None:
    text = plain_text()
    if old == "iops: 1000" and new == "iops: 0":
        text = edit("capacity_tb: 10", "capacity_tb: 0", text)
    err = rejected(tmp_path, edit(old, new, text))
    assert err.field == field
    assert fragment in err.message
    assert err.line is not None
    assert err.column is not None
