"""A ZFS vdev's loss takes the pool: its NOMDL counts every group's data.

ZFS stripes a pool over its top-level vdevs, and a RAID-Z or dRAID vdev that loses more
drives than its parity cannot open, so the pool does not import (a newcomer, a ZFS admin,
found it in OpenZFS's vdev_draid_state_change). The NOMDL counted a dRAID pool's p + 1
overlapping failures as 0.69% of one pool's stripes and a raidz group's loss as that
group alone: a wide pool read 430 times safer per TB than its pool loses. Hardware RAID
groups are still counted one at a time. Checked by hand from the JSON's own expected
losses, capacity and stripe (these tests failed first).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

TODAY = str(Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml")
STRIPE_UNIT = 128 * 1024  # aggregate.stripe_unit_kib's default


def _layouts(*sets: str) -> dict[str, dict[str, object]]:
    args = ["evaluate", TODAY, *(a for s in sets for a in ("--set", s)), "-f", "json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return {row["label"]: row for row in json.loads(result.stdout)["layouts"]}


def _by_hand(row: dict[str, object], data_per_stripe: int, *, whole_pool: bool) -> float:
    usable_tb = float(row["usable_tb"])  # type: ignore[arg-type]
    groups = float(row["groups"])  # type: ignore[arg-type]
    group_losses = float(row["expected_group_losses"])  # type: ignore[arg-type]
    sector_events = float(row["expected_sector_loss_events"])  # type: ignore[arg-type]
    lost_per_loss = usable_tb if whole_pool else usable_tb / groups
    lost = group_losses * lost_per_loss * 1e12 + sector_events * data_per_stripe * STRIPE_UNIT
    return lost / usable_tb


def test_a_draid_pool_and_a_raidz_group_lose_the_pool() -> None:
    rows = _layouts("layouts[1].raid=raidz2")  # RAID 6 (10+2) as raidz2 12
    pool = rows["draid2:8d:48c:2s"]
    assert pool["nomdl_bytes_per_tb"] == pytest.approx(_by_hand(pool, 8, whole_pool=True))
    raidz = rows["RAID 6 (10+2)"]
    assert raidz["groups"] == 10
    assert raidz["nomdl_bytes_per_tb"] == pytest.approx(_by_hand(raidz, 10, whole_pool=True))


def test_hardware_groups_lose_their_own() -> None:
    rows = _layouts()
    for label, data in (("RAID 6 (10+2)", 10), ("triple parity (12+3)", 12)):
        row = rows[label]
        assert row["nomdl_bytes_per_tb"] == pytest.approx(_by_hand(row, data, whole_pool=False))
    # the same groups as raidz2: the pool's 10 groups lost at once, never less
    raidz = _layouts("layouts[1].raid=raidz2")["RAID 6 (10+2)"]
    assert raidz["nomdl_bytes_per_tb"] > rows["RAID 6 (10+2)"]["nomdl_bytes_per_tb"]  # type: ignore[operator]
