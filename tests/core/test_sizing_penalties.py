"""Default write penalties per layout (NS3574 'Write performance' and Figure 7)."""

import pytest

from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.core.arrays.presets import PRESETS
from planner.core.design.drive_counts import backend_iops
from planner.core.design.sizing import WRITE_PENALTIES, default_write_penalty


@pytest.mark.parametrize(
    ("raid", "parity", "group_size", "penalty"),
    [
        ("raid10", 1, 2, 2.0),  # one write per mirror copy
        ("raid1", 1, 2, 2.0),
        ("mirror3", 2, 3, 3.0),  # three copies
        ("raid5", 1, 8, 4.0),  # read data + parity, write data + parity
        ("raid4", 1, 8, 4.0),
        ("raid6", 2, 8, 6.0),  # read data + 2 parities, write data + 2 parities
        ("raid-dp", 2, 16, 1.0),  # Figure 7: measured at or below 1
        ("RAID-DP", 2, 16, 1.0),  # preset names are matched loosely
        ("raid-tp", 3, 16, 8.0),  # read data + 3 parities, write data + 3 parities
        ("raidz3", 3, 11, 1.0),  # one stripe I/O (tests/core/test_raidz_iops.py)
        (None, 1, 6, 4.0),  # plain parity: 2 (k + 1)
        (None, 2, 6, 6.0),
        (None, 3, 9, 8.0),
        (None, 4, 12, 10.0),
    ],
)
def test_default_penalty(raid: str | None, parity: int, group_size: int, penalty: float) -> None:
    layout = Layout("x", raid, parity, group_size)
    assert default_write_penalty(layout) == penalty


def test_every_preset_has_a_penalty() -> None:
    # declustered pools and RAID-Z count stripe I/Os (penalty 1), not a preset's disk I/Os
    stripes = {p.name for p in PRESETS.values() if p.declustered or p.whole_stripe_io}
    assert set(PRESETS) - stripes == set(WRITE_PENALTIES)


def test_declustered_penalty_is_one_stripe_io() -> None:
    # a small write fills a whole stripe: one I/O across its d + p drives, as a small read
    # is; the pool serves floor((C - s) / (d + p)) of them (tests/core/test_declustered_iops.py)
    layout = Layout("d", "draid2", 2, 48, Declustered(data=8, spares=2))
    assert default_write_penalty(layout) == 1.0


def test_backend_iops_is_reads_plus_penalised_writes() -> None:
    # 660 reads + 660 writes x 6 = 660 + 3,960 = 4,620
    assert backend_iops(660.0, 660.0, 6.0) == 4_620.0
    assert backend_iops(660.0, 660.0, 1.0) == 1_320.0
