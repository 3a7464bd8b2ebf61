"""What a sweep's rows say that looks like a wrong-way answer, and is not.

Over a range of group sizes the aggregate's P(loss) can fall as groups widen: where one
more drive a group lets the data take one group fewer, the aggregate holds fewer drives
(RAID 6 of 96 data drives: 5 groups of 25, 125 drives and 0.46%; 4 groups of 26, 104
drives and 0.41%). Per group, P(loss) only rises with the width. A newcomer read the fall
as the model moving the wrong way and found why only in the docs; the sweep now says so
under the table, naming the first such step. Likewise the ageing columns of a sweep of
drive.arr, which an ageing law of its own holds still (:func:`ageing_held_note`).
"""

from __future__ import annotations

import numpy as np

from planner.core.design.sweep_table import SweepColumns
from planner.scenario import Scenario


def fewer_groups_note(table: SweepColumns) -> str | None:
    """A note naming where the aggregate's P(loss) falls as groups widen, or None.

    Rows of one parity and one point (the varied value), ordered by group size; a step
    counts where the size grows, the groups fall and the aggregate's P(loss) with them.
    Sorted once (a sweep holds up to 200,000 rows), not filtered per parity and point.
    """
    order = np.lexsort((table.group_size, table.point, table.parity))  # one pass, no loops
    lower, upper = order[:-1], order[1:]
    steps = np.flatnonzero(
        (table.parity[upper] == table.parity[lower])
        & (table.point[upper] == table.point[lower])
        & (table.groups[upper] < table.groups[lower])
        & (table.p_loss_aggregate[upper] < table.p_loss_aggregate[lower])
    )
    if not len(steps):
        return None
    before, after = int(lower[steps[0]]), int(upper[steps[0]])
    size, groups = table.group_size, table.groups
    others = len(steps) - 1
    more = f"; {others:,} more such step{'s' if others > 1 else ''}" if others else ""
    return (
        f"P(loss) of the aggregate falls as groups widen where the data takes fewer groups "
        f"(n+{table.parity[before]}: {size[before]} to {size[after]} drives a group, "
        f"{groups[before]:,} to {groups[after]:,} groups{more}): the aggregate holds fewer "
        "drives; per group, P(loss) only rises with the width."
    )


def ageing_held_note(scenario: Scenario, varied: str) -> str | None:
    """Why the ageing columns hold still while ``drive.arr`` moves: the section sets them.

    A ZFS admin swept drive.arr with ``planner fit``'s Weibull pasted in: P(loss) ageing
    stayed at 0.41% while "x ageing" fell from 1.43x to 0.50x, and nothing said why. A
    Weibull with its ``scale_hours``, or an ``arr_by_year`` table, is the ageing law
    whatever drive.arr says; a Weibull without a scale takes its first year from it.
    """
    ageing = scenario.ageing
    if varied != "drive.arr" or ageing is None:
        return None
    weibull = ageing.weibull
    if weibull is not None and weibull.scale_hours is not None:
        law = f"ageing.weibull (shape {weibull.shape:g}, scale_hours {weibull.scale_hours:,g})"
    elif ageing.arr_by_year is not None:
        law = "ageing.arr_by_year"
    else:
        return None
    return (
        f"The ageing columns follow {law}, which drive.arr does not move; the other columns "
        "take drive.arr as a constant rate (docs/ageing.md)."
    )
