"""A plan's tiers in the TUI: a tab per tier, the plan's totals, and switching tiers.

The app edits one tier at a time: :attr:`PlannerApp.scenario` is the tier shown, and every
view shows it as it would a single-aggregate file. :class:`TierSwitch` keeps the plan in
step with it (:attr:`PlannerApp.plan`), shows another tier when asked (a click on its tab,
F8 or Shift+F8, ``]`` or ``[`` outside a field), and adds the tiers' baselines up into the
plan's totals (:func:`planner.analysis.plan.baseline_totals`) as each tier's comparison
comes in. A single-aggregate file has no tier bar: the app looks and behaves as it always
did.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static, Tab, Tabs

from planner.analysis.compare import CompareData
from planner.analysis.plan import baseline_totals
from planner.report.plan import totals_items
from planner.scenario import Plan, Scenario
from planner.tui.compare_view import CompareView
from planner.tui.params import ParamsPanel

if TYPE_CHECKING:
    from planner.tui.app import PlannerApp

SWITCH_KEYS = "F8 next tier"
"""How the tier bar names its key (the help screen has the others)."""


def tab_id(index: int) -> str:
    """The id of tier ``index``'s tab."""
    return f"tier-{index}"


def item_lines(items: Sequence[str], width: int) -> list[str]:
    """``items`` on as few lines of ``width`` cells as they fill, each line broken between two.

    An item wider than the line has a line of its own (the widget wraps it; nothing is cut).
    """
    lines: list[str] = []
    for item in items:
        if lines and cell_len(lines[-1]) + 1 + cell_len(item) <= width:
            lines[-1] += f" {item}"
        else:
            lines.append(item)
    return lines


def fitted(wordings: Sequence[Sequence[str]], width: int) -> str:
    """The first wording that fits one line of ``width`` cells, else the last on several.

    ``wordings`` go from the longest to the shortest; the last is broken between items only.
    """
    for items in wordings:
        line = " ".join(items)
        if cell_len(line) <= width:
            return line
    return "\n".join(item_lines(wordings[-1], width)) if wordings else ""


def tabs_width(names: list[str]) -> int:
    """Cells the tiers' tabs take: each name with a cell either side, and one to spare."""
    return sum(len(name) + 2 for name in names) + 1


class TierBar(Vertical):
    """One tab per tier of a plan, and the plan's totals under them, on as many lines as they take.

    Beside the tabs the totals had two lines of what was left of the row: at 80 columns
    their end was cut, and wrapped lines ran into the tabs' underline. Left to wrap word by
    word under them, they broke inside an item ("TCO" / "93,931 USD" at 80 columns, a lone
    "tier" at 120): the bar now fits them to its width (:func:`fitted`) as it is resized.

    For a single-aggregate file (not ``tiered``) it is hidden and holds nothing: a tab bar
    nobody sees would be styled at start and visited on every wait for an idle screen.
    """

    def __init__(self, names: list[str], *, tiered: bool, id: str | None = None) -> None:
        super().__init__(id=id)
        self._names = names
        self._tiered = tiered
        self.display = tiered
        self._wordings: tuple[list[str], ...] = ()
        """The totals' items in each wording, longest first; none before they are computed."""
        self._shown = SWITCH_KEYS

    def compose(self) -> ComposeResult:
        """The tiers' tabs, then the totals (computed as the tiers' results come in)."""
        if not self._tiered:
            return
        tabs = Tabs(
            *(Tab(name, id=tab_id(i)) for i, name in enumerate(self._names)), id="tier-tabs"
        )
        tabs.styles.width = tabs_width(self._names)
        yield tabs
        yield Static(SWITCH_KEYS, id="plan-total", markup=False)

    async def show_plan(self, plan: Plan) -> None:
        """Show ``plan``'s tiers (a file reloaded with other tiers); hidden for no plan."""
        self._names = plan.names
        self._tiered = plan.tiered
        self._wordings = ()
        self._shown = SWITCH_KEYS
        await self.recompose()
        self.display = plan.tiered

    def show_totals(self, wordings: tuple[list[str], ...]) -> None:
        """Show the plan's totals, the first of ``wordings`` that fits a line, then the key."""
        self._wordings = tuple([*items[:-1], f"{items[-1]} ·", SWITCH_KEYS] for items in wordings)
        self._fit(self.size.width)

    def on_resize(self, event: events.Resize) -> None:
        """Fit the totals to the new width."""
        self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        if not self._tiered or not self._wordings:
            return
        total = self.query_one("#plan-total", Static)
        text = fitted(self._wordings, width - total.styles.gutter.width)
        if text != self._shown:
            self._shown = text
            total.update(text)

    def select(self, index: int) -> None:
        """Mark tier ``index``'s tab as the one shown."""
        self.query_one(Tabs).active = tab_id(index)


class TierSwitch:
    """The tiers of ``app``'s plan: the one shown, the others' results, the totals."""

    def __init__(self, app: PlannerApp) -> None:
        self.app = app
        self.index = 0
        """The tier shown (an index into the plan's tiers)."""
        self.compared: dict[int, tuple[Scenario, CompareData]] = {}
        """Each tier's last comparison, with the scenario it is of."""
        self.pending: tuple[Scenario, ...] = ()
        """The tiers a worker is comparing (or compared last)."""

    @property
    def tiered(self) -> bool:
        """Whether the app shows a plan of tiers (else a single-aggregate file)."""
        return self.app.plan.tiered

    def edited(self, scenario: Scenario) -> None:
        """The tier shown is now ``scenario``: the plan takes it (a mission, every tier)."""
        app = self.app
        app.plan = app.plan.with_tier(self.index, scenario)
        if self.tiered:
            self.show_totals()

    def results(self, scenario: Scenario, data: CompareData) -> None:
        """Keep a tier's comparison if it is of a tier as the plan has it now."""
        for index, tier in enumerate(self.app.plan.tiers):
            if tier.scenario is scenario:
                self.compared[index] = (scenario, data)
        if self.tiered:
            self.show_totals()

    def show_totals(self) -> None:
        """The plan's totals once every tier's comparison is in; else compute the missing."""
        app = self.app
        plan = app.plan
        missing = tuple(
            tier.scenario
            for index, tier in enumerate(plan.tiers)
            if self.compared.get(index, (None,))[0] is not tier.scenario
            and index != self.index  # the tier shown: its own worker computes it
        )
        if missing:
            if not all(any(m is p for p in self.pending) for m in missing):
                # in a worker, as the tier shown is (one group: a newer run cancels the last)
                self.pending = missing
                work = partial(app.computations.tiers, missing)
                app.run_worker(work, thread=True, exclusive=True, group="tiers")
            return
        current = [self.compared.get(index) for index in range(len(plan.tiers))]
        if all(c is not None and c[0] is plan.tiers[i].scenario for i, c in enumerate(current)):
            totals = baseline_totals(plan, [c[1] for c in current if c is not None])
            wordings = (totals_items(totals), totals_items(totals, short=True))
            app.query_one(TierBar).show_totals(wordings)

    async def switch(self, index: int) -> None:
        """Show tier ``index`` (refused while a field holds refused text)."""
        app = self.app
        count = len(app.plan.tiers)
        if not self.tiered or not 0 <= index < count or index == self.index:
            return
        bar = app.query_one(TierBar)
        if app.field_errors:
            bar.select(self.index)
            app.notify(
                "Fix the invalid field first (or Ctrl+R to reload): the tier shown keeps it",
                severity="warning",
            )
            return
        self.index = index
        scenario = app.plan.tiers[index].scenario
        bar.select(index)
        app.selected_label = None  # the views show the tier's baseline, the cursor goes there
        app.query_one(CompareView).cursor_to_baseline()
        app.saved_scenario = app.saved_plan.tiers[index].scenario
        await app.query_one(ParamsPanel).load(scenario)
        app.scenario = scenario

    async def step(self, by: int) -> None:
        """Show the next (``by`` 1) or previous (-1) tier, round the plan."""
        if self.tiered:
            await self.switch((self.index + by) % len(self.app.plan.tiers))

    async def reloaded(self, plan: Plan) -> Scenario:
        """A plan read again: the tier to show (the same, if the tiers are), the bar reset."""
        self.compared.clear()
        before = self.app.plan
        if plan.names != before.names or plan.tiered != before.tiered:
            self.index = 0
            await self.app.query_one(TierBar).show_plan(plan)
        return plan.tiers[self.index].scenario
