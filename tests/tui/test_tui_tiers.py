"""A plan in the TUI: one tab per tier, each tier's own numbers, the totals, saving back.

One Pilot session on a copy of the shipped three-tier plan: the table shows each tier's
layouts with the numbers ``planner evaluate`` gives the plan (its JSON), an edit in one
tier changes that tier and the plan's total only, a refused field holds the tier, and
Ctrl+S writes the edit into its tier with every comment and every other tier kept.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import app_of, field_input, record_notifications, retype, settle
from rich.cells import cell_len
from rich.text import Text
from shipped import PLANS
from textual.containers import Vertical
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Markdown, Static, Tab, TabbedContent, Tabs
from typer.testing import CliRunner

from planner.cli import app as cli
from planner.scenario import load_plan
from planner.tui import PlannerApp, make_app
from planner.tui.chart_room import MIN_CHART_ROWS
from planner.tui.choose import ChooseView
from planner.tui.compare_notes import NotesScroll
from planner.tui.compare_view import CompareView
from planner.tui.dialogs import HelpScreen
from planner.tui.sweep_view import SweepView

pytestmark = pytest.mark.asyncio

SHIPPED = next(path for path in PLANS if path.name == "three-tier-plan.yaml")
TIERS = ["SSD", "SAS", "NL-SAS"]
SINGLE = Path(__file__).with_name("tui_scenario.yaml")


def cli_tiers(path: Path) -> dict[str, dict[str, Any]]:
    """The plan's tiers as ``planner evaluate -f json`` gives them, by name."""
    result = CliRunner().invoke(cli, ["evaluate", str(path), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    return {tier["tier"]: tier for tier in json.loads(result.stdout)["tiers"]}


def shown(app: PlannerApp) -> dict[str, float]:
    """The compare table's layouts, with the P(loss) of each aggregate behind them."""
    table = app.query_one("#compare-table", DataTable)
    labels = [str(table.get_row(key)[0]).removeprefix("◆").strip() for key in table.rows]
    assert app.results is not None
    risks = {r.layout.label: r.p_loss_aggregate for r in app.results.comparison.results}
    assert sorted(labels) == sorted(risks)
    return risks


def totals_text(app: PlannerApp) -> str:
    return str(app.query_one("#plan-total", Static).content)


async def test_tiers_switch_show_their_numbers_and_save_into_their_tier(tmp_path: Path) -> None:
    path = tmp_path / "plan.yaml"
    shutil.copy(SHIPPED, path)
    expected = cli_tiers(path)
    app = make_app(path)
    said = record_notifications(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        tabs = app.query_one("#tier-tabs", Tabs)
        assert [str(tab.label) for tab in tabs.query(Tab)] == TIERS
        assert app.query_one("#tier-bar").display
        for name in TIERS:  # F8 goes round the tiers, each as the CLI shows it
            assert app.scenario.name == name
            want = {r["label"]: r["p_loss_aggregate"] for r in expected[name]["layouts"]}
            assert shown(app) == want
            await pilot.press("f8")
            await settle(pilot)
        assert app.scenario.name == "SSD"
        total = totals_text(app)
        assert "200 drives" in total
        assert "tiers independent" in total

        await pilot.press("f8")  # SAS: an edit changes this tier and the plan's total only
        await settle(pilot)
        before = shown(app)
        await retype(pilot, "drive-arr", "x")
        await pilot.press("shift+f8")  # refused while a field is invalid
        await settle(pilot)
        assert app.scenario.name == "SAS"
        assert any("Fix the invalid field first" in text for text in said)
        await retype(pilot, "drive-arr", "3%")
        after = shown(app)
        assert all(after[label] > before[label] for label in before)
        assert totals_text(app) != total
        assert app.dirty
        assert app.plan.tiers[0].scenario == app.saved_plan.tiers[0].scenario

        await pilot.click("#tier-2")  # a click on a tab shows that tier
        await settle(pilot)
        assert app.scenario.name == "NL-SAS"
        await pilot.press("left_square_bracket")  # [ outside a field: the previous tier
        await settle(pilot)
        assert (app.scenario.name, field_input(app, "drive-arr").value) == ("SAS", "3%")

        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not app.dirty

        # Read again as a single-aggregate file, the tier bar goes (and holds nothing); as
        # the plan again, it comes back with a tab per tier.
        plan_text = path.read_text(encoding="utf-8")
        bar = app.query_one("#tier-bar")
        for text, tabs in ((SINGLE.read_text(encoding="utf-8"), []), (plan_text, TIERS)):
            path.write_text(text, encoding="utf-8")
            await pilot.press("ctrl+r")
            await settle(pilot)
            assert bar.display == bool(tabs)
            assert [str(tab.label) for tab in bar.query(Tab)] == tabs
        assert app.query_one("#tier-tabs", Tabs).active == "tier-0"
    saved = load_plan(path)
    original = load_plan(SHIPPED)
    assert saved.tiers[1].scenario.drive.arr == pytest.approx(0.03)
    assert [saved.tiers[i].scenario for i in (0, 2)] == [original.tiers[i].scenario for i in (0, 2)]
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for line in SHIPPED.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("#") or "- name:" in line:
            assert line in lines, line  # every comment and every tier kept
    assert "      arr: 3%" in lines


async def test_the_plan_reads_whole_at_each_size() -> None:
    """The totals sit under the tabs, broken between items only, and the choose and sweep
    views show their charts only where they can be read, else say how tall a terminal
    shows them.

    All failed first: the totals were left to wrap word by word ("TCO" / "93,931 USD" at 80
    columns, a lone "tier" on the second line at 120), and at 80x24 the choose view's chart
    had one row to plot in; then the sweep view's too (every point on the 100% row).
    At 80x24 the same session then walks the newcomer review's rough edges
    (:func:`no_row_wasted_and_the_focus_kept_at_80x24`).
    """
    async with make_app(SHIPPED).run_test(size=(80, 24)) as pilot:
        app = app_of(pilot)
        await settle(pilot)
        await pilot.press("f7")
        await settle(pilot)
        for width, height in ((80, 24), (100, 30), (120, 40), (160, 40)):
            await pilot.resize_terminal(width, height)
            await settle(pilot)
            tabs = app.query_one("#tier-tabs", Tabs).region
            total = app.query_one("#plan-total", Static)
            text = totals_text(app)
            assert text.endswith("F8 next tier")
            # the plan's risk named once, in full or (narrow) short
            assert ("P(any tier loses data)" in text) != ("P(loss, any tier)" in text)
            box = total.content_region
            lines = [line.plain.rstrip() for line in Text(text).wrap(app.console, box.width)]
            assert box.y >= tabs.bottom  # under the tabs' underline, not beside it
            assert box.height == len(lines)  # every line shown: nothing cut
            # a line ends only between two items: "TCO" and its figure stay together
            assert all(line[-1] in ",;:·" for line in lines[:-1]), lines
            if width >= 120:
                assert len(lines) == 1, lines
            if width >= 160:
                assert "P(any tier loses data)" in text
            views = app.query_one(TabbedContent).region
            assert total.region.bottom <= views.y  # the views' tab bar starts below
            chart_shown(app, CHOOSE, readable=width > 80)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        # 80x24 hid each chart and named the terminal height that shows it: it does, not less
        for view in (CHOOSE, SWEEP):
            await pilot.press(view.key)
            await settle(pilot)
            chart_shown(app, view, readable=False)
            note = str(app.query_one(view.room, Static).content)
            needed = int(note.split("a terminal of ")[1].split("+")[0])
            assert needed > 24
            await pilot.resize_terminal(80, needed)
            await settle(pilot)
            chart_shown(app, view, readable=True)
            await pilot.resize_terminal(80, needed - 1)
            await settle(pilot)
            chart_shown(app, view, readable=False)
            await pilot.resize_terminal(80, 24)
            await settle(pilot)
        # the SAS tier's restore time ("= 24.7 h") had one space before the next label at 80
        await pilot.press("f8")
        await settle(pilot)
        derived = app.query_one(".param-derived", Static)
        right = derived.content_region.right  # where its text ends
        labels = [
            label.region.x
            for label in app.query(".param-label")
            if label.region.y == derived.region.y and label.region.x > right
        ]
        assert labels, "a field beside it"
        assert min(labels) - right >= 3, (min(labels) - right, str(derived.content))
        await no_row_wasted_and_the_focus_kept_at_80x24(pilot)


async def no_row_wasted_and_the_focus_kept_at_80x24(pilot: Pilot[None]) -> None:
    """A newcomer's rough edges at 80x24, in the SAS tier: each check failed first.

    The help's title, the focus after a tier switch, the title's file name once unsaved,
    and the notes cut under the compare table (the same session: one start less).
    """
    app = app_of(pilot)
    assert app.scenario.name == "SAS"
    # F1: the help's title on its top row, the text right under it (three blank rows stood
    # above a title inside the scrolled text).
    await pilot.press("f1")
    await settle(pilot)
    assert isinstance(app.screen, HelpScreen)
    dialog = app.screen.query_one("#help-dialog", Vertical)
    assert "planner: keys" in dialog.render_lines(Region(0, 0, dialog.outer_size.width, 1))[0].text
    first = app.screen.query_one(Markdown).children[0]
    assert first.region.y == dialog.content_region.y
    assert str(first.render()).startswith("Type in a parameter field")
    await pilot.press("escape")
    await settle(pilot)

    # Shift+F8 from a field: the SSD tier's same field has the focus, its text selected, so
    # what is typed next replaces the value (the fields, other in each tier, were rebuilt
    # and the focus went to the tier tabs: the keys went unheard).
    app.screen.set_focus(field_input(app, "drive-arr"))
    await pilot.press("shift+f8")
    await settle(pilot)
    assert app.scenario.name == "SSD"
    arr = field_input(app, "drive-arr")
    assert app.focused is arr
    await pilot.press("2", "%")
    await settle(pilot)
    assert arr.value == "2%"
    assert app.scenario.drive.arr == pytest.approx(0.02)

    # Unsaved now: the mark, the plan's name cut short with an ellipsis, the file whole (the
    # mark pushed the file name off the right edge).
    assert app.dirty
    title = app.query_one("#title", Static)
    shown = str(title.render())
    assert shown.startswith("planner · ● Three tiers, SSD")
    assert shown.endswith("… (three-tier-plan.yaml)")
    assert cell_len(shown) <= title.content_region.width

    # The notes under the table were cut at the foot of the screen, with nothing saying more
    # followed. A line under them says how many and how to see them; they scroll.
    await pilot.press("f2")
    await settle(pilot)
    view = app.query_one(CompareView)
    notes = view.query_one(NotesScroll)
    more = view.query_one("#compare-more", Static)
    below = notes.max_scroll_y
    assert below > 0
    assert more.display
    assert more.region.bottom <= view.region.bottom  # on screen
    assert str(more.render()).startswith(f"▼ {below} more lines of notes: F2, Tab, then ↓")
    await pilot.press("f2", "tab")  # the table, then the notes
    await settle(pilot)
    assert notes.has_focus
    # the line names the keys as the focus is: it was one Tab behind (newcomer review)
    assert str(more.render()).startswith(f"▼ {below} more lines of notes: ↓ / PgDn, ↑ / PgUp back")
    await pilot.press("pagedown")
    await settle(pilot)
    assert 0 < notes.scroll_y < below
    assert str(more.render()).startswith(f"▼ {below - round(notes.scroll_y)} more lines")
    await pilot.press("end")
    await settle(pilot)
    assert str(more.render()).startswith(f"▲ {below} lines of notes above: ↑ / PgUp")
    last = view.query_one("#compare-notes", Static).region.bottom
    assert last == more.region.y  # the last note right above the line, not cut
    await pilot.press("tab")  # out of the notes: the line names the way back to them
    await settle(pilot)
    assert not notes.has_focus
    assert str(more.render()).startswith(f"▲ {below} lines of notes above: F2, Tab, then ↑")
    await every_view_key_works_from_the_table_and_the_notes(pilot)


async def every_view_key_works_from_the_table_and_the_notes(pilot: Pilot[None]) -> None:
    """F3 from the compare table, F4 and a click on a tab from its notes, show their views.

    Each did nothing while the notes scrolled: hiding the compare view took the focus from
    the table, Textual gave it to the table's focusable sibling (the notes, or the table when
    the notes had it), and the tabs showed the compare view again for the widget focused.
    Failed first.
    """
    app = app_of(pilot)
    tabs = app.query_one("#views", TabbedContent)
    await pilot.press("f2")
    await settle(pilot)
    table = app.query_one("#compare-table", DataTable)
    assert app.focused is table
    await pilot.press("f3")
    await settle(pilot)
    assert (tabs.active, app.views.active) == ("sweep", "sweep")
    assert app.query_one(SweepView).display
    await pilot.press("f2")  # back: the focus on the table again
    await settle(pilot)
    assert (tabs.active, app.focused) == ("compare", table)
    await pilot.press("tab")
    await settle(pilot)
    assert app.query_one(NotesScroll).has_focus
    await pilot.press("f4")
    await settle(pilot)
    assert (tabs.active, app.views.active) == ("model", "model")
    await pilot.press("f2")
    await settle(pilot)
    assert tabs.active == "compare"
    assert app.query_one(NotesScroll).has_focus  # where it was left
    await pilot.click(tabs.get_tab("sweep"))  # a click on a tab likewise
    await settle(pilot)
    assert (tabs.active, app.views.active) == ("sweep", "sweep")


@dataclass(frozen=True)
class ChartView:
    """A view with a chart over a text shown whole: the ids of its parts."""

    key: str
    view: type[Widget]
    chart: str
    room: str
    below: str
    says: str
    """Words the text below the chart holds once computed."""
    chart_words: tuple[str, ...]
    """Words of the text below that name the chart's lines and markers: only beside it."""


CHOOSE = ChartView(
    "f7",
    ChooseView,
    "#choose-plot",
    "#choose-room",
    "#choose-detail",
    "Recommended:",
    ("(red line)", "● meets", "○", "▲"),
)
SWEEP = ChartView(
    "f3",
    SweepView,
    "#sweep-plots",
    "#sweep-room",
    "#sweep-caption",
    "evenly",
    ("━ n+1", "● exact", "· the last group"),
)


def chart_shown(app: PlannerApp, shape: ChartView, *, readable: bool) -> None:
    """The view's chart, with its least rows, or the line that stands for it; the text below
    either way, whole, naming the chart's lines and markers only where it is shown.

    At 80x24 the choose view said "(red line)" and "● meets it" under the line standing
    for its chart, and the sweep view "━ n+1" (newcomer review): failed first.
    """
    view = app.query_one(shape.view)
    chart = view.query_one(shape.chart)
    room = view.query_one(shape.room, Static)
    assert (chart.display, room.display) == (readable, not readable)
    if readable:
        assert chart.size.height >= MIN_CHART_ROWS
    else:
        lines = str(room.content).splitlines()
        assert room.size.height == len(lines)  # a line each, none wrapped
        assert f"The chart needs {MIN_CHART_ROWS} rows" in lines[0]
        # the choose view lists its front in the rows the chart cannot use; the sweep none
        assert len(lines) == 1 if shape is SWEEP else lines[1].startswith("Front, cheapest")
    below = view.query_one(shape.below, Static)
    shown_text = below.render()
    assert shape.says in str(shown_text)
    for words in shape.chart_words:
        assert (words in str(shown_text)) == readable, (words, str(shown_text))
    assert below.region.bottom <= view.region.bottom  # the text whole on screen
    assert below.size.height == len(
        Text(str(shown_text)).wrap(app.console, below.content_region.width)
    )
