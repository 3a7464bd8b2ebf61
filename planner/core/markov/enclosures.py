"""Failure domains: enclosures (shelves, controllers) that take several drives offline at once.

The inputs of the enclosure chain (:mod:`planner.core.markov.domains`, docs/domains.md):
how often one enclosure fails, how long its repair takes, and the placement rule that says
how the drives of one group sit in enclosures. Shelves, controllers, cables and power feeds
fail several drives at once: Jiang, Hu, Zhou and Kanevsky ("Are disks the dominant
contributor for storage failures? A comprehensive study of storage subsystem failure
characteristics", FAST 2008) found physical interconnect failures as frequent as disk
failures in storage subsystems, which is why Ceph places erasure-coded chunks in distinct
hosts or racks (CRUSH failure domains).

A placement (:class:`Placement`) is at most two sizes of enclosure: a group of N drives with
``members_per_enclosure`` s spans ``ceil(N / s)`` enclosures, ``N // s`` holding s drives and
one the remaining ``N mod s``; with ``spread`` E it spans E enclosures as evenly as they go
(``N mod E`` of them one drive more than the others). A rule wider than the group takes it
whole: s >= N is one enclosure, E >= N one drive in each.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["EnclosureRisk", "Enclosures", "Placement", "placement_of"]


@dataclass(frozen=True, order=True)
class Placement:
    """How one group's drives sit in enclosures: two sizes at most.

    Attributes:
        large: enclosures holding ``large_size`` drives of the group.
        large_size: drives of the group in each of them (>= 1).
        small: enclosures holding ``small_size`` drives (0 when every one is alike).
        small_size: drives in each of those (below ``large_size``; 0 when ``small`` is 0).
    """

    large: int
    large_size: int
    small: int = 0
    small_size: int = 0

    def __post_init__(self) -> None:
        if self.large < 1 or self.large_size < 1:
            raise ValueError("a placement needs at least one enclosure holding a drive")
        if self.small < 0 or (self.small > 0) != (0 < self.small_size < self.large_size):
            raise ValueError("the smaller enclosures must hold fewer drives than the larger")

    @property
    def enclosures(self) -> int:
        """Enclosures the group spans."""
        return self.large + self.small

    @property
    def drives(self) -> int:
        """Drives of the group, N."""
        return self.large * self.large_size + self.small * self.small_size

    def text(self) -> str:
        """``4 x 3`` or ``2 x 5 + 1 x 2``: enclosures x drives of the group in each."""
        first = f"{self.large} x {self.large_size}"
        return first if not self.small else f"{first} + {self.small} x {self.small_size}"


def placement_of(
    drives: int, members_per_enclosure: int | None = None, spread: int | None = None
) -> Placement:
    """The placement of a group of ``drives`` drives by one of the two rules (module docstring).

    Raises ValueError unless exactly one rule is given, as a whole number >= 1.
    """
    if drives < 1:
        raise ValueError(f"a group needs at least one drive, got {drives}")
    if (members_per_enclosure is None) == (spread is None):
        raise ValueError("give members_per_enclosure or spread, not both")
    if members_per_enclosure is not None:
        members = min(_whole(members_per_enclosure, "members_per_enclosure"), drives)
        full, rest = divmod(drives, members)
        return Placement(full, members, 1 if rest else 0, rest)
    assert spread is not None
    count = min(_whole(spread, "spread"), drives)
    each, rest = divmod(drives, count)
    if rest == 0:
        return Placement(count, each)
    return Placement(rest, each + 1, count - rest, each)


def _whole(value: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    return value


@dataclass(frozen=True)
class Enclosures:
    """Enclosures shared by a group's drives: their failures, repairs and the placement.

    Attributes:
        failures_per_hour: failures of one enclosure per hour (>= 0; 0: neutral, the chain
            without enclosures).
        repair_hours: mean time to repair a failed enclosure (h, > 0); its drives come back
            with their data.
        members_per_enclosure: drives of one group in each enclosure (the placement rule),
            or None when ``spread`` gives it.
        spread: enclosures one group spans, or None when ``members_per_enclosure`` gives it.
    """

    failures_per_hour: float
    repair_hours: float
    members_per_enclosure: int | None = None
    spread: int | None = None

    def __post_init__(self) -> None:
        rate = self.failures_per_hour
        if not (math.isfinite(rate) and rate >= 0):
            raise ValueError(f"failures_per_hour must be >= 0 and finite, got {rate!r}")
        hours = self.repair_hours
        if not (math.isfinite(hours) and hours > 0):
            raise ValueError(f"repair_hours must be positive and finite, got {hours!r}")
        placement_of(1, self.members_per_enclosure, self.spread)  # checks the rule

    @property
    def active(self) -> bool:
        """Enclosures fail: the chain differs from the one without them."""
        return self.failures_per_hour > 0.0

    def placement(self, drives: int) -> Placement:
        """The placement of a group of ``drives`` drives."""
        return placement_of(drives, self.members_per_enclosure, self.spread)


@dataclass(frozen=True)
class EnclosureRisk:
    """How a layout's groups sit in enclosures and how often they stop (docs/domains.md).

    Attributes:
        placement: how one group sits in enclosures.
        p_unavailable_group: P(the group stops serving at least once in the mission: an
            enclosure outage takes more of its drives offline than its parity, or it loses
            data).
        p_unavailable_aggregate: P(some group does), ``1 - (1 - p)^groups`` with the groups
            taken as independent: groups that share enclosures stop together, so the true
            figure lies between one group's and this.
    """

    placement: Placement
    p_unavailable_group: float
    p_unavailable_aggregate: float
