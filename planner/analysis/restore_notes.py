"""Notes on the rebuild and scrub times a scenario gives, said under the tables.

None is an error: the times are valid and the figures are computed with them. Each note
says where a time cannot be what the figures take (a rebuild faster than one write of the
drive, a scrub faster than one read of it), what a given time sets aside (the rebuild
model's load and wait), and which rate a load slows; each found by a newcomer or a buyer's
review. :mod:`planner.analysis.input_notes` holds the other inputs' notes.
"""

from __future__ import annotations

from collections.abc import Sequence

from planner.core.arrays.rebuild import load_factor_named
from planner.scenario import Scenario
from planner.scenario.errors import shown
from planner.scenario.tiers import within_tier

__all__ = [
    "full_read_hours",
    "load_note",
    "rebuild_note",
    "restore_notes",
    "scrub_note",
    "set_aside_note",
    "varied_rebuild_aside_note",
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


def restore_notes(scenario: Scenario) -> tuple[str, ...]:
    """:func:`scrub_note` and :func:`rebuild_note`, those that apply: every command's.

    ``planner sensitivity`` and ``simulate`` left them out, so a 12 h scrub of 20 TB drives
    passed there in silence (a newcomer's find).
    """
    return tuple(note for note in (scrub_note(scenario), rebuild_note(scenario)) if note)


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


def varied_rebuild_aside_note(scenario: Scenario, field: str) -> str | None:
    """A sweep's note when its varied rebuild time sets the rebuild model's load or wait aside.

    Each row's ``restore.rebuild_hours`` is given, as ``--set restore.rebuild_hours`` gives
    it (:func:`set_aside_note`): the model's load and wait for a replacement no longer apply
    (a newcomer's review: a 72 h wait vanished from every row, in silence).
    """
    restore = scenario.restore
    if field != "restore.rebuild_hours" or restore.rebuild_hours is not None:
        return None
    given = {
        "load": restore.load,
        "load_factor": restore.load_factor,
        "replace_delay_hours": restore.replace_delay_hours,
    }
    aside = [
        f"restore.{key}: {_as_written(value)}"
        for key, value in given.items()
        if value is not None and _slows_or_delays(key, value)
    ]
    if not aside:
        return None
    listed = aside[0] if len(aside) == 1 else f"{', '.join(aside[:-1])} and {aside[-1]}"
    verb, they = ("applies", "it belongs") if len(aside) == 1 else ("apply", "they belong")
    return (
        f"Each row gives the rebuild time itself (restore.rebuild_hours): {listed} no longer "
        f"{verb} ({they} to the rebuild model, which a given time replaces, as with --set)."
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
