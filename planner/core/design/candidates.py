"""The layouts a recommendation considers: the search space and its candidates.

A search space (:class:`SearchSpace`) gives the candidate layouts: mirrors, parity groups
of every size in a range, declustered pools of widths across OpenZFS's range, the pools
right-sized for the need among them (:func:`pool_widths`). :func:`count_candidates` sizes a
space by arithmetic, so a huge one is refused before it is built. What is then chosen among
them is :mod:`planner.core.design.recommend`'s.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from planner.core.arrays.declustered import MAX_CHILDREN, Declustered
from planner.core.arrays.layouts import Layout

PARITY_PRESETS = {1: "raid5", 2: "raid6", 3: "raid-tp"}
"""The preset a parity group of k drives is labelled with (``n+k`` beyond)."""

RAIDZ_PRESETS = {1: "raidz1", 2: "raidz2", 3: "raidz3"}
"""The same for a ZFS search (:attr:`SearchSpace.raidz`): RAID-Z, which counts stripe I/Os."""


@dataclass(frozen=True)
class SearchSpace:
    """The layouts a recommendation considers.

    Attributes:
        mirrors: RAID 10 (2-way) and 3-way mirrors.
        parities: parity drives per group of the parity layouts (k).
        min_group_size: smallest parity group, parity included.
        max_group_size: largest parity group, parity included.
        declustered: declustered pools (dRAID), one per combination of the three below
            and each parity in ``parities`` up to 3.
        draid_data: data blocks per stripe of the pools.
        draid_children: drives per pool, or None (the default) for widths across the
            whole range, ``d + p + s`` to 255, the right-sized ones included
            (:func:`pool_widths`).
        draid_spares: distributed spares per pool.
        raidz: parity groups as ZFS RAID-Z (raidz1-3, sized in stripe I/Os).
        hardware: parity groups as hardware RAID 5, 6 and triple parity; with ``raidz``
            too, both kinds are searched (``n+k`` beyond k = 3 once, either way).
    """

    mirrors: bool = True
    parities: tuple[int, ...] = (1, 2, 3)
    min_group_size: int = 3
    max_group_size: int = 30
    declustered: bool = False
    draid_data: tuple[int, ...] = (4, 8, 16)
    draid_children: tuple[int, ...] | None = None
    draid_spares: tuple[int, ...] = (1, 2)
    raidz: bool = False
    hardware: bool = True

    def group_kinds(self, parity: int) -> list[str | None]:
        """The presets of the parity groups of ``parity`` drives searched (None: ``n+k``)."""
        if parity > 3 or not self.raidz:
            return [PARITY_PRESETS.get(parity)]
        kinds = [PARITY_PRESETS[parity]] if self.hardware else []
        return [*kinds, RAIDZ_PRESETS[parity]]


@dataclass(frozen=True)
class PoolNeeds:
    """What the aggregate must hold and serve, to right-size pools.

    Attributes:
        data_drives: drives' worth of data (required TB / usable TB per drive).
        iops_drives: drives' worth of small random IOPS (host IOPS / IOPS per drive); 0
            without a workload.
    """

    data_drives: float
    iops_drives: float = 0.0


POOL_WIDTH_STEP = 1.25
"""Ratio between neighbouring widths of the ladder :func:`pool_widths` searches."""

FAMILIAR_POOL_WIDTHS = (24, 48, 96)
"""Widths always searched when they fit (the former defaults, for comparison)."""

RIGHT_SIZED_POOL_COUNTS = 4
"""How many pool counts :func:`pool_widths` right-sizes a width for: the fewest pools
that can hold the need, and the next three."""

_SLACK = 1e-9
"""Relative slack before rounding up a width (floating-point noise adds no drive)."""


def _ceil(value: float) -> int:
    return math.ceil(value * (1.0 - _SLACK))


def pool_widths(
    parity: int, data: int, spares: int, needs: PoolNeeds | None = None
) -> tuple[int, ...]:
    """The children searched for pools of ``d`` data, ``p`` parity and ``s`` spares.

    A ladder from the narrowest pool, ``d + p + s``, to OpenZFS's 255 in steps of
    :data:`POOL_WIDTH_STEP`, the :data:`FAMILIAR_POOL_WIDTHS` that fit and, given
    ``needs``, the right-sized widths: for ``m`` pools, the fewest children that hold the
    data (``m (C - s) d / (d + p) >= data drives``) and serve the IOPS (``m floor((C - s) /
    (d + p)) >= IOPS drives``), for the fewest ``m`` that fit in 255 children and the next
    :data:`RIGHT_SIZED_POOL_COUNTS` - 1. At most about 25 widths, sorted.
    """
    width = data + parity
    low, high = width + spares, MAX_CHILDREN
    if low > high:
        return ()
    widths = {low, high, *(c for c in FAMILIAR_POOL_WIDTHS if low <= c <= high)}
    step = float(low)
    while step < high:
        widths.add(round(step))
        step *= POOL_WIDTH_STEP
    if needs is not None and (needs.data_drives > 0 or needs.iops_drives > 0):
        per_pool_data = (high - spares) * data / width
        per_pool_iops = (high - spares) // width
        fewest = max(
            1,
            _ceil(needs.data_drives / per_pool_data),
            _ceil(needs.iops_drives / per_pool_iops) if needs.iops_drives > 0 else 1,
        )
        for pools in range(fewest, fewest + RIGHT_SIZED_POOL_COUNTS):
            for_data = spares + _ceil(needs.data_drives * width / (data * pools))
            for_iops = spares + width * _ceil(needs.iops_drives / pools)
            widths.add(min(high, max(low, for_data, for_iops)))
    return tuple(sorted(widths))


@dataclass(frozen=True)
class CandidateCount:
    """How many layouts :func:`candidate_layouts` gives, by kind, counted without them.

    Attributes:
        mirrors: RAID 10 and 3-way mirrors (0 or 2).
        groups: parity groups, every k and size.
        pools: declustered pools whose stripe fits.
    """

    mirrors: int
    groups: int
    pools: int

    @property
    def total(self) -> int:
        """Every candidate."""
        return self.mirrors + self.groups + self.pools


def count_candidates(space: SearchSpace, needs: PoolNeeds | None = None) -> CandidateCount:
    """The size of ``space`` by arithmetic, so that a huge one is refused before it is built.

    Counts what :func:`candidate_layouts` lists: groups of ``max(k + 1, min)`` to ``max``
    drives for each k, and per parity (up to 3), pool width and spare count, the stripe
    widths with ``d + k <= C - s`` (a binary search in the sorted ``draid_data``). Without
    ``space.draid_children`` each stripe shape's :func:`pool_widths` are counted (at most
    about 25 each, so the count stays cheap whatever the lists).
    """
    groups = sum(
        len(space.group_kinds(k))
        * max(0, space.max_group_size - max(k + 1, space.min_group_size) + 1)
        for k in space.parities
    )
    pools = 0
    if space.declustered:
        data = sorted(space.draid_data)
        for k in (k for k in space.parities if k <= 3):
            if space.draid_children is None:
                for d in data:
                    for spares in space.draid_spares:
                        widths = pool_widths(k, d, spares, needs)
                        pools += sum(1 for c in widths if d + k <= c - spares)
                continue
            for children in space.draid_children:
                for spares in space.draid_spares:
                    pools += bisect.bisect_right(data, children - spares - k)
    return CandidateCount(2 if space.mirrors else 0, groups, pools)


def candidate_layouts(space: SearchSpace, needs: PoolNeeds | None = None) -> list[Layout]:
    """Every layout of ``space``: mirrors, then parity groups by k and size, then pools.

    Parity groups need at least one data drive (N > k); pools whose stripe does not fit
    (``d + p > C - s``) are left out. Without ``space.draid_children`` the pools' widths
    are :func:`pool_widths` (right-sized for ``needs`` when given).
    """
    layouts: list[Layout] = []
    if space.mirrors:
        layouts += [Layout("raid10 2", "raid10", 1, 2), Layout("mirror3 3", "mirror3", 2, 3)]
    for k in space.parities:
        for name in space.group_kinds(k):
            for size in range(max(k + 1, space.min_group_size), space.max_group_size + 1):
                label = f"{name or f'n+{k}'} {size}"
                layouts.append(Layout(label, name, k, size))
    if space.declustered:
        for k in (k for k in space.parities if k <= 3):
            for data in space.draid_data:
                for spares in space.draid_spares:
                    given = space.draid_children
                    widths = pool_widths(k, data, spares, needs) if given is None else given
                    for children in widths:
                        if data + k > children - spares:
                            continue
                        layouts.append(
                            Layout(
                                f"draid{k}:{data}d:{children}c:{spares}s",
                                f"draid{k}",
                                k,
                                children,
                                Declustered(data, spares),
                            )
                        )
    return layouts
