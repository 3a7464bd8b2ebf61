"""Which view the app shows, what the others show, and what to compute when one is shown.

The sweep, sensitivity and choose views are computed only while shown (the compare table's
results always): :class:`ViewSwitch` remembers what each shows, so that showing one again
computes it only for a scenario it has not seen, and where the focus was in each view, so
that coming back puts it there again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane

from planner.analysis.domains import simulation_refusal
from planner.analysis.simulation import SimulationRequest
from planner.scenario import Scenario
from planner.tui.choose import ChooseView
from planner.tui.compare_view import CompareView
from planner.tui.keys import VIEWS
from planner.tui.messages import ChooseReady, SweepReady
from planner.tui.model_view import ModelSubject, ModelView
from planner.tui.plot import CachedPlot, DrawnChart
from planner.tui.simulation_line import SimulationLine
from planner.tui.sweep_view import SweepView
from planner.tui.tornado import SensitivityView

if TYPE_CHECKING:
    from planner.tui.app import PlannerApp


VIEW_TITLES = {"sweep": "Sweep", "model": "Model", "sensitivity": "Sensitivity", "choose": "Choose"}
"""The views built when first shown, by tab id: their tabs' titles."""

VIEW_WIDGETS: dict[str, Callable[[], Widget]] = {
    "sweep": partial(SweepView, id="sweep-view"),
    "model": partial(ModelView, id="model-view"),
    "sensitivity": partial(SensitivityView, id="sensitivity-view"),
    "choose": partial(ChooseView, id="choose-view"),
}
"""How each view of :data:`VIEW_TITLES` is made."""


class ViewSwitch:
    """The views of ``app``: the one shown and what each other one shows."""

    def __init__(self, app: PlannerApp) -> None:
        self.app = app
        self.active = "compare"
        """The view shown (its tab's id)."""
        self.focus: dict[str, Widget] = {}
        """The widget that had the focus when each view was left (restored on return)."""
        self.swept: Scenario | None = None
        """The scenario the sweep view shows, or None before the first sweep."""
        self.sensed: tuple[Scenario, str | None, bool] | None = None
        """The scenario, layout and aggregate (:attr:`fixed`) the sensitivity view shows (or
        is computing)."""
        self.chosen: Scenario | None = None
        """The scenario the choose view shows (or is searching), None before the first."""

    def first(self, scenario: Scenario) -> Callable[[], DrawnChart | None] | None:
        """What to compute first for a new ``scenario``: the view shown, if it computes."""
        app = self.app
        computations = app.computations
        if self.active == "sweep":
            canvas = app.query_one(SweepView).risk_canvas()
            return partial(computations.sweep, scenario, canvas)
        if self.active == "sensitivity":
            self.sensed = (scenario, app.selected_label, self.fixed)
            return partial(computations.tornado, scenario, app.selected_label, self.fixed)
        if self.active == "choose":
            self.chosen = scenario
            return partial(computations.choose, scenario, app.query_one(ChooseView).canvas())
        return None

    async def build(self, view: str) -> None:
        """Make ``view`` in its tab the first time it is about to be shown (else nothing).

        A view never shown costs nothing: not at start (its widgets made, styled and
        mounted), nor on every wait for the screen to be idle, which visits every widget.
        """
        make = VIEW_WIDGETS.get(view)
        pane = self.app.query_one(f"#{view}", TabPane) if make is not None else None
        if make is not None and pane is not None and not pane.children:
            await pane.mount(make())

    async def switch(self, view: str) -> None:
        """Show ``view``; F2 focuses the compare view's table, from any view.

        The focus starts in the fields, eight Tabs from the table, and the note under the
        table names F2 as the way there. From another view F2 gives the focus back to the
        table or notes it was left in, else to the table: it gave it back to the field it
        was in, so the table's keys typed next went into the field (a newcomer's ``a`` for
        "add a layout" replaced Scrub h with "a").
        """
        app = self.app
        if view == "compare" and self.active == "compare":
            # at once, not after the keys already queued (``focus()`` waits its turn): digits
            # typed right behind F2 went into the field it left
            app.screen.set_focus(app.query_one(CompareView).table)
            return
        if view in VIEWS:
            if app.focused is not None and view != self.active:
                self.focus[self.active] = app.focused
            compare = app.query_one(CompareView)
            left = self.focus.get(view)
            if view == "compare" and (left is None or compare not in left.ancestors):
                # a field was left: not given back after a refresh, the table focused now
                self.focus.pop(view, None)
            await self.build(view)
            app.query_one(TabbedContent).active = view
            if view == "compare" and view not in self.focus:
                app.screen.set_focus(compare.table)

    async def shown(self, view: str) -> None:
        """``view`` is now shown: give the focus back, and compute it if it is behind.

        Hiding a view's table drops the focus; without this, back on the compare view a key
        meant for the table (``a``) would do nothing, or go into a parameter field. A view
        shown by a click on its tab is built here, the first time.
        """
        app = self.app
        await self.build(view)
        self.active = view
        again = self.focus.get(view)
        if again is not None and again.is_attached:
            app.call_after_refresh(again.focus)
        elif view == "compare" and app.focused is None:
            app.call_after_refresh(app.query_one(CompareView).table.focus)
        elif view == "choose":
            app.call_after_refresh(app.query_one(ChooseView).focus)
        if view == "sweep" and self.swept is not app.scenario:
            app.recompute_sweep(app.scenario, app.query_one(SweepView).risk_canvas())
        if view == "sensitivity":
            self.request_tornado()
        if view == "model":
            self.update_model_subject()
        if view == "choose" and self.chosen is not app.scenario:
            self.chosen = app.scenario
            app.recompute_choose(app.scenario, app.query_one(ChooseView).canvas())

    @property
    def fixed(self) -> bool:
        """Whether the table shows ``aggregate.data_disks``' aggregate despite a workload.

        ``c`` switches it; the model, sensitivity and simulation views follow the table.
        """
        return self.app.query_one(CompareView).column_set == "fixed"

    def choose_ready(self, message: ChooseReady) -> None:
        """Show a search in the choose view if it is of the current scenario."""
        app = self.app
        if message.scenario is app.scenario:
            self.chosen = message.scenario
            view = app.query_one(ChooseView)
            view.built = message.built
            view.report = message.report
        # A stale search, or one equal to the last, is never painted: let its worker go on.
        app.query_one("#choose-plot", CachedPlot).release_unless_shown(message.built)

    def sweep_ready(self, message: SweepReady) -> None:
        """Hand a sweep to the app's series (the sweep view) if it is of the current scenario."""
        app = self.app
        if message.scenario is app.scenario:
            self.swept = message.scenario
            app.query_one(SweepView).built = message.built
            app.sweep_series = message.series
        # A stale sweep, or one equal to the last, is never painted: let its worker go on.
        app.query_one("#sweep-risk", CachedPlot).release_unless_shown(message.built)

    def request_tornado(self) -> None:
        """Start a tornado for the current scenario and layout unless one is shown or running."""
        app = self.app
        wanted = (app.scenario, app.selected_label, self.fixed)
        sensed = self.sensed
        if sensed is None or sensed[0] is not wanted[0] or sensed[1:] != wanted[1:]:
            self.sensed = wanted
            app.recompute_tornado(*wanted)

    def update_model_subject(self, *, hidden_too: bool = False) -> None:
        """Give the model view the selected layout's aggregate (only while it is shown).

        The selected layout is the compare table's cursor row; before the cursor has been
        on a row, the baseline (the table puts its cursor there when first filled). Its
        aggregate is the one the table shows: sized for a workload, or after ``c`` that of
        ``aggregate.data_disks`` (:meth:`~planner.analysis.compare.CompareData.layout_aggregate`).

        A hidden model view is not refilled on every keystroke: its title and tables would
        re-lay the screen out for nothing. It catches up when shown (or ``hidden_too``).
        """
        app = self.app
        data = app.results
        if data is None or (self.active != "model" and not hidden_too):
            return
        comparison = data.comparison
        labels = {r.layout.label for r in comparison.results}
        label = app.selected_label if app.selected_label in labels else comparison.baseline
        # the layout's own chain: a pool's rebuild rate and stripe share (docs/declustered.md),
        # a group's wait shortened by its aggregate's hot spares, a sized one's own defects
        aggregate = data.layout_aggregate(app.scenario, label, fixed=self.fixed)
        baseline = label == comparison.baseline
        named = data.sizing is not None
        app.query_one(ModelView).subject = ModelSubject(aggregate, baseline, named)

    async def simulate(self) -> None:
        """Monte Carlo of the selected layout's group, shown in the model view (F4)."""
        app = self.app
        await self.build("model")
        self.update_model_subject(hidden_too=True)
        subject = app.query_one(ModelView).subject
        if subject is None:
            app.notify("No results yet", severity="warning")
            return
        refusal = simulation_refusal(app.scenario)
        if refusal:
            app.notify(f"Cannot simulate: {refusal}", severity="warning")
            return
        await self.switch("model")
        request = SimulationRequest.of(app.scenario, subject.layout, subject.aggregate)
        app.query_one(SimulationLine).start(request)
