"""The comparison of a scenario's layouts, and its sizing when it has a workload.

``planner evaluate`` and ``planner size`` render these; the TUI's compare view shows the
same :class:`CompareData` (sizing columns by default for a scenario with a workload).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from planner.analysis.ageing import ageing_note, with_aged
from planner.analysis.closed_form import closed_form_note
from planner.analysis.correlation import (
    correlation_note,
    independent_scenario,
    with_independent,
)
from planner.analysis.costs import priced_comparison, scenario_cost_note
from planner.analysis.critical_defects import CriticalDefectsBound, critical_defects_bound
from planner.analysis.domains import enclosure_note
from planner.analysis.input_notes import (
    fixed_aggregate_note,
    kept_label_notes,
    target_note,
    usable_note,
)
from planner.analysis.inputs import Inputs
from planner.analysis.layout_aggregate import LayoutAggregate, fixed_aggregate, sized_aggregate
from planner.analysis.method_estimates import AnalyticEstimates
from planner.analysis.restore_notes import load_note, restore_notes, set_aside_note
from planner.analysis.sizing_report import (
    RebuildSource,
    SizedRow,
    SizingReport,
    rebuild_source,
    sized_rows,
    sizing_report,
)
from planner.analysis.spares import comparison_with_spares, spares_notes
from planner.analysis.spec_sheet_reading import SpecSheetSpread, spec_sheet_spread
from planner.core.arrays.layouts import Layout, aggregate_shape
from planner.core.design.layout_comparison import Comparison, LayoutResult, compare_layouts
from planner.core.markov.methods import AnalyticMethods, analytic_methods
from planner.scenario import Scenario

if TYPE_CHECKING:
    from planner.core.markov.rates import Rates


SortKey = Literal["scenario", "risk", "overhead"]
"""Row orders of the compare table: the scenario's, by aggregate risk, by overhead drives."""

SORT_KEYS: tuple[SortKey, ...] = ("scenario", "risk", "overhead")


def comparison(scenario: Scenario) -> Comparison:
    """Every layout of ``scenario`` over its mission, for ``aggregate.data_disks``.

    With ``drive.price`` or ``drive.watts`` each result carries its cost (``cost``); with
    correlated failures, its aggregate's risk under independent drives (``independent``);
    with ageing drives, its P(loss) by the drives' age with its bracket (``aged``).
    """
    compared = _compared(scenario)
    if scenario.correlated:
        twin = _compared(independent_scenario(scenario))
        compared = replace(compared, results=with_independent(compared.results, twin.results))
    if scenario.ageing is not None:
        aged = with_aged(scenario, compared.results, scenario.core_layouts())
        compared = replace(compared, results=aged)
    spared = comparison_with_spares(compared, scenario.aggregate.hot_spares)
    return priced_comparison(spared, scenario)


def _compared(scenario: Scenario) -> Comparison:
    """The scenario's layouts side by side (:func:`compare_layouts`)."""
    return compare_layouts(
        scenario.core_layouts(),
        data_disks=scenario.aggregate.data_disks,
        rates=scenario.rates(),
        mission_hours=scenario.mission_hours,
        baseline=scenario.baseline_label(),
        capacity_tb=scenario.usable_tb_per_drive,
        unreadable_sector=scenario.restore.on_unreadable_sector,
        stripe_unit_bytes=scenario.aggregate.stripe_unit_bytes,
    )


def chain_rates_of(scenario: Scenario, result: LayoutResult) -> Rates:
    """The rates of ``result``'s chain: its layout's own, its aggregate's hot spares shared."""
    return result.layout.chain_rates(scenario.rates(), result.shape.groups)


def analytic_by_label(
    scenario: Scenario, layouts: Sequence[Layout] | None = None
) -> dict[str, AnalyticMethods]:
    """The constant-rate methods (MTTDL, no latent defects) of each layout, by label."""
    rates = scenario.rates()
    chosen = scenario.core_layouts() if layouts is None else layouts
    drive = scenario.drive
    spec_sheet = (
        (drive.capacity_tb, drive.unrecoverable_read_errors_per_bit)
        if drive.capacity_tb is not None and drive.unrecoverable_read_errors_per_bit is not None
        else None
    )
    data_disks = scenario.aggregate.data_disks
    return {
        layout.label: analytic_methods(
            layout.parity,
            layout.group_size,
            layout.chain_rates(rates, aggregate_shape(layout, data_disks).groups),
            scenario.mission_hours,
            spec_sheet,
            layout.critical_rebuild_drives,
        )
        for layout in chosen
    }


def scenario_notes(scenario: Scenario) -> list[str]:
    """The scenario's own notes on a compare table, after the rebuild model's.

    With ``restore.rebuild_hours`` and a ``drive.capacity_tb`` a note says the capacity
    does not change the rebuild time, and how to let it (:meth:`Scenario.capacity_notes`);
    a derived latent-defect rate's note follows (:meth:`Scenario.latent_defect_notes`).
    """
    capacity = [] if scenario.rebuild_mb_per_s is not None else scenario.capacity_notes()
    return [*capacity, *scenario.latent_defect_notes()]


@dataclass(frozen=True)
class CompareData:
    """What the compare table shows: the comparison and, with a workload, the sizing.

    Attributes:
        comparison: every layout for ``aggregate.data_disks``.
        inputs: the assumptions (the exports print them; the notes give the mission).
        sizing: every layout sized for the workload, or None without one.
        methods: the constant-rate methods by label (``evaluate --methods``), or None.
        rebuild: the rebuild model's terms when it derives the restore time, shown first
            among the notes; None for a restore time given.
        notes: the scenario's and the hot spares' notes, shown under the table and
            exported (:func:`planner.report.comparison.notes`).
        cost_note: how the cost columns are made, per usable TB ("" when unpriced); apart,
            as a design review of a workload shows the sized table, whose note is its own.
        spec_sheet: every layout read the spec sheet's way, when that reading differs 2x
            or more from the table's for some layout (a note says so); None otherwise.
        critical_defects: every layout with each latent defect of a critical rebuild
            counted as a loss, when that bound is 1.1x the table's P(loss) or more for some
            layout (NS3574's chain leaves them out; a note says so); None otherwise.
        fixed_note: that the table is not sized for the scenario's workload
            (:func:`~planner.analysis.input_notes.fixed_aggregate_note`), "" without one;
            the TUI's compare view says it in its own words.
        label_notes: the layouts a ``--set`` reshaped under a label given by hand
            (:func:`planner.analysis.input_notes.kept_label_notes`), said before the notes:
            the table's own rows mislead until they are read.
    """

    comparison: Comparison
    inputs: Inputs
    sizing: SizingReport | None = None
    methods: Mapping[str, AnalyticEstimates] | None = None
    rebuild: RebuildSource | None = None
    notes: tuple[str, ...] = ()
    spec_sheet: SpecSheetSpread | None = None
    critical_defects: CriticalDefectsBound | None = None
    label_notes: tuple[str, ...] = ()
    fixed_note: str = ""
    cost_note: str = ""

    def layout_aggregate(
        self, scenario: Scenario, label: str, *, fixed: bool = False
    ) -> LayoutAggregate:
        """The aggregate of the layout ``label`` that the table shows (these are ``scenario``'s).

        The sized one with a workload unless ``fixed``, else that of ``aggregate.data_disks``
        (:mod:`planner.analysis.layout_aggregate`).

        Raises:
            StopIteration: no layout has that label.
        """
        result = next(r for r in self.comparison.results if r.layout.label == label)
        if self.sizing is None or fixed:
            return fixed_aggregate(scenario, result)
        row = next(r for r in self.sizing.results if r.label == label)
        return sized_aggregate(scenario, result.layout, row)

    def sized_rows(self) -> list[SizedRow]:
        """The sized layouts in scenario order, relative risks against the baseline's."""
        if self.sizing is None:
            return []
        return sized_rows(self.sizing)


def compare_data(
    scenario: Scenario, overrides: Sequence[str] = (), methods: bool = False
) -> CompareData:
    """The comparison, the sizing (with a workload) and the inputs of ``scenario``."""
    from planner.analysis.inputs import scenario_inputs

    inputs = scenario_inputs(scenario, overrides)
    compared = comparison(scenario)
    aged_rows = [r.aged for r in compared.results]
    analytic = analytic_by_label(scenario) if methods else {}
    closed = closed_form_note(scenario, scenario.core_layouts(), analytic) if methods else ""
    return CompareData(
        comparison=compared,
        sizing=sizing_report(scenario, inputs),
        inputs=inputs,
        methods=(
            {k: AnalyticEstimates.of(a, scenario.correlated) for k, a in analytic.items()}
            if methods
            else None
        ),
        rebuild=rebuild_source(scenario) if scenario.rebuild_mb_per_s is not None else None,
        notes=(
            *restore_notes(scenario),
            *([note] if (note := target_note(scenario)) else []),
            *([note] if (note := usable_note(scenario)) else []),
            *([note] if (note := load_note(scenario)) else []),
            *([note] if (note := set_aside_note(scenario)) else []),
            *scenario_notes(scenario),
            *spares_notes(scenario, ((r.layout, r.shape.groups) for r in compared.results)),
            *([note] if (note := correlation_note(scenario)) else []),
            *([note] if (note := enclosure_note(scenario)) else []),
            *([note] if (note := ageing_note(scenario, aged_rows)) else []),
            *([closed] if closed else []),
        ),
        spec_sheet=spec_sheet_spread(scenario, compared.results),
        critical_defects=critical_defects_bound(scenario, compared.results),
        label_notes=tuple(kept_label_notes(scenario, overrides)),
        fixed_note=fixed_aggregate_note(scenario) or "",
        cost_note=scenario_cost_note(scenario) or "",
    )


def sorted_results(comparison: Comparison, key: SortKey) -> list[LayoutResult]:
    """The comparison's results in scenario order, by aggregate risk, or by overhead drives."""
    results = list(comparison.results)
    if key == "risk":
        results.sort(key=lambda r: (r.p_loss_aggregate, r.shape.overhead_disks))
    elif key == "overhead":
        results.sort(key=lambda r: (r.shape.overhead_disks, r.p_loss_aggregate))
    return results


def sorted_sized(rows: list[SizedRow], key: SortKey) -> list[SizedRow]:
    """Sized rows in scenario order, by the sized aggregate's risk, or by disks needed."""
    if key == "risk":
        return sorted(rows, key=lambda s: (s.result.p_loss_aggregate, s.result.disks_needed))
    if key == "overhead":
        return sorted(rows, key=lambda s: (s.result.disks_needed, s.result.p_loss_aggregate))
    return rows
