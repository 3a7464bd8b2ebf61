"""Layout.same_shape: one layout under any label, and two kinds never taken for one.

The choose view's Enter added ``mirror3 3`` beside a "3-way mirror" (a newcomer's find);
the design review took a recommended raidz2 12 for the scenario's raid6 12, which is sized
otherwise (stripe I/Os), and would have shown the hardware one's figures.
"""

from __future__ import annotations

from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout


def test_the_label_and_the_presets_spelling_do_not_matter() -> None:
    assert Layout("3-way mirror", "mirror3", 2, 3).same_shape(Layout("mirror3 3", "mirror3", 2, 3))
    assert Layout("RAID 6 (10+2)", "RAID6", 2, 12).same_shape(Layout("raid6 12", "raid6", 2, 12))
    assert Layout("n+2 12", None, 2, 12).same_shape(Layout("x", None, 2, 12))


def test_kind_size_parity_and_pool_do() -> None:
    raid6 = Layout("raid6 12", "raid6", 2, 12)
    for other in (
        Layout("raidz2 12", "raidz2", 2, 12),  # sized in stripe I/Os
        Layout("raid-dp 12", "raid-dp", 2, 12),  # dedicated parity: reads otherwise
        Layout("n+2 12", None, 2, 12),
        Layout("raid6 14", "raid6", 2, 14),
        Layout("raid-tp 12", "raid-tp", 3, 12),
    ):
        assert not raid6.same_shape(other), other.label
    pool = Layout("a", "draid2", 2, 48, Declustered(8, 2))
    assert pool.same_shape(Layout("b", "draid2", 2, 48, Declustered(8, 2)))
    assert not pool.same_shape(Layout("c", "draid2", 2, 48, Declustered(8, 1)))
