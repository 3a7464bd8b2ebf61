"""Availability and magnitude: the hours a group is degraded, and the bytes its losses lose.

From the chain that goes on after every loss (:mod:`planner.core.markov.going_on`: a lost
group restored from backup, a sector loss restored and the rebuild going on), the life an
administrator plans maintenance and capacity for:

* **hours a year degraded and critical**, one group's (at least one drive down; k drives
  down, no redundancy left), averaged over the mission. An aggregate's groups are each
  degraded that long; their sum is group-hours, not hours of the aggregate.
* **NOMDL**, the normalized magnitude of data loss: the expected bytes lost over the
  mission per usable TB (K. M. Greenan, J. S. Plank and J. J. Wylie, "Mean time to
  meaningless: MTTDL, Markov models, and storage system reliability", HotStorage 2010).
  Each loss is weighted by what it loses:

  ``NOMDL = (E[group losses] x bytes a group loss loses + E[sector-loss events] x bytes a
  sector-loss event loses) x groups / usable bytes of the aggregate x 1e12`` (B per TB),

  where a whole-group loss loses the group's usable capacity (a declustered pool's p + 1
  overlapping failures lose only the stripes that hold all of them,
  :attr:`~planner.core.arrays.layouts.Layout.fraction_lost_on_overlap` of it), and a
  sector-loss event loses the stripe under the latent defect: one stripe unit on each of
  the stripe's data drives (:func:`sector_loss_bytes`). Every group holds the same data,
  so the groups cancel: the aggregate's NOMDL is one group's. Except in ZFS: a RAID-Z or
  dRAID vdev that loses more drives than its parity cannot open, and a pool missing a
  top-level vdev does not import, so one group's loss loses every group's data
  (:func:`groups_lost_per_loss`; a sector loss is still one block).

The bytes of a stripe unit (the chunk or strip each drive holds of a stripe) are the
scenario's ``aggregate.stripe_unit_kib``: 128 KiB by default, OpenZFS's default record size
("zfsprops(7)", OpenZFS documentation: recordsize, default 128K); Linux md's default chunk
is 512 KiB ("mdadm(8)", mdadm manual, --chunk).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from planner.core.markov.aggregate import p_loss_aggregate
from planner.core.markov.enclosures import EnclosureRisk, Placement
from planner.core.markov.loss_figures import LossFigures

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

FloatArray = npt.NDArray[np.float64]

__all__ = [
    "BYTES_PER_TB",
    "DEFAULT_STRIPE_UNIT_BYTES",
    "Availability",
    "StripedLayout",
    "layout_availability",
    "layout_nomdl",
    "nomdl_bytes_per_tb",
    "sector_loss_bytes",
    "with_loss_figures",
]


class StripedLayout(Protocol):
    """What the NOMDL reads of a layout (:class:`~planner.core.arrays.layouts.Layout`)."""

    @property
    def fraction_lost_on_overlap(self) -> float:
        """Share of a group's data k + 1 overlapping failures lose."""

    @property
    def data_capacity(self) -> Fraction:
        """Drives' worth of data per group."""

    @property
    def stripe_data_drives(self) -> int:
        """Data drives of one stripe."""

    @property
    def pool_lost_with_group(self) -> bool:
        """Losing one group loses the whole aggregate's data (a ZFS vdev)."""


def groups_lost_per_loss(layout: StripedLayout, groups: npt.ArrayLike) -> FloatArray:
    """Groups' worth of data one whole-group loss loses: the share, or the whole pool.

    A hardware group loses its own data (a declustered pool's share of stripes that hold
    every failed drive); a ZFS vdev takes the pool with it, all ``groups`` groups' data.
    Counted by the share, a dRAID pool's NOMDL was 0.35% of what its pool loses.
    """
    count = np.asarray(groups, dtype=np.float64)
    if layout.pool_lost_with_group:
        return count
    return np.full(np.shape(count), layout.fraction_lost_on_overlap)


BYTES_PER_TB = 1e12
"""A TB as drive capacities count it (decimal)."""

DEFAULT_STRIPE_UNIT_BYTES = 128 * 1024
"""128 KiB: OpenZFS's default record size (zfsprops(7), recordsize)."""


@dataclass(frozen=True)
class Availability:
    """The going-on chain's figures of one layout's aggregate, and its NOMDL.

    Attributes:
        degraded_hours_per_year: expected hours a year one group has a drive down (h/yr).
        critical_hours_per_year: expected hours a year one group has k drives down, no
            redundancy left (h/yr); k - 1 down and an undiscovered defect is not counted.
        expected_group_losses_group: mean whole-group losses of one group over the mission.
        expected_group_losses: the aggregate's, groups x one group's.
        nomdl_bytes_per_tb: expected bytes lost over the mission per usable TB of the
            aggregate (B/TB); None when the drives' capacity is not known.
    """

    degraded_hours_per_year: float
    critical_hours_per_year: float
    expected_group_losses_group: float
    expected_group_losses: float
    nomdl_bytes_per_tb: float | None


def sector_loss_bytes(stripe_data_drives: int, stripe_unit_bytes: float) -> float:
    """Bytes one sector-loss event loses: the whole stripe's data under the latent defect.

    One stripe unit on each data drive of the stripe (N - k for a traditional group, d for
    a declustered pool: :attr:`~planner.core.arrays.layouts.Layout.stripe_data_drives`):
    the defect's block cannot be rebuilt, nor the blocks of the failed drives in that
    stripe, and a file system that loses a block of a stripe loses the records written
    across it. An upper count for a single bad sector in a record smaller than the stripe.
    """
    return float(stripe_data_drives * stripe_unit_bytes)


def nomdl_bytes_per_tb(
    expected_group_losses: npt.ArrayLike,
    expected_sector_loss_events: npt.ArrayLike,
    *,
    share_lost_on_overlap: npt.ArrayLike,
    group_usable_tb: npt.ArrayLike,
    sector_loss_bytes: npt.ArrayLike,
) -> FloatArray:
    """NOMDL (B/TB) of groups from one group's expected losses (module docstring).

    ``expected_group_losses`` and ``expected_sector_loss_events``: one group's over the
    mission; ``share_lost_on_overlap``: groups' worth of data a whole-group loss loses (1,
    less for a pool's stripes, the aggregate's groups for a ZFS vdev:
    :func:`groups_lost_per_loss`); ``group_usable_tb``: its usable capacity (TB, > 0);
    ``sector_loss_bytes``: what one sector-loss event loses (B). Broadcast together.
    """
    usable_tb = np.asarray(group_usable_tb, dtype=np.float64)
    whole = np.asarray(expected_group_losses, dtype=np.float64) * np.asarray(
        share_lost_on_overlap, dtype=np.float64
    )
    sectors = np.asarray(expected_sector_loss_events, dtype=np.float64) * np.asarray(
        sector_loss_bytes, dtype=np.float64
    )
    result: FloatArray = whole * BYTES_PER_TB + sectors / usable_tb
    return result


def layout_nomdl(
    layout: StripedLayout,
    expected_group_losses: float,
    expected_sector_loss_events: float,
    usable_tb_per_drive: float | None,
    stripe_unit_bytes: float = DEFAULT_STRIPE_UNIT_BYTES,
    groups: float = 1.0,
) -> float | None:
    """The NOMDL (B/TB) of ``groups`` groups of ``layout`` from one group's expected losses.

    ``usable_tb_per_drive``: TB of data one data drive holds, None when unknown (then None:
    a sector loss's bytes cannot be set against the capacity); ``stripe_unit_bytes``: the
    bytes of a stripe each drive holds; ``groups``: the aggregate's, whose data a ZFS
    vdev's loss takes (:func:`groups_lost_per_loss`).
    """
    if usable_tb_per_drive is None or usable_tb_per_drive <= 0:
        return None
    return float(
        nomdl_bytes_per_tb(
            expected_group_losses,
            expected_sector_loss_events,
            share_lost_on_overlap=groups_lost_per_loss(layout, groups),
            group_usable_tb=float(layout.data_capacity) * usable_tb_per_drive,
            sector_loss_bytes=sector_loss_bytes(layout.stripe_data_drives, stripe_unit_bytes),
        )
    )


def layout_availability(
    layout: StripedLayout,
    figures: LossFigures,
    groups: int,
    usable_tb_per_drive: float | None,
    stripe_unit_bytes: float = DEFAULT_STRIPE_UNIT_BYTES,
) -> Availability:
    """The :class:`Availability` of an aggregate of ``groups`` groups of ``layout``.

    ``figures``: one group's (with ``restore.on_unreadable_sector: fail-rebuild`` already
    applied: its sector-loss events counted as group losses); the others as
    :func:`layout_nomdl` takes them.
    """
    return Availability(
        degraded_hours_per_year=figures.degraded_hours_per_year,
        critical_hours_per_year=figures.critical_hours_per_year,
        expected_group_losses_group=figures.expected_group_losses,
        expected_group_losses=groups * figures.expected_group_losses,
        nomdl_bytes_per_tb=layout_nomdl(
            layout,
            figures.expected_group_losses,
            figures.expected_sector_loss_events,
            usable_tb_per_drive,
            stripe_unit_bytes,
            groups,
        ),
    )


_Result = TypeVar("_Result", bound="DataclassInstance")


def with_loss_figures(
    result: _Result,
    figures: LossFigures,
    groups: int,
    availability: Availability,
    placement: Placement | None = None,
) -> _Result:
    """``result`` with what is lost, for one group and for an aggregate of ``groups``.

    Fills the fields :class:`~planner.core.design.layout_comparison.LayoutResult` and
    :class:`planner.core.design.sizing.SizingResult` share
    (:mod:`planner.core.markov.loss_figures`): P(group lost) and P(sectors lost) of one group
    and of the aggregate (each ``1 - (1 - p)^groups``), the expected sector-loss events
    of one group and of the aggregate (groups x one group's), and ``availability``; with the
    group's enclosure ``placement``, P(unavailable) too (:class:`EnclosureRisk`).
    """
    unavailable = figures.p_unavailable
    if placement is not None and unavailable is not None:
        risk = EnclosureRisk(placement, unavailable, p_loss_aggregate(unavailable, groups))
        result = dataclasses.replace(result, enclosures=risk)
    return dataclasses.replace(
        result,
        p_group_lost=figures.p_group_lost,
        p_sectors_lost=figures.p_sectors_lost,
        p_group_lost_aggregate=p_loss_aggregate(figures.p_group_lost, groups),
        p_sectors_lost_aggregate=p_loss_aggregate(figures.p_sectors_lost, groups),
        expected_sector_loss_events_group=figures.expected_sector_loss_events,
        expected_sector_loss_events=groups * figures.expected_sector_loss_events,
        availability=availability,
    )
