"""Plans of several tiers: what a tier takes from the top level, errors, --set, saving back."""

from __future__ import annotations

from pathlib import Path

import pytest
from shipped import PLANS, SHIPPED, SINGLE_AGGREGATE

from planner.scenario import (
    ScenarioError,
    load_plan,
    load_plan_text_document,
    load_scenario,
    load_scenario_text,
)
from planner.scenario.document import new_yaml, parse_yaml
from planner.scenario.edits import spec_of, with_value
from planner.scenario.plan_save import updated_plan_text

PLAN = """\
# two tiers
name: two tiers
mission_years: 5
restore:            # shared
  rebuild_hours: 12
  scrub_hours: 168
drive:
  arr: 1.9%
  latent_defects_per_hour: 1.08e-4
tiers:
  # the small one
  - name: fast
    aggregate: {data_disks: 10}
    layouts:
      - raid: raid5
        group_size: 6

  # the big one
  - name: slow
    drive:
      arr: 3%           # cheaper drives
      latent_defects_per_hour: 1.08e-4
    aggregate:
      data_disks: 40
    layouts:
      - raid: raid6
        group_size: 12
"""


def rejected(text: str, overrides: tuple[str, ...] = ()) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        load_plan_text_document(text, "plan.yaml", overrides)
    return caught.value


def test_a_tier_takes_the_top_level_sections_it_leaves_out_whole() -> None:
    plan, _ = load_plan_text_document(PLAN, "plan.yaml")
    assert plan.tiered
    assert plan.name == "two tiers"
    fast, slow = (tier.scenario for tier in plan.tiers)
    assert plan.names == ["fast", "slow"] == [fast.name, slow.name]
    assert fast.drive.arr == pytest.approx(0.019)  # the top level's
    assert slow.drive.arr == pytest.approx(0.03)  # its own, replacing the top level's
    assert fast.restore == slow.restore
    assert (fast.aggregate.data_disks, slow.aggregate.data_disks) == (10, 40)
    assert fast.mission_years == slow.mission_years == plan.mission_years == 5
    # the same tier written out alone is the same scenario
    alone = load_scenario_text(
        "name: slow\nrestore: {rebuild_hours: 12, scrub_hours: 168}\n"
        "drive: {arr: 3%, latent_defects_per_hour: 1.08e-4}\naggregate: {data_disks: 40}\n"
        "layouts: [{raid: raid6, group_size: 12}]\n"
    )
    assert slow == alone


def test_a_single_aggregate_file_is_a_plan_of_one_tier() -> None:
    text = PLAN.split("tiers:")[0] + "aggregate: {data_disks: 4}\nlayouts: [{raid: raid10}]\n"
    plan, _ = load_plan_text_document(text, "one.yaml")
    assert not plan.tiered
    assert [tier.scenario for tier in plan.tiers] == [load_scenario_text(text)]


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (("arr: 3%", "arr: 300%"), "plan.yaml:21:12: tiers[1].drive.arr:", "below 100%"),
        (("  - name: slow\n", "  - name: slow\n    drve: 1\n"), "tiers[1].drve:", "'drive'"),
        (("  - name: slow\n", "  - name: slow\n    mission_years: 3\n"), "tiers[1].", "top level"),
        (("name: slow", "name: fast"), "tiers[1].name:", "duplicate tier name 'fast'"),
        (("group_size: 12", "group_size: 1"), "tiers[1].layouts[0].group_size:",
         "1 is out of range: must be at least 3 (2 parity drives and at least one data drive)"),
        (("restore:            # shared\n  rebuild_hours: 12\n  scrub_hours: 168\n", ""),
         "plan.yaml:9:5: tiers[0].restore:", "missing required key 'restore'"),
        (("mission_years: 5\n", "mission_years: 5\nbaseline: raid5 6\n"),
         "plan.yaml:4:11: baseline:", "in tier 'slow' (tiers[1]), which takes it"),
    ],
)  # fmt: skip
def test_an_error_names_the_file_line_and_the_tier(
    change: tuple[str, str], where: str, words: str
) -> None:
    text = PLAN.replace(*change)
    assert text != PLAN
    error = rejected(text)
    assert where in str(error)
    assert words in str(error)
    assert error.line is not None
    assert len(str(error).splitlines()) == 1


def test_a_plan_needs_a_tier_where_one_aggregate_is_meant(tmp_path: Path) -> None:
    path = tmp_path / "plan.yaml"
    path.write_text(PLAN, encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"plan of 2 tiers \('fast', 'slow'\)") as caught:
        load_scenario(path)
    assert (caught.value.line, caught.value.field) == (10, "tiers")
    assert load_scenario(path, tier="slow").aggregate.data_disks == 40
    with pytest.raises(ScenarioError, match="did you mean 'slow'"):
        load_scenario(path, tier="slw")


def test_set_one_tier_or_every_tier() -> None:
    every, _ = load_plan_text_document(PLAN, "p", ["drive.arr=2%"])
    assert [t.scenario.drive.arr for t in every.tiers] == pytest.approx([0.02, 0.02])
    one, _ = load_plan_text_document(PLAN, "p", ["tiers[1].aggregate.data_disks=20"])
    assert [t.scenario.aggregate.data_disks for t in one.tiers] == [10, 20]
    assert one.tiers[0].overrides == ()  # the inputs line of each tier says what applied
    assert one.tiers[1].overrides == ("tiers[1].aggregate.data_disks=20",)
    # one of exclusive alternatives replaces the others, in a tier as at the top level
    afr, _ = load_plan_text_document(PLAN, "p", ["tiers[1].drive.afr=2%"])
    assert afr.tiers[1].scenario.drive.arr is None
    error = rejected(PLAN, ("tiers[1].drive.arr=300%",))
    assert str(error).startswith("--set tiers[1].drive.arr=300%: tiers[1].drive.arr:")
    error = rejected(PLAN, ("tiers[5].drive.arr=3%",))
    assert "tiers has 2 entries" in str(error)


def test_set_reaches_a_tiers_layouts_and_names_a_renamed_baseline() -> None:
    """``tiers[i].layouts[j]`` is a list as ``layouts[j]`` is (it was refused as "not a
    list": the tier's field is ``Optional[Annotated[list, ...]]``), and a rename of the
    layout a tier's baseline names is said as it is at the top level."""
    one, _ = load_plan_text_document(PLAN, "p", ["tiers[1].layouts[0].group_size=10"])
    assert [lay.group_size for lay in one.tiers[1].scenario.layouts] == [10]
    assert one.tiers[0].scenario.layouts[0].group_size == 6
    based = PLAN.replace("group_size: 12\n", "group_size: 12\n    baseline: raid6 12\n")
    assert load_plan_text_document(based, "p")[0].tiers[1].scenario.baseline == "raid6 12"
    error = str(rejected(based, ("tiers[1].layouts[0].group_size=10",)))
    assert "--set tiers[1].layouts[0].group_size=10 made it 'raid6 10'" in error, error
    assert "--set 'tiers[1].baseline=raid6 10'" in error, error
    assert "did you mean" not in error


def test_saving_an_edited_plan_keeps_comments_and_every_tier() -> None:
    plan, document = load_plan_text_document(PLAN, "plan.yaml")
    arr = spec_of("drive.arr")
    fast = with_value(plan.tiers[0].scenario, arr, "2.5%")  # a section fast takes: copied
    slow = with_value(plan.tiers[1].scenario, spec_of("mission_years"), 7)  # the plan's
    edited = plan.with_tier(0, fast).with_tier(1, slow)
    assert [t.scenario.mission_years for t in edited.tiers] == [7, 7]
    typed = {0: {arr.path: "2.5%"}, 1: {("mission_years",): 7}}
    text = updated_plan_text(document, PLAN, plan, edited, typed)
    again, _ = load_plan_text_document(text, "plan.yaml")
    assert again == edited
    for line in PLAN.splitlines():
        if "#" in line or line.strip().startswith("- name"):
            assert line in text.splitlines(), line  # every comment and tier, where it was
    assert "mission_years: 7\n" in text
    assert text.count("arr: 1.9%") == 1  # the top level's drive is the other tiers' still
    assert "    drive:\n      arr: 2.5%\n" in text


def test_a_cleared_section_the_top_level_gives_is_written_as_null() -> None:
    text = PLAN.replace("name: two tiers\n", "name: two tiers\nbaseline: raid5 6\n")
    text = text.replace("  - name: slow\n", "  - name: slow\n    baseline: raid6 12\n")
    plan, document = load_plan_text_document(text, "plan.yaml")
    fast = plan.tiers[0].scenario.model_copy(update={"baseline": None})
    edited = plan.with_tier(0, fast)
    saved = updated_plan_text(document, text, plan, edited, {})
    again, _ = load_plan_text_document(saved, "plan.yaml")
    assert again.tiers[0].scenario.baseline is None
    assert again == edited


def test_the_shipped_files_are_split_as_the_yaml_parser_reads_them() -> None:
    """tests/shipped.py reads the split from the lines; a plan's top level has ``tiers``."""
    for path in SHIPPED:
        top = new_yaml().load(path.read_text(encoding="utf-8"))
        assert (path in PLANS) is (isinstance(top, dict) and "tiers" in top), path.name
    assert PLANS
    assert sorted(PLANS + SINGLE_AGGREGATE) == SHIPPED


@pytest.mark.parametrize("path", PLANS, ids=[p.stem for p in PLANS])
def test_every_shipped_plan_loads_with_its_tiers(path: Path) -> None:
    plan = load_plan(path)
    assert plan.tiered
    assert len(plan.tiers) >= 2
    assert all(tier.scenario.layouts for tier in plan.tiers)
    assert len({tier.scenario.mission_years for tier in plan.tiers}) == 1
    document = parse_yaml(path.read_text(encoding="utf-8"), path.name)
    assert [tier["name"] for tier in document["tiers"]] == plan.names
