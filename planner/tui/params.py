"""The parameters panel: one input per scenario parameter, each with an inline error line."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.strip import Strip
from textual.widgets import Input, Label, Static

from planner.report.field_values import fitted_value
from planner.report.numbers import format_count
from planner.scenario import Scenario
from planner.scenario.edits import FieldSpec, display_value, field_specs, value_at


def derived_text(scenario: Scenario) -> str:
    """The rebuild time the scenario's rebuild model gives, e.g. ``= 3.09 h``.

    With a wait for a replacement (``restore.replace_delay_hours``) the rebuild and the
    wait are apart, ``= 77.2+48 h``: a failure waits only when no hot spare is free, and
    with ``aggregate.hot_spares`` each layout's mean (its Rebuild column) is close to the
    rebuild alone; their sum, alone on the line, read as every layout's restore time.
    """
    delay = scenario.restore.delay_hours
    rebuild = format_count(scenario.rebuild_hours - delay, 3)
    return f"= {rebuild}+{delay:g} h" if delay else f"= {rebuild} h"  # the delay as given


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

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+a", "select_all", "Select all", show=False),
    ]
    """Ctrl+A selects the text, as in any form (Textual's is Home, which Home keeps): a
    newcomer's Ctrl+A then 4% made ARR ``4%1,5%``."""

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
    """A parameter's input (typed over from its first key; see :class:`SteadyInput`).

    Not focused, a text wider than the input is painted as the value in use in a form that
    fits (:func:`~planner.report.field_values.fitted_value`: ``1e-15``, ``≈1.234568%``),
    or, refused or with no such form, cut with an ellipsis; the whole text is in the
    tooltip. The text itself (what focus shows and keys edit) is never changed.
    """

    def __init__(self, spec: FieldSpec, text: str, in_use: Any, **options: Any) -> None:
        super().__init__(text, **options)
        self.spec = spec
        self.in_use = in_use
        """The value in use (the scenario's), which the text reads as when it is valid."""

    def on_blur(self) -> None:
        """Show the value from its first digit once left: typing scrolled it to the cursor.

        A narrow field (the rebuild rate beside its derived hours) otherwise kept showing
        "3.5" for 13.5 after Tab.
        """
        self.scroll_home(animate=False, immediate=True)
        self.call_later(self.show_tooltip)  # once Textual's own handler took the focus off

    def on_resize(self) -> None:
        """The text may fit, or no longer: the tooltip says so."""
        self.show_tooltip()

    def show_in_use(self, value: Any) -> None:
        """The value in use is now ``value`` (an edit, a reload, another tier)."""
        if value != self.in_use:
            self.in_use = value
            if not self.has_focus:
                self.refresh()
        if not self.has_focus:  # a reload sets the text too
            self.show_tooltip()

    def show_tooltip(self) -> None:
        """The field's name and hint; the whole text first when the field shows it otherwise."""
        tooltip = f"{self.spec.dotted}: {self.spec.hint}"
        if self.stand_in() is not None:
            tooltip = f"{self.spec.dotted} = {self.value}\n{self.spec.hint}"
        if self.tooltip != tooltip:
            self.tooltip = tooltip

    def stand_in(self) -> str | None:
        """What the field paints instead of its text, or None for the text itself."""
        cells = self.content_size.width
        if self.has_focus or cells <= 0 or cell_len(self.value) <= cells:
            return None
        if not self.has_class("-invalid"):
            fitted = fitted_value(self.spec, self.in_use, cells)
            if fitted is not None:
                return fitted
        return set_cell_size(self.value, cells - 1) + "…"

    def render_line(self, y: int) -> Strip:
        """The input's own line, or, not focused, :meth:`stand_in` where it has one."""
        shown = self.stand_in() if y == 0 else None
        if shown is None:
            return super().render_line(y)
        cells = self.content_size.width
        options = self.app.console_options.update_width(cells + 1)
        strip = Strip(self.app.console.render(Text(shown, no_wrap=True, end=""), options))
        return strip.crop(0, cells + 1).extend_cell_length(cells + 1).apply_style(self.rich_style)


class ParamField(Horizontal):
    """A label and an input; the input turns red while its text is refused.

    The rebuild rate field also shows, read-only, the mean restore time it gives.
    """

    def __init__(self, spec: FieldSpec, text: str, in_use: Any, derived: str = "") -> None:
        classes = "param-field"
        if spec.kind == "fractions":  # a list (ARR by year): two grid cells, shown whole
            classes += " -list"
        if spec.shows_rebuild_hours:  # the value and the restore time it gives: two cells
            classes += " -derived"
        super().__init__(id=f"field-{spec.key}", classes=classes)
        self.spec = spec
        self._text = text
        self._in_use = in_use
        self._derived = derived

    def compose(self) -> ComposeResult:
        """The label, the input, and (rebuild rate only) the derived restore time."""
        yield Label(self.spec.label, classes="param-label")
        yield FieldInput(
            self.spec,
            self._text,
            self._in_use,
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
                "the rebuild time of drive.capacity_tb at this rate, with the scenario's "
                "load factor, + restore.replace_delay_hours (the wait for a replacement "
                "when no hot spare is free) if given (read-only)"
            )
            yield derived

    def show_derived(self, text: str) -> None:
        """Show ``text`` as the derived value (no-op for fields without one)."""
        if self.spec.shows_rebuild_hours and text != self._derived:
            self._derived = text
            self.query_one(".param-derived", Static).update(text)

    @property
    def input(self) -> FieldInput:
        """The text input of this field."""
        return self.query_one(FieldInput)

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
            typing_in = self._focused_key()
            self.specs = specs
            self._scenario = scenario
            grid = self.query_one(Grid)
            grid.set_class(bool(_label_classes(specs)), _WIDE_LABELS)
            await grid.remove_children()
            await grid.mount_all(self._field(spec, scenario) for spec in specs)
            if typing_in is not None:
                self._focus_again(typing_in)
            return
        for field in self.query(ParamField):
            with field.input.prevent(Input.Changed):
                field.input.value = display_value(field.spec, value_at(scenario, field.spec.path))
        self.show_values(scenario)
        self.show_errors({})

    def _focused_key(self) -> tuple[str, int] | None:
        """The key and place of the field that has the focus (None: the focus is elsewhere)."""
        for index, field in enumerate(self.query(ParamField)):
            if field.input.has_focus:
                return field.spec.key, index
        return None

    def _focus_again(self, typing_in: tuple[str, int]) -> None:
        """Give the focus back to the field of ``typing_in``'s key, else one in its place.

        Fields rebuilt for another tier (F8) or a file reloaded with other fields took the
        focus with them: Textual gave it to the tier tabs, and what was typed next went
        nowhere. The same parameter's field is where the user was typing. Set at once, not
        after the keys already queued (``focus()`` waits its turn): keys typed right behind
        F8 go to the field too.
        """
        key, index = typing_in
        fields = list(self.query(ParamField))
        same = [field for field in fields if field.spec.key == key]
        if fields:
            self.screen.set_focus((same or [fields[min(index, len(fields) - 1)]])[0].input)

    def show_values(self, scenario: Scenario) -> None:
        """Show what the fields show of ``scenario`` besides their texts.

        The read-only values derived from it (the rebuild model's hours), and each field's
        value in use (:class:`FieldInput` paints it where the text is too wide).
        """
        for field in self.query(ParamField):
            field.input.show_in_use(value_at(scenario, field.spec.path))
            if field.spec.shows_rebuild_hours:
                field.show_derived(derived_text(scenario))

    @staticmethod
    def _field(spec: FieldSpec, scenario: Scenario) -> ParamField:
        derived = derived_text(scenario) if spec.shows_rebuild_hours else ""
        value = value_at(scenario, spec.path)
        return ParamField(spec, display_value(spec, value), value, derived)
