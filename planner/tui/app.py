"""The planner TUI: edit a scenario's parameters and layouts, see capacity and risk live.

State flows one way: a handler validates an edit and sets :attr:`PlannerApp.scenario`; its
watcher starts a worker that evaluates the scenario with the core and posts the results;
the results handler sets :attr:`PlannerApp.results` (the comparison, and the sizing when the
scenario has a workload) and :attr:`PlannerApp.sweep_series`, whose watchers hand them to
the views. The sweep and the sensitivity view's tornado are computed only while shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import var
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static, TabbedContent, TabPane, Tabs

from planner.analysis.compare import CompareData
from planner.analysis.sensitivity import SensitivityReport
from planner.analysis.simulation import SimulationRequest
from planner.analysis.sweep import SweepSeries
from planner.core.arrays.layouts import Comparison
from planner.scenario import Scenario
from planner.scenario.edits import (
    EditError,
    parse_text,
    with_baseline,
    with_core_layout_added,
    with_layout_removed,
    with_value,
)
from planner.tui.choose import ChooseView
from planner.tui.commands import VIEWS, system_commands
from planner.tui.compare import CompareView
from planner.tui.dialogs import AddLayoutScreen, HelpScreen
from planner.tui.executor import install_daemon_executor
from planner.tui.footer import KeyFooter
from planner.tui.messages import (
    ChooseReady,
    ResultsReady,
    SweepReady,
    TornadoReady,
    WorkerFailed,
)
from planner.tui.model import SIDE_BY_SIDE_WIDTH, ModelSubject, ModelView
from planner.tui.params import ParamsPanel
from planner.tui.plot import CachedPlot, DrawnChart
from planner.tui.simulation import SimulationLine
from planner.tui.source import ScenarioSource
from planner.tui.sweep import SweepView
from planner.tui.tornado import SensitivityView
from planner.tui.workers import Workers


class PlannerApp(Workers):
    """Parameters on top; compare, sweep, model and sensitivity views in tabs below.

    The file actions (save, reload, export, quit) and the state they use come from
    :class:`~planner.tui.files.FileActions`; the workers that compute each view's results
    from :class:`~planner.tui.workers.Workers`.
    """

    CSS_PATH = "app.tcss"
    TITLE = "planner"
    # Textual declares this an instance attribute, so it cannot be a ClassVar here.
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012
        (0, "-narrow"),
        (100, "-medium"),
        (SIDE_BY_SIDE_WIDTH, "-widest"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("f2", "view('compare')", "Compare"),
        Binding("f3", "view('sweep')", "Sweep"),
        Binding("f4", "view('model')", "Model"),
        Binding("f5", "view('sensitivity')", "Sensitivity"),
        Binding("f6", "simulate", "Simulate"),
        Binding("f7", "view('choose')", "Choose"),
        Binding("ctrl+o", "export_markdown", "Export MD", priority=True),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+r", "reload", "Reload", priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    sweep_series: var[tuple[SweepSeries, ...]] = var((), init=False)
    """P(loss) of the aggregate against group size for n+1..n+3 under the current rates."""

    selected_label: var[str | None] = var(None, init=False)
    """The layout under the compare table's cursor (the model and sensitivity views show it)."""

    tornado: var[SensitivityReport | None] = var(None, init=False)
    """The selected layout's tornado under :attr:`scenario`; None until first computed."""

    def __init__(
        self, source: ScenarioSource, scenario: Scenario, overrides: Sequence[str] = ()
    ) -> None:
        super().__init__(source, scenario)
        self.overrides = tuple(overrides)
        """The ``--set`` overrides given at start (the exports print them)."""
        self._active_view = "compare"
        self._focus_by_view: dict[str, Widget] = {}
        """The widget that had the focus when each view was left (restored on return)."""
        self._swept: Scenario | None = None
        """The scenario the sweep view shows, or None before the first sweep."""
        self._sensed: tuple[Scenario, str | None] | None = None
        """The scenario and layout the sensitivity view shows (or is computing)."""
        self._chosen: Scenario | None = None
        """The scenario the choose view shows (or is searching), None before the first."""

    def compose(self) -> ComposeResult:
        """Title bar, parameters, the five views, footer."""
        with Horizontal(id="title-bar"):
            yield Static(f"planner · {self.sub_title}", id="title", markup=False)
        yield ParamsPanel(self.scenario, id="params")
        with TabbedContent(id="views", initial="compare"):
            with TabPane("Compare", id="compare"):
                yield CompareView(id="compare-view")
            with TabPane("Sweep", id="sweep"):
                yield SweepView(id="sweep-view")
            with TabPane("Model", id="model"):
                yield ModelView(id="model-view")
            with TabPane("Sensitivity", id="sensitivity"):
                yield SensitivityView(id="sensitivity-view")
            with TabPane("Choose", id="choose"):
                yield ChooseView(id="choose-view")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Focus the first field (the failure rate) and compute the first results.

        The tab bar leaves the focus chain (F2-F5, F7 and a click switch views), so Tab goes
        from the last field to the compare table, where its keys work. Workers run on
        daemon threads (:mod:`planner.tui.executor`), so quitting never waits for one.
        """
        install_daemon_executor()
        self.query_one(TabbedContent).query_one(Tabs).can_focus = False
        self.query_one(ParamsPanel).query(Input).first().focus()
        self.recompute(self.scenario)

    # -- state changes -------------------------------------------------------------------

    @property
    def comparison(self) -> Comparison | None:
        """The comparison of :attr:`scenario`'s layouts (None before the first results)."""
        return None if self.results is None else self.results.comparison

    def watch_scenario(self, scenario: Scenario) -> None:
        """Evaluate the new scenario in a worker; a newer edit cancels a running one.

        The view on screen is computed first and the compare table's results after it
        (one worker, so the two never share the interpreter while the user waits).
        """
        self.query_one(ParamsPanel).show_derived(scenario)
        first: Callable[[], DrawnChart | None] | None = None
        if self._active_view == "sweep":
            first = partial(self._sweep, scenario, self.query_one(SweepView).risk_canvas())
        elif self._active_view == "sensitivity":
            self._sensed = (scenario, self.selected_label)
            first = partial(self._tornado, scenario, self.selected_label)
        elif self._active_view == "choose":
            self._chosen = scenario
            first = partial(self._choose, scenario, self.query_one(ChooseView).canvas())
        self.recompute(scenario, first)

    def on_choose_ready(self, message: ChooseReady) -> None:
        """Keep a search only if it belongs to the current scenario."""
        if message.scenario is self.scenario:
            self._chosen = message.scenario
            view = self.query_one(ChooseView)
            view.built = message.built
            view.report = message.report
        # A stale search, or one equal to the last, is never painted: let its worker go on.
        self.query_one("#choose-plot", CachedPlot).release_unless_shown(message.built)

    def on_choose_view_add_requested(self, message: ChooseView.AddRequested) -> None:
        """Add the chosen point of the front as a layout, and say so."""
        before = len(self.scenario.layouts)
        self._apply(lambda: with_core_layout_added(self.scenario, message.candidate.layout))
        if len(self.scenario.layouts) > before:
            self.notify(f"Added {self.scenario.layouts[-1].label} to the compare view (F2)")

    def _request_tornado(self) -> None:
        """Start a tornado for the current scenario and layout unless one is shown or running."""
        wanted = (self.scenario, self.selected_label)
        if self._sensed is None or self._sensed[0] is not wanted[0] or self._sensed[1] != wanted[1]:
            self._sensed = wanted
            self.recompute_tornado(*wanted)

    def on_results_ready(self, message: ResultsReady) -> None:
        """Keep results only if they belong to the current scenario (stale ones are dropped)."""
        if message.scenario is self.scenario:
            self.results = message.data

    def on_tornado_ready(self, message: TornadoReady) -> None:
        """Keep a tornado only if it is of the current scenario and selected layout."""
        if message.scenario is self.scenario and message.label == self.selected_label:
            self.tornado = message.tornado

    def on_worker_failed(self, message: WorkerFailed) -> None:
        """Say what could not be computed; the last results stay on screen."""
        self.notify(message.text, severity="error", timeout=8)

    def on_sweep_ready(self, message: SweepReady) -> None:
        """Keep a sweep only if it belongs to the current scenario."""
        if message.scenario is self.scenario:
            self._swept = message.scenario
            self.query_one(SweepView).built = message.built
            self.sweep_series = message.series
        # A stale sweep, or one equal to the last, is never painted: let its worker go on.
        self.query_one("#sweep-risk", CachedPlot).release_unless_shown(message.built)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """Remember the view shown and give the focus back to where it was in it.

        Hiding a view's table drops the focus; without this, back on the compare view a key
        meant for the table (``a``) would do nothing, or go into a parameter field.
        """
        self._active_view = event.pane.id or ""
        again = self._focus_by_view.get(self._active_view)
        if again is not None and again.is_attached:
            self.call_after_refresh(again.focus)
        elif self._active_view == "compare" and self.focused is None:
            self.call_after_refresh(self.query_one(CompareView).table.focus)
        elif self._active_view == "choose":
            self.call_after_refresh(self.query_one(ChooseView).focus)
        if self._active_view == "sweep" and self._swept is not self.scenario:
            self.recompute_sweep(self.scenario, self.query_one(SweepView).risk_canvas())
        if self._active_view == "sensitivity":
            self._request_tornado()
        if self._active_view == "model":
            self._update_model_subject()
        if self._active_view == "choose" and self._chosen is not self.scenario:
            self._chosen = self.scenario
            self.recompute_choose(self.scenario, self.query_one(ChooseView).canvas())

    def watch_results(self, results: CompareData | None) -> None:
        """Hand new results to the compare and model views."""
        self.query_one(CompareView).data = results
        self._update_model_subject()

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
        self.query_one(ParamsPanel).show_errors(errors)

    def watch_selected_label(self) -> None:
        """The model and sensitivity views follow the compare table's cursor."""
        self._update_model_subject()
        if self._active_view == "sensitivity":
            self._request_tornado()

    def _update_model_subject(self, *, hidden_too: bool = False) -> None:
        """Give the model view the selected layout's result (only while it is shown).

        A hidden model view is not refilled on every keystroke: its title and tables would
        re-lay the screen out for nothing. It catches up when shown (or ``hidden_too``).
        """
        comparison = self.comparison
        if comparison is None or (self._active_view != "model" and not hidden_too):
            return
        by_label = {r.layout.label: r for r in comparison.results}
        result = by_label.get(self.selected_label or "", comparison.results[0])
        # the layout's own chain: a pool's rebuild rate and stripe share (docs/declustered.md)
        rates = result.layout.chain_rates(self.scenario.rates())
        self.query_one(ModelView).subject = ModelSubject(result, rates)

    # -- events from the views -----------------------------------------------------------

    def on_params_panel_typed(self, message: ParamsPanel.Typed) -> None:
        """Validate the typed text; a valid value becomes the scenario, else an inline error."""
        spec = message.spec
        errors = dict(self.field_errors)
        try:
            value = parse_text(spec, message.text)
            scenario = with_value(self.scenario, spec, value)
        except EditError as problem:
            errors[spec.key] = str(problem)
            self.field_errors = errors
            return
        errors.pop(spec.key, None)
        self.field_errors = errors
        self.file.typed[spec.path] = value
        self.scenario = scenario

    def on_compare_view_selected(self, message: CompareView.Selected) -> None:
        """Remember the selected layout."""
        self.selected_label = message.label

    def on_compare_view_add_requested(self) -> None:
        """Open the add-layout dialog; it returns the scenario with the new layout."""
        self.action_add_layout()

    def action_add_layout(self) -> None:
        """Open the add-layout dialog (the compare table's ``a``, or the palette)."""
        self.push_screen(AddLayoutScreen(self.scenario), self._layout_added)

    def _layout_added(self, scenario: Scenario | None) -> None:
        if scenario is not None:
            self.scenario = scenario
            self.notify(f"Added {scenario.layouts[-1].label}")

    def on_compare_view_remove_requested(self, message: CompareView.RemoveRequested) -> None:
        """Remove a layout (never the last one); say so if the baseline moves."""
        was = self.scenario.baseline_label()
        fallback = self.saved_scenario.baseline
        self._apply(lambda: with_layout_removed(self.scenario, message.label, fallback))
        if (now := self.scenario.baseline_label()) != was:
            self.notify(f"Removed {message.label}: baseline was {was}, now {now}")

    def on_compare_view_baseline_requested(self, message: CompareView.BaselineRequested) -> None:
        """Measure relative risks against the selected layout."""
        self._apply(lambda: with_baseline(self.scenario, message.label))

    def _apply(self, edit: Callable[[], Scenario]) -> None:
        try:
            self.scenario = edit()
        except EditError as problem:
            self.notify(str(problem), severity="warning")

    # -- actions -------------------------------------------------------------------------

    def action_help(self) -> None:
        """Show every key."""
        self.push_screen(HelpScreen())

    def action_view(self, view: str) -> None:
        """Switch to the compare, sweep, model, sensitivity or choose view.

        F2 on the compare view focuses its table: the focus starts in the fields, eight
        Tabs from the table, and the note under the table names F2 as the way there.
        """
        if view == "compare" and self._active_view == "compare":
            self.query_one(CompareView).table.focus()
            return
        if view in VIEWS:
            if self.focused is not None and view != self._active_view:
                self._focus_by_view[self._active_view] = self.focused
            self.query_one(TabbedContent).active = view

    def action_simulate(self) -> None:
        """Monte Carlo of the selected layout's group, shown in the model view (F4)."""
        self._update_model_subject(hidden_too=True)
        subject = self.query_one(ModelView).subject
        if subject is None:
            self.notify("No results yet", severity="warning")
            return
        self.action_view("model")
        result = subject.result
        request = SimulationRequest.of(self.scenario, result.layout, result.p_loss_group)
        self.query_one(SimulationLine).start(request)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette offers every key's action by name."""
        yield from super().get_system_commands(screen)
        yield from system_commands(self)


def make_app(
    scenario_path: Path | None,
    scenario: Scenario | None = None,
    overrides: Sequence[str] = (),
) -> PlannerApp:
    """The planner app for ``scenario_path`` (None: the bundled default scenario).

    Pass ``scenario`` when it was already loaded and validated (the CLI does, to report a
    bad file before the screen opens); otherwise it is loaded here.

    Raises:
        planner.scenario.ScenarioError: the scenario does not load or validate.
    """
    source = ScenarioSource.read(scenario_path)
    if scenario is None:
        scenario, _ = source.document(overrides)
    return PlannerApp(source, scenario, overrides)
