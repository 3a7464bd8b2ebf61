"""The compare notes' sentence on declustered pools: a speed-up only where there is one.

The note said "Declustered pools rebuild faster onto distributed spares, as OpenZFS
measured (draid2:8d:20c:1s x1)" while that pool rebuilt as slowly as every group: at
its width the fitted resilver, 10 / 19 x 1.35 x (1 + 8 / 13.4) = 1.13 of a traditional
rebuild, is clamped to the traditional time (docs/declustered.md).
"""

from __future__ import annotations

from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.report.comparison import declustered_notes


def pool(children: int, spares: int, data: int = 8, parity: int = 2) -> Layout:
    """A dRAID pool labelled as OpenZFS names it."""
    label = f"draid{parity}:{data}d:{children}c:{spares}s"
    return Layout(label, f"draid{parity}", parity, children, Declustered(data, spares))


def resilver_fraction(children: int, data: int = 8, parity: int = 2) -> float:
    """The fitted model of docs/declustered.md, written out: w / (C - 1) a (1 + d / d0)."""
    return (data + parity) / (children - 1) * 1.35 * (1 + data / 13.4)


def test_a_pool_without_a_speed_up_is_not_called_faster() -> None:
    """A narrow pool, a wide one and one without a spare: each is described truthfully."""
    narrow, wide, spareless = pool(20, 1), pool(48, 2), pool(24, 0)
    assert resilver_fraction(20) > 1  # the model gives no speed-up at this width
    assert resilver_fraction(48) < 1
    (alone,) = declustered_notes([narrow])
    assert "x1" not in alone
    assert "faster" not in alone
    assert "draid2:8d:20c:1s" in alone
    assert "no speed-up" in alone
    assert "stripes of 10 on 20 drives" in alone

    (mixed,) = declustered_notes([narrow, wide, spareless])
    assert f"as OpenZFS measured (draid2:8d:48c:2s x{1 / resilver_fraction(48):.3g})" in mixed
    faster = mixed.split(";")[0]
    assert "draid2:8d:20c:1s" not in faster
    assert "draid2:8d:24c:0s" not in faster
    assert "draid2:8d:24c:0s has no distributed spare" in mixed
    assert "Stripes lost k+1" in mixed  # the rest of the note stays
    assert declustered_notes([Layout("raid6 8", "raid6", 2, 8)]) == []


def test_a_pools_drives_worth_is_said_to_one_decimal() -> None:
    """A ZFS admin read "42.1818 drives' worth" of a draid3:8d:60c:2s where every other
    count has one decimal: (60 - 2) x 8 / 11 = 42.18... is said 42.2 (failed first)."""
    from planner.core.arrays.layouts import aggregate_shape
    from planner.report.comparison import uneven_notes

    layout = pool(60, 2, parity=3)
    notes = uneven_notes(62, [(layout, aggregate_shape(layout, 62))])
    assert any("a pool holds 42.2 drives' worth of data" in note for note in notes), notes
