"""A drive described by its spec sheet: capacity reaches the rebuild time and the defects.

Every expected number here is worked out by hand from the formulas in
planner/core/arrays/drive_models.py (docs/drives.md), not taken from the code's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.analysis.compare import compare_data
from planner.core.arrays.drive_models import DRIVE_MODELS, find_drive_model
from planner.core.arrays.rebuild import LOAD_FACTORS
from planner.report.comparison import notes
from planner.scenario import ScenarioError, load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
TODAY = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"

SPEC = """\
name: spec sheet
drive:
  arr: 1%
  capacity_tb: 20
  sustained_mb_per_s: 250
  unrecoverable_read_errors_per_bit: 1.0e-15
restore:
  scrub_hours: 200
aggregate:
  data_disks: 24
layouts:
  - raid: raid6
    group_size: 8
"""


def test_a_spec_sheet_drive_gives_its_rebuild_time_and_defect_rate() -> None:
    scenario = load_scenario_text(SPEC)
    # 20e12 bytes / 250e6 bytes/s = 80,000 s = 22.2 h (idle: no load given)
    assert scenario.rebuild_hours == pytest.approx(80_000 / 3600, rel=1e-15)
    assert scenario.rebuild_mb_per_s == 250
    # no reads given, no workload: NS3574's 2.7e11 bytes/day = 1.125e10 bytes/h;
    # 8 x 1e-15 per byte x 1.125e10 = 9e-5 per drive-hour (the scrubs' reads do not count)
    assert scenario.rates().latent_defects_per_hour == pytest.approx(9e-5, rel=1e-14)


def test_the_load_presets_slow_the_drive_rate() -> None:
    busy = load_scenario_text(
        SPEC.replace("  scrub_hours: 200", "  scrub_hours: 200\n  load: busy")
    )
    assert busy.rebuild_hours == pytest.approx(80_000 / 3600 * LOAD_FACTORS["busy"])


def test_capacity_reaches_the_risk() -> None:
    """Issue 11's complaint: 12 TB and 0.3 TB drives gave the same P(loss).

    Capacity reaches it through the rebuild time; the defect rate is the workload's reads
    x errors per byte, which a larger drive does not change (issue 20: not the scrubs').
    """
    small = load_scenario(TODAY, overrides=["drive.capacity_tb=0.3"])
    large = load_scenario(TODAY, overrides=["drive.capacity_tb=12"])
    larger = load_scenario(TODAY)
    assert small.rebuild_hours < large.rebuild_hours < larger.rebuild_hours
    assert small.rates().latent_defects_per_hour == larger.rates().latent_defects_per_hour
    p = [compare_data(s).comparison.results for s in (small, large, larger)]
    for i in range(len(p[0])):
        assert p[0][i].p_loss_group < p[1][i].p_loss_group < p[2][i].p_loss_group


def test_the_catalogue_model_fills_the_spec_sheet() -> None:
    scenario = load_scenario(TODAY)
    model = find_drive_model("nl-sas-20tb")
    drive = scenario.drive
    assert (drive.capacity_tb, drive.drive_class) == (20.0, "7.2k")
    assert drive.sustained_mb_per_s == model.sustained_mb_per_s == 285.0
    # 20e12 / 285e6 s x busy; NS3574's field reads: 8e-15 x 2.7e11 / 24 h
    assert scenario.rebuild_hours == pytest.approx(20e12 / 285e6 / 3600 * LOAD_FACTORS["busy"])
    assert scenario.latent_defects_per_hour == pytest.approx(8e-15 * 2.7e11 / 24)


def test_explicit_keys_override_the_catalogue() -> None:
    scenario = load_scenario(TODAY, overrides=["drive.capacity_tb=10"])
    assert scenario.drive.capacity_tb == 10
    assert scenario.rebuild_hours == pytest.approx(10e12 / 285e6 / 3600 * LOAD_FACTORS["busy"])


def test_every_catalogue_figure_has_a_source() -> None:
    for model in DRIVE_MODELS.values():
        assert model.sources, model.name
        assert all("http" in s or "no public figure" in s for s in model.sources), model.name
        if model.sustained_mb_per_s is None:
            assert any("no public figure" in s for s in model.sources)


def test_fixed_rebuild_hours_beside_a_capacity_says_capacity_does_not_change_it() -> None:
    paper = load_scenario(ROOT / "scenarios" / "ns3574-table4.yaml")
    found = notes(compare_data(paper))
    assert any("does not change it" in n and "rebuild_mb_per_s" in n for n in found), found
    # the derived ones say where the hours come from instead
    derived = notes(compare_data(load_scenario(TODAY)))
    assert not any("does not change it" in n for n in derived)
    assert any("drive.sustained_mb_per_s" in n for n in derived), derived


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("  arr: 1%", "  arr: 1%\n  read_errors_per_byte: 8e-15", "not both"),
        ("  sustained_mb_per_s: 250\n", "", "drive.sustained_mb_per_s"),
        ("  arr: 1%", "  arr: 1%\n  model: nl-sas-2tb", "did you mean 'nl-sas-20tb'"),
        ("1.0e-15", "1.0e-5", "1e-14"),
    ],
)
def test_bad_spec_sheets_are_refused_with_a_reason(old: str, new: str, words: str) -> None:
    assert SPEC.count(old) == 1
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(SPEC.replace(old, new))
    assert words in str(caught.value)
