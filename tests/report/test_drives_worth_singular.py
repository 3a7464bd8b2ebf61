"""One drive's worth is said in the singular: never "1 drives' worth".

A pool of 3 children, 2 data + 1 parity per stripe, holds 2 drives' worth of data: 3 data
drives take 2 pools, which hold 1 drive's worth more than asked; a pool of 2 children, 1
data + 1 parity, holds 1 drive's worth. Both were said "1 drives' worth".
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from planner.analysis.compare import comparison
from planner.cli import app
from planner.report.derivation import model_title
from planner.scenario import load_scenario_text

SMALL_POOLS = """\
drive:
  model: nl-sas-20tb
  arr: 1%
restore:
  scrub_hours: 168
aggregate:
  data_disks: 3
layouts:
  - raid: draid1
    data: 2
    children: 3
  - raid: draid1
    data: 1
    children: 2
"""


def test_the_compare_notes_say_one_drive_s_worth(tmp_path: Path) -> None:
    path = tmp_path / "pools.yaml"
    path.write_text(SMALL_POOLS, encoding="utf-8")
    result = CliRunner().invoke(app, ["evaluate", str(path)], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.stderr
    assert (
        "* draid1:2d:3c:0s: a pool holds 2 drives' worth of data (the data share of its "
        "drives that are not spares); 3 data drives take 2 pools, which hold 1 drive's "
        "worth more than asked" in result.stdout
    ), result.stdout
    assert "1 drives' worth" not in result.stdout


def test_the_model_title_of_a_one_drive_pool_says_drive_s_worth() -> None:
    _, pool = comparison(load_scenario_text(SMALL_POOLS)).results
    title = model_title(pool)
    assert "stripes of 1d+1p, 0 distributed spares, 1 drive's worth of data;" in title, title
