"""The command palette's entries: every key's action by name (issue 3: the same actions)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import SystemCommand

from planner.tui.keys import VIEWS

if TYPE_CHECKING:
    from planner.tui.tiers import TierSwitch


class PlannerActions(Protocol):
    """The app's actions the palette calls."""

    @property
    def tiers(self) -> TierSwitch:
        """A plan's tiers (the palette offers to switch them)."""

    def action_export_markdown(self) -> None:
        """Export the table shown to Markdown."""

    def action_save(self) -> None:
        """Save the scenario."""

    async def action_reload(self) -> None:
        """Reload the scenario file."""

    def action_help(self) -> None:
        """Show the keys."""

    async def action_view(self, view: str) -> None:
        """Show a view."""

    def action_add_layout(self) -> None:
        """Open the add-layout dialog."""

    async def action_simulate(self) -> None:
        """Simulate the selected layout."""

    async def action_tier(self, by: int) -> None:
        """Show the next or previous tier of a plan."""


def system_commands(app: PlannerActions) -> Iterator[SystemCommand]:
    """The planner's own palette commands (Textual adds quit, theme, keys...)."""

    async def reload() -> None:
        await app.action_reload()

    yield SystemCommand(
        "Export Markdown", "Write the table shown to a .md file", app.action_export_markdown
    )
    yield SystemCommand("Save scenario", "Write the scenario back to YAML", app.action_save)
    yield SystemCommand("Reload scenario", "Read the file again from disk", reload)
    yield SystemCommand("Add layout", "A preset or parity + group size", app.action_add_layout)
    yield SystemCommand(
        "Simulate the selected layout",
        "Monte Carlo P(loss) of one group, next to the exact Markov value",
        app.action_simulate,
    )
    yield SystemCommand("Help: keys", "Every key of planner", app.action_help)
    for view, key in VIEWS.items():
        yield SystemCommand(
            f"Show {view} view", f"Switch to the {view} view ({key})", _show(app, view)
        )
    if app.tiers.tiered:
        for by, which, key in ((1, "next", "F8"), (-1, "previous", "Shift+F8")):
            yield SystemCommand(
                f"Show the {which} tier", f"Another tier of the plan ({key})", _tier(app, by)
            )


def _show(app: PlannerActions, view: str) -> Callable[[], Any]:
    async def show() -> None:
        await app.action_view(view)

    return show


def _tier(app: PlannerActions, by: int) -> Callable[[], Any]:
    async def step() -> None:
        await app.action_tier(by)

    return step
