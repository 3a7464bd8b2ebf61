"""Dedicated hot spares (``aggregate.hot_spares``) in every drive count, and so every cost.

A dedicated hot spare sits in the aggregate, powered, until a drive of a group fails; it
holds no data and serves no host I/O, so it changes no usable capacity and no IOPS. It is
bought, draws power and fails like any drive, so it is counted in the aggregate's drives
and overhead here, before the costs (purchase, replacements, energy, TCO) are computed from
the counts (:mod:`planner.analysis.costs`). With a wait for a replacement drive
(``restore.replace_delay_hours``) the spares shorten it: a failure waits only when it finds
every spare taken (:mod:`planner.core.arrays.hot_spares`; each layout's chain takes them in
with its aggregate's groups, ``Layout.chain_rates``). The notes here say so, with the chance.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from planner.core.arrays.hot_spares import spares_all_taken_batch
from planner.core.arrays.layouts import AggregateShape, Layout
from planner.core.design.layout_comparison import Comparison
from planner.core.design.sizing import SizingResult
from planner.core.design.sweep import SweepColumns
from planner.scenario import Scenario


def spares_notes(
    scenario: Scenario, aggregates: Iterable[tuple[Layout, int]], *, waits_only: bool = False
) -> list[str]:
    """What the drive counts include, and what the spares do to the wait for a replacement.

    ``aggregates``: each layout shown with its aggregate's groups, which share the spares.
    ``waits_only``: nothing without a wait to shorten (for a view whose table does not
    count drives).
    """
    spares = scenario.aggregate.hot_spares
    if spares == 0 or (waits_only and scenario.restore.delay_hours == 0):
        return []
    what = "spare" if spares == 1 else "spares"
    counted = f"Drive counts include {spares:,} dedicated hot {what} (aggregate.hot_spares)"
    if scenario.restore.delay_hours == 0:
        return [
            f"{counted}: no data and no change to any probability, but bought, powered and "
            "replaced like any drive."
        ]
    shown = list(aggregates)
    named = [
        (layout.label, groups * layout.group_size)
        for layout, groups in shown
        if layout.declustered is None
    ]
    lop = scenario.rates().op_failures_per_hour
    load = [count * lop * scenario.restore.delay_hours for _, count in named]
    taken = spares_all_taken_batch(spares, load).tolist()
    entries = [
        (b, f"{label}, {count:,} drives") for b, (label, count) in zip(taken, named, strict=True)
    ]
    pools = [layout.label for layout, _ in shown if layout.declustered is not None]
    return [
        f"{counted}, bought, powered and replaced like any drive. "
        + wait_sentence(scenario, entries, pools, lop)
    ]


NO_WAIT_TO_SHORTEN = (
    "aggregate.hot_spares changes no probability here: no failure waits for a replacement "
    "(the scenario gives no restore.replace_delay_hours, or only pools, which keep their "
    "distributed spares), so the spares only add drives; give restore.replace_delay_hours "
    "to see the wait they save."
)
"""A sweep of the hot spares where they have no wait to shorten."""


def sweep_spares_note(scenario: Scenario, table: SweepColumns) -> str | None:
    """:func:`spares_notes`' sentence on the wait for a sweep's rows (None: nothing to say).

    Each traditional row's aggregate, ``groups x N`` drives, at its point's failure rate
    and wait.
    """
    traditional = [layout.declustered is None for layout in table.layouts]
    varied = len({point.rates.hot_spares for point in table.points}) > 1  # --vary
    entries = []
    waits = [p.rates.hot_spares > 0 and p.rates.replace_delay_hours > 0 for p in table.points]
    for row in range(len(table)) if any(waits) else ():  # 23,000 rows: 6 ms for nothing
        rates = table.points[int(table.point[row])].rates
        delay, spares = rates.replace_delay_hours, rates.hot_spares  # the point's (--vary)
        if spares == 0 or delay == 0 or not traditional[int(table.layout[row])]:
            continue
        drives = int(table.groups[row] * table.group_size[row])
        load = drives * rates.op_failures_per_hour * delay
        name = f"{drives:,} drives" + (f", {spares} spare{'s' * (spares > 1)}" * varied)
        entries.append((float(spares_all_taken_batch(spares, [load])[0]), name))
    if not entries:
        return NO_WAIT_TO_SHORTEN if varied else None
    pools = [layout.label for layout, t in zip(table.layouts, traditional, strict=True) if not t]
    lops = {point.rates.op_failures_per_hour for point in table.points}
    lop = lops.pop() if len(lops) == 1 else None
    return wait_sentence(scenario, entries, pools, lop, column=False, varied_spares=varied)


def wait_sentence(
    scenario: Scenario,
    entries: Sequence[tuple[float, str]],
    pools: Sequence[str],
    lop: float | None,
    *,
    column: bool = True,
    varied_spares: bool = False,
) -> str:
    """How the spares shorten the wait: B's smallest and largest of ``entries`` (B, name).

    ``pools``: the declustered pools shown, which keep their distributed spares' model;
    ``lop``: the failures per drive-hour of every entry (None: they differ, a swept ARR);
    ``column``: the table shows a Rebuild column that gives the mean (a sweep's does not);
    ``varied_spares``: a sweep varies the count (each entry names its own), s in the text.
    """
    spares = scenario.aggregate.hot_spares
    delay = scenario.restore.delay_hours
    rate = "lambda_op" if lop is None else f"{lop:.3g}/h"
    taken = {1: "it taken", 2: "both taken"}.get(spares, f"all {spares:,} taken")
    count = f"{spares:,}"
    if varied_spares:
        taken, count = "every spare taken", "s"
    text = (
        "A failed drive is rebuilt onto a free spare at once, and the spare stays taken until "
        f"its replacement arrives ({delay:g} h, restore.replace_delay_hours): a failure waits "
        f"those {delay:g} h only when it finds {taken}"
    )
    if entries:
        low, high = min(entries), max(entries)
        chance = f"of {low[0]:.2g} ({low[1]})"
        if f"{high[0]:.2g}" != f"{low[0]:.2g}":
            chance = f"from {low[0]:.2g} ({low[1]}) to {high[0]:.2g} ({high[1]})"
        text += (
            f", a chance B({count}, A) {chance} by Erlang's loss formula, A = drives x "
            f"{rate} x {delay:g} h. So a drive is restored in the rebuild plus B x {delay:g} h "
            f"on average{' (the Rebuild column)' if column else ''}, not the whole wait "
            "(docs/sizing.md)."
        )
    else:
        text += "."
    if pools:
        which = ", ".join(pools)
        verb = "keeps its" if len(pools) == 1 else "keep their"
        text += (
            f" {which} {verb} own distributed spares: the dedicated ones change none of "
            f"{'its' if len(pools) == 1 else 'their'} figures (docs/declustered.md)."
        )
    return text


def shape_with_spares(shape: AggregateShape, spares: int) -> AggregateShape:
    """``shape`` with ``spares`` more drives, all of them overhead (they hold no data)."""
    if spares == 0:
        return shape
    return replace(
        shape,
        total_disks=shape.total_disks + spares,
        overhead_disks=shape.overhead_disks + spares,
    )


def comparison_with_spares(comparison: Comparison, spares: int) -> Comparison:
    """Every layout's aggregate of ``comparison`` with the hot spares counted."""
    if spares == 0:
        return comparison
    results = tuple(
        replace(r, shape=shape_with_spares(r.shape, spares)) for r in comparison.results
    )
    return replace(comparison, results=results)


def sizing_with_spares(results: Sequence[SizingResult], spares: int) -> tuple[SizingResult, ...]:
    """Every sized aggregate with the hot spares counted in its drives.

    ``disks_for_capacity`` and ``disks_for_iops`` stay what the data and the I/O need.
    """
    return tuple(replace(r, disks_needed=r.disks_needed + spares) for r in results)
