"""Invariants of the sizing arithmetic (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.arrays.layouts import Layout
from planner.core.design.drive_counts import backend_iops, disks_for_capacity, disks_for_iops

layouts = st.builds(
    lambda k, n: Layout("x", None, k, n + k),
    st.integers(1, 3),
    st.integers(1, 20),
)
# Zero, or far enough from zero that a ratio of two inputs does not underflow.
iops = st.one_of(st.just(0.0), st.floats(1e-6, 1e6))
tb = st.one_of(st.just(0.0), st.floats(1e-6, 1e4))
per_drive = st.floats(1.0, 1e5, allow_nan=False)
usable = st.floats(0.05, 30.0, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(layout=layouts, backend=iops, drive_iops=per_drive)
def test_iops_drives_are_whole_groups_and_enough(
    layout: Layout, backend: float, drive_iops: float
) -> None:
    disks = disks_for_iops(backend, drive_iops, layout.group_size)
    assert disks % layout.group_size == 0
    assert disks * drive_iops >= backend * (1 - 1e-9)
    # one group fewer would not be enough
    if disks > 0:
        assert (disks - layout.group_size) * drive_iops < backend


@settings(max_examples=200, deadline=None)
@given(layout=layouts, required=tb, usable_tb=usable)
def test_capacity_drives_are_whole_groups_and_enough(
    layout: Layout, required: float, usable_tb: float
) -> None:
    disks = disks_for_capacity(required, usable_tb, layout)
    assert disks % layout.group_size == 0
    groups = disks // layout.group_size
    assert groups * layout.data_disks_per_group * usable_tb >= required * (1 - 1e-9)
    if groups > 0:
        assert (groups - 1) * layout.data_disks_per_group * usable_tb < required


@settings(max_examples=200, deadline=None)
@given(
    layout=layouts,
    reads=iops,
    writes=iops,
    extra=st.floats(0.0, 1e5, allow_nan=False),
    low=st.floats(0.5, 10.0),
    high_extra=st.floats(0.0, 10.0),
    drive_iops=per_drive,
)
def test_more_load_or_penalty_never_needs_fewer_drives(
    layout: Layout,
    reads: float,
    writes: float,
    extra: float,
    low: float,
    high_extra: float,
    drive_iops: float,
) -> None:
    base = disks_for_iops(backend_iops(reads, writes, low), drive_iops, layout.group_size)
    more_writes = disks_for_iops(
        backend_iops(reads, writes + extra, low), drive_iops, layout.group_size
    )
    more_penalty = disks_for_iops(
        backend_iops(reads, writes, low + high_extra), drive_iops, layout.group_size
    )
    assert more_writes >= base
    assert more_penalty >= base
