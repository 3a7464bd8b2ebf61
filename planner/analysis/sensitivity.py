"""The tornado of one layout: which input moves its aggregate's P(loss) most.

One rule for both front ends (``planner sensitivity`` and the TUI's F5 view): the aggregate
is the one the compare table shows. For a scenario with a workload that is the layout's
SIZED aggregate (the data drives the sizing gives it, as ``planner size`` shows it),
otherwise ``aggregate.data_disks`` (as ``planner evaluate`` shows it); the TUI's table
switched to that fixed aggregate (``c``) asks for it (``fixed``) with a workload too.

Every case is the scenario with one field set, through the same override path as
``--set`` (:func:`planner.scenario.scenario_with_overrides`), and evaluated by the same
functions as ``planner evaluate`` (:func:`planner.analysis.compare.comparison`) or ``planner
size`` (:func:`planner.analysis.sizing_report.sized_results`): each bar is what those commands
give with ``--set field=value``, derived inputs included (a spec-sheet drive's defect rate,
the rebuild model, a declustered pool's rebuild).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from planner.analysis.ageing import ageing_sensitivity_note
from planner.analysis.compare import comparison
from planner.analysis.input_notes import kept_label_notes
from planner.analysis.inputs import Inputs, scenario_inputs
from planner.analysis.restore_notes import restore_notes
from planner.analysis.sizing_report import SIZED_FOR_WORKLOAD, sized_results
from planner.analysis.spares import spares_notes
from planner.analysis.varied_fields import (
    CORRELATION_FIELDS,
    ENCLOSURE_FIELDS,
    SCENARIO_FIELDS,
    ScenarioField,
    field_for,
)
from planner.core.arrays.layouts import Layout, aggregate_shape
from planner.core.design.sensitivity import Move, Sensitivity, tornado_of_moves
from planner.core.design.sweep import Parameter, SweepPoint
from planner.core.markov.rates import Rates
from planner.core.markov.transient import relative_risk
from planner.core.markov.workload_reads import reads_spread
from planner.scenario import Scenario, ScenarioError, scenario_with_overrides

LOW_FACTOR = 0.5
HIGH_FACTOR = 2.0
"""Each input is halved and doubled by default."""


@dataclass(frozen=True)
class BarFigures:
    """One input of a tornado in its scenario field's unit, and its risk against the base.

    Attributes:
        field: the scenario field the input is (``drive.arr``).
        rank: 1 for the largest swing.
        base_value, low_value, high_value: the field's value at the base and moved down
            and up, in the field's unit (ARR as a fraction, the mission in years).
        risk_low, risk_high: P(loss) of the aggregate low and high over its base P(loss).
    """

    field: ScenarioField
    rank: int
    base_value: float
    low_value: float
    high_value: float
    risk_low: float
    risk_high: float


def bar_figures(sensitivity: Sensitivity) -> dict[Parameter, BarFigures]:
    """Each bar of ``sensitivity`` in its field's unit and as risks relative to the base."""
    base = sensitivity.p_loss_aggregate
    figures = {}
    for rank, bar in enumerate(sensitivity.bars, start=1):
        field = field_for(bar.parameter)
        figures[bar.parameter] = BarFigures(
            field=field,
            rank=rank,
            base_value=field.from_core(bar.base_value),
            low_value=field.from_core(bar.low_value),
            high_value=field.from_core(bar.high_value),
            risk_low=relative_risk(bar.p_loss_low, base),
            risk_high=relative_risk(bar.p_loss_high, base),
        )
    return figures


@dataclass(frozen=True)
class SensitivityReport:
    """A tornado with the names it is shown under.

    Attributes:
        title: the scenario's name.
        label: the layout's label.
        sensitivity: the core's tornado (:func:`planner.core.design.sensitivity.tornado`).
        figures: each bar's input in its field's unit and its risks against the base
            (:func:`bar_figures`), by input.
        sized: the aggregate is the layout's sized one (a scenario with a workload), not
            ``aggregate.data_disks``.
        rebuild_model: the restore time is the rebuild model's (``restore.rebuild_mb_per_s``).
        inputs: the scenario's assumptions, printed by every export (None: not known).
        notes: the scenario's own notes (a derived latent-defect rate's source).
        group: the group as tables show it (``12 (10+2)``, ``48 (8d+2p, 2s)``); empty:
            drives and parity from the tornado.
        pool_rebuild_hours: a declustered pool's own restore time (h), while
            ``restore.rebuild_hours`` is the traditional rebuild it is derived from; None
            for a traditional group.
        baseline: the layout is the scenario's baseline, the one relative risks are
            measured against.
    """

    title: str
    label: str
    sensitivity: Sensitivity
    figures: Mapping[Parameter, BarFigures]
    sized: bool = False
    rebuild_model: bool = False
    inputs: Inputs | None = None
    notes: tuple[str, ...] = ()
    group: str = ""
    pool_rebuild_hours: float | None = None
    baseline: bool = False


def layout_label(scenario: Scenario, label: str | None) -> str:
    """``label`` when the scenario has that layout, else the baseline's label.

    The baseline, as ``planner sensitivity`` without ``--layout``: the TUI's compare table
    starts with its cursor there, and the views that show one layout follow that cursor.
    """
    labels = [layout.label for layout in scenario.layouts]
    return label if label in labels else scenario.baseline_label()


@dataclass(frozen=True)
class ShownAggregate:
    """The aggregate a tornado moves: the one the compare table shows for its layout.

    Attributes:
        data_disks: its data drives (a pool's fractional worth: the whole ones).
        sized: whether it is the layout's sized aggregate (a scenario with a workload).
        rates: the scenario's rates as that aggregate takes them: a sized one spreads the
            workload's reads over its own data drives (its own latent-defect rate), and
            every layout's chain over its groups' drives (:attr:`Layout.data_share`); a
            traditional layout's groups share its hot spares (their shorter wait taken in,
            so the rebuild bar starts from the restore time the table shows).
    """

    data_disks: int
    sized: bool
    rates: Rates


def shown_aggregate(scenario: Scenario, label: str, fixed: bool = False) -> ShownAggregate:
    """The aggregate of the layout ``label`` that the compare table shows.

    The sized aggregate when the scenario has a workload, else (or ``fixed``)
    ``aggregate.data_disks``.
    """
    rates = scenario.rates()
    layout = next(x for x in scenario.core_layouts() if x.label == label)
    sized = None if fixed else sized_results(scenario)
    if sized is None:
        data_disks = scenario.aggregate.data_disks
        groups = aggregate_shape(layout, data_disks).groups
        return ShownAggregate(data_disks, False, _spared(layout, rates, groups))
    row = next(r for r in sized if r.label == label)
    # a declustered pool holds a fractional number of drives' worth of data: the whole ones
    own = rates.with_latent_defects(row.latent_defects_per_hour)
    return ShownAggregate(math.floor(row.data_disks), True, _spared(layout, own, row.groups))


def _spared(layout: Layout, rates: Rates, groups: int) -> Rates:
    """``rates`` with the hot spares ``groups`` groups of a traditional ``layout`` share.

    A declustered pool's restore time stays the scenario's: its own model's is
    :attr:`SensitivityReport.pool_rebuild_hours`. Either way a data drive's defect rate from
    a workload's reads is each drive's mean as the chain takes it
    (``reads_spread``), so the latent-defect bar moves the rate the table took.
    """
    if layout.declustered is not None:
        held = layout.data_drives_held(groups)
        return reads_spread(rates, held, layout.data_share, every_drive=layout.every_drive_reads)
    return layout.chain_rates(rates, groups)


def _latent_per_data_disks(scenario: Scenario, layout: Layout, groups: int) -> float:
    """``d ln lambda_ld / d ln aggregate.data_disks`` of the aggregate of ``groups`` groups.

    -1 where a workload's reads, under the drives' cap, spread over the data drives the
    groups hold (twice the drives, half the reads each), else 0 (a rate given per drive, or
    every drive at its cap). A re-check found the data disks' elasticity +1.00 beside a bar
    of 0.977x / 1.04x: the defects per drive fell as the groups grew.
    """
    rates = scenario.rates()
    reads = rates.workload_reads
    if not rates.defects_per_data_drive or reads is None:
        return 0.0
    own = groups * float(layout.data_capacity)
    return -1.0 if reads.defects_per_hour / own < reads.most_per_drive_hour else 0.0


@dataclass(frozen=True)
class LayoutRisk:
    """One layout's risk as ``planner evaluate`` (or, with a workload, ``size``) shows it."""

    p_loss_group: float
    p_loss_aggregate: float
    groups: int


def layout_risk(scenario: Scenario, label: str, fixed: bool = False) -> LayoutRisk:
    """The layout ``label``'s risk, by the functions ``evaluate`` and ``size`` render.

    ``fixed``: the aggregate of ``aggregate.data_disks`` (``evaluate``'s) with a workload too.

    The scenario is cut to that one layout first: a layout's risk does not depend on the
    others (only the relative risks do), and one layout is a quarter of the work of four.
    """
    spec = next(layout for layout in scenario.layouts if layout.label == label)
    one = scenario.model_copy(update={"layouts": [spec], "baseline": None})
    sized = None if fixed else sized_results(one)
    if sized is not None:
        row = sized[0]
        return LayoutRisk(row.p_loss_group, row.p_loss_aggregate, row.groups)
    result = comparison(one).results[0]
    return LayoutRisk(result.p_loss_group, result.p_loss_aggregate, result.shape.groups)


def field_value(scenario: Scenario, field: ScenarioField, rates: Rates | None = None) -> float:
    """The value the scenario's model uses for ``field``, in the field's unit.

    Derived values count: a spec-sheet drive's latent-defect rate, the rebuild model's
    hours, the ARR equivalent of an AFR or MTBF. ``rates``: those the aggregate moved takes
    (:func:`shown_aggregate`; a sized aggregate's own latent-defect rate), else the
    scenario's.
    """
    point = SweepPoint(
        scenario.rates() if rates is None else rates,
        scenario.mission_hours,
        scenario.aggregate.data_disks,
    )
    return field.from_core(point.value_of(field.parameter))


def moved_value(field: ScenarioField, base: float, factor: float) -> tuple[float, bool]:
    """``base x factor`` as ``--set`` takes it, and whether a limit stopped it.

    A correlation input at 0 (no shocks) moves up to its field's plausible value instead
    (:attr:`ScenarioField.plausible`, docs/correlated.md), down to 0. The value is kept
    within what a scenario may hold and given 12 significant digits (whole drives for a
    count), so that the exports show exactly the value that was set.
    """
    least, most = (field.from_core(limit) for limit in field.core_limits())
    wanted = base * factor
    if base == 0 and field.plausible is not None and factor > 1:
        wanted = field.plausible  # no factor moves a neutral 0: up to the plausible value
    kept = min(max(wanted, least), most)
    if field.integer:
        kept = float(max(1, math.floor(kept + 0.5)))
    return float(f"{kept:.12g}"), min(max(wanted, least), most) != wanted


def override_text(field: ScenarioField, value: float) -> str:
    """``--set`` text that gives ``field`` the ``value`` exactly: ``drive.arr=0.005``."""
    shown = str(int(value)) if field.integer else repr(value)
    return f"{field.name}={shown}"


def _move(
    scenario: Scenario,
    label: str,
    field: ScenarioField,
    factors: tuple[float, float],
    shown: ShownAggregate,
) -> Move:
    low, high = factors
    base = field_value(scenario, field, shown.rates)
    values, capped, risks = [], [], []
    for factor in (low, high):
        value, stopped = moved_value(field, base, factor)
        try:
            case = scenario_with_overrides(scenario, [override_text(field, value)])
        except ScenarioError as error:
            raise ValueError(f"{field.name} x{factor:g}: {error.message}") from None
        values.append(value)
        capped.append(stopped)
        risks.append(layout_risk(case, label, fixed=not shown.sized).p_loss_aggregate)
    return Move(
        parameter=field.parameter,
        base_value=field.to_core(base),
        low_value=field.to_core(values[0]),
        high_value=field.to_core(values[1]),
        p_loss_low=risks[0],
        p_loss_high=risks[1],
        low_capped=capped[0],
        high_capped=capped[1],
    )


def _notes(
    scenario: Scenario,
    overrides: Sequence[str],
    layout: Layout,
    groups: int,
    fields: Sequence[ScenarioField],
) -> tuple[str, ...]:
    """A label left on the layout first; last, the bars moving a 0 to a plausible value."""
    plausible = [
        f"{field.name} is 0 here: its bar moves it to {field.plausible:g}, a plausible value "
        "(docs/correlated.md), not by the factors."
        for field in fields
        if field.plausible is not None and field_value(scenario, field) == 0
    ]
    return (
        *kept_label_notes(scenario, overrides, {layout.label}),
        *restore_notes(scenario),
        *scenario.latent_defect_notes(),
        *spares_notes(scenario, [(layout, groups)], waits_only=True),
        *plausible,
        *([note] if (note := ageing_sensitivity_note(scenario)) else []),
    )


def _inputs(scenario: Scenario, overrides: Sequence[str], sized: bool) -> Inputs:
    """The inputs line's values; a sized aggregate's say so, not aggregate.data_disks."""
    inputs = scenario_inputs(scenario, overrides)
    return replace(inputs, sized_for=SIZED_FOR_WORKLOAD) if sized else inputs


def _moved_fields(scenario: Scenario, sized: bool) -> tuple[ScenarioField, ...]:
    """The six model inputs, and a correlation's and enclosures' fields where given.

    A sized aggregate is the sizing's: aggregate.data_disks moves nothing of it, no bar.
    """
    fields = (
        *SCENARIO_FIELDS,
        *(CORRELATION_FIELDS if scenario.correlation is not None else ()),
        *(ENCLOSURE_FIELDS[:2] if scenario.enclosures is not None else ()),
    )
    return tuple(f for f in fields if not (sized and f.parameter is Parameter.DATA_DISKS))


def sensitivity_report(
    scenario: Scenario,
    label: str,
    low: float = LOW_FACTOR,
    high: float = HIGH_FACTOR,
    overrides: Sequence[str] = (),
    fixed: bool = False,
) -> SensitivityReport:
    """The tornado of the layout ``label`` over the scenario fields it can move.

    Of its sized aggregate with a workload, else (or ``fixed``) of ``aggregate.data_disks``.

    The six model inputs; with a ``correlation`` section its three fields too, with an
    ``enclosures`` section their failures and repair time (docs/domains.md).

    Each bar's P(loss) is the layout's aggregate risk with ``--set field=value``
    (:func:`layout_risk`); the elasticities are the chain's at the base.

    Raises:
        KeyError: no layout has that label.
        ValueError: a factor the core rejects, or a moved value the scenario refuses.
    """
    if not (low > 0 and high > 0):
        raise ValueError("factors must be positive")
    layout = {layout.label: layout for layout in scenario.core_layouts()}[label]
    shown = shown_aggregate(scenario, label, fixed)
    point = SweepPoint(layout.chain_rates(shown.rates), scenario.mission_hours, shown.data_disks)
    base = layout_risk(scenario, label, fixed=not shown.sized)
    fields = _moved_fields(scenario, shown.sized)
    moves = [_move(scenario, label, field, (low, high), shown) for field in fields]
    result = tornado_of_moves(
        layout.parity,
        layout.group_size,
        point,
        base.p_loss_group,
        base.groups,
        base.p_loss_aggregate,
        moves,
        low,
        high,
        latent_per_data_disks=_latent_per_data_disks(scenario, layout, base.groups),
    )
    return SensitivityReport(
        title=scenario.name,
        label=layout.label,
        sensitivity=result,
        figures=bar_figures(result),
        sized=shown.sized,
        rebuild_model=scenario.restore.uses_rebuild_model,
        inputs=_inputs(scenario, overrides, shown.sized),
        notes=_notes(scenario, overrides, layout, base.groups, fields),
        group=layout.group_text(),
        pool_rebuild_hours=None if layout.declustered is None else point.rates.rebuild_hours,
        baseline=layout.label == scenario.baseline_label(),
    )
