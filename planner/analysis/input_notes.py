"""Notes on inputs a user may not mean as planner reads them, said under the compare table.

Neither is an error: the inputs are valid and the figures are computed with them. Each
note says what the input does here, where a reader would otherwise be misled (both found
by a newcomer trying planner on 20 TB drives).
"""

from __future__ import annotations

from planner.core.design.sizing import ceil_count
from planner.scenario import Scenario

__all__ = ["full_read_hours", "scrub_note", "target_note", "usable_note"]


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
    RAID 6).
    """
    read_hours = full_read_hours(scenario)
    scrub_hours = scenario.restore.scrub_hours
    if read_hours is None or scrub_hours >= read_hours:
        return None
    return (
        f"Scrub every {scrub_hours:.3g} h (restore.scrub_hours) is shorter than one full read "
        f"of a drive, {read_hours:.3g} h for {scenario.drive.capacity_tb:g} TB at "
        f"{scenario.drive.sustained_mb_per_s:g} MB/s idle: no scrub finishes that often, so "
        "the figures, which take the interval as given, are optimistic."
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
