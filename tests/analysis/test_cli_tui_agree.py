"""For every shipped scenario, the CLI and the TUI show the same numbers.

Both front ends call :mod:`planner.analysis`; this checks the promise end to end: the raw
values of ``planner evaluate`` / ``planner size`` / ``planner sensitivity --format json``
equal the TUI's results exactly, and the cells the TUI's compare table and sensitivity
table show equal the cells of the same column in the CLI's Markdown table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from shipped import SINGLE_AGGREGATE
from textual.pilot import Pilot
from textual.widgets import DataTable
from typer.testing import CliRunner

from planner.cli import app as cli
from planner.scenario import load_scenario
from planner.tui import PlannerApp, make_app
from planner.tui.compare_view import CompareView

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = SINGLE_AGGREGATE  # a plan's tiers: the plan tests (tests/shipped.py)
WIDE = (160, 30)
"""Wide enough for every column of the tornado table (checked: none is left out); the
compare table keeps every column at any width (it scrolls sideways) and its cells are read
from the table, not from the screen. 220x50 was wider and taller than that: each new
layout of the screen painted twice the cells for nothing."""

pytestmark = pytest.mark.asyncio


def run_cli(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def markdown_cells(text: str) -> dict[str, dict[str, str]]:
    """A Markdown table as {first cell (bold and "(baseline)" removed): {header: cell}}."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    headers = [h.strip() for h in lines[0].strip("|").split("|")]
    rows: dict[str, dict[str, str]] = {}
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        key = cells[0].replace("**", "").removesuffix(" (baseline)").strip()
        rows[key] = dict(zip(headers, cells, strict=True))
    return rows


def tui_cells(app: PlannerApp, selector: str) -> dict[str, dict[str, str]]:
    """A DataTable as {first cell (baseline mark removed): {one-line header: cell}}."""
    table = app.query_one(selector, DataTable)
    headers = [" ".join(str(c.label).split()) for c in table.columns.values()]
    rows = {}
    for key in table.rows:
        cells = [str(cell).strip() for cell in table.get_row(key)]
        rows[cells[0].removeprefix("◆").strip()] = dict(zip(headers, cells, strict=True))
    return rows


def same_cells(cli_rows: dict[str, dict[str, str]], tui_rows: dict[str, dict[str, str]]) -> int:
    """Assert every column both tables show holds the same text; return how many matched."""
    assert set(tui_rows) == set(cli_rows)
    matched = 0
    for label, tui_row in tui_rows.items():
        for header, text in list(tui_row.items())[1:]:
            if header in cli_rows[label]:
                assert text == cli_rows[label][header], (label, header)
                matched += 1
    return matched


async def settle(app: PlannerApp) -> None:
    await app.workers.wait_for_complete()


def json_of(*args: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(run_cli(*args, "--format", "json"))
    return document


async def test_cli_and_tui_show_the_same_numbers(tmp_path: Path) -> None:
    """Every shipped scenario in one session: each written over the file the app has open
    and read again with Ctrl+R, which reads it through the same ScenarioSource as a start
    (a session a scenario was a start-up each, thirteen of them). Each time the app's
    scenario is checked to be the file's, as ``load_scenario`` reads it."""
    opened = tmp_path / "scenario.yaml"
    opened.write_bytes(SCENARIOS[0].read_bytes())
    tui = make_app(opened)
    tui.animation_level = "none"  # F5's sliding tab underline is frames that check nothing
    async with tui.run_test(size=WIDE) as pilot:
        app = pilot.app
        assert isinstance(app, PlannerApp)
        await pilot.pause()
        await settle(app)
        await pilot.pause()
        for path in SCENARIOS:
            if path != SCENARIOS[0]:
                opened.write_bytes(path.read_bytes())
                await pilot.press("f2", "ctrl+r")
                await pilot.pause()
                await settle(app)
            # The first layout, whose tornado check_one compares: a start puts the cursor
            # on the baseline, and a reload keeps it on its label if the new file has it.
            app.query_one(CompareView).table.move_cursor(row=0)
            await pilot.pause()
            await settle(app)
            await pilot.pause()
            try:
                await check_one(pilot, app, path)
            except AssertionError as problem:
                raise AssertionError(f"{path.name}: {problem}") from problem


async def check_one(pilot: Pilot[None], app: PlannerApp, path: Path) -> None:
    """The TUI, showing the scenario at ``path``, shows the CLI's numbers for it."""
    evaluate = json_of("evaluate", str(path))
    has_workload = "workload:" in path.read_text(encoding="utf-8")
    assert app.results is not None
    assert app.scenario == load_scenario(path)
    # Raw values: exactly the CLI's.
    for record, result in zip(evaluate["layouts"], app.results.comparison.results, strict=True):
        assert record["label"] == result.layout.label
        assert record["p_loss_group"] == result.p_loss_group
        assert record["p_loss_aggregate"] == result.p_loss_aggregate
        assert record["mttdl_hours"] == result.mttdl_hours
        assert record["total_disks"] == result.shape.total_disks
    if has_workload:
        size = json_of("size", str(path))
        assert app.results.sizing is not None
        for record, sized in zip(size["layouts"], app.results.sizing.results, strict=True):
            assert record["disks_needed"] == sized.disks_needed
            assert record["p_loss_aggregate"] == sized.p_loss_aggregate
        shown = markdown_cells(run_cli("size", str(path), "--format", "markdown"))
    else:
        shown = markdown_cells(run_cli("evaluate", str(path), "--format", "markdown"))
    # Cells: what the compare table shows is what the CLI's table says.
    assert same_cells(shown, tui_cells(app, "#compare-table")) >= 2 * len(shown)

    # Sensitivity of the selected (first) layout: the same tornado, the same aggregate.
    label = app.scenario.layouts[0].label
    await pilot.press("f5")
    await pilot.pause()
    await settle(app)
    await pilot.pause()
    assert app.tornado is not None
    cli_tornado = json_of("sensitivity", str(path), "--layout", label)
    tornado = app.tornado.sensitivity
    assert cli_tornado["p_loss_aggregate"] == tornado.p_loss_aggregate
    assert cli_tornado["data_disks"] == tornado.point.data_disks
    assert cli_tornado["sized_aggregate"] is has_workload
    assert [b["p_loss_high"] for b in cli_tornado["bars"]] == [b.p_loss_high for b in tornado.bars]
    if has_workload:
        sized = next(r for r in app.results.sizing.results if r.label == label)  # type: ignore[union-attr]
        assert tornado.point.data_disks == sized.data_disks
        assert tornado.p_loss_aggregate == sized.p_loss_aggregate
    cli_bars = markdown_cells(
        run_cli("sensitivity", str(path), "--layout", label, "--format", "markdown")
    )
    tui_bars = {
        row["Input"]: row
        for row in (
            dict(list(cells.items())[1:]) for cells in tui_cells(app, "#tornado-table").values()
        )
    }
    assert same_cells(cli_bars, tui_bars) >= 2 * len(cli_bars)
    assert not app.query_one("#tornado-hidden").display, "a tornado column is left out"


def cli_columns(path: Path, width: int) -> tuple[list[str], int]:
    """The headers of ``planner evaluate``'s table at ``width`` columns (one line each), and
    the table's width in cells."""
    result = CliRunner().invoke(cli, ["evaluate", str(path)], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    heads = [line.strip("┃").split("┃") for line in lines if line.startswith("┃")]
    headers = [" ".join(" ".join(parts).split()) for parts in zip(*heads, strict=True)]
    return headers, max(len(line.rstrip()) for line in lines if line.startswith("┏"))


def tui_columns(app: PlannerApp) -> tuple[list[str], list[int]]:
    """The compare table's columns wholly in view, unscrolled (the layout column, then those
    from the left edge): their one-line headers and content widths (cells)."""
    table = app.query_one(CompareView).table
    assert table.scroll_x == 0
    columns = list(table.columns.values())
    _, stop = table.whole_columns()
    return [" ".join(str(c.label).split()) for c in columns[:stop]], [c.width for c in columns]


async def test_cli_and_tui_choose_the_same_columns_at_80_and_100(tmp_path: Path) -> None:
    """At one width both front ends show the buyer's leading columns, Total drives first.

    Like with like: the TUI's compare table is as wide as the terminal (its parameters sit
    above it, not beside it), so both tables get the same width. A DataTable column costs
    2 cells of padding where a Rich column costs 3 (its border) and the CLI marks its
    baseline "(base)": where the TUI fits one column more, the CLI's table had no room left
    for it.
    """
    today = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"  # priced: TCO among the lead
    paper = ROOT / "scenarios" / "ns3574-default.yaml"
    opened = tmp_path / "scenario.yaml"
    opened.write_bytes(today.read_bytes())
    tui = make_app(opened)
    tui.animation_level = "none"
    async with tui.run_test(size=(80, 24)) as pilot:
        app = pilot.app
        assert isinstance(app, PlannerApp)
        for path, sizes in ((today, ((80, 24), (100, 30))), (paper, ((100, 30), (80, 24)))):
            if path != today:
                opened.write_bytes(path.read_bytes())
                await pilot.press("ctrl+r")
            for size in sizes:
                await pilot.resize_terminal(*size)
                await pilot.pause()
                await settle(app)
                await pilot.pause()
                where = (path.name, size)
                assert app.query_one(CompareView).table.size.width == size[0], where
                shown, cli_width = cli_columns(path, size[0])
                tui_shown, widths = tui_columns(app)
                assert "Total drives" in shown, where
                assert tui_shown[: len(shown)] == shown, (where, tui_shown, shown)
                assert len(tui_shown) - len(shown) <= 1, (where, tui_shown, shown)
                if len(tui_shown) > len(shown):  # the next column, with the CLI's 3 cells
                    assert cli_width + widths[len(shown)] + 3 > size[0], where
