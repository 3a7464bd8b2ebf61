"""docs/declustered.md's worked comparison is what the CLI prints, and the pool row is right.

The table in the docs is rebuilt here from ``planner evaluate -f json`` with the report's
own number formats; the dRAID row's probabilities are checked against the mpmath chain of
tests/reference.py with the declustered rebuild time worked out here.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from planner.cli import app
from planner.report.numbers import drives_column, format_tb, significant_column
from planner.report.percentages import percent_column
from tests import reference

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
DOC = ROOT / "docs" / "declustered.md"


def _layouts(*extra: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(app, ["evaluate", str(SCENARIO), "-f", "json", *extra])
    assert result.exit_code == 0, result.stderr
    layouts: list[dict[str, Any]] = json.loads(result.stdout)["layouts"]
    return layouts


def test_the_docs_table_is_the_cli_output() -> None:
    rows = _layouts()
    columns = [
        [r["label"] for r in rows],
        drives_column([r["total_disks"] for r in rows]),
        drives_column([r["overhead_disks"] for r in rows]),
        [format_tb(r["usable_tb"]) for r in rows],
        significant_column([r["rebuild_hours"] for r in rows]),
        percent_column([r["p_group_lost_aggregate"] for r in rows]),
        percent_column([r["p_sectors_lost_aggregate"] for r in rows]),
        percent_column([r["p_loss_aggregate"] for r in rows]),
        significant_column([r["expected_sector_loss_events"] for r in rows]),
        percent_column([r["fraction_lost_on_overlap"] for r in rows]),
    ]
    doc = DOC.read_text(encoding="utf-8")
    for cells in zip(*columns, strict=True):
        line = "| " + " | ".join(cells) + " |"
        assert line in doc, line
    assert [r["label"] for r in rows] == [
        "RAID 10",
        "RAID 6 (10+2)",
        "triple parity (12+3)",
        "draid2:8d:48c:2s",
    ]


def test_the_pool_row_against_the_mpmath_chain() -> None:
    pool = _layouts()[-1]
    traditional = _layouts()[1]["rebuild_hours"]
    lop = 0.01 / reference.HOURS_PER_YEAR
    # the resilver: w / (C - 1) x 1.35 x (1 + d / 13.4) of the traditional time, mixed with
    # the traditional rebuild by Erlang's B(2, A) that both spares are taken
    resilver = traditional * 10 / 47 * 1.35 * (1 + 8 / 13.4)
    offered = 48 * lop * (resilver + traditional)
    taken = offered**2 / 2 / (1 + offered + offered**2 / 2)
    rebuild = (1 - taken) * resilver + taken * traditional
    assert math.isclose(pool["rebuild_hours"], rebuild, rel_tol=1e-12)
    lld = 8 * 1e-15 * 2.7e11 / 24  # 1e-15 per bit x NS3574's 2.7e11 bytes read a day
    hours = 5 * reference.HOURS_PER_YEAR
    # k + 1 drives down at once: the birth-death chain, one rebuild at a time (issue 20)
    group_lost = reference.group_lost(2, 48, lop, rebuild, hours)
    assert reference.relative_error(pool["p_group_lost"], group_lost) < 1e-9
    # a defect loses sectors only where its stripe holds both failed drives: 9 x 8 / (47 x 46)
    share = 9 * 8 / (47 * 46)
    sectors_lost = reference.sectors_lost(2, 48, lop, lld, rebuild, 168, hours, share=share)
    assert reference.relative_error(pool["p_sectors_lost"], sectors_lost) < 1e-9
    p_loss = reference.p_loss(2, 48, lop, lld, rebuild, 168, hours, share=share)
    assert reference.relative_error(pool["p_loss_group"], p_loss) < 1e-9
    # 3 pools of 36.8 drives' worth of data hold the 96 data drives
    assert (pool["groups"], pool["total_disks"]) == (3, 144)
    # 20 TB drives store 18 TB each (drive.usable_fraction 0.9, issue 20)
    assert math.isclose(pool["usable_tb"], 3 * 46 * 8 / 10 * 20 * 0.9, rel_tol=1e-12)
    # C(45, 7) / C(48, 10): the stripes spanning 3 given drives of 48
    assert math.isclose(
        pool["fraction_lost_on_overlap"], math.comb(45, 7) / math.comb(48, 10), rel_tol=1e-12
    )


def test_a_pools_uneven_note_speaks_of_pools_and_drives_worth() -> None:
    """Newcomer review: "96 data drives do not divide evenly into 36.8 data drives per group;
    3 groups hold 14.4 more data drives than asked" (an admin counts whole drives)."""
    from typer.testing import CliRunner

    from planner.cli import app

    today = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"
    result = CliRunner().invoke(app, ["evaluate", str(today), "-f", "markdown"])
    assert result.exit_code == 0, result.stderr
    note = next(line for line in result.stdout.splitlines() if "draid2:8d:48c:2s:" in line)
    assert "a pool holds 36.8 drives' worth of data" in note, note
    assert "take 3 pools, which hold 14.4 drives' worth more than asked" in note, note
    assert "per group" not in note


def _rich_cells(text: str) -> dict[str, dict[str, str]]:
    """A Rich table's rows as {label: {header (its lines joined): cell}}."""
    heads = [line.strip("┃").split("┃") for line in text.splitlines() if line.startswith("┃")]
    headers = [" ".join(" ".join(parts).split()) for parts in zip(*heads, strict=True)]
    rows = [line.strip("│").split("│") for line in text.splitlines() if line.startswith("│")]
    return {
        row[0].strip().removesuffix(" (base)"): {
            h: c.strip() for h, c in zip(headers, row, strict=True)
        }
        for row in rows
    }


def test_overhead_reads_whole_counts_whole_beside_a_pools_fraction() -> None:
    """A pool's overhead (parity share and spares) is fractional, 33.6 drives; the traditional
    layouts' are whole and read as whole counts (96, not 96.0), in the table and Markdown."""
    expected = {
        "RAID 10": "96",
        "RAID 6 (10+2)": "20",
        "triple parity (12+3)": "24",
        "draid2:8d:48c:2s": "33.6",
    }
    runner = CliRunner()
    table = runner.invoke(app, ["evaluate", str(SCENARIO)], env={"COLUMNS": "160"})
    assert table.exit_code == 0, table.stderr
    shown = _rich_cells(table.stdout)
    assert {label: cells["Over- head"] for label, cells in shown.items()} == expected
    markdown = runner.invoke(app, ["evaluate", str(SCENARIO), "-f", "markdown"])
    assert markdown.exit_code == 0, markdown.stderr
    lines = [line for line in markdown.stdout.splitlines() if line.startswith("|")]
    headers = [h.strip() for h in lines[0].strip("|").split("|")]
    column = headers.index("Overhead drives")
    cells = {
        row[0].replace("**", "").strip().removesuffix(" (baseline)"): row[column].strip()
        for row in (line.strip("|").split("|") for line in lines[2:])
    }
    assert cells == expected
