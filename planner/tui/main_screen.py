"""The main screen: the widgets it holds, top to bottom, and its width's class from its start.

A title bar, a plan's tier bar (none for a single-aggregate file), the parameter fields,
the five views' tabs and the key footer. Only the compare view is made with the screen;
the others are made when first shown (:meth:`~planner.tui.view_switch.ViewSwitch.build`).
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import TabbedContent, TabPane

from planner.scenario import Plan, Scenario
from planner.tui.compare_view import CompareView
from planner.tui.footer import KeyFooter
from planner.tui.model_view import SIDE_BY_SIDE_WIDTH
from planner.tui.params import ParamsPanel
from planner.tui.tiers import TierBar
from planner.tui.title_bar import TitleLine, TitleParts
from planner.tui.view_switch import VIEW_TITLES

BREAKPOINTS = [(0, "-narrow"), (100, "-medium"), (SIDE_BY_SIDE_WIDTH, "-widest")]
"""The app's horizontal breakpoints: the least width (cells) of each class of app.tcss."""


def default_screen(width: int) -> Screen[Any]:
    """The main screen, with the breakpoint class of ``width`` from its start.

    Textual sets the class on the first resize, which comes after every widget was
    styled: the whole screen was styled twice at start (a tenth of a second). With the
    class given here the resize finds it in place; a later resize still moves it.
    """
    reached = [name for least, name in BREAKPOINTS if width >= least]
    return Screen(id="_default", classes=reached[-1] if reached else None)


def main_widgets(title: TitleParts, plan: Plan, scenario: Scenario) -> ComposeResult:
    """Title bar, parameters, the five views' tabs (the compare view in its), footer."""
    with Horizontal(id="title-bar"):
        yield TitleLine(title, id="title")
    # a single-aggregate file: no tier bar
    yield TierBar(plan.names, tiered=plan.tiered, id="tier-bar")
    yield ParamsPanel(scenario, id="params")
    with TabbedContent(id="views", initial="compare"):
        with TabPane("Compare", id="compare"):
            yield CompareView(id="compare-view")
        # The other views are built when first shown (ViewSwitch.build).
        for view, title_text in VIEW_TITLES.items():
            yield TabPane(title_text, id=view)
    yield KeyFooter()
