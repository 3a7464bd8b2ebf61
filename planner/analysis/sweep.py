"""Group-size and parameter sweeps of a scenario (``planner sweep``, the design review).

Every probability comes from one batch evaluation (:func:`planner.core.design.sweep.sweep`),
as columns; this module chooses the points and layouts, orders the rows by layout, then
varied value, and applies the scenario's hot spares and unreadable-sector rule as array
operations. :class:`SweepReport` is what the report layer renders, as columns too: no
object per row. The TUI's sweep view (F3) takes its series from
:mod:`planner.analysis.sweep_series`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from planner.analysis.ageing import ageing_at
from planner.analysis.correlation import correlation_note
from planner.analysis.domains import enclosure_note
from planner.analysis.input_notes import fixed_aggregate_note, kept_label_notes
from planner.analysis.inputs import scenario_inputs
from planner.analysis.restore_notes import (
    rebuild_note,
    scrub_note,
    varied_rebuild_aside_note,
    varied_time_note,
)
from planner.analysis.spares import sweep_spares_note
from planner.analysis.sweep_notes import ageing_held_note, fewer_groups_note
from planner.analysis.varied_fields import ScenarioField
from planner.core.arrays.layouts import Layout
from planner.core.design.sweep import (
    SweepColumns,
    SweepPoint,
    parameter_points,
    parameter_values,
    sweep,
)
from planner.core.markov.ageing import Ageing
from planner.scenario import Scenario
from planner.scenario.defects import workload_read_defects

if TYPE_CHECKING:
    from planner.analysis.inputs import Inputs

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class VaryRange:
    """The values one scenario field takes in a sweep (``--vary``), in the field's unit.

    Attributes:
        field: the scenario field varied.
        values: its values, in order (whole numbers deduplicated for integer fields).
        log: the values are spaced evenly on a log scale.
    """

    field: ScenarioField
    values: tuple[float, ...]
    log: bool = False

    def core_values(self) -> list[float]:
        """The values in the core's unit (hours for ``mission_years``)."""
        return [self.field.to_core(v) for v in self.values]


def vary_range(
    field: ScenarioField, start: float, stop: float, count: int, log: bool = False
) -> VaryRange:
    """``count`` values of ``field`` from ``start`` to ``stop``, evenly or log-evenly spaced.

    Values keep 12 significant digits (4.5%, not linspace's 0.045000000000000005); an
    integer field's values are rounded to whole numbers and repeats dropped.
    """
    values = [float(f"{v:.12g}") for v in parameter_values(start, stop, count, log)]
    if field.integer:
        values = list(dict.fromkeys(float(math.floor(v + 0.5)) for v in values))
    return VaryRange(field, tuple(values), log)


def sweep_cases(
    scenario: Scenario,
    parities: Sequence[int],
    sizes: Sequence[int],
    varied: VaryRange | None,
    by_layout: bool,
) -> int:
    """How many layout-and-value cases a sweep evaluates (before dropping uneven sizes)."""
    layouts = len(scenario.layouts) if by_layout else len(parities) * len(sizes)
    return layouts * (1 if varied is None else len(varied.values))


def empty_sweep_reason(
    parities: Sequence[int],
    sizes: Sequence[int],
    include_uneven: bool,
    *,
    sizes_text: str,
) -> str:
    """Why a group-size sweep has no rows, and what would give it some.

    A group with k parity drives needs at least k + 1 drives (one of data): where no size
    asked holds any parity asked, ``--all`` cannot help and the message says what size
    would. Otherwise the sizes that hold a parity leave data drives over (no even
    division), which ``--all`` shows.

    Args:
        parities: the parity counts asked (``--parity``).
        sizes: the group sizes asked (``--group-sizes``).
        include_uneven: ``--all`` was given.
        sizes_text: the sizes as the user wrote them (``3..4``).
    """
    too_small = unheld_parities(parities, sizes)
    fitting = sorted(set(parities) - set(too_small))
    if too_small:
        need = too_small[0] + 1
        small = (
            f"no group size in {sizes_text} can hold parity {_listed(too_small)} and a data "
            f"drive: a group with k parity drives needs at least k + 1 drives, here at "
            f"least {need} (e.g. --group-sizes {need}..{max(need + 1, 30)})"
        )
        if not fitting or include_uneven:
            return small
        return (
            f"{small}; and no size in {sizes_text} divides the data drives evenly for "
            f"parity {_listed(fitting)}: add --all to show every size"
        )
    return (
        f"no group size in {sizes_text} divides the data drives evenly for parity "
        f"{_listed(fitting)}; add --all to show every size"
    )


def _listed(numbers: Sequence[int]) -> str:
    return ",".join(str(n) for n in numbers)


@dataclass(frozen=True)
class SweepReport:
    """Everything a sweep report shows: the rows as columns, and the sweep's setup.

    Attributes:
        title: the scenario's name.
        mission_hours: the scenario's mission (h); rows carry their own when it is varied.
        data_disks: the scenario's data drives; likewise.
        table: the rows, grouped by layout then by varied value, as columns
            (:class:`~planner.core.design.sweep.SweepColumns`); hot spares counted and
            ``restore.on_unreadable_sector`` applied.
        labels: the label of each layout of ``table.layouts`` (the scenario's own layouts),
            or None each for a group-size sweep.
        values: the varied field's value on each row in the field's unit (ARR as a
            fraction, mission in years), or None when nothing is varied.
        varied: the scenario field varied (``--vary``), or None.
        include_uneven: every group size was kept (``--all``), not only even divisions.
        by_layout: the rows are the scenario's own layouts (labelled), not a size range.
        log: the varied values are log-spaced.
        inputs: the scenario's assumptions (the base values), printed by every export.
        section_notes: what the scenario's correlation and enclosures sections add, as
            evaluate's notes say it (docs/correlated.md, docs/domains.md).
    """

    title: str
    mission_hours: float
    data_disks: int
    table: SweepColumns
    labels: tuple[str | None, ...] = ()
    values: FloatArray | None = None
    varied: ScenarioField | None = None
    include_uneven: bool = False
    by_layout: bool = False
    log: bool = False
    inputs: Inputs | None = None
    section_notes: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.table)

    def row_labels(self) -> list[str | None]:
        """Each row's layout label (None for a group-size sweep's rows)."""
        return [self.labels[i] for i in self.table.layout.tolist()]


def _reads_followed(scenario: Scenario, points: list[SweepPoint]) -> list[SweepPoint]:
    """``points`` whose data drives spread the workload's reads, as ``--set`` spreads them.

    Where the workload's reads make the latent-defect rate (docs/drives.md), each point's
    data drives take their own share, as ``evaluate --set aggregate.data_disks=N`` does:
    the sweep kept the base's rate (RAID 10 over 2,000 data drives read 47.5 % in the sweep
    and 7.0 % in evaluate; a newcomer's review). Other points, and those whose rate is
    given (``--vary drive.latent_defects_per_hour``), are left as they are.
    """
    reads = workload_read_defects(scenario.drive, scenario.workload)
    if reads is None:
        return points
    return [
        replace(point, rates=point.rates.with_read_defects(reads.per_hour(point.data_disks)))
        if point.rates.defects_per_data_drive
        else point
        for point in points
    ]


def sweep_report(
    scenario: Scenario,
    parities: Sequence[int],
    sizes: Sequence[int],
    include_uneven: bool,
    varied: VaryRange | None,
    by_layout: bool,
    overrides: Sequence[str] = (),
) -> SweepReport:
    """The sweep the options describe; rows grouped by layout, then by varied value.

    Args:
        scenario: the validated scenario (its rates, mission and data drives are the base).
        parities: parity counts of the group-size sweep (ignored with ``by_layout``).
        sizes: group sizes of the group-size sweep (ignored with ``by_layout``).
        include_uneven: keep group sizes whose data drives do not divide the aggregate.
        varied: the field varied and its values, or None.
        by_layout: sweep the scenario's own layouts (labelled) instead of a size range.
        overrides: the ``--set`` texts applied, for the exports.

    Raises:
        ValueError: a varied value the model rejects.
    """
    base = SweepPoint(scenario.rates(), scenario.mission_hours, scenario.aggregate.data_disks)
    points = (
        [base]
        if varied is None
        else _reads_followed(
            scenario, parameter_points(base, varied.field.parameter, varied.core_values())
        )
    )
    layouts: list[tuple[int, int] | Layout]
    if by_layout:
        core_layouts = scenario.core_layouts()
        layouts = list(core_layouts)
        labels: tuple[str | None, ...] = tuple(x.label for x in core_layouts)
        include_uneven = True
    else:
        layouts = [(k, n) for k in parities for n in sizes]
        labels = ()
    ageings = _ageings(scenario, varied)
    table = with_nomdl(
        scenario, scenario_columns(scenario, sweep(points, layouts, include_uneven, ageings))
    )
    # Grouped by layout (in the order asked), then by point: the points' order is the
    # values' order. A stable sort keeps it within each layout.
    table = table.take(np.argsort(table.layout, kind="stable"))
    if not by_layout:
        labels = (None,) * len(table.layouts)
    values = None
    if varied is not None:
        per_point = np.array([varied.field.from_core(v) for v in varied.core_values()])
        values = per_point[table.point]
    return SweepReport(
        title=scenario.name,
        mission_hours=scenario.mission_hours,
        data_disks=scenario.aggregate.data_disks,
        table=table,
        labels=labels,
        values=values,
        varied=None if varied is None else varied.field,
        include_uneven=include_uneven,
        by_layout=by_layout,
        log=varied is not None and varied.log,
        inputs=scenario_inputs(scenario, overrides),
        section_notes=(
            *(kept_label_notes(scenario, overrides) if by_layout else []),
            *([note] if (note := fixed_aggregate_note(scenario)) else []),
            *_section_notes(scenario, None if varied is None else varied.field.name),
            *([] if varied is None else _varied_time_notes(scenario, varied)),
            *([note] if (note := sweep_spares_note(scenario, table)) else []),
            *([] if by_layout else _unheld_notes(parities, sizes)),
            *([] if by_layout or (note := fewer_groups_note(table)) is None else [note]),
        ),
    )


def unheld_parities(parities: Sequence[int], sizes: Sequence[int]) -> list[int]:
    """The parities asked that no group size asked holds, sorted.

    A group with k parity drives needs at least k + 1 drives (one of data).
    """
    largest = max(sizes, default=0)
    return sorted(k for k in set(parities) if largest <= k)


def _unheld_notes(parities: Sequence[int], sizes: Sequence[int]) -> list[str]:
    """A note for each parity no size asked holds: it has no rows.

    ``--parity 2,5 -g 3..4`` showed the n+2 rows and said nothing of parity 5.
    """
    return [
        f"Parity {k}: no group size asked holds {k} parity drives and a data drive (at least "
        f"{k + 1} drives; the largest asked is {max(sizes)}), so it has no rows."
        for k in unheld_parities(parities, sizes)
    ]


def _ageings(scenario: Scenario, varied: VaryRange | None) -> list[Ageing] | None:
    """Each point's ageing drives (the varied field at its value), or None without ageing."""
    if scenario.ageing is None:
        if varied is not None and varied.field.name.startswith("ageing."):
            raise ValueError(
                f"--vary {varied.field.name}: the scenario has no ageing section to vary "
                "(add ageing: weibull: {shape: 1.3}; docs/ageing.md)"
            )
        return None
    if varied is None:
        return [ageing for ageing in [scenario.core_ageing()] if ageing is not None]
    found = [ageing_at(scenario, varied.field.name, value) for value in varied.values]
    return [ageing for ageing in found if ageing is not None]


def scenario_columns(scenario: Scenario, table: SweepColumns) -> SweepColumns:
    """A sweep's columns with the scenario's hot spares counted and its unreadable sectors.

    Dedicated hot spares (``aggregate.hot_spares``, each point's) add drives and overhead
    (:mod:`planner.analysis.spares`); with ``restore.on_unreadable_sector: fail-rebuild``
    every loss ends the group: P(group lost) is P(loss), no sectors are lost, and each
    sector-loss event is a whole-group loss.
    """
    spares = np.array([point.rates.hot_spares for point in table.points])[table.point]
    if spares.any():  # each point's: the scenario's, or the varied count (--vary)
        table = replace(
            table,
            total_disks=table.total_disks + spares,
            overhead_disks=table.overhead_disks + spares,
        )
    if scenario.restore.on_unreadable_sector == "fail-rebuild":
        zeros = np.zeros(len(table))
        table = replace(
            table,
            p_group_lost=table.p_loss_group,
            p_sectors_lost=zeros,
            p_group_lost_aggregate=table.p_loss_aggregate,
            p_sectors_lost_aggregate=zeros,
            expected_sector_loss_events_group=zeros,
            expected_sector_loss_events=zeros,
            # each sector-loss event loses the group (failed_rebuilds_lose_groups)
            expected_group_losses_group=table.expected_group_losses_group
            + table.expected_sector_loss_events_group,
            expected_group_losses=table.expected_group_losses + table.expected_sector_loss_events,
        )
    return table


def with_nomdl(scenario: Scenario, table: SweepColumns) -> SweepColumns:
    """``table`` with each row's NOMDL: the drive's usable capacity and the stripe unit.

    NaN without a capacity. Only the exports show it: the TUI's series go without, so that
    an edit of the capacity (given rebuild hours) leaves its chart as it was.
    """
    nomdl = table.nomdl(scenario.usable_tb_per_drive, scenario.aggregate.stripe_unit_bytes)
    return replace(table, nomdl_bytes_per_tb=nomdl)


def _varied_time_notes(scenario: Scenario, varied: VaryRange) -> list[str]:
    """What a varied rebuild or scrub time sets aside, and the values no drive can meet."""
    name = varied.field.name
    notes = (
        varied_rebuild_aside_note(scenario, name),
        varied_time_note(scenario, name, varied.values),
        ageing_held_note(scenario, name),
    )
    return [note for note in notes if note]


def _section_notes(scenario: Scenario, varied: str | None) -> tuple[str, ...]:
    """What the correlation and enclosures sections add, as evaluate's notes say it.

    A scrub faster than one read of a drive is said too, unless the sweep varies the scrub;
    a rebuild faster than one write of it likewise.
    """
    scrub = scrub_note(scenario) if varied != "restore.scrub_hours" else None
    rebuild = rebuild_note(scenario) if varied != "restore.rebuild_hours" else None
    correlated = correlation_note(scenario, table=False)  # no indep. columns in a sweep
    notes = (scrub, rebuild, correlated, enclosure_note(scenario, varied))
    return tuple(note for note in notes if note)
