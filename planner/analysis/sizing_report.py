"""A workload's sizing report: every layout sized for it, and where its restore time comes from.

``planner size``, the TUI's sizing table and the tornado of a sized aggregate take the
layouts sized here (:func:`sized_results`: :func:`planner.core.design.sizing.size_layouts`
with the scenario's rates, correlation, ageing, hot spares and costs); :func:`sizing_report`
is what ``planner size`` renders. :func:`rebuild_source` says where the mean restore time
comes from, for the sizing and the compare table alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from planner.analysis.ageing import with_aged
from planner.analysis.correlation import independent_scenario, with_independent
from planner.analysis.costs import priced_sizing, scenario_cost_note
from planner.analysis.input_notes import kept_label_notes
from planner.analysis.inputs import Inputs
from planner.analysis.restore_notes import restore_notes
from planner.analysis.spares import sizing_with_spares, spares_notes
from planner.core.arrays.layouts import Layout
from planner.core.design.sizing import SizingResult, size_layouts
from planner.core.markov.transient import relative_risk
from planner.scenario import Scenario
from planner.scenario.defects import workload_read_defects

if TYPE_CHECKING:
    from planner.core.arrays.rebuild import Drive
    from planner.core.design.sizing import MailboxWorkload, PlainWorkload

NO_WORKLOAD = (
    "scenario has no workload section; add one (see docs/sizing.md), or start from "
    "scenarios/lenovo-s3200.yaml"
)


@dataclass(frozen=True)
class RebuildSource:
    """Where the mean restore time comes from: given, or the rebuild model's terms.

    Attributes:
        hours: the mean restore time (h).
        capacity_tb: the drive's capacity (TB) the rebuild model rewrites; None when the
            restore time is given (``restore.rebuild_hours``).
        rebuild_mb_per_s: the model's rebuild rate (MB/s); None likewise.
        load_factor: how much longer the host load makes the rebuild (x).
        load: the named load (``busy``), or None.
        delay_hours: the wait for a replacement drive before the rebuild (h).
        rate_field: the scenario field the rate comes from.
        hot_spares: the aggregate's dedicated spares, which shorten the wait
            (:mod:`planner.core.arrays.hot_spares`); the hours are without one.
    """

    hours: float
    capacity_tb: float | None = None
    rebuild_mb_per_s: float | None = None
    load_factor: float = 1.0
    load: str | None = None
    delay_hours: float = 0.0
    rate_field: str = "restore.rebuild_mb_per_s"
    hot_spares: int = 0


def rebuild_source(scenario: Scenario) -> RebuildSource:
    """The mean restore time of ``scenario`` and where it comes from."""
    restore = scenario.restore
    return RebuildSource(
        hours=scenario.rebuild_hours,
        capacity_tb=scenario.drive.capacity_tb,
        rebuild_mb_per_s=scenario.rebuild_mb_per_s,
        load_factor=restore.rebuild_load_factor,
        load=restore.load,
        delay_hours=restore.delay_hours,
        rate_field=(
            "drive.sustained_mb_per_s" if restore.uses_drive_rate else "restore.rebuild_mb_per_s"
        ),
        hot_spares=scenario.aggregate.hot_spares,
    )


def sized_results(scenario: Scenario) -> tuple[SizingResult, ...] | None:
    """Every layout sized for the workload, with the sized aggregate's risk; None without one.

    The restore time is the scenario's (``restore.rebuild_hours`` or the rebuild model's);
    with ``drive.price`` or ``drive.watts`` each sized aggregate carries its cost.
    """
    if scenario.workload is None:
        return None
    sized = _sized(scenario)
    if scenario.correlated:
        sized = with_independent(sized, _sized(independent_scenario(scenario)))
    sized = with_aged(scenario, sized, scenario.core_layouts())
    return priced_sizing(sizing_with_spares(sized, scenario.aggregate.hot_spares), scenario)


def _sized(scenario: Scenario) -> tuple[SizingResult, ...]:
    """Every layout sized for the scenario's workload (:func:`size_layouts`)."""
    assert scenario.workload is not None  # the caller checked
    restore = scenario.restore
    return size_layouts(
        scenario.core_layouts(),
        scenario.workload.core_workload(),
        scenario.core_drive(),
        rates=scenario.rates(),
        mission_hours=scenario.mission_hours,
        write_penalties=scenario.write_penalties(),
        load_factor=restore.rebuild_load_factor,
        delay_hours=restore.delay_hours,
        sectors_fail_rebuild=restore.on_unreadable_sector == "fail-rebuild",
        stripe_unit_bytes=scenario.aggregate.stripe_unit_bytes,
        read_defects=workload_read_defects(scenario.drive, scenario.workload),
    )


SIZED_FOR_WORKLOAD = "the workload, layout by layout"
"""What a sizing's inputs say its aggregates are sized for (not aggregate.data_disks)."""


@dataclass(frozen=True)
class SizingReport:
    """Everything a sizing report shows.

    Attributes:
        title: the scenario's name.
        results: one sized layout per row, in the scenario's order.
        workload: what was sized for.
        drive: the drive every layout is built from.
        drive_class: the drive's class name (``10k``), or None when IOPS were given.
        rebuild: where the mean restore time comes from.
        baseline: label of the layout relative risks are measured against, if any.
        inputs: the scenario's assumptions, printed by every export (None: not known).
        cost_note: how the cost columns are made, or "" when the drives are not priced.
        capacity_note: what the drive's capacity does not change (a given restore time
            beside a capacity; :meth:`Scenario.capacity_notes`), said instead of the
            rebuild's source; "" otherwise.
        critical_defects: every layout with each latent defect of a critical rebuild
            counted as a loss, when that bound is 1.1x the table's P(loss) or more for some
            layout (NS3574's chain leaves them out; a note says so); None otherwise.
        label_notes: the layouts a ``--set`` reshaped under a label given by hand
            (:func:`planner.analysis.input_notes.kept_label_notes`).
        spares_note: what the hot spares do to the wait for a replacement, over the sized
            aggregates (:func:`planner.analysis.spares.spares_notes`); "" without spares.
        input_notes: inputs the figures take as given that make them optimistic: a scrub
            faster than one read of a drive, a rebuild faster than one write of it
            (:mod:`planner.analysis.restore_notes`), as evaluate and recommend say them.
        stripe_io_labels: the layouts whose IOPS count stripe I/Os (RAID-Z groups and
            dRAID pools, :attr:`~planner.core.arrays.layouts.Layout.counts_stripe_ios`).
    """

    title: str
    results: tuple[SizingResult, ...]
    workload: MailboxWorkload | PlainWorkload
    drive: Drive
    drive_class: str | None
    rebuild: RebuildSource
    baseline: str | None = None
    inputs: Inputs | None = None
    cost_note: str = ""
    capacity_note: str = ""
    label_notes: tuple[str, ...] = ()
    spares_note: str = ""
    input_notes: tuple[str, ...] = ()
    stripe_io_labels: tuple[str, ...] = ()

    @property
    def mission_hours(self) -> float:
        """Mission of the loss probabilities, hours (the same for every row)."""
        return self.results[0].mission_hours


@dataclass(frozen=True)
class SizedRow:
    """One sized layout and its aggregate's risk relative to the baseline's sized aggregate.

    Attributes:
        result: the layout sized for the workload.
        relative_risk: P(loss) of its sized aggregate over the baseline's (NaN without a
            baseline).
    """

    result: SizingResult
    relative_risk: float


def sized_rows(report: SizingReport) -> list[SizedRow]:
    """The report's layouts in order, each sized aggregate's risk over the baseline's."""
    base = next((r for r in report.results if r.label == report.baseline), None)
    return [
        SizedRow(
            r,
            math.nan if base is None else relative_risk(r.p_loss_aggregate, base.p_loss_aggregate),
        )
        for r in report.results
    ]


def sizing_report(scenario: Scenario, inputs: Inputs | None = None) -> SizingReport | None:
    """The sizing ``planner size`` renders (None when the scenario has no workload)."""
    results = sized_results(scenario)
    if results is None or scenario.workload is None:
        return None
    drive = scenario.drive
    return SizingReport(
        title=scenario.name,
        results=results,
        workload=scenario.workload.core_workload(),
        drive=scenario.core_drive(),
        drive_class=drive.drive_class if drive.iops_per_drive is None else None,
        rebuild=rebuild_source(scenario),
        baseline=scenario.baseline_label(),
        inputs=None if inputs is None else replace(inputs, sized_for=SIZED_FOR_WORKLOAD),
        cost_note=scenario_cost_note(scenario, results[0].required_tb if results else None) or "",
        capacity_note=next(iter(scenario.capacity_notes()), ""),
        label_notes=tuple(kept_label_notes(scenario, () if inputs is None else inputs.overrides)),
        spares_note=" ".join(
            spares_notes(scenario, _sized_aggregates(scenario, results), waits_only=True)
        ),
        input_notes=restore_notes(scenario),
        stripe_io_labels=tuple(x.label for x in scenario.core_layouts() if x.counts_stripe_ios),
    )


def _sized_aggregates(
    scenario: Scenario, results: Sequence[SizingResult]
) -> list[tuple[Layout, int]]:
    """Each sized layout with its aggregate's groups, which share the hot spares."""
    layouts = {layout.label: layout for layout in scenario.core_layouts()}
    return [(layouts[r.label], r.groups) for r in results]
