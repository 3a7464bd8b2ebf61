"""Notes on inputs a user may not mean as planner reads them, said under the compare table.

None is an error: the inputs are valid and the figures are computed with them. Each note
says what the input does here, where a reader would otherwise be misled (each found by a
newcomer: trying planner on 20 TB drives, or a layout's width with ``--set``).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from planner.core.arrays.presets import find_preset
from planner.core.arrays.rebuild import load_factor_named
from planner.core.design.drive_counts import ceil_count
from planner.scenario import Scenario, ScenarioError
from planner.scenario.errors import dotted, shown
from planner.scenario.layout import LayoutSpec
from planner.scenario.overrides import Override, parse_override
from planner.scenario.tiers import within_tier

__all__ = [
    "full_read_hours",
    "kept_label_notes",
    "load_note",
    "rebuild_note",
    "scrub_note",
    "set_aside_note",
    "target_note",
    "usable_note",
    "varied_time_note",
]


def full_read_hours(scenario: Scenario) -> float | None:
    """Hours one drive takes to be read whole at its own sustained rate, idle; None unknown.

    ``drive.capacity_tb`` (TB of 1e12 bytes) over ``drive.sustained_mb_per_s`` (MB of 1e6
    bytes a second): the least time a scrub, which reads every sector, can take.
    """
    capacity, rate = scenario.drive.capacity_tb, scenario.drive.sustained_mb_per_s
    if capacity is None or rate is None:
        return None
    return capacity * 1e12 / (rate * 1e6) / 3600.0


def scrub_note(scenario: Scenario) -> str | None:
    """A note when the scrub interval is shorter than one whole read of a drive.

    A scrub reads every sector, so none finishes sooner than the drive reads itself once; a
    shorter ``restore.scrub_hours`` finds defects faster than any array can, and the figures
    taken with it are optimistic (a 1 h scrub made RAID 10 of 20 TB drives look safer than
    RAID 6). Under the load the scenario gives its rebuilds (``restore.load``), a scrub shares
    the drives with the same host I/O: one read takes the load's factor longer (a newcomer's
    review: a daily scrub of 20 TB drives passed in silence, where one read takes 77 h busy).
    """
    read_hours = full_read_hours(scenario)
    scrub_hours = scenario.restore.scrub_hours
    if read_hours is None:
        return None
    drive = scenario.drive
    idle = f"{read_hours:.3g} h for {drive.capacity_tb:g} TB at {drive.sustained_mb_per_s:g} MB/s"
    if scrub_hours < read_hours:
        return (
            f"Scrub every {scrub_hours:.3g} h (restore.scrub_hours) is shorter than one full "
            f"read of a drive, {idle} idle: no scrub finishes that often, so the figures, "
            "which take the interval as given, are optimistic."
        )
    restore = scenario.restore
    factor = restore.rebuild_load_factor
    if scrub_hours >= read_hours * factor:
        return None
    return (
        f"Scrub every {scrub_hours:.3g} h (restore.scrub_hours) is shorter than one full read "
        f"of a drive under the rebuilds' load, {read_hours * factor:.3g} h ({idle} idle, "
        f"x{factor:.3g} for {restore.load_source}): a scrub shares the drives with the same host "
        "I/O, so unless it runs in idle hours the figures, which take the interval as given, "
        "are optimistic."
    )


def rebuild_note(scenario: Scenario) -> str | None:
    """A note when the rebuild is faster than writing one drive at its sustained rate.

    A rebuild writes the whole replacement drive, so none is faster than one write of it at
    ``drive.sustained_mb_per_s`` (as fast as the drive reads itself: :func:`full_read_hours`).
    A ``restore.rebuild_mb_per_s`` above that rate (an idle array's, before any load), or a
    ``restore.rebuild_hours`` shorter than that write, makes every figure optimistic (a
    buyer's review: 1,000 MB/s on a 285 MB/s drive, or 2 h for 20 TB, passed with a note
    "Rebuild 2 h as given"). A dRAID pool's resilver is faster by its own rule, derived from
    this traditional rebuild (docs/declustered.md): its own time is never compared with
    one write, but when the traditional one is too fast, so is the pool's.
    """
    write_hours = full_read_hours(scenario)
    restore, drive = scenario.restore, scenario.drive
    if write_hours is None or restore.uses_drive_rate:
        return None
    sustained = drive.sustained_mb_per_s
    assert sustained is not None  # full_read_hours had it, and the capacity
    assert drive.capacity_tb is not None
    writes = f"the drive's sustained {sustained:g} MB/s (drive.sustained_mb_per_s)"
    if restore.rebuild_mb_per_s is not None:
        rate = restore.rebuild_mb_per_s
        if rate <= sustained:
            return None
        given = f"Rebuild rate {rate:,.0f} MB/s (restore.rebuild_mb_per_s) is"
        load = restore.rebuild_load_factor
        floor = (
            f" (under restore.load x{load:.3g}, at least {write_hours * load:.3g} h, where this "
            f"rate gives {scenario.rebuild_hours - restore.delay_hours:.3g} h)"
            if load != 1.0
            else ""
        )
    else:
        hours = scenario.rebuild_hours
        rate = drive.capacity_tb * 1e12 / (hours * 3600.0) / 1e6
        if hours >= write_hours:
            return None
        given = (
            f"Rebuild {hours:.3g} h (restore.rebuild_hours) for {drive.capacity_tb:g} TB "
            f"implies {rate:,.0f} MB/s,"
        )
        floor = ""
    pools = [layout.label for layout in scenario.core_layouts() if layout.declustered is not None]
    whose, their = ("pool's", "its") if len(pools) == 1 else ("pools'", "their")
    derived = (
        f" The {whose} faster resilver ({', '.join(pools)}) is derived from this rebuild by "
        f"{their} own rule (docs/declustered.md), so it is optimistic by as much."
        if pools
        else ""
    )
    return (
        f"{given} {rate / sustained:.3g}x {writes}: no rebuild writes the replacement drive "
        f"faster than the drive itself, {write_hours:.3g} h for {drive.capacity_tb:g} TB "
        f"before any load{floor}, so the rebuild time and the figures, which take it as "
        f"given, are optimistic.{derived}"
    )


def varied_time_note(scenario: Scenario, field: str, values: Sequence[float]) -> str | None:
    """A sweep's note naming the varied rebuild or scrub times no drive can meet.

    The single-value notes (:func:`rebuild_note`, :func:`scrub_note`) are left out when a
    sweep varies their time; this one names the values on the wrong side of the same lines:
    a rebuild shorter than one write of the drive; a scrub shorter than one read of it idle,
    or under the scenario's load, which only a scrub in idle hours meets
    (``sweep --vary restore.rebuild_hours=2..48`` on 20 TB drives passed 2 h in silence).
    """
    once = full_read_hours(scenario)
    if once is None or field not in ("restore.rebuild_hours", "restore.scrub_hours"):
        return None
    drive, restore = scenario.drive, scenario.restore
    idle = f"{once:.3g} h for {drive.capacity_tb:g} TB at {drive.sustained_mb_per_s:g} MB/s"
    never = [value for value in values if value < once]
    if field == "restore.rebuild_hours":
        parts = [
            f"{_listed(never)} shorter than one write of the replacement drive, {idle} before "
            "any load"
        ]
        busy: list[float] = []
    else:
        busy = [v for v in values if once <= v < once * restore.rebuild_load_factor]
        parts = [f"{_listed(never)} shorter than one full read of a drive, {idle} idle"]
        parts.append(
            f"{_listed(busy)} shorter than one read under {restore.load_source}, "
            f"{once * restore.rebuild_load_factor:.3g} h ({idle} idle), which only a scrub in "
            "idle hours meets"
        )
    said = [part for part, short in zip(parts, (never, busy), strict=False) if short]
    if not said:
        return None
    one = len(never) + len(busy) == 1
    return (
        f"{field} of {'; of '.join(said)}: the rows at {'that value' if one else 'those values'}, "
        "which take it as given, are optimistic."
    )


def _listed(hours: Sequence[float]) -> str:
    """``2 h is``, ``2 and 13.5 h are``, ``the 40 values from 2 to 19 h are`` (none: ``""``)."""
    if not hours:
        return ""
    if len(hours) == 1:
        return f"{hours[0]:.3g} h is"
    if len(hours) == 2:
        return f"{hours[0]:.3g} and {hours[1]:.3g} h are"
    return f"the {len(hours)} values from {min(hours):.3g} to {max(hours):.3g} h are"


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


def load_note(scenario: Scenario) -> str | None:
    """A note when a given rebuild rate is also slowed by a load: is it the idle rate?

    ``restore.load`` (or ``load_factor``) slows a rate measured on an idle array. A newcomer
    gave the 50 MB/s he measured in production beside the shipped ``load: busy`` and got a
    440 h rebuild, 3.96 times his own; the rebuild note showed the factor, nothing said
    which rate the load is meant for. None when the rate is the drive's own (its spec
    sheet's idle rate) or no load slows it.
    """
    restore = scenario.restore
    rate, factor = restore.rebuild_mb_per_s, restore.rebuild_load_factor
    if rate is None or restore.rebuild_hours is not None or factor == 1.0:
        return None
    key, unset = (
        ("load", "load=idle") if restore.load_factor is None else ("load_factor", "load_factor=1")
    )
    return (
        f"restore.rebuild_mb_per_s {rate:g} MB/s is taken as an idle array's rate and slowed "
        f"x{factor:.3g} by {restore.load_source}; if {rate:g} MB/s was measured under your load, "
        f"remove restore.{key} (for one run: --set restore.{unset})."
    )


_MODEL_MODIFIERS = ("load", "load_factor", "replace_delay_hours")
"""The rebuild model's keys that slow or delay its rate (a given time has neither)."""


def set_aside_note(scenario: Scenario) -> str | None:
    """A note when a ``--set`` of ``restore.rebuild_hours`` removed a load or a delay.

    A file may not give them beside the hours ("load belongs to the rebuild model"); a
    ``--set`` of the hours removes them, a what-if that runs (docs/sizing.md). A reviewer
    ran it on today-20tb-nl-sas.yaml and nothing said its ``load: busy`` was gone. None
    when the hours are not in effect or removed none of them.
    """
    restore = scenario.restore
    aside = [
        removed
        for removed in restore.set_aside
        if within_tier(removed.by_key) == ("restore", "rebuild_hours")
        and removed.key[-1] in _MODEL_MODIFIERS
        and _slows_or_delays(str(removed.key[-1]), removed.value)
    ]
    if restore.rebuild_hours is None or not aside:
        return None
    keys = [f"restore.{removed.key[-1]}: {_as_written(removed.value)}" for removed in aside]
    listed = keys[0] if len(keys) == 1 else f"{', '.join(keys[:-1])} and {keys[-1]}"
    verb, they = ("applies", "it belongs") if len(keys) == 1 else ("apply", "they belong")
    return (
        f"{aside[-1].by} gives the rebuild time itself: {listed} no longer {verb} ({they} to "
        "the rebuild model, which a given time replaces)."
    )


def _slows_or_delays(key: str, value: object) -> bool:
    """Whether a load, load factor or delay changed the model's time (``load: idle`` did not)."""
    if key == "load":
        try:
            return load_factor_named(str(value)) != 1.0
        except ValueError:  # a misspelt load the --set removed before it was checked
            return True
    return value != (0 if key == "replace_delay_hours" else 1)


def _as_written(value: object) -> str:
    """A plain value as a file writes it: ``busy``, ``2``, ``24``."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:g}"
    return shown(value, quote=False)


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


def kept_label_notes(scenario: Scenario, overrides: Sequence[str]) -> list[str]:
    """A note for each layout a ``--set`` reshaped under a label given by hand.

    ``--set layouts[1].group_size=14`` on a layout labelled ``RAID 6 (10+2)`` leaves the
    label, which is its name (the baseline and every table name it so), and every table
    then shows a 14-drive group as "RAID 6 (10+2)". A layout without a label of its own is
    not noted: its default label follows its shape (``raid6 14``). Nor is one whose label
    an override gives (``layouts[1].label=...``, or the whole layout). An override is
    matched to the layout by its value, so a plan's override of another tier names none.
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
        if index not in relabelled and _kept_label(scenario, index, override)
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
    return _relabelled(layout) != layout.label  # else its n+k is already the layout's


def _kept_label_note(scenario: Scenario, index: int, override: Override) -> str:
    """Which layout the label now names, what set it, and the ``--set`` that renames it."""
    layout = scenario.layouts[index]
    shape = layout.default_label
    if layout.data is None:
        shape += f", groups of {layout.group_size - layout.parity}+{layout.parity} drives"
    tier = override.loc[: len(override.loc) - len(within_tier(override.loc))]
    prefix = f"{dotted(tier)}." if tier else ""  # tiers[1]. in a plan
    label = _relabelled(layout)
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
