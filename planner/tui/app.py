"""The planner TUI: edit a scenario's parameters and layouts, see capacity and risk live.

State flows one way: a handler validates an edit and sets :attr:`PlannerApp.scenario`; its
watcher starts a worker that evaluates the scenario with the core and posts the results;
the results handler sets :attr:`PlannerApp.results` (the comparison, and the sizing when the
scenario has a workload) and :attr:`PlannerApp.sweep_series`, whose watchers hand them to
the views. The sweep and the sensitivity view's tornado are computed only while shown.

The app is composed of parts it calls: :class:`~planner.tui.file_actions.FileActions` (the
scenario file: save, reload, export, quit), :class:`~planner.tui.workers.Computations` (what
each worker computes), :class:`~planner.tui.user_edits.UserEdits` (the edits the views ask
for) and :class:`~planner.tui.view_switch.ViewSwitch` (the view shown, and what the others
show). Its own handlers (``action_*``, ``on_*``, ``watch_*``, ``@work``) hold the state
and only route to them, or hand results to the views. Its keys are declared in
:mod:`planner.tui.keys`, the widgets of its screen in :mod:`planner.tui.main_screen`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import BindingType
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Input, TabbedContent, Tabs

from planner.analysis.compare import CompareData
from planner.analysis.sensitivity import SensitivityReport
from planner.analysis.sweep_series import SweepSeries
from planner.core.design.layout_comparison import Comparison
from planner.scenario import Plan, Scenario, load_default_scenario
from planner.tui.choose import ChooseView
from planner.tui.commands import system_commands
from planner.tui.compare_view import CompareView
from planner.tui.dialogs import HelpScreen
from planner.tui.executor import install_daemon_executor
from planner.tui.file_actions import FileActions
from planner.tui.hangup import watch_terminal
from planner.tui.keys import APP_BINDINGS, MAIN_SCREEN_ACTIONS
from planner.tui.main_screen import BREAKPOINTS, default_screen, main_widgets
from planner.tui.messages import (
    ChooseReady,
    ResultsReady,
    SweepReady,
    TornadoReady,
    WorkerFailed,
)
from planner.tui.params import ParamsPanel
from planner.tui.plot import Canvas, DrawnChart
from planner.tui.source import ScenarioSource
from planner.tui.sweep_view import SweepView
from planner.tui.tiers import TierSwitch
from planner.tui.title_bar import TitleLine
from planner.tui.tornado import SensitivityView
from planner.tui.user_edits import UserEdits
from planner.tui.view_switch import ViewSwitch
from planner.tui.workers import Computations


class PlannerApp(App[None]):
    """Parameters on top; compare, sweep, model, sensitivity and choose views in tabs below.

    The app's state is held in ``var``s (reactives that never repaint): an App-level
    ``reactive`` repaints the whole screen whenever it is set, which on every keystroke
    (scenario, results, field errors) cost a full frame. The watchers update the widgets
    that show the state; each repaints only itself.
    """

    CSS_PATH = "app.tcss"
    TITLE = "planner"
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    BINDINGS: ClassVar[list[BindingType]] = APP_BINDINGS

    scenario: var[Scenario] = var(load_default_scenario, init=False)
    """The last valid scenario: what every view shows (set only after validation)."""

    results: var[CompareData | None] = var(None, init=False)
    """Results of :attr:`scenario`'s layouts (and their sizing, with a workload); None until
    the first worker finishes."""

    field_errors: var[dict[str, str]] = var(dict, init=False)
    """Why a parameter field's text was refused, by field key; empty when all are valid."""

    saved_scenario: var[Scenario] = var(load_default_scenario, init=False)
    """The scenario as last opened, reloaded or saved (what quitting would keep)."""

    plan: var[Plan] = var(lambda: Plan.single(load_default_scenario()), init=False)
    """Every tier of the file, :attr:`scenario` among them (a single file: one tier)."""
    saved_plan: var[Plan] = var(lambda: Plan.single(load_default_scenario()), init=False)

    dirty: var[bool] = var(False, init=False)
    """Whether there is something unsaved: the scenario differs from
    :attr:`saved_scenario`, or a field holds text that was refused."""

    sweep_series: var[tuple[SweepSeries, ...]] = var((), init=False)
    """P(loss) of the aggregate against group size for n+1..n+3 under the current rates."""

    selected_label: var[str | None] = var(None, init=False)
    """The layout under the compare table's cursor (the model and sensitivity views show it)."""

    tornado: var[SensitivityReport | None] = var(None, init=False)
    """The selected layout's tornado under :attr:`scenario`; None until first computed."""

    def __init__(self, source: ScenarioSource, plan: Plan, overrides: Sequence[str] = ()) -> None:
        super().__init__()
        scenario = plan.tiers[0].scenario
        self.overrides = tuple(overrides)
        """The ``--set`` overrides given at start (every computation applies them)."""
        self.saved_on_quit: Path | None = None
        """Where "save and quit" wrote the scenario (``planner tui`` says so once the screen
        is gone: the notice went with it)."""
        self.files = FileActions(self, source)
        self.computations = Computations(self.post_message, self.overrides)
        self.edits = UserEdits(self)
        self.views = ViewSwitch(self)
        self.tiers = TierSwitch(self)
        self.set_reactive(PlannerApp.plan, plan)
        self.set_reactive(PlannerApp.saved_plan, plan)
        self.set_reactive(PlannerApp.scenario, scenario)
        self.set_reactive(PlannerApp.saved_scenario, scenario)
        self.sub_title = self.files.title(dirty=False).full

    def get_default_screen(self) -> Screen[Any]:
        """The main screen, with the width's breakpoint class from its start."""
        return default_screen(self.size.width)

    def compose(self) -> ComposeResult:
        """Title bar, parameters, the five views' tabs (the compare view in its), footer."""
        yield from main_widgets(self.files.title(dirty=False), self.plan, self.scenario)

    def on_mount(self) -> None:
        """Focus the first field (the failure rate) and compute the first results.

        The tab bar leaves the focus chain (F2-F5, F7 and a click switch views), so Tab goes
        from the last field to the compare table, where its keys work. Workers run on
        daemon threads (:mod:`planner.tui.executor`), so quitting never waits for one.
        """
        install_daemon_executor()
        watch_terminal(self)  # ends the app once its terminal is hung up
        self.query_one(TabbedContent).query_one(Tabs).can_focus = False
        self.query_one(ParamsPanel).query(Input).first().focus()
        self.recompute(self.scenario)

    # -- state changes -------------------------------------------------------------------

    @property
    def comparison(self) -> Comparison | None:
        """The comparison of :attr:`scenario`'s layouts (None before the first results)."""
        return None if self.results is None else self.results.comparison

    @property
    def scenario_path(self) -> Path | None:
        """The scenario file (None: the bundled default, until it is first saved)."""
        return self.files.path

    def compute_dirty(self) -> bool:
        """Unsaved: a tier is not as saved, or a field's text was refused."""
        changed = self.scenario != self.saved_scenario or self.plan != self.saved_plan
        return changed or bool(self.field_errors)

    def watch_dirty(self, dirty: bool) -> None:
        """Mark the title "●" while there are unsaved changes."""
        self.show_title(dirty=dirty)

    def show_title(self, *, dirty: bool) -> None:
        """Show the scenario's name, its file and whether it is unsaved in the title bar."""
        # Textual runs the dirty watcher on every read of a computed reactive: change only news.
        title = self.files.title(dirty=dirty)
        if title.full != self.sub_title:
            # set_reactive: App.sub_title would repaint the whole screen; only #title shows it
            self.set_reactive(App.sub_title, title.full)
            self.query_one(TitleLine).show(title)  # fitted to the width

    def watch_scenario(self, scenario: Scenario) -> None:
        """Evaluate the new scenario in a worker; a newer edit cancels a running one.

        The view on screen is computed first and the compare table's results after it
        (one worker, so the two never share the interpreter while the user waits).
        """
        self.query_one(ParamsPanel).show_values(scenario)
        self.tiers.edited(scenario)
        first = self.views.first(scenario)
        self.recompute(scenario, first)

    # -- workers: each computes in Computations, posts its result, handled below ---------

    @work(thread=True, exclusive=True, group="recompute")
    def recompute(
        self, scenario: Scenario, first: Callable[[], DrawnChart | None] | None = None
    ) -> None:
        """The view on screen (``first``), then the comparison and sizing of ``scenario``."""
        self.computations.results(scenario, first)

    @work(thread=True, exclusive=True, group="sweep")
    def recompute_sweep(self, scenario: Scenario, canvas: Canvas | None) -> None:
        """Sweep group sizes for ``scenario`` (when the sweep view is opened)."""
        self.computations.sweep(scenario, canvas)

    @work(thread=True, exclusive=True, group="tornado")
    def recompute_tornado(self, scenario: Scenario, label: str | None, fixed: bool) -> None:
        """The tornado of the layout ``label`` under ``scenario`` (sensitivity view only)."""
        self.computations.tornado(scenario, label, fixed)

    @work(thread=True, exclusive=True, group="choose")
    def recompute_choose(self, scenario: Scenario, canvas: Canvas | None) -> None:
        """Search the layouts for ``scenario``'s target (choose view only)."""
        self.computations.choose(scenario, canvas)

    def on_choose_ready(self, message: ChooseReady) -> None:
        """Keep a search only if it belongs to the current scenario."""
        self.views.choose_ready(message)

    def on_choose_view_add_requested(self, message: ChooseView.AddRequested) -> None:
        """Add the chosen point of the front as a layout, and say so."""
        self.edits.add_chosen(message.candidate)

    def on_results_ready(self, message: ResultsReady) -> None:
        """Keep results only if they belong to the current scenario (stale ones are dropped)."""
        self.tiers.results(message.scenario, message.data)  # a plan's totals
        if message.scenario is self.scenario:
            self.results = message.data

    def on_tornado_ready(self, message: TornadoReady) -> None:
        """Keep a tornado only if it is of the current scenario, layout and aggregate."""
        current = message.scenario is self.scenario and message.label == self.selected_label
        if current and message.fixed == self.views.fixed:
            self.tornado = message.tornado

    def on_worker_failed(self, message: WorkerFailed) -> None:
        """Say what could not be computed; the last results stay on screen."""
        self.notify(message.text, severity="error", timeout=8)

    def on_sweep_ready(self, message: SweepReady) -> None:
        """Keep a sweep only if it belongs to the current scenario."""
        self.views.sweep_ready(message)

    async def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        """A tier's tab clicked (or selected by F8): show that tier."""
        if event.tabs.id == "tier-tabs" and event.tab.id is not None:
            await self.tiers.switch(int(event.tab.id.removeprefix("tier-")))

    async def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """Remember the view shown, give the focus back to it and compute it if behind."""
        await self.views.shown(event.pane.id or "")

    def watch_results(self, results: CompareData | None) -> None:
        """Hand new results to the compare and model views."""
        self.query_one(CompareView).data = results
        self.views.update_model_subject()

    def watch_tornado(self, tornado: SensitivityReport | None) -> None:
        """Hand a new tornado to the sensitivity view."""
        self.query_one(SensitivityView).tornado = tornado

    def watch_sweep_series(self, series: tuple[SweepSeries, ...]) -> None:
        """Hand a new sweep to the sweep view."""
        view = self.query_one(SweepView)
        view.data_disks = self.scenario.aggregate.data_disks
        view.series = series

    def watch_field_errors(self, errors: dict[str, str]) -> None:
        """Mark refused fields and say, under them, that the results are the last valid ones.

        The title bar keeps the scenario's name and the unsaved mark: on 80 columns there is
        no room beside them for a status.
        """
        self.query_one(ParamsPanel).show_errors(errors, self.scenario)

    def watch_selected_label(self) -> None:
        """The model and sensitivity views follow the compare table's cursor."""
        self.views.update_model_subject()
        if self.views.active == "sensitivity":
            self.views.request_tornado()

    # -- events from the views -----------------------------------------------------------

    def on_params_panel_typed(self, message: ParamsPanel.Typed) -> None:
        """Validate the typed text; a valid value becomes the scenario, else an inline error."""
        self.edits.typed(message.spec, message.text)

    def on_compare_view_selected(self, message: CompareView.Selected) -> None:
        """Remember the selected layout."""
        self.selected_label = message.label

    def on_compare_view_add_requested(self) -> None:
        """Open the add-layout dialog; it returns the scenario with the new layout."""
        self.action_add_layout()

    def on_compare_view_remove_requested(self, message: CompareView.RemoveRequested) -> None:
        """Remove a layout (never the last one); say so if the baseline moves."""
        self.edits.remove(message.label)

    def on_compare_view_baseline_requested(self, message: CompareView.BaselineRequested) -> None:
        """Measure relative risks against the selected layout."""
        self.edits.rebase(message.label)

    # -- actions -------------------------------------------------------------------------

    def action_export_markdown(self) -> None:
        """Write the table shown (comparison or sizing) as Markdown beside the scenario."""
        self.files.export_markdown()

    def action_save(self) -> None:
        """Save the scenario back to its YAML file, keeping the user's comments."""
        self.files.save()

    async def action_reload(self) -> None:
        """Read the scenario file again; with unsaved changes, ask first (reload, or stay)."""
        await self.files.reload()

    async def action_quit(self) -> None:
        """Quit; with unsaved changes, ask first (save and quit, quit, or stay)."""
        self.files.quit()

    def action_add_layout(self) -> None:
        """Open the add-layout dialog (the compare table's ``a``, or the palette)."""
        self.edits.open_add_dialog()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The views' keys act on the main screen only: behind a dialog they do nothing.

        (They are priority bindings, which Textual checks under a dialog too; the palette's
        commands call the actions directly.)
        """
        return not (action in MAIN_SCREEN_ACTIONS and self.screen.is_modal)

    def action_help(self) -> None:
        """Show every key."""
        self.push_screen(HelpScreen())

    async def action_view(self, view: str) -> None:
        """Switch to the compare, sweep, model, sensitivity or choose view."""
        await self.views.switch(view)

    async def action_tier(self, by: int) -> None:
        """Show the next (1) or previous (-1) tier of a plan."""
        await self.tiers.step(by)

    async def action_simulate(self) -> None:
        """Monte Carlo of the selected layout's group, shown in the model view (F4)."""
        await self.views.simulate()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette offers every key's action by name."""
        yield from super().get_system_commands(screen)
        yield from system_commands(self)


def make_app(
    scenario_path: Path | None,
    plan: Plan | None = None,
    overrides: Sequence[str] = (),
) -> PlannerApp:
    """The planner app for ``scenario_path`` (None: the bundled default scenario).

    Pass ``plan`` when it was already loaded and validated (the CLI does, to report a
    bad file before the screen opens); otherwise it is loaded here. A single-aggregate file
    is a plan of one tier.

    Raises:
        planner.scenario.ScenarioError: the scenario does not load or validate.
    """
    source = ScenarioSource.read(scenario_path)
    if plan is None:
        plan, _ = source.plan(overrides)
    return PlannerApp(source, plan, overrides)
