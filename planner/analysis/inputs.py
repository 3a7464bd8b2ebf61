"""The scenario's assumptions as :class:`~planner.report.inputs.Inputs` for the exports."""

from __future__ import annotations

from collections.abc import Sequence

from planner.report.inputs import Inputs
from planner.scenario import Scenario


def scenario_inputs(scenario: Scenario, overrides: Sequence[str] = ()) -> Inputs:
    """The values a result of ``scenario`` rests on, in the file's names and units.

    Args:
        scenario: the validated scenario (overrides already applied).
        overrides: the ``--set KEY=VALUE`` texts that were applied, to print as given.
    """
    drive = scenario.drive
    if drive.arr is not None:
        failure: tuple[str, float] = ("drive.arr", drive.arr)
    elif drive.afr is not None:
        failure = ("drive.afr", drive.afr)
    else:
        assert drive.mtbf_hours is not None  # the model requires one of the three
        failure = ("drive.mtbf_hours", drive.mtbf_hours)
    defects = scenario.latent_defect_rate
    return Inputs(
        scenario=scenario.name,
        failure_field=failure[0],
        failure_value=failure[1],
        latent_defects_per_hour=defects.per_hour,
        latent_defects_source=defects.source_text if defects.shows_source else None,
        rebuild_hours=scenario.rebuild_hours,
        rebuild_mb_per_s=scenario.rebuild_mb_per_s,
        scrub_hours=scenario.restore.scrub_hours,
        mission_years=scenario.mission_years,
        data_disks=scenario.aggregate.data_disks,
        hot_spares=scenario.aggregate.hot_spares,
        capacity_tb=drive.capacity_tb,
        overrides=tuple(overrides),
        parallel_rebuilds=scenario.restore.parallel_rebuilds,
        on_unreadable_sector=scenario.restore.on_unreadable_sector,
        prices=scenario.cost_prices(),
    )
