"""The parameters panel: one input per scenario parameter, each with an inline error line."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Label, Static

from planner.scenario import Scenario
from planner.tui.state import FieldSpec, display_value, field_specs, value_at


class ParamField(Horizontal):
    """A label and an input; the input turns red while its text is refused."""

    def __init__(self, spec: FieldSpec, text: str) -> None:
        super().__init__(id=f"field-{spec.key}", classes="param-field")
        self.spec = spec
        self._text = text

    def compose(self) -> ComposeResult:
        """The label, then the input."""
        yield Label(self.spec.label, classes="param-label")
        yield Input(
            self._text,
            placeholder=self.spec.hint,
            id=f"input-{self.spec.key}",
            classes="param-input",
            tooltip=f"{self.spec.dotted}: {self.spec.hint}",
            select_on_focus=False,
        )

    @property
    def input(self) -> Input:
        """The text input of this field."""
        return self.query_one(Input)

    def show_error(self, invalid: bool) -> None:
        """Mark the field invalid, or clear the mark."""
        self.set_class(invalid, "-invalid")
        self.input.set_class(invalid, "-invalid")


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
        with Grid(id="param-grid"):
            for spec in self.specs:
                yield ParamField(spec, display_value(spec, value_at(self._scenario, spec.path)))
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

    def show_errors(self, errors: dict[str, str]) -> None:
        """Mark the fields with errors (by spec key) and give each one's reason below."""
        lines = []
        for field in self.query(ParamField):
            reason = errors.get(field.spec.key)
            field.show_error(reason is not None)
            if reason is not None:
                lines.append(f"✗ {field.spec.label}: {reason}")
        self.query_one("#param-errors", Static).update("\n".join(lines))
        self.query_one("#param-errors", Static).display = bool(lines)

    async def load(self, scenario: Scenario) -> None:
        """Show ``scenario``'s values (after a reload), rebuilding fields if their kinds differ.

        Setting the inputs does not post :class:`Typed`: the values are already valid.
        """
        specs = field_specs(scenario)
        if specs != self.specs:
            self.specs = specs
            self._scenario = scenario
            await self.query_one(Grid).remove_children()
            await self.query_one(Grid).mount_all(
                ParamField(spec, display_value(spec, value_at(scenario, spec.path)))
                for spec in specs
            )
            return
        for field in self.query(ParamField):
            with field.input.prevent(Input.Changed):
                field.input.value = display_value(field.spec, value_at(scenario, field.spec.path))
        self.show_errors({})
