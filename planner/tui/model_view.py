"""The model view: the selected layout's Markov chain, its rates, and the closed-form MTTDL."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.coordinate import Coordinate
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Static
from textual.worker import get_current_worker

from planner.analysis.derivation import (
    TransitionRow,
    chain_states,
    chain_transitions,
    closed_form,
    closed_form_note,
)
from planner.analysis.layout_aggregate import LayoutAggregate
from planner.core.arrays.layouts import Layout
from planner.core.markov.rates import Rates
from planner.report.derivation import aggregate_words, closed_form_text, model_title
from planner.report.numbers import rate_column
from planner.tui.repaint import update_text
from planner.tui.simulation_line import SimulationLine
from planner.tui.steady_table import SteadyTable

SIDE_BY_SIDE_WIDTH = 150
"""Columns from which the states and transitions tables stand side by side (n+3's take
about 141); below, the transitions go under the states so that the rates stay in view."""


@dataclass(frozen=True)
class ModelSubject:
    """What the model view shows: a group of one layout's aggregate, the table's.

    The aggregate (:mod:`planner.analysis.layout_aggregate`) is the one the compare table
    shows: with a workload the sized one, or after ``c`` that of ``aggregate.data_disks``;
    their rates differ where the workload's reads make the latent-defect rate.
    """

    aggregate: LayoutAggregate
    baseline: bool = False
    """The layout is the baseline (◆) the compare table measures relative risk against."""
    named: bool = False
    """The title says which aggregate: the scenario has a workload, so the layout has two."""

    @property
    def layout(self) -> Layout:
        """The layout whose chain is shown."""
        return self.aggregate.layout

    @property
    def rates(self) -> Rates:
        """One group's chain rates (per hour)."""
        return self.aggregate.chain_rates

    @property
    def title(self) -> str:
        """The view's title: the layout, its group, its aggregate where named, its MTTDL."""
        aggregate = self.aggregate
        words = (
            aggregate_words(aggregate.sized, aggregate.groups, self.layout.declustered is not None)
            if self.named
            else ""
        )
        return model_title(aggregate, self.baseline, words)


class ModelView(VerticalScroll):
    """States and transitions of the selected layout's chain, and its MTTDL in closed form."""

    subject: reactive[ModelSubject | None] = reactive(None)
    """The selected layout and the current rates; None before the first results."""

    closed_form: reactive[str] = reactive("")
    """The closed-form MTTDL text of the subject's parity count ('' while deriving)."""

    class Derived(Message):
        """The symbolic derivation of the n+``parity`` model is ready as text."""

        def __init__(self, parity: int, streams: int | None, text: str) -> None:
            super().__init__()
            self.parity = parity
            self.streams = streams
            self.text = text

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._derived: dict[tuple[int, int | None], str] = {}
        self._shown = False
        self._title = ""

    def compose(self) -> ComposeResult:
        """A title, the two tables (side by side on a wide screen), and the formulas."""
        yield Static("", id="model-title", markup=False)
        yield SimulationLine(id="model-simulation")
        with Horizontal(id="model-tables"):
            states = SteadyTable(id="model-states", cursor_type="none")
            states.add_columns("#", "(f, l)", "meaning")
            yield states
            transitions = SteadyTable(id="model-transitions", cursor_type="none")
            transitions.add_columns("from", "to", "event", "rate", "per hour")
            yield transitions
        yield Static("", id="model-formula", markup=False)

    def watch_subject(self, old: ModelSubject | None, subject: ModelSubject | None) -> None:
        """Refill the tables for a new layout or new rates; derive its formula if needed."""
        if subject is None:
            return
        layout = subject.layout
        k, size = layout.parity, layout.group_size
        title = subject.title
        if title != self._title:  # an unchanged Static needs no repaint
            update_text(self.query_one("#model-title", Static), title, self._title)
            self._title = title
        if old is None or old.aggregate != subject.aggregate:
            self.query_one(SimulationLine).idle(layout.label, pool=layout.declustered is not None)
        rates = chain_transitions(k, size, subject.rates)
        transitions = self.query_one("#model-transitions", DataTable)
        streams = subject.rates.rebuild_streams
        same_chain = old is not None and (
            old.layout.parity,
            old.layout.group_size,
            old.rates.rebuild_streams,
        ) == (k, size, streams)
        if same_chain and transitions.row_count == len(rates):
            # Only the rates changed: update that column in place (no new layout).
            cells = rate_column([t.rate_per_hour for t in rates])
            for row, cell in enumerate(cells):
                transitions.update_cell_at(Coordinate(row, 4), Text(cell, justify="right"))
        else:
            self._fill_tables(k, rates)
        closed_form = self._derived.get((k, streams), "")
        if (
            closed_form == self.closed_form
            and old is not None
            and (closed_form_note(old.rates) != closed_form_note(subject.rates))
        ):
            self.watch_closed_form(closed_form)  # same formula, another pool's note
        self.closed_form = closed_form
        if not self.closed_form and self._shown:
            self._derive(k, streams)

    def _fill_tables(self, k: int, rates: Sequence[TransitionRow]) -> None:
        states = self.query_one("#model-states", DataTable)
        states.clear()
        for state in chain_states(k):
            states.add_row(str(state.number), state.short, state.meaning)
        transitions = self.query_one("#model-transitions", DataTable)
        transitions.clear()
        cells = rate_column([t.rate_per_hour for t in rates])
        for t, cell in zip(rates, cells, strict=True):
            transitions.add_row(
                t.source, t.target, Text(t.event), Text(t.formula), Text(cell, justify="right")
            )

    def on_show(self) -> None:
        """Derive the formula only once the view is shown: SymPy takes seconds for k = 3."""
        self._shown = True
        if self.subject is not None and not self.closed_form:
            self._derive(self.subject.layout.parity, self.subject.rates.rebuild_streams)

    def on_hide(self) -> None:
        """Stop deriving formulas while another view is shown."""
        self._shown = False

    def watch_closed_form(self, text: str) -> None:
        """Show the formula, or say it is being derived."""
        formula = self.query_one("#model-formula", Static)
        if text:
            note = "" if self.subject is None else closed_form_note(self.subject.rates)
            formula.update(f"{note}\n\n{text}" if note else text)
        elif self.subject is not None:
            formula.update(f"deriving the n+{self.subject.layout.parity} model (SymPy)…")

    @work(thread=True, exclusive=True, group="derive")
    def _derive(self, parity: int, streams: int | None) -> None:
        """Derive the n+k chain symbolically (seconds for k = 3; cached by the core)."""
        text = closed_form_text(closed_form(parity, streams))
        if not get_current_worker().is_cancelled:
            self.post_message(self.Derived(parity, streams, text))

    def on_model_view_derived(self, message: Derived) -> None:
        """Keep the derivation; show it if the subject still has that parity count."""
        self._derived[message.parity, message.streams] = message.text
        subject = self.subject
        if subject is not None and (
            subject.layout.parity,
            subject.rates.rebuild_streams,
        ) == (
            message.parity,
            message.streams,
        ):
            self.closed_form = message.text
