"""Notes on inputs a user may not mean as planner reads them, said under the compare table.

None is an error: the inputs are valid and the figures are computed with them. Each note
says what the input does here, where a reader would otherwise be misled (each found by a
newcomer: trying planner on 20 TB drives, or a layout's width with ``--set``). The rebuild
and scrub times' notes are :mod:`planner.analysis.restore_notes`'.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Collection, Sequence

from planner.core.arrays.presets import find_preset
from planner.core.design.drive_counts import ceil_count
from planner.scenario import Scenario, ScenarioError
from planner.scenario.errors import dotted, shown, squeezed
from planner.scenario.layout import LayoutSpec
from planner.scenario.overrides import Override, parse_override
from planner.scenario.tiers import within_tier

__all__ = [
    "kept_label_notes",
    "target_note",
    "usable_note",
]


def fixed_aggregate_note(scenario: Scenario) -> str | None:
    """That a table of ``aggregate.data_disks`` is not sized for the scenario's workload.

    evaluate and sweep hold ``aggregate.data_disks`` where ``planner size`` and recommend
    size each layout for the workload: a newcomer read a hot-spares sweep of 36 drives for
    an aggregate the workload sizes at 636 (the TUI's compare view says it in its own words).
    """
    if scenario.workload is None:
        return None
    workload = scenario.workload.core_workload()
    iops = workload.read_iops + workload.write_iops
    return (
        f"Not sized for the workload ({workload.required_tb:,.1f} TB, {iops:,.0f} IOPS): every "
        "figure here is of aggregate.data_disks' data drives; planner size and planner "
        "recommend size each layout for the workload."
    )


def target_note(scenario: Scenario) -> str | None:
    """A note when ``target.usable_tb`` asks for other data drives than the table compares.

    ``planner recommend`` sizes each layout for the target's usable TB; this comparison is
    of ``aggregate.data_disks`` (a workload sizes its own: :func:`sized_results`). A newcomer
    gave both, 20 data drives of 20 TB for "400 TB", and saw 360 TB usable here and 23 data
    drives in recommend, with nothing to say why.
    """
    target, per_drive_tb = scenario.target, scenario.usable_tb_per_drive
    if target is None or target.usable_tb is None or per_drive_tb is None:
        return None
    if scenario.workload is not None:
        return None
    needed = ceil_count(target.usable_tb / per_drive_tb)
    data_disks = scenario.aggregate.data_disks
    if needed == data_disks:
        return None
    return (
        f"target.usable_tb {target.usable_tb:,.1f} TB takes {needed:,} data drives of "
        f"{per_drive_tb:g} TB usable ({scenario.usable_fraction:.0%} of "
        f"{scenario.drive.capacity_tb:g} TB); this table compares aggregate.data_disks, "
        f"{data_disks:,} ({data_disks * per_drive_tb:,.1f} TB): planner recommend sizes each "
        "layout for the target."
    )


def usable_note(scenario: Scenario) -> str | None:
    """What the Usable TB column counts: the data drives' capacity x the usable fraction.

    A newcomer multiplied 96 data drives by 20 TB, found 1,920 TB, and read 1,728 TB with
    nothing to say why: the 90% (``drive.usable_fraction``, 0.9 when not given) was not
    said anywhere on the table's page. None without a capacity (no Usable TB then).
    """
    capacity_tb = scenario.drive.capacity_tb
    if capacity_tb is None:
        return None
    given = scenario.drive.usable_fraction is not None
    return (
        f"Usable TB: the data drives' worth x {capacity_tb:g} TB x "
        f"{scenario.usable_fraction:.3g} usable (drive.usable_fraction"
        f"{'' if given else ', 0.9 when not given: right-sizing and formatting'})."
    )


SHAPE_KEYS = ("raid", "parity", "group_size", "children", "data", "spares")
"""A layout's keys that change what it is; its label, given by hand, names what it was."""


def kept_label_notes(
    scenario: Scenario, overrides: Sequence[str], labels: Collection[str] | None = None
) -> list[str]:
    """A note for each layout a ``--set`` reshaped under a label given by hand.

    ``--set layouts[1].group_size=14`` on a layout labelled ``RAID 6 (10+2)`` leaves the
    label, which is its name (the baseline and every table name it so), and every table
    then shows a 14-drive group as "RAID 6 (10+2)". A layout without a label of its own is
    not noted: its default label follows its shape (``raid6 14``). Nor is one whose label
    an override gives (``layouts[1].label=...``, or the whole layout). An override is
    matched to the layout by its value, so a plan's override of another tier names none.
    ``labels``: only the layouts a view shows (sensitivity's one), default every layout.
    """
    reshaped: dict[int, Override] = {}
    relabelled: set[int] = set()
    for text in overrides:
        try:
            override = parse_override(text)
        except ScenarioError:
            continue  # refused when the scenario was loaded; nothing of it was applied
        loc = within_tier(override.loc)
        if loc[:1] != ("layouts",):
            continue
        index = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else None
        if index is None:  # all the layouts given at once
            relabelled.update(range(len(scenario.layouts)))
        elif len(loc) == 2 or loc[2] == "label":  # the layout or its label given
            relabelled.add(index)
        elif loc[2] in SHAPE_KEYS:
            reshaped[index] = override
    return [
        _kept_label_note(scenario, index, override)
        for index, override in sorted(reshaped.items())
        if index not in relabelled
        and _kept_label(scenario, index, override)
        and (labels is None or scenario.layouts[index].label in labels)
    ]


def _kept_label(scenario: Scenario, index: int, override: Override) -> bool:
    """Whether layout ``index`` has ``override``'s value under a label that misleads.

    A label of its own, that is, unless its ``n+k`` is the layout's (still right).
    """
    if index >= len(scenario.layouts):
        return False
    layout = scenario.layouts[index]
    value = override.value
    if override.loc[-1] == "raid" and isinstance(value, str):
        preset = find_preset(value)
        value = preset.name if preset is not None else value
    if getattr(layout, str(override.loc[-1])) != value or layout.label == layout.default_label:
        return False
    if override.loc[-1] == "raid":  # RAID 6 (10+2) made raidz2: the n+k stays, the kind not
        return squeezed(str(value)) not in squeezed(layout.label)
    return _relabelled(layout) != layout.label  # else its n+k is already the layout's


def _kept_label_note(scenario: Scenario, index: int, override: Override) -> str:
    """Which layout the label now names, what set it, and the ``--set`` that renames it."""
    layout = scenario.layouts[index]
    shape = layout.default_label
    if layout.data is None:
        shape += f", groups of {layout.group_size - layout.parity}+{layout.parity} drives"
    tier = override.loc[: len(override.loc) - len(within_tier(override.loc))]
    prefix = f"{dotted(tier)}." if tier else ""  # tiers[1]. in a plan
    label = layout.default_label if override.loc[-1] == "raid" else _relabelled(layout)
    rename = shlex.quote(f"{prefix}layouts[{index}].label={label}")
    also = ""
    if scenario.baseline == layout.label:
        also = f" (and --set {shlex.quote(f'{prefix}baseline={label}')})"
    return (
        f"Layout {shown(layout.label, 80)} is now {shape}, set by {override.source}; it keeps "
        f"the label the file gives it: rename it with --set {rename}{also}."
    )


def _relabelled(layout: LayoutSpec) -> str:
    """The label with its ``n+k`` made the layout's (``RAID 6 (12+2)``), else the default."""
    data = layout.group_size - layout.parity
    found = re.search(rf"\b(\d+)\s*\+\s*{layout.parity}\b", layout.label)
    if layout.data is not None or found is None:
        return layout.default_label
    return layout.label[: found.start(1)] + str(data) + layout.label[found.end(1) :]
