"""The parameters panel: one input per scenario parameter, each with an inline error line."""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.widgets import Input, Label, Static

from planner.report.numbers import format_count
from planner.scenario import Scenario
from planner.scenario.edits import FieldSpec, display_value, field_specs, value_at


def derived_text(scenario: Scenario) -> str:
    """The mean restore time the scenario's rebuild model gives, e.g. ``= 3.09 h``."""
    return f"= {format_count(scenario.rebuild_hours, 3)} h"


class SteadyInput(Input):
    """An input whose keystrokes repaint it without re-laying out the screen.

    Textual's Input sets its virtual size to the width of its text on every change, and a
    widget's ``virtual_size`` is a layout reactive, so each keystroke that changed the
    text's length laid out the whole screen again and repainted every widget on it: most of
    a keystroke's time (``benchmarks/bench_tui.py``). For an input whose size never depends
    on its text (one line, its width set by its container: the parameter fields, the
    add-layout dialog's inputs) a new virtual size only repaints the input itself; the
    scrolling within it reads the virtual size directly.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    async def on_key(self, event: events.Key) -> None:
        """Run the input's own key bindings (Ctrl+K, Home, Backspace...) as the key arrives.

        Textual types a character where the input reads the key, but runs a binding only
        once the key has bubbled up to the app: characters typed right behind the binding's
        key (read in one burst from the terminal, ``Ctrl+A Ctrl+K 12``) went in first, and
        the binding then applied to them (Ctrl+K deleted the "12"). Here the input's own
        binding runs in turn, and the key goes no further.
        """
        if event.is_printable or not self.has_focus:
            return
        active = self.app.active_bindings.get(event.key)
        if active is None or active.node is not self or not active.enabled:
            return
        event.stop()
        await self.run_action(active.binding.action)


class FieldInput(SteadyInput):
    """A parameter's input (typed over from its first key; see :class:`SteadyInput`)."""

    def on_blur(self) -> None:
        """Show the value from its first digit once left: typing scrolled it to the cursor.

        A narrow field (the rebuild rate beside its derived hours) otherwise kept showing
        "3.5" for 13.5 after Tab.
        """
        self.scroll_home(animate=False, immediate=True)


class ParamField(Horizontal):
    """A label and an input; the input turns red while its text is refused.

    The rebuild rate field also shows, read-only, the mean restore time it gives.
    """

    def __init__(self, spec: FieldSpec, text: str, derived: str = "") -> None:
        classes = "param-field"
        if spec.kind == "fractions":  # a list (ARR by year): two grid cells, shown whole
            classes += " -list"
        if spec.shows_rebuild_hours:  # the value and the restore time it gives: two cells
            classes += " -derived"
        super().__init__(id=f"field-{spec.key}", classes=classes)
        self.spec = spec
        self._text = text
        self._derived = derived

    def compose(self) -> ComposeResult:
        """The label, the input, and (rebuild rate only) the derived restore time."""
        yield Label(self.spec.label, classes="param-label")
        yield FieldInput(
            self._text,
            placeholder=self.spec.hint,
            id=f"input-{self.spec.key}",
            classes="param-input",
            tooltip=f"{self.spec.dotted}: {self.spec.hint}",
            select_on_focus=True,  # typing replaces the value (Tab or the first focus)
            # The app validates (show_error marks the field); Input's own validation, with no
            # validators, would take the mark off on every key and show_errors put it back:
            # two restyles of the field per key while its text is refused.
            validate_on=(),
        )
        if self.spec.shows_rebuild_hours:
            derived = Static(
                self._derived,
                id=f"derived-{self.spec.key}",
                classes="param-derived",
                markup=False,
            )
            derived.tooltip = (
                "mean restore time from drive.capacity_tb at this rate, with the "
                "scenario's load factor and replace delay (read-only)"
            )
            yield derived

    def show_derived(self, text: str) -> None:
        """Show ``text`` as the derived value (no-op for fields without one)."""
        if self.spec.shows_rebuild_hours and text != self._derived:
            self._derived = text
            self.query_one(".param-derived", Static).update(text)

    @property
    def input(self) -> Input:
        """The text input of this field."""
        return self.query_one(Input)

    def show_error(self, invalid: bool) -> None:
        """Mark the field invalid, or clear the mark."""
        self.set_class(invalid, "-invalid")
        self.input.set_class(invalid, "-invalid")


def _same_height(old: str, new: str, line: Static) -> bool:
    """Whether ``new`` takes as many rows of ``line`` as ``old``: as many lines, none wrapped.

    Then the errors line keeps its height and its update need not lay the screen out again
    (a new reason for the same field, typed key by key, is the common case).
    """
    width = line.content_size.width
    old_lines, new_lines = old.splitlines(), new.splitlines()
    fits = all(cell_len(text) <= width for text in (*old_lines, *new_lines))
    return bool(old_lines) and len(old_lines) == len(new_lines) and fits


LABEL_CELLS = 11
"""Cells of a field's label (app.tcss ``.param-label``): ``Drive price`` fits, ``Rebuild MB/s``
does not, and then every label takes two more, so that the values stay in one column."""

_WIDE_LABELS = "-wide-labels"


def _label_classes(specs: tuple[FieldSpec, ...]) -> str:
    """The grid's class: :data:`_WIDE_LABELS` when a label is longer than :data:`LABEL_CELLS`."""
    return _WIDE_LABELS if any(len(spec.label) > LABEL_CELLS for spec in specs) else ""


class ParamsPanel(Vertical):
    """Every editable parameter of the scenario; typing posts :class:`ParamsPanel.Typed`."""

    class Typed(Message):
        """The text of a field changed (not yet validated: the app decides)."""

        def __init__(self, spec: FieldSpec, text: str) -> None:
            super().__init__()
            self.spec = spec
            self.text = text

    def __init__(self, scenario: Scenario, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._scenario = scenario
        self.specs: tuple[FieldSpec, ...] = field_specs(scenario)

    def compose(self) -> ComposeResult:
        """The fields in a grid (four across when wide, two when narrow), then the reasons."""
        with Grid(id="param-grid", classes=_label_classes(self.specs)):
            for spec in self.specs:
                yield self._field(spec, self._scenario)
        yield Static("", id="param-errors", markup=False)

    def on_input_changed(self, event: Input.Changed) -> None:
        """Forward a change of any field's text to the app, naming the field."""
        event.stop()
        for field in self.query(ParamField):
            if field.input is event.input:
                self.post_message(self.Typed(field.spec, event.value))
                return

    def field(self, key: str) -> ParamField:
        """The field whose spec key is ``key`` (e.g. ``drive-arr``)."""
        return self.query_one(f"#field-{key}", ParamField)

    def show_errors(self, errors: dict[str, str], scenario: Scenario | None = None) -> None:
        """Mark the fields with errors (by spec key) and give each one's reason below.

        With ``scenario`` (the one the results are of), the last line names the values the
        results were computed with: a value typed on the way to a refused one (``1e-3`` on
        the way to ``1e-300``) is valid, and it is the one shown.
        """
        lines, kept = [], []
        for field in self.query(ParamField):
            reason = errors.get(field.spec.key)
            field.show_error(reason is not None)
            if reason is not None:
                lines.append(f"✗ {field.spec.label}: {reason}")
                if scenario is not None:
                    value = display_value(field.spec, value_at(scenario, field.spec.path))
                    kept.append(f"{field.spec.label} {value or '(none)'}")
        if lines:
            values = f": {', '.join(kept)}" if kept else ""
            lines.append(f"  The results shown are those of the last valid values{values}.")
        errors_line = self.query_one("#param-errors", Static)
        text = "\n".join(lines)
        shown = str(errors_line.content)
        if shown != text:  # a new layout of the screen only when the line's height changes
            errors_line.update(text, layout=not _same_height(shown, text, errors_line))
        errors_line.display = bool(lines)

    async def load(self, scenario: Scenario) -> None:
        """Show ``scenario``'s values (after a reload), rebuilding fields if their kinds differ.

        Setting the inputs does not post :class:`Typed`: the values are already valid.
        """
        specs = field_specs(scenario)
        if specs != self.specs:
            self.specs = specs
            self._scenario = scenario
            grid = self.query_one(Grid)
            grid.set_class(bool(_label_classes(specs)), _WIDE_LABELS)
            await grid.remove_children()
            await grid.mount_all(self._field(spec, scenario) for spec in specs)
            return
        for field in self.query(ParamField):
            with field.input.prevent(Input.Changed):
                field.input.value = display_value(field.spec, value_at(scenario, field.spec.path))
        self.show_derived(scenario)
        self.show_errors({})

    def show_derived(self, scenario: Scenario) -> None:
        """Update the read-only values derived from ``scenario`` (the rebuild model's hours)."""
        for field in self.query(ParamField):
            if field.spec.shows_rebuild_hours:
                field.show_derived(derived_text(scenario))

    @staticmethod
    def _field(spec: FieldSpec, scenario: Scenario) -> ParamField:
        derived = derived_text(scenario) if spec.shows_rebuild_hours else ""
        return ParamField(spec, display_value(spec, value_at(scenario, spec.path)), derived)
