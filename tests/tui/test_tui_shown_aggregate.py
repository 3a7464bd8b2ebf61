"""The model (F4), sensitivity (F5) and simulation (F6) views follow the compare table's aggregate.

With a workload the compare table shows each layout's SIZED aggregate, and after ``c`` the
aggregate of ``aggregate.data_disks``. In ``tui_workload_reads.yaml`` the two differ in their
groups (4 sized, 3 fixed, for RAID 6 (8+2)) and in their latent-defect rate, which the
workload's reads make: the sized aggregate spreads them over its own 32 data drives, the
fixed one over 17. Every view of the cursor's layout must show the aggregate the table
shows, with its rates and its P(loss): ``planner size`` (sized) or ``planner evaluate``
(fixed) give the figures, read from their JSON.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import app_of, field_input, settle
from textual.pilot import Pilot
from textual.widgets import Static
from typer.testing import CliRunner

from planner.cli import app as cli
from planner.core.markov.transient import mttdl_hours, p_loss_group
from planner.report.numbers import format_count
from planner.report.percentages import format_percent
from planner.tui import PlannerApp, make_app
from planner.tui.compare_view import CompareView
from planner.tui.model_view import ModelView
from planner.tui.simulation_line import SimulationLine

pytestmark = pytest.mark.asyncio

WORKLOAD = Path(__file__).with_name("tui_workload_reads.yaml")
LABEL = "RAID 6 (8+2)"
REL = 1e-12


def cli_row(command: str) -> dict[str, Any]:
    """The layout's record in ``planner COMMAND WORKLOAD -f json``, with the mission."""
    run = CliRunner().invoke(cli, [command, str(WORKLOAD), "-f", "json"])
    assert run.exit_code == 0, run.stderr
    data = json.loads(run.stdout)
    row = next(r for r in data["layouts"] if r["label"] == LABEL)
    return {**row, "mission_hours": data["mission_hours"]}


def table_figures(app: PlannerApp, sized: bool) -> tuple[float, float, int]:
    """The compare table's P(loss) of a group, of the aggregate, and its groups."""
    assert app.results is not None
    if sized:
        assert app.results.sizing is not None
        row = next(r for r in app.results.sizing.results if r.label == LABEL)
        return row.p_loss_group, row.p_loss_aggregate, row.groups
    result = next(r for r in app.results.comparison.results if r.layout.label == LABEL)
    return result.p_loss_group, result.p_loss_aggregate, result.shape.groups


async def check_views(pilot: Pilot[None], expected: dict[str, Any], sized: bool) -> None:
    """F4, F5 and F6 of the cursor's layout show ``expected``'s aggregate."""
    app = app_of(pilot)
    assert app.query_one(CompareView).showing_sizing is sized
    p_group, p_aggregate, groups = table_figures(app, sized)
    assert p_group == pytest.approx(expected["p_loss_group"], rel=REL)
    assert p_aggregate == pytest.approx(expected["p_loss_aggregate"], rel=REL)
    assert groups == expected["groups"]

    await pilot.press("f4")
    await settle(pilot)
    subject = app.query_one(ModelView).subject
    assert subject is not None
    rates = subject.rates
    assert rates.latent_defects_per_hour == pytest.approx(
        expected["latent_defects_per_hour"], rel=REL
    )
    assert rates.rebuild_hours == pytest.approx(expected["rebuild_hours"], rel=REL)
    mission = expected["mission_hours"]
    assert p_loss_group(2, 10, rates, mission) == pytest.approx(p_group, rel=REL)
    hours = expected.get("mttdl_hours", mttdl_hours(2, 10, rates))  # size gives none
    title = " ".join(str(app.query_one("#model-title", Static).render()).split())
    assert title.endswith(f"({format_count(hours, 3)} h)"), title
    aggregate = "its sized aggregate" if sized else "aggregate.data_disks"
    assert re.search(rf"one of the {groups} groups of {aggregate}", title), title

    await pilot.press("f5")
    await settle(pilot)
    tornado = app.tornado
    assert tornado is not None
    assert tornado.label == LABEL
    assert tornado.sized is sized
    assert tornado.sensitivity.groups == groups
    assert tornado.sensitivity.p_loss_group == pytest.approx(p_group, rel=REL)
    assert tornado.sensitivity.p_loss_aggregate == pytest.approx(p_aggregate, rel=REL)

    await pilot.press("f6")
    await pilot.pause()
    line = app.query_one(SimulationLine)
    assert line.request is not None
    assert line.request.label == LABEL
    assert line.request.groups == groups
    assert line.request.p_loss_markov == pytest.approx(p_group, rel=REL)
    await settle(pilot)  # the simulation: a few seconds at most
    shown = " ".join(str(line.render()).split())
    assert f"Exact Markov, constant rates: {format_percent(p_group)};" in shown


async def test_the_views_follow_the_sized_then_the_fixed_aggregate() -> None:
    sized, fixed = cli_row("size"), cli_row("evaluate")
    # the two aggregates differ, so a view showing the other one fails
    assert sized["groups"] != fixed["groups"]
    assert sized["latent_defects_per_hour"] < 0.8 * fixed["latent_defects_per_hour"]
    assert sized["p_loss_group"] < 0.8 * fixed["p_loss_group"]
    async with make_app(WORKLOAD).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await check_views(pilot, sized, sized=True)
        await pilot.press("f2")  # the compare view, then its table
        await pilot.press("f2", "c")
        await settle(pilot)
        await check_views(pilot, fixed, sized=False)
        await pilot.press("f2")
        await pilot.press("f2", "c")  # and back: the sized aggregate again
        await settle(pilot)
        await check_views(pilot, sized, sized=True)


def compare_notes(app: PlannerApp) -> str:
    """The notes under the compare table, words joined."""
    return " ".join(str(app.query_one("#compare-notes", Static).render()).split())


async def test_the_notes_say_where_c_switches_the_aggregate() -> None:
    """The app opens in the ARR field, where ``c`` types: the notes name F2 first."""
    async with make_app(WORKLOAD).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        arr = field_input(app, "drive-arr")
        assert app.focused is arr
        assert "· F2 then c: a fixed aggregate of 17 data drives." in compare_notes(app)
        await pilot.press("f2", "c")
        await settle(pilot)
        view = app.query_one(CompareView)
        assert not view.showing_sizing
        assert arr.value == "1%"
        assert not app.field_errors
        assert "· F2 then c: the sizing columns." in compare_notes(app)
        await pilot.press("f2", "c")  # from the table too
        await settle(pilot)
        assert view.showing_sizing


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_header_gives_the_rebuild_and_the_wait_apart(size: tuple[int, int]) -> None:
    """With hot spares each layout's Rebuild column is about the rebuild alone (77.2 h); the
    header said the rebuild plus the wait for a replacement (125 h) as if it were theirs."""
    async with make_app(WORKLOAD).run_test(size=size) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        derived = app.query_one("#derived-drive-sustained-mb-per-s", Static)
        text = str(derived.render())
        assert text == "= 77.2+48 h"
        assert derived.content_size.width >= len(text)  # whole, at 80 columns too
        assert app.scenario.rebuild_hours == pytest.approx(77.2 + 48, abs=0.05)
        assert app.results is not None
        assert app.results.sizing is not None
        for row in app.results.sizing.results:  # a spare is nearly always free
            assert format_count(row.rebuild_hours, 3) == "77.2"
