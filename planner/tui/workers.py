"""The TUI's workers: each view's results computed off the UI thread and posted back.

Each runs on a daemon thread (:mod:`planner.tui.executor`), is cancelled by a newer run of
its group, and posts a message the app handles on the UI thread; the plotting views' charts
are built here too, for the canvas the view had when the work started
(:mod:`planner.tui.plot`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual import work
from textual.worker import get_current_worker

from planner.analysis.compare import compare_data
from planner.analysis.recommend import DEFAULT_TARGET, recommendation
from planner.analysis.sensitivity import layout_label, sensitivity_report
from planner.analysis.sweep import group_size_series
from planner.scenario import Scenario
from planner.tui.choose import front_figure, front_key, start_index
from planner.tui.files import FileActions
from planner.tui.messages import (
    ChooseReady,
    ResultsReady,
    SweepReady,
    TornadoReady,
    WorkerFailed,
)
from planner.tui.plot import Canvas, DrawnChart, drawn
from planner.tui.sweep import risk_figure, risk_key

PAINT_WAIT_S = 0.25
"""The longest a recompute waits for the view's new chart to be painted before going on."""


class Workers(FileActions):
    """The app's computations, one worker group each (see the module docstring)."""

    overrides: tuple[str, ...] = ()
    """The ``--set`` overrides given at start (every computation applies them)."""

    @work(thread=True, exclusive=True, group="recompute")
    def recompute(
        self, scenario: Scenario, first: Callable[[], DrawnChart | None] | None = None
    ) -> None:
        """Evaluate ``scenario`` with the core (off the UI thread) and post the results.

        ``first`` computes and posts the view on screen (sweep, tornado or search) before
        the comparison and sizing, which the compare and model views show.
        """
        worker = get_current_worker()
        if first is not None:
            built = first()
            if worker.is_cancelled:
                return
            if built is not None:
                # Python runs one thread at a time: the comparison (not on screen) computed
                # while the UI thread paints the view's new chart would take turns with it,
                # and the frame the user waits for would come out as late as both.
                built.painted.wait(PAINT_WAIT_S)
        try:
            data = compare_data(scenario, self.overrides)
        except (ValueError, ArithmeticError) as err:  # never lose the app to one edit
            self.post_message(WorkerFailed(f"Could not evaluate the layouts: {err}"))
            return
        if not worker.is_cancelled:
            self.post_message(ResultsReady(scenario, data))

    @work(thread=True, exclusive=True, group="sweep")
    def recompute_sweep(self, scenario: Scenario, canvas: Canvas | None) -> None:
        """Sweep group sizes for ``scenario`` (when the sweep view is opened)."""
        self._sweep(scenario, canvas)

    def _sweep(self, scenario: Scenario, canvas: Canvas | None) -> DrawnChart | None:
        """The sweep, and its risk plot built for ``canvas`` (the view only paints it)."""
        worker = get_current_worker()
        series = group_size_series(scenario)
        if worker.is_cancelled:
            return None
        built = drawn(risk_key(series), partial(risk_figure, series), canvas)
        if worker.is_cancelled:
            return None
        self.post_message(SweepReady(scenario, series, built))
        return built

    @work(thread=True, exclusive=True, group="tornado")
    def recompute_tornado(self, scenario: Scenario, label: str | None) -> None:
        """The tornado of the layout ``label`` under ``scenario`` (sensitivity view only).

        The aggregate is the one the compare table shows (:mod:`planner.analysis.sensitivity`).
        """
        self._tornado(scenario, label)

    def _tornado(self, scenario: Scenario, label: str | None) -> DrawnChart | None:
        worker = get_current_worker()
        try:
            tornado = sensitivity_report(
                scenario, layout_label(scenario, label), overrides=self.overrides
            )
        except (ValueError, ArithmeticError) as err:
            self.post_message(WorkerFailed(f"Could not compute the tornado: {err}"))
            return None
        if not worker.is_cancelled:
            self.post_message(TornadoReady(scenario, label, tornado))
        return None  # a table, not a chart: nothing to wait for

    @work(thread=True, exclusive=True, group="choose")
    def recompute_choose(self, scenario: Scenario, canvas: Canvas | None) -> None:
        """Search the layouts for ``scenario``'s target (choose view only).

        Without a ``target:`` section the view shows the front against 1 in 10,000.
        """
        self._choose(scenario, canvas)

    def _choose(self, scenario: Scenario, canvas: Canvas | None) -> DrawnChart | None:
        """The search, and its plot at the starting point built for ``canvas``."""
        worker = get_current_worker()
        try:
            report = recommendation(scenario, None, self.overrides, DEFAULT_TARGET)
        except (ValueError, ArithmeticError) as err:
            self.post_message(WorkerFailed(f"Could not search the layouts: {err}"))
            return None
        if worker.is_cancelled:
            return None
        index = start_index(report)
        built = drawn(front_key(report, index), partial(front_figure, report, index), canvas)
        if worker.is_cancelled:
            return None
        self.post_message(ChooseReady(scenario, report, built))
        return built
