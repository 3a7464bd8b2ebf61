"""A sweep says where the aggregate's P(loss) falls as groups widen, and why.

A newcomer swept today-20tb-nl-sas.yaml over n+2 groups and read RAID 6 of 26 drives at
0.41% after 25 drives at 0.46% as the model moving the wrong way: 26 drives a group take
4 groups for the 96 data drives, 25 take 5, so the aggregate holds fewer drives. The sweep
now names the first such step under the table; per group, P(loss) only rises with the
width, which the note says and this test checks on the rows (failed first).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

TODAY = str(Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml")
SWEEP = ["sweep", TODAY, "--parity", "2", "--all", "--group-sizes", "20..30"]


def test_the_first_fall_is_named_from_the_rows() -> None:
    runner = CliRunner()
    rows = json.loads(runner.invoke(app, [*SWEEP, "-f", "json"]).stdout)["rows"]
    steps = [
        (a, b)
        for a, b in itertools.pairwise(rows)
        if b["groups"] < a["groups"] and b["p_loss_aggregate"] < a["p_loss_aggregate"]
    ]
    assert steps  # 21 to 22 (6 to 5 groups) and 25 to 26 (5 to 4)
    assert all(b["p_loss_group"] > a["p_loss_group"] for a, b in itertools.pairwise(rows))
    first, second = steps[0]
    table = runner.invoke(app, SWEEP, env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.output
    words = " ".join(table.stdout.split())
    assert (
        f"P(loss) of the aggregate falls as groups widen where the data takes fewer groups "
        f"(n+2: {first['group_size']} to {second['group_size']} drives a group, "
        f"{first['groups']} to {second['groups']} groups; {len(steps) - 1} more such step"
    ) in words
    markdown = runner.invoke(app, [*SWEEP, "-f", "markdown"]).stdout
    assert "- P(loss) of the aggregate falls as groups widen" in markdown


def test_no_note_where_it_never_falls() -> None:
    even = ["sweep", TODAY, "--parity", "2", "--group-sizes", "8,10,14"]  # 96 = 16x6, 12x8...
    result = CliRunner().invoke(app, even, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "falls as groups widen" not in result.stdout


AGEING = str(Path(__file__).resolve().parents[2] / "scenarios" / "ageing-fleet.yaml")


def test_a_sweep_of_arr_says_the_ageing_law_holds_its_columns() -> None:
    """A ZFS admin swept drive.arr with a fitted Weibull: P(loss) ageing stayed put while
    every other column moved, and nothing said why (failed first)."""
    runner = CliRunner()
    args = ["sweep", AGEING, "--vary", "drive.arr=1%..3%:3", "-f", "markdown"]
    table = runner.invoke(app, args).stdout
    assert "The ageing columns follow ageing.arr_by_year, which drive.arr does not move" in (
        " ".join(table.split())
    )
    weibull = ["--set", "ageing={weibull: {shape: 1.3, scale_hours: 179000}}"]
    fitted = " ".join(runner.invoke(app, [*args, *weibull]).stdout.split())
    assert "follow ageing.weibull (shape 1.3, scale_hours 179,000)" in fitted
    derived = ["--set", "ageing={weibull: {shape: 1.3}}"]  # the first year from drive.arr
    assert "ageing columns follow" not in runner.invoke(app, [*args, *derived]).stdout
