"""recommend searches RAID-Z groups for a ZFS scenario, on the footing it sizes them by.

The second newcomer gave recommend raidz2 10 and raidz2 6 for an IOPS-bound workload and got
"raid6 5, 250 drives" among the answers: hardware RAID 6, sized with every drive serving
reads, which a ZFS admin cannot build (raidz2 5 needs 500 by the stripe-I/O rule). With a
RAID-Z layout in the scenario (or ``search.raidz: true``) the parity groups searched are
raidz1-3, counted in stripe I/Os; without one, the search is hardware RAID as before; with
both kinds in the scenario (or ``search.raidz: both``), both are searched.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from planner.analysis.candidate_sizing import search_layouts
from planner.analysis.recommend import recommendation
from planner.core.design.candidates import candidate_layouts, count_candidates
from planner.scenario import load_scenario
from planner.scenario.target import SearchSpec

SEARCH = Path(__file__).resolve().parents[2] / "scenarios" / "recommend-400tb.yaml"
RAIDZ = ["layouts[0].raid=raidz2", "layouts[0].label=raidz2 12"]


def test_a_raidz_scenario_searches_raidz_groups() -> None:
    scenario = load_scenario(SEARCH, RAIDZ)
    layouts = search_layouts(scenario)
    raids = {layout.raid for layout in layouts if layout.declustered is None}
    assert {"raidz1", "raidz2", "raidz3"} <= raids
    assert not raids & {"raid5", "raid6", "raid-tp"}
    assert {"raid10", "mirror3"} <= raids  # ZFS mirrors are mirrors


def test_its_groups_are_sized_by_stripe_ios() -> None:
    scenario = load_scenario(SEARCH, [*RAIDZ, "target.max_p_loss=0.5", "target.max_drives=10000"])
    found = recommendation(scenario, search_layouts(scenario))
    by_label = {c.layout.label: c for c in found.meeting}
    raidz2 = by_label["raidz2 12"]
    # 20,000 stripe I/Os a second at 80 a group: 250 groups of 12
    assert raidz2.total_disks == math.ceil(20_000 / 80) * 12


def test_the_search_is_hardware_raid_without_a_raidz_layout() -> None:
    layouts = search_layouts(load_scenario(SEARCH))
    raids = {layout.raid for layout in layouts if layout.declustered is None}
    assert {"raid5", "raid6", "raid-tp"} <= raids
    assert not any(str(r).startswith("raidz") for r in raids)


def test_the_search_section_chooses_either_way() -> None:
    forced = load_scenario(SEARCH, ["search.raidz=true"])
    assert any(x.raid == "raidz2" for x in search_layouts(forced))
    off = load_scenario(SEARCH, [*RAIDZ, "search.raidz=false"])
    assert not any(str(x.raid).startswith("raidz") for x in search_layouts(off))


def test_recommend_says_which_groups_count_stripe_ios() -> None:
    """The second newcomer: nothing in recommend's output stated the sizing rule."""
    from typer.testing import CliRunner

    from planner.cli import app

    sets = [a for s in RAIDZ for a in ("--set", s)]
    shown = CliRunner().invoke(app, ["recommend", str(SEARCH), *sets, "-f", "markdown"])
    assert shown.exit_code == 0, shown.output
    words = " ".join(shown.stdout.split())
    assert "6,000 writes; RAID-Z groups and dRAID pools sized in stripe I/Os (docs/sizing.md)" in (
        words
    )
    plain = CliRunner().invoke(app, ["recommend", str(SEARCH), "-f", "markdown"])
    assert "6,000 writes; dRAID pools sized in stripe I/Os" in " ".join(plain.stdout.split())


def test_recommend_says_the_write_penalty_its_search_sized_at() -> None:
    """The third newcomer: with search.write_penalty: 1 nothing but the Overrides line said
    the parity candidates were sized at 1, not their presets' 4, 6 and 8."""
    from typer.testing import CliRunner

    from planner.cli import app

    table9 = str(SEARCH.with_name("ns3574-table9-250mb.yaml"))
    sets = ["--set", "target.max_p_loss=1e-4", "--set", "search.write_penalty=1"]
    shown = CliRunner().invoke(app, ["recommend", table9, *sets, "-f", "markdown"])
    assert shown.exit_code == 0, shown.output
    assert "parity groups at write penalty 1 (search.write_penalty)" in " ".join(
        shown.stdout.split()
    )


BOTH = ["layouts[1]={raid: raidz2, group_size: 12}"]
"""recommend-400tb.yaml's RAID 6 (10+2) beside a raidz2 12: an admin weighing the two."""


def test_a_scenario_with_both_kinds_searches_both() -> None:
    """A newcomer's purchase listed RAID 6, triple parity and raidz2/raidz3; recommend
    searched RAID-Z only, and only a second run with search.raidz=false gave hardware
    RAID. Both kinds are searched now, and the search's count is still exact."""
    for overrides in (BOTH, ["search.raidz=both"], [*RAIDZ, "search.raidz=both"]):
        scenario = load_scenario(SEARCH, overrides)
        raids = {x.raid for x in search_layouts(scenario) if x.declustered is None}
        assert {"raid5", "raid6", "raid-tp", "raidz1", "raidz2", "raidz3"} <= raids, overrides
    found = load_scenario(SEARCH, BOTH).search
    assert found is not None
    assert found.raidz is None  # both by default, from the layouts
    space = replace(SearchSpec().space(False, True, True), parities=(1, 2, 3, 4))
    assert (space.raidz, space.hardware) == (True, True)
    assert count_candidates(space).total == len(candidate_layouts(space))
    labels = [x.label for x in candidate_layouts(space)]
    assert len(labels) == len(set(labels))  # n+4 once, beside both kinds of k <= 3
    assert {"raid6 12", "raidz2 12", "n+4 12"} <= set(labels)


def test_recommend_names_the_kinds_it_searched_and_refuses_a_third_word() -> None:
    from typer.testing import CliRunner

    from planner.cli import app

    runner = CliRunner()
    both = runner.invoke(app, ["recommend", str(SEARCH), "--set", BOTH[0], "-f", "markdown"])
    assert both.exit_code == 0, both.output
    assert "layouts (mirrors, hardware RAID groups and RAID-Z groups) sized for" in (
        " ".join(both.stdout.split())
    )
    plain = runner.invoke(app, ["recommend", str(SEARCH), "-f", "markdown"])
    assert "layouts (mirrors, hardware RAID groups and dRAID pools) sized for" in " ".join(
        plain.stdout.split()
    )
    wrong = runner.invoke(app, ["recommend", str(SEARCH), "--set", "search.raidz=1"])
    assert wrong.exit_code == 2
    assert "search.raidz: expected true, false or both, got 1" in wrong.stderr
