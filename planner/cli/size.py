"""``planner size``: disks each layout needs for the scenario's workload, and their risk."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from planner.cli.output import Format, fail, load

if TYPE_CHECKING:
    from planner.report.sizing import SizingReport
    from planner.scenario import Scenario

NO_WORKLOAD = "scenario has no workload section; add one (see README)"


def run_size(
    file: Path | None, output_format: Format, output: Path | None, overrides: list[str] | None
) -> None:
    """Load the scenario, size every layout, print or write the report; exit 2 on bad input."""
    scenario = load(file, overrides)
    if scenario.workload is None:
        where = str(file) if file is not None else "<default scenario>"
        fail(f"{where}: {NO_WORKLOAD}")
    render_sizing(sizing_report(scenario), output_format, output)


def sizing_report(scenario: Scenario) -> SizingReport:
    """Size the scenario's layouts for its workload (the scenario must have one)."""
    from planner.core.sizing import size_layouts
    from planner.report.sizing import SizingReport

    if scenario.workload is None:
        raise ValueError(NO_WORKLOAD)
    restore, drive = scenario.restore, scenario.core_drive()
    results = size_layouts(
        scenario.core_layouts(),
        scenario.workload.core_workload(),
        drive,
        rates=scenario.rates(),
        mission_hours=scenario.mission_hours,
        write_penalties=scenario.write_penalties(),
        load_factor=restore.rebuild_load_factor,
        delay_hours=restore.delay_hours,
    )
    return SizingReport(
        title=scenario.name,
        results=results,
        workload=scenario.workload.core_workload(),
        drive=drive,
        drive_class=scenario.drive.drive_class if scenario.drive.iops_per_drive is None else None,
        rebuild=scenario_rebuild_note(scenario),
    )


def scenario_rebuild_note(scenario: Scenario) -> str:
    """The scenario's mean restore time and where it comes from, in one line."""
    from planner.report.sizing import rebuild_note

    restore = scenario.restore
    return rebuild_note(
        hours=scenario.rebuild_hours,
        capacity_tb=scenario.drive.capacity_tb,
        rebuild_mb_per_s=restore.rebuild_mb_per_s,
        load_factor=restore.rebuild_load_factor,
        load=restore.load,
        delay_hours=restore.delay_hours,
    )


def render_sizing(report: SizingReport, output_format: Format, output: Path | None) -> None:
    """Print or write ``report`` as a Rich table, Markdown, CSV or JSON."""
    from planner.cli.render import render_report, texts_of
    from planner.report import sizing as render

    render_report(
        output_format,
        output,
        lambda width: render.to_rich_table(report, max_width=width),
        render.notes(report),
        texts_of(render, report),
    )
