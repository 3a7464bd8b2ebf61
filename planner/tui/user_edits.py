"""What the user asks of the scenario from the views: a value, a layout, a baseline.

:class:`UserEdits` validates each request with :mod:`planner.scenario.edits` and sets the
app's scenario only when it is valid: a refused field keeps its text and shows why, a
refused layout edit is said in a notice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from planner.analysis.recommend import Candidate
from planner.scenario import Scenario
from planner.scenario.edits import EditError, FieldSpec, parse_text, with_value
from planner.scenario.layout_edits import (
    with_baseline,
    with_core_layout_added,
    with_layout_removed,
)
from planner.tui.dialogs import AddLayoutScreen

if TYPE_CHECKING:
    from planner.tui.app import PlannerApp


class UserEdits:
    """The scenario edits ``app``'s views ask for (see the module docstring)."""

    def __init__(self, app: PlannerApp) -> None:
        self.app = app

    def typed(self, spec: FieldSpec, text: str) -> None:
        """Validate a field's text; a valid value becomes the scenario, else an inline error."""
        app = self.app
        errors = dict(app.field_errors)
        try:
            value = parse_text(spec, text)
            scenario = with_value(app.scenario, spec, value)
        except EditError as problem:
            errors[spec.key] = str(problem)
            app.field_errors = errors
            return
        errors.pop(spec.key, None)
        app.field_errors = errors
        app.files.file.typed.setdefault(app.tiers.index, {})[spec.path] = value
        app.scenario = scenario

    def open_add_dialog(self) -> None:
        """Open the add-layout dialog; it returns the scenario with the new layout."""
        self.app.push_screen(AddLayoutScreen(self.app.scenario), self._layout_added)

    def _layout_added(self, scenario: Scenario | None) -> None:
        if scenario is not None:
            self.app.scenario = scenario
            self.app.notify(f"Added {scenario.layouts[-1].label}")

    def add_chosen(self, candidate: Candidate) -> None:
        """Add the layout of a point of the choose view's front, and say so.

        One already in the scenario under another label is not added again (a newcomer's
        Enter on ``mirror3 3`` beside "3-way mirror" added a twin): the notice names it.
        """
        app = self.app
        there = [x.label for x in app.scenario.core_layouts() if x.same_shape(candidate.layout)]
        if there:
            app.notify(
                f"{candidate.layout.label} is already in the compare view as {there[0]} (F2)"
            )
            return
        before = len(app.scenario.layouts)
        self._apply(lambda: with_core_layout_added(app.scenario, candidate.layout))
        if len(app.scenario.layouts) > before:
            app.notify(f"Added {app.scenario.layouts[-1].label} to the compare view (F2)")

    def remove(self, label: str) -> None:
        """Remove a layout (never the last one) and say so, and where the baseline went."""
        app = self.app
        was = app.scenario.baseline_label()
        fallback = app.saved_scenario.baseline
        self._apply(lambda: with_layout_removed(app.scenario, label, fallback))
        if any(layout.label == label for layout in app.scenario.layouts):
            return  # refused (the last layout): _apply said why
        if (now := app.scenario.baseline_label()) != was:
            app.notify(f"Removed {label}: baseline was {was}, now {now}")
        else:
            app.notify(f"Removed {label}")

    def rebase(self, label: str) -> None:
        """Measure relative risks against the layout ``label``."""
        self._apply(lambda: with_baseline(self.app.scenario, label))

    def _apply(self, edit: Callable[[], Scenario]) -> None:
        try:
            self.app.scenario = edit()
        except EditError as problem:
            self.app.notify(str(problem), severity="warning")
