"""Declustered (dRAID) layouts in a scenario file: defaults, the rules, errors, saving."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.core.arrays.declustered import Declustered
from planner.scenario import ScenarioError, load_scenario
from planner.scenario.document import new_yaml
from planner.scenario.save import updated_text

BASE = """\
name: pools
mission_years: 5
drive:
  arr: 1%
  latent_defects_per_hour: 1e-5
  capacity_tb: 20
restore:
  rebuild_hours: 77
  scrub_hours: 168
aggregate:
  data_disks: 96
layouts:
  - raid: raid6
    group_size: 12
  - raid: draid2
    data: 8
    children: 48
    spares: 2
"""


def _rejected(tmp_path: Path, text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario(_write(tmp_path, text))
    return info.value


def test_a_draid_layout_reads_like_openzfs(tmp_path: Path) -> None:
    scenario = load_scenario(_write(tmp_path, BASE))
    pool = scenario.core_layouts()[1]
    assert pool.label == "draid2:8d:48c:2s"
    assert (pool.parity, pool.group_size, pool.declustered) == (2, 48, Declustered(8, 2))


def test_openzfs_defaults_data_8_and_no_spare(tmp_path: Path) -> None:
    text = BASE.replace("    data: 8\n", "").replace("    spares: 2\n", "")
    pool = load_scenario(_write(tmp_path, text)).core_layouts()[1]
    assert pool.declustered == Declustered(8, 0)
    assert pool.label == "draid2:8d:48c:0s"
    assert pool.rebuild_speedup == 1.0


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "line", "field", "fragment"),
    [
        ("    children: 48\n", "", 15, "layouts[1].children", "needs children"),
        ("children: 48", "children: 11", 17, "layouts[1].children", "at least 12"),
        ("children: 48", "children: 300", 17, "layouts[1].children", "at most 255"),
        ("    group_size: 12\n", "    group_size: 12\n    spares: 1\n", 15, "layouts[0].spares",
         "declustered pools only"),
        ("spares: 2", "spares: -1", 18, "layouts[1].spares", "must be at least 0"),
        ("children: 48", "children: 48.5", 17, "layouts[1].children", "whole number"),
        ("children: 48", "childern: 48", 17, "layouts[1].childern", "did you mean 'children'"),
        ("children: 48", "children: '48'", 17, "layouts[1].children", "whole number"),
    ],
)  # fmt: skip
def test_bad_pools_name_the_line_and_field(
    tmp_path: Path, old: str, new: str, line: int, field: str, fragment: str
) -> None:
    assert BASE.count(old) == 1
    error = _rejected(tmp_path, BASE.replace(old, new))
    assert error.field == field, str(error)
    assert error.line == line, str(error)
    assert fragment in error.message
    assert "\n" not in str(error)


def test_saving_a_new_pool_writes_children_data_and_spares(tmp_path: Path) -> None:
    original = load_scenario(_write(tmp_path, BASE.split("  - raid: draid2")[0]))
    wanted = load_scenario(_write(tmp_path, BASE))
    before = BASE.split("  - raid: draid2")[0]
    text = updated_text(new_yaml().load(before), before, original, wanted, {})
    reloaded = load_scenario(_write(tmp_path, text))
    assert reloaded.core_layouts() == wanted.core_layouts()
    assert "children: 48" in text


SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_a_replacement_delay_does_not_slow_the_rebuild_onto_a_distributed_spare() -> None:
    # Issue 20: restore.replace_delay_hours: 168 took draid2:8d:48c:2s from 14.8 h to 47 h.
    # ZFS's event daemon starts the resilver onto the distributed spare at once; the wait
    # only delays the rebalance. RAID 6 (no distributed spare) still waits.
    path = SCENARIOS / "today-20tb-nl-sas.yaml"
    plain = load_scenario(path)
    waiting = load_scenario(path, ["restore.replace_delay_hours=168"])
    by_label = {x.label: x for x in waiting.core_layouts()}
    pool, raid6 = by_label["draid2:8d:48c:2s"], by_label["RAID 6 (10+2)"]
    before = pool.chain_rates(plain.rates()).rebuild_hours
    after = pool.chain_rates(waiting.rates()).rebuild_hours
    assert after == pytest.approx(before, rel=1e-3)
    assert raid6.chain_rates(waiting.rates()).rebuild_hours == pytest.approx(
        plain.rebuild_hours + 168.0
    )


def test_a_pool_without_spares_waits_for_its_replacement() -> None:
    path = SCENARIOS / "today-20tb-nl-sas.yaml"
    waiting = load_scenario(path, ["restore.replace_delay_hours=168", "layouts[3].spares=0"])
    pool = waiting.core_layouts()[3]
    hours = pool.chain_rates(waiting.rates()).rebuild_hours
    assert hours == pytest.approx(waiting.rebuild_hours)
    assert hours > 168.0
