"""The scenario's assumptions behind every result (:class:`Inputs`), for the exports.

A table of probabilities means little without the rates behind it: every result carries
these values in the scenario file's own names and units, plus the ``--set`` overrides given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from planner.scenario import Scenario
from planner.scenario.defects import workload_read_defects

if TYPE_CHECKING:
    from planner.core.arrays.cost import CostPrices
    from planner.scenario.ageing import Ageing


@dataclass(frozen=True)
class Inputs:
    """The scenario values behind a result, in the scenario file's units.

    Every result of this package carries them; :mod:`planner.report.inputs` writes them
    into every export (a caption, a CSV comment, the JSON ``inputs``).

    Attributes:
        scenario: the scenario's name.
        failure_field: which operational failure rate the file gives: ``drive.arr``,
            ``drive.afr`` or ``drive.mtbf_hours``.
        failure_value: its value (a fraction per year, or hours for an MTBF).
        latent_defects_per_hour: latent defects per drive-hour (given, or read errors per
            byte x bytes read per hour).
        rebuild_hours: mean restore time (h), given or from the rebuild model.
        rebuild_mb_per_s: the rebuild model's rate (MB/s), or None when hours are given.
        latent_defects_from_workload: the latent-defect rate is made from the workload's
            reads, so an aggregate sized for the workload takes its own (its data drives'
            reads); ``latent_defects_per_hour`` is then that of ``aggregate.data_disks``.
        rebuild_slowed_by: what slows that rate, as the file writes it (``restore.load:
            busy``, ``restore.load_factor``), None when nothing does or hours are given;
            ``rebuild_load_factor`` is by how much.
        rebuild_load_factor: the factor the rebuild model's time is multiplied by (1: none).
        replace_delay_hours: hours before the rebuild starts, in the model's time (0: none).
        scrub_hours: mean time for a scrub to find a latent defect (h).
        mission_years: mission length (years of 8,760 h).
        data_disks: data drives of the aggregate (``aggregate.data_disks``).
        capacity_tb: TB per drive, or None when the scenario does not say.
        usable_fraction: the share of a drive that holds data (``drive.usable_fraction``,
            default 0.9).
        overrides: the ``--set KEY=VALUE`` overrides applied, as given.
        parallel_rebuilds: ``restore.parallel_rebuilds``: False (one at a time), True (all
            failed drives at once) or a number of rebuild streams.
        on_unreadable_sector: ``restore.on_unreadable_sector``: ``lose-sectors`` (the
            default) or ``fail-rebuild`` (a loss with a latent defect counts as the group's).
        prices: the drive's price and power and the ``costs`` section, when the scenario
            prices its drives (None otherwise: the exports then name no price).
        latent_defects_source: where a derived (or overriding) latent-defect rate comes from,
            e.g. ``8 x drive.unrecoverable_read_errors_per_bit x NS3574's field read rate``;
            None for a rate the file gives alone.
        sized_for: what the results size each aggregate for (a workload, a usable-TB
            target), when they do; the summary then says so instead of counting
            ``aggregate.data_disks``, which they do not use.
        hot_spares: dedicated hot spares counted in every drive count
            (``aggregate.hot_spares``).
        correlation: ``(degraded_multiplier, shocks_per_year, shock_drive_probability)``
            of the scenario's ``correlation`` section, None without one (docs/correlated.md).
        enclosures: the ``enclosures`` section's keys given and their values
            (failures_per_year, repair_hours, members_per_enclosure or spread), None
            without one (docs/domains.md).
        ageing: the ``ageing`` section as the file gives it (``arr_by_year`` or ``weibull``,
            and ``drive_age_years_at_start``), None without one (docs/ageing.md).
        ageing_text: the ageing law in words (``Weibull shape 1.3, scale 179,000 h``).
        stripe_unit_kib: a stripe's KiB on each drive (``aggregate.stripe_unit_kib``): what
            a sector-loss event loses in the NOMDL (docs/availability.md).
    """

    scenario: str
    failure_field: str
    failure_value: float
    latent_defects_per_hour: float
    rebuild_hours: float
    rebuild_mb_per_s: float | None
    scrub_hours: float
    mission_years: float
    data_disks: int
    capacity_tb: float | None
    overrides: tuple[str, ...] = field(default=())
    usable_fraction: float = 0.9
    parallel_rebuilds: bool | int = False
    on_unreadable_sector: str = "lose-sectors"
    prices: CostPrices | None = None
    sized_for: str | None = None
    latent_defects_source: str | None = None
    hot_spares: int = 0
    correlation: tuple[float, float, float] | None = None
    enclosures: tuple[tuple[str, float], ...] | None = None
    ageing: dict[str, Any] | None = None
    ageing_text: str | None = None
    stripe_unit_kib: int = 128
    latent_defects_from_workload: bool = False
    rebuild_slowed_by: str | None = None
    rebuild_load_factor: float = 1.0
    replace_delay_hours: float = 0.0


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
        latent_defects_from_workload=workload_read_defects(scenario.drive, scenario.workload)
        is not None,
        rebuild_hours=scenario.rebuild_hours,
        rebuild_mb_per_s=scenario.rebuild_mb_per_s,
        **_rebuild_model(scenario),
        scrub_hours=scenario.restore.scrub_hours,
        mission_years=scenario.mission_years,
        data_disks=scenario.aggregate.data_disks,
        hot_spares=scenario.aggregate.hot_spares,
        stripe_unit_kib=scenario.aggregate.stripe_unit_kib,
        capacity_tb=drive.capacity_tb,
        usable_fraction=scenario.usable_fraction,
        overrides=tuple(overrides),
        parallel_rebuilds=scenario.restore.parallel_rebuilds,
        on_unreadable_sector=scenario.restore.on_unreadable_sector,
        prices=scenario.cost_prices(),
        correlation=(
            None
            if (c := scenario.correlation) is None
            else (c.degraded_multiplier, c.shocks_per_year, c.shock_drive_probability)
        ),
        enclosures=(
            None
            if (e := scenario.enclosures) is None
            else tuple((k, v) for k, v in e.model_dump().items() if v is not None)
        ),
        ageing=None if (a := scenario.ageing) is None else a.model_dump(exclude_none=True),
        ageing_text=None if a is None else _ageing_text(a),
    )


def _ageing_text(section: Ageing) -> str:
    """The ageing law and the drives' age in words, for the inputs line."""
    age = section.drive_age_years_at_start
    start = "new drives" if age == 0 else f"drives {age:g} yr old at start"
    return f"ageing: {section.described}, {start}"


def _rebuild_model(scenario: Scenario) -> dict[str, Any]:
    """What turns the rebuild model's rate into its hours: a load, a delay (none: empty)."""
    restore = scenario.restore
    if scenario.rebuild_mb_per_s is None:
        return {}
    factor = restore.rebuild_load_factor
    return {
        "rebuild_slowed_by": restore.load_source if factor != 1.0 else None,
        "rebuild_load_factor": factor,
        "replace_delay_hours": restore.delay_hours,
    }
