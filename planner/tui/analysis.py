"""The TUI's computations beyond the comparison, kept free of Textual: sizing and sensitivity.

Each function takes a validated :class:`~planner.scenario.Scenario` and calls the core the
same way the matching CLI command does (``planner size``, ``planner sensitivity``), so the
TUI and the CLI always show the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.core.sensitivity import tornado
from planner.core.sizing import SizingResult, size_layouts
from planner.core.sweep import SweepPoint
from planner.report.fields import SCENARIO_FIELDS
from planner.report.sensitivity import SensitivityReport
from planner.report.sizing import SizingReport, rebuild_note
from planner.scenario import Scenario


def size(scenario: Scenario) -> tuple[SizingResult, ...] | None:
    """Every layout sized for the scenario's workload, with the sized aggregate's risk.

    None when the scenario has no ``workload`` section. The restore time is the scenario's
    (``restore.rebuild_hours`` or the rebuild model's), as ``planner size`` uses it.
    """
    if scenario.workload is None:
        return None
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
    )


def scenario_rebuild_note(scenario: Scenario) -> str:
    """The mean restore time and where it comes from (``Rebuild 3.09 h: 0.3 TB at ...``)."""
    restore = scenario.restore
    return rebuild_note(
        hours=scenario.rebuild_hours,
        capacity_tb=scenario.drive.capacity_tb,
        rebuild_mb_per_s=restore.rebuild_mb_per_s,
        load_factor=restore.rebuild_load_factor,
        load=restore.load,
        delay_hours=restore.delay_hours,
    )


def sizing_report(scenario: Scenario, results: tuple[SizingResult, ...]) -> SizingReport:
    """``results`` (of :func:`size`) as the report ``planner size`` renders."""
    if scenario.workload is None:
        raise ValueError("the scenario has no workload section")
    drive = scenario.drive
    return SizingReport(
        title=scenario.name,
        results=results,
        workload=scenario.workload.core_workload(),
        drive=scenario.core_drive(),
        drive_class=drive.drive_class if drive.iops_per_drive is None else None,
        rebuild=scenario_rebuild_note(scenario),
    )


@dataclass(frozen=True)
class SensitivitySubject:
    """What a tornado was computed for: the layout and the aggregate's data drives.

    Attributes:
        label: the layout's label.
        data_disks: data drives of the aggregate whose P(loss) is moved.
        sized: True when ``data_disks`` is the layout's sized aggregate (scenario with a
            workload), False when it is ``aggregate.data_disks``.
        rebuild_model: the restore time is derived from ``restore.rebuild_mb_per_s``.
    """

    label: str
    data_disks: int
    sized: bool
    rebuild_model: bool = False


LOW_FACTOR = 0.5
HIGH_FACTOR = 2.0
"""Each input is halved and doubled (``planner sensitivity``'s defaults)."""


def sensitivity(
    scenario: Scenario, label: str | None
) -> tuple[SensitivitySubject, SensitivityReport]:
    """The tornado of the layout ``label`` (None or unknown: the first layout).

    For a scenario with a workload the aggregate is the layout's sized one (the disks it
    needs), so the base P(loss) is the one the compare view shows; otherwise it is
    ``aggregate.data_disks``, as ``planner sensitivity`` uses.
    """
    layouts = {layout.label: layout for layout in scenario.core_layouts()}
    layout = layouts.get(label or "", next(iter(layouts.values())))
    sized = size(scenario)
    data_disks = scenario.aggregate.data_disks
    if sized is not None:
        data_disks = next(r.data_disks for r in sized if r.label == layout.label)
    point = SweepPoint(scenario.rates(), scenario.mission_hours, data_disks)
    inputs = [field.parameter for field in SCENARIO_FIELDS]
    result = tornado(layout.parity, layout.group_size, point, LOW_FACTOR, HIGH_FACTOR, inputs)
    report = SensitivityReport(title=scenario.name, label=layout.label, sensitivity=result)
    subject = SensitivitySubject(
        layout.label, data_disks, sized is not None, scenario.restore.uses_rebuild_model
    )
    return subject, report
