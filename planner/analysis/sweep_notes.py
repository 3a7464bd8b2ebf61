"""What a group-size sweep's rows say that looks like a wrong-way answer, and is not.

Over a range of group sizes the aggregate's P(loss) can fall as groups widen: where one
more drive a group lets the data take one group fewer, the aggregate holds fewer drives
(RAID 6 of 96 data drives: 5 groups of 25, 125 drives and 0.46%; 4 groups of 26, 104
drives and 0.41%). Per group, P(loss) only rises with the width. A newcomer read the fall
as the model moving the wrong way and found why only in the docs; the sweep now says so
under the table, naming the first such step.
"""

from __future__ import annotations

import numpy as np

from planner.core.design.sweep_table import SweepColumns


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
