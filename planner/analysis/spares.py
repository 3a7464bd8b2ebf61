"""Dedicated hot spares (``aggregate.hot_spares``) in every drive count, and so every cost.

A dedicated hot spare sits in the aggregate, powered, until a drive of a group fails; it
holds no data and serves no host I/O, so it changes no probability, no usable capacity and
no IOPS. It is bought, draws power and fails like any drive, so it is counted in the
aggregate's drives and overhead here, before the costs (purchase, replacements, energy,
TCO) are computed from the counts (:mod:`planner.analysis.costs`). When the rebuild starts
(onto the spare at once, or after a replacement delay) is the restore section's to say.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from planner.core.arrays.layouts import AggregateShape
from planner.core.design.layout_comparison import Comparison
from planner.core.design.sizing import SizingResult
from planner.scenario import Scenario


def spares_notes(scenario: Scenario) -> list[str]:
    """What the drive counts include, when the scenario has dedicated hot spares."""
    spares = scenario.aggregate.hot_spares
    if spares == 0:
        return []
    what = "spare" if spares == 1 else "spares"
    return [
        f"Drive counts include {spares:,} dedicated hot {what} (aggregate.hot_spares): no "
        "data and no change to any probability, but bought, powered and replaced like any "
        "drive."
    ]


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
