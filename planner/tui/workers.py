"""What the TUI's workers do: each view's results computed off the UI thread, posted back.

The app's ``@work`` methods (one worker group each, on daemon threads:
:mod:`planner.tui.executor`; a newer run of a group cancels the last) call
:class:`Computations`, which computes with the analysis layer and posts a message the app
handles on the UI thread. The plotting views' charts are built here too, for the canvas the
view had when the work started (:mod:`planner.tui.plot`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.message import Message
from textual.worker import get_current_worker

from planner.analysis.compare import compare_data
from planner.analysis.recommend import DEFAULT_TARGET, recommendation
from planner.analysis.sensitivity import layout_label, sensitivity_report
from planner.analysis.sweep_series import group_size_series
from planner.scenario import Scenario
from planner.tui.choose import front_figure, front_key, start_index
from planner.tui.messages import (
    ChooseReady,
    ResultsReady,
    SweepReady,
    TornadoReady,
    WorkerFailed,
)
from planner.tui.plot import Canvas, DrawnChart, drawn
from planner.tui.sweep_view import risk_figure, risk_key

PAINT_WAIT_S = 0.25
"""The longest a recompute waits for the view's new chart to be painted before going on."""


class Computations:
    """The bodies of the app's workers (see the module docstring); run them in a worker."""

    def __init__(self, post: Callable[[Message], object], overrides: tuple[str, ...]) -> None:
        self.post_message = post
        """Posts a message to the app (thread-safe)."""
        self.overrides = overrides
        """The ``--set`` overrides given at start (every computation applies them)."""

    def results(
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

    def tiers(self, scenarios: tuple[Scenario, ...]) -> None:
        """Compare a plan's other tiers (their totals), posting each as it is done."""
        worker = get_current_worker()
        for scenario in scenarios:
            try:
                data = compare_data(scenario, self.overrides)
            except (ValueError, ArithmeticError) as err:
                self.post_message(WorkerFailed(f"Could not evaluate a tier: {err}"))
                return
            if worker.is_cancelled:
                return
            self.post_message(ResultsReady(scenario, data))

    def sweep(self, scenario: Scenario, canvas: Canvas | None) -> DrawnChart | None:
        """Sweep group sizes for ``scenario``, and build the risk plot for ``canvas``.

        The sweep view only paints the plot.
        """
        worker = get_current_worker()
        series = group_size_series(scenario)
        if worker.is_cancelled:
            return None
        built = drawn(risk_key(series), partial(risk_figure, series), canvas)
        if worker.is_cancelled:
            return None
        self.post_message(SweepReady(scenario, series, built))
        return built

    def tornado(self, scenario: Scenario, label: str | None, fixed: bool) -> DrawnChart | None:
        """The tornado of the layout ``label`` under ``scenario`` (sensitivity view only).

        The aggregate is the one the compare table shows (:mod:`planner.analysis.sensitivity`):
        the sized one with a workload unless ``fixed`` (the table switched with ``c``).
        """
        worker = get_current_worker()
        try:
            tornado = sensitivity_report(
                scenario, layout_label(scenario, label), overrides=self.overrides, fixed=fixed
            )
        except (ValueError, ArithmeticError) as err:
            self.post_message(WorkerFailed(f"Could not compute the tornado: {err}"))
            return None
        if not worker.is_cancelled:
            self.post_message(TornadoReady(scenario, label, fixed, tornado))
        return None  # a table, not a chart: nothing to wait for

    def choose(self, scenario: Scenario, canvas: Canvas | None) -> DrawnChart | None:
        """Search the layouts for ``scenario``'s target, and build its plot for ``canvas``.

        The plot shows the starting point. Without a ``target:`` section the view shows the
        front against 1 in 10,000.
        """
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
