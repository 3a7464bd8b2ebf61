"""The enclosures section: failure domains the drives of each group share (docs/domains.md).

Shelves, controllers, cables and power feeds take several drives offline at once; Jiang,
Hu, Zhou and Kanevsky ("Are disks the dominant contributor for storage failures? A
comprehensive study of storage subsystem failure characteristics", FAST 2008) found
physical interconnect failures as frequent as disk failures in storage subsystems. The
section gives how often one enclosure fails, how long its repair takes (its drives are
unavailable meanwhile and come back with their data), and how each group sits in them:
``members_per_enclosure`` (a group of N spans ``ceil(N / members)`` enclosures, the last
holding the rest) or ``spread`` (enclosures per group, filled as evenly as they go). The
rule holds for every layout of the scenario; setting one removes the other. Converted to
the core's per-hour values by :meth:`EnclosureSpec.core_enclosures`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field, model_validator

from planner.core.markov.domains import check_domain_size
from planner.core.markov.enclosures import Enclosures
from planner.core.markov.rates import HOURS_PER_YEAR
from planner.scenario.ageing import Ageing
from planner.scenario.base import Count, FieldError, FrozenModel, at_least, meta
from planner.scenario.layout import LayoutSpec
from planner.scenario.limits import (
    MAX_ENCLOSURE_FAILURES_PER_YEAR,
    MAX_ENCLOSURE_REPAIR_HOURS,
    MIN_RESTORE_HOURS,
)

PLAUSIBLE_ENCLOSURE_FAILURES_PER_YEAR = 0.1
"""Failures of one enclosure per year when the file gives none (docs/domains.md): Jiang et
al. (FAST 2008; 1.8 million disks in 155,000 shelves) found physical interconnect failures
(shelf enclosures, backplanes, cables) 27-68% of storage subsystem failures against 20-55%
for the disks, so about as frequent as a shelf's disk failures: 0.12 a year for 12 drives at
an ARR of 1%."""

DEFAULT_ENCLOSURE_REPAIR_HOURS = 24.0
"""Mean repair of a failed enclosure when the file gives none (hours): a part delivered the
next business day ("standard HP CSR part delivery is next business day", HP StorageWorks
2500 Disk System User Manual); a four-hour on-site contract brings it to a few hours."""

MAX_MEMBERS = 1000
"""Most drives of a group an enclosure, or a group's spread, may name (a group's most)."""


class EnclosureSpec(FrozenModel):
    """Enclosures the drives of each group share: their failures, repairs and placement."""

    failures_per_year: float = at_least(
        0.0,
        default=PLAUSIBLE_ENCLOSURE_FAILURES_PER_YEAR,
        le=MAX_ENCLOSURE_FAILURES_PER_YEAR,
        description="Failures of one enclosure per year (shelf, backplane, controller, cable "
        "or power feed: its drives go offline at once; default "
        f"{PLAUSIBLE_ENCLOSURE_FAILURES_PER_YEAR:g}, docs/domains.md). 0: enclosures never "
        "fail, the figures without them.",
        json_schema_extra=meta("Encl./yr", "per enclosure-year", "0.1"),
    )
    repair_hours: float = at_least(
        MIN_RESTORE_HOURS,
        default=DEFAULT_ENCLOSURE_REPAIR_HOURS,
        le=MAX_ENCLOSURE_REPAIR_HOURS,
        description="Mean time to repair a failed enclosure (hours); its drives are "
        "unavailable until then and come back with their data (default "
        f"{DEFAULT_ENCLOSURE_REPAIR_HOURS:g}: a part the next business day).",
        json_schema_extra=meta("Repair h", "hours", "24"),
    )
    members_per_enclosure: Count | None = Field(
        default=None,
        ge=1,
        le=MAX_MEMBERS,
        description="Drives of one group in each enclosure: a group of N spans ceil(N / "
        "members) enclosures, the last holding the rest (12 drives, 5 per enclosure: 5 + 5 "
        "+ 2). Give this or spread.",
        json_schema_extra=meta("Per encl.", "drives", "2", replaces=("spread",)),
    )
    spread: Count | None = Field(
        default=None,
        ge=1,
        le=MAX_MEMBERS,
        description="Enclosures one group spans, filled as evenly as they go (12 drives over 5: "
        "3 + 3 + 2 + 2 + 2); a group of fewer drives takes one enclosure per drive. Give "
        "this or members_per_enclosure.",
        json_schema_extra=meta(
            "Spread", "enclosures per group", "6", replaces=("members_per_enclosure",)
        ),
    )

    @model_validator(mode="after")
    def _one_rule(self) -> EnclosureSpec:
        if self.members_per_enclosure is None and self.spread is None:
            raise FieldError(
                "say how each group sits in the enclosures: give members_per_enclosure "
                "(drives of a group per enclosure) or spread (enclosures per group)",
                "members_per_enclosure",
            )
        if self.members_per_enclosure is not None and self.spread is not None:
            raise FieldError("give members_per_enclosure or spread, not both", "spread")
        return self

    @property
    def active(self) -> bool:
        """Enclosures fail: the risk differs from the drives' alone."""
        return self.failures_per_year > 0.0

    def core_enclosures(self) -> Enclosures:
        """The core's inputs (:class:`~planner.core.markov.enclosures.Enclosures`, per hour)."""
        return Enclosures(
            failures_per_hour=self.failures_per_year / HOURS_PER_YEAR,
            repair_hours=self.repair_hours,
            members_per_enclosure=self.members_per_enclosure,
            spread=self.spread,
        )


def check_enclosure_chains(
    enclosures: EnclosureSpec,
    layouts: Sequence[LayoutSpec],
    *,
    correlated: bool,
    ageing: Ageing | None,
) -> None:
    """Refuse failing enclosures the chain cannot model beside the scenario's other sections.

    Correlated failures and ageing drives are not modelled with enclosures yet, and each
    layout's placement must leave its groups a domain size the chain takes
    (:func:`planner.core.markov.domains.check_domain_size`).

    Raises:
        FieldError: located at ``enclosures``.
    """
    if correlated:
        raise FieldError(
            "correlated failures and enclosures are not modelled together yet: remove "
            "the correlation section, or set enclosures.failures_per_year to 0",
            "enclosures",
        )
    if ageing is not None:
        raise FieldError(
            "ageing drives and enclosures are not modelled together yet: remove the "
            "ageing section, or set enclosures.failures_per_year to 0",
            "enclosures",
        )
    core = enclosures.core_enclosures()
    for layout in [spec.core_layout() for spec in layouts]:
        try:
            check_domain_size(layout.parity, core.placement(layout.group_size))
        except ValueError as error:
            raise FieldError(f"{layout.label}: {error}", "enclosures") from None
