"""The choose view (F7): the front drawn, the target line, moving along it, Enter adds."""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import SCENARIO, app_of, retype, settle
from textual.widgets import Static

from planner.analysis.recommend import DEFAULT_TARGET, recommendation
from planner.report.percentages import format_percent
from planner.scenario import load_scenario
from planner.tui import make_app
from planner.tui.choose import ChooseView

SIZE = (120, 40)
pytestmark = pytest.mark.asyncio


async def test_choose_view_moves_along_the_front_and_adds_a_layout() -> None:
    async with make_app(SCENARIO).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        await pilot.press("f7")
        await settle(pilot)
        view = app.query_one(ChooseView)
        assert app.focused is view
        report = view.report
        assert report is not None
        # the same search as the analysis layer's, with the default target (no target:)
        expected = recommendation(load_scenario(SCENARIO), fallback_target=DEFAULT_TARGET)
        assert [c.layout.label for c in report.front] == [c.layout.label for c in expected.front]
        assert report.target == DEFAULT_TARGET
        top = report.top
        assert top is not None
        assert view.selected == top  # the cursor starts on the recommendation
        detail = str(view.query_one("#choose-detail", Static).render())
        assert f"Recommended: {top.layout.label}" in detail
        # the target is the default one, and says so (planner recommend would refuse)
        target = "≤ 0.010% (red line) by default: the scenario sets no target; add a `target:`"
        assert target in detail
        # ◆ is the baseline elsewhere in the app: the point under the cursor is ▲, in words
        assert "◆" not in detail
        assert f"▲ cursor, {top.layout.label}: " in detail
        assert "○ misses it, ▲ the cursor." in detail

        start = view.index
        await pilot.press("left")
        await settle(pilot)
        assert view.index == max(0, start - 1)
        chosen = view.selected
        assert chosen is not None
        assert chosen.layout.label in str(view.query_one("#choose-detail", Static).render())
        await pilot.press("enter")
        await settle(pilot)
        assert app.scenario.core_layouts()[-1].group_size == chosen.layout.group_size
        assert app.scenario.core_layouts()[-1].parity == chosen.layout.parity

        # a field change while the view is shown searches again (ARR up: riskier front)
        await retype(pilot, "drive-arr", "8%")
        await pilot.press("f7")
        await settle(pilot)
        again = view.report
        assert again is not None
        assert again is not report
        assert again.front[0].p_loss_aggregate > report.front[0].p_loss_aggregate


async def test_a_scenarios_own_target_is_not_called_a_default() -> None:
    scenario = SCENARIO.parents[2] / "scenarios" / "recommend-400tb.yaml"
    async with make_app(scenario).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f7")
        await settle(pilot)
        view = app_of(pilot).query_one(ChooseView)
        detail = str(view.query_one("#choose-detail", Static).render())
        assert "(red line)" in detail
        assert "by default" not in detail
        # its choice read the calculators' way misses the target (the figure is checked
        # against an mpmath chain in tests/analysis/test_spec_sheet_note.py)
        words = " ".join(detail.split())
        assert "Recommended: mirror3 3. Read the spec sheet's way (1e-15 per bit" in words
        assert "would be 0.052%, over the target" in words


def _with_target(tmp_path: Path, line: str) -> Path:
    """recommend-400tb.yaml with its target's P(loss) line replaced by ``line``."""
    shipped = SCENARIO.parents[2] / "scenarios" / "recommend-400tb.yaml"
    text = shipped.read_text(encoding="utf-8")
    old = "  max_p_loss: 0.01%        # less than 1 in 10,000 over the mission\n"
    assert old in text
    path = tmp_path / "target.yaml"
    path.write_text(text.replace(old, line), encoding="utf-8")
    return path


async def test_a_target_on_p_group_lost_is_drawn_and_named(tmp_path: Path) -> None:
    # issue 20: F7 ranks against target.max_p_group_lost and says so
    path = _with_target(tmp_path, "  max_p_group_lost: 1e-6\n")
    async with make_app(path).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f7")
        await settle(pilot)
        view = app_of(pilot).query_one(ChooseView)
        report = view.report
        assert report is not None
        assert report.target.max_p_group_lost == 1e-6
        assert report.target.max_p_loss is None
        assert report.top is not None
        assert report.top.p_group_lost_aggregate <= 1e-6
        detail = " ".join(str(view.query_one("#choose-detail", Static).render()).split())
        # written bare (1e-6): the limit says it is a fraction (test_target_bare_fraction.py)
        assert "target P(group lost) ≤ 0.00010% (given as the fraction 1e-6" in detail
        assert f"P(group lost) {format_percent(report.top.p_group_lost_aggregate)}" in detail
        assert "by default" not in detail


async def test_the_choice_says_where_its_critical_rebuild_bound_turns_the_verdict(
    tmp_path: Path,
) -> None:
    """A target of 0.00070%: the three-way mirror meets it in the table, not at its bound
    (the bound is checked against an mpmath chain in tests/analysis/test_critical_defects.py).
    """
    path = _with_target(tmp_path, "  max_p_loss: 0.0008%\n")
    async with make_app(path).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f7")
        await settle(pilot)
        view = app_of(pilot).query_one(ChooseView)
        assert view.report is not None
        assert view.report.top is not None
        words = " ".join(str(view.query_one("#choose-detail", Static).render()).split())
        assert "Recommended: mirror3 3." in words
        assert "as a loss, its P(loss) would be at most 0.0013%, over the target" in words


async def test_at_80x24_the_front_stands_in_for_the_chart_point_by_point() -> None:
    """A plan's tier bar leaves the chart 6 rows at 80x24: the rows the chart cannot use
    list the front around the cursor (they were blank under the line saying so)."""
    plan = SCENARIO.parents[2] / "scenarios" / "three-tier-plan.yaml"
    async with make_app(plan).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f7")
        await settle(pilot)
        view = app_of(pilot).query_one(ChooseView)
        report = view.report
        assert report is not None
        assert report.top is not None
        room = view.query_one("#choose-room", Static)
        assert room.display
        lines = str(room.render()).splitlines()
        assert lines[0].startswith("The chart needs 9 rows")
        assert lines[1].startswith("Front, cheapest first (")
        shown = lines[2:]
        assert len(shown) >= 3
        cursor = next(line for line in shown if line.startswith("▲"))
        top = report.top
        assert f"▲ {top.name} " in cursor
        assert f"{top.total_disks:,} drives" in cursor
        assert f"P(loss) {format_percent(top.p_loss_aggregate)}" in cursor
        for line in shown:  # each point meets or misses the target, as on the chart
            name = line[2:].split("  ")[0].strip()
            point = next(c for c in report.front if c.name == name)
            assert line[0] in ("▲", "○" if point.misses else "●")
        await pilot.press("right")
        await settle(pilot)
        moved = str(room.render()).splitlines()[2:]
        following = report.front[report.front.index(top) + 1]
        assert any(line.startswith(f"▲ {following.name} ") for line in moved)
        assert app_of(pilot).size.height == 24  # nothing below the screen: every row fits
        assert view.region.bottom <= 24


async def test_enter_on_a_layout_already_there_says_so_and_adds_nothing(tmp_path: Path) -> None:
    """A newcomer pressed Enter on the front's ``mirror3 3`` with "3-way mirror" in the
    scenario: a second, identical layout was added under another name. Now nothing is
    added, and the notice names the layout already there (failed first)."""
    async with make_app(SCENARIO).run_test(size=SIZE) as pilot:
        await settle(pilot)
        app = app_of(pilot)
        await pilot.press("f7")
        await settle(pilot)
        view = app.query_one(ChooseView)
        chosen = view.selected
        assert chosen is not None
        await pilot.press("enter")  # added once, under its default label
        await settle(pilot)
        count = len(app.scenario.layouts)
        notices: list[str] = []
        original = app.notify
        app.notify = lambda message, **kw: notices.append(message) or original(message, **kw)  # type: ignore[method-assign]
        await pilot.press("f7", "enter")  # the same point again
        await settle(pilot)
        assert len(app.scenario.layouts) == count
        assert any(
            f"already in the compare view as {app.scenario.layouts[-1].label}" in n for n in notices
        ), notices
