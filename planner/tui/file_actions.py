"""The app's file side: the scenario file and the save, reload, export and quit actions.

:class:`FileActions` holds the file the session edits (its source and the values typed
since the last save) and carries out the actions that read and write files for the app,
whose state it reads and sets (the scenario, the fields refused, the scenario as saved).
Every action refuses rather than write something the user did not see: no save while a
field is invalid or over a file changed on disk (until asked twice), no quit or reload over
unsaved changes unasked.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from planner.report.plan import tier_slugs
from planner.scenario import ScenarioError
from planner.scenario.files import ReadOnlyError
from planner.tui import persist
from planner.tui.compare_view import CompareView
from planner.tui.dialogs import QuitChoice, ReloadChangesScreen, UnsavedChangesScreen
from planner.tui.notices import notify_path
from planner.tui.params import ParamsPanel
from planner.tui.source import ChangedOnDiskError, ScenarioFile, ScenarioSource
from planner.tui.title_bar import TitleParts

if TYPE_CHECKING:
    from planner.tui.app import PlannerApp


class FileActions:
    """The scenario file of ``app`` and the actions that read and write files."""

    def __init__(self, app: PlannerApp, source: ScenarioSource) -> None:
        self.app = app
        self.file = ScenarioFile(source, {})
        """The file saved to and reloaded from, and the values typed since the last save."""

    @property
    def path(self) -> Path | None:
        """The scenario file (None: the bundled default, until it is first saved)."""
        return self.file.source.path

    def title(self, *, dirty: bool) -> TitleParts:
        """What the title bar says: the unsaved mark, the scenario's name and its file."""
        path = self.path
        source = path.name if path is not None else "bundled default scenario"
        plan = self.app.plan
        name = plan.name if plan.tiered else self.app.scenario.name
        return TitleParts(dirty, name, source)

    def _invalid_fields(self) -> str:
        """The labels of the fields whose text was refused, e.g. ``Rebuild h, Scrub h``."""
        specs = self.app.query_one(ParamsPanel).specs
        return ", ".join(spec.label for spec in specs if spec.key in self.app.field_errors)

    def export_markdown(self) -> None:
        """Write the table shown (comparison or sizing) as Markdown beside the scenario.

        While a field is invalid this exports what the screen shows, the last valid
        results, and the notice says so.
        """
        app = self.app
        if app.results is None:
            app.notify("No results yet", severity="warning")
            return
        view = app.query_one(CompareView)
        beside = self.path
        if beside is not None and app.plan.tiered:  # one file per tier: <plan>-<tier>-...
            slug = tier_slugs(app.plan.names)[app.tiers.index]
            beside = beside.with_name(f"{beside.stem}-{slug}{beside.suffix}")
        try:
            what, path = persist.export_table(
                app.results, view.showing_sizing, view.sort_key, beside
            )
        except OSError as err:
            where = err.filename or "the Markdown file"
            notify_path(
                app, f"Export failed ({err.strerror}): cannot write", where, severity="error"
            )
            return
        if app.field_errors:
            notify_path(
                app,
                f"Exported the last valid results ({self._invalid_fields()} invalid, "
                f"not included): the {what} to",
                path,
                title="Markdown",
                severity="warning",
            )
        else:
            notify_path(app, f"Exported the {what} to", path, title="Markdown")

    def save(self) -> bool:
        """Save unless a field is invalid or the file changed on disk; whether it saved."""
        app = self.app
        if app.field_errors:
            verb = "is" if len(app.field_errors) == 1 else "are"
            app.notify(
                f"Not saved: {self._invalid_fields()} {verb} invalid (fix, or Ctrl+R to reload)",
                severity="error",
            )
            return False
        file = self.file
        plan = app.plan
        try:
            file.check_disk(plan if plan.tiered else app.scenario)
            if plan.tiered:
                source = persist.save_plan(plan, file.source, file.typed, file.target())
            else:
                typed = file.typed.get(0, {})
                source = persist.save_scenario(app.scenario, file.source, typed, file.target())
        except ChangedOnDiskError as changed:
            app.notify(str(changed), severity="warning", timeout=10)
            return False
        except ReadOnlyError:
            app.notify(
                f"Not saved: {file.target().name} is read-only; make it writable (chmod u+w) "
                "to save over it",
                severity="error",
                timeout=10,
            )
            return False
        except OSError as err:
            reason = err.strerror or str(err)
            notify_path(
                app, f"Save failed ({reason}): cannot write", file.target(), severity="error"
            )
            return False
        except ScenarioError as err:
            app.notify(f"Save failed: {err}", severity="error")
            return False
        file.saved(source)
        app.saved_plan = plan
        app.saved_scenario = app.scenario
        app.show_title(dirty=False)  # a default scenario saved now has a file name
        notify_path(app, "Saved the scenario to", source.path or file.target(), title="Saved")
        return True

    async def reload(self) -> None:
        """Read the scenario file again; with unsaved changes, ask first (reload, or stay)."""
        app = self.app
        if not app.dirty:
            await self._reload()
        elif not isinstance(app.screen, (ReloadChangesScreen, UnsavedChangesScreen)):
            app.push_screen(ReloadChangesScreen(), self._reload_chosen)

    async def _reload_chosen(self, reload: bool | None) -> None:
        if reload:
            await self._reload()

    async def _reload(self) -> None:
        """Read the scenario file again, discarding unsaved edits."""
        app = self.app
        path = self.path
        try:
            source = ScenarioSource.read(path)
            plan, _ = source.plan()
        except ScenarioError as err:
            app.notify(f"Reload failed: {err}", severity="error", timeout=10)
            return
        self.file = ScenarioFile(source, {})
        app.field_errors = {}
        scenario = await app.tiers.reloaded(plan)
        await app.query_one(ParamsPanel).load(scenario)
        app.saved_plan = plan
        app.plan = plan
        app.saved_scenario = scenario
        app.scenario = scenario
        if path is None:
            app.notify("Reloaded the default scenario")
        else:
            notify_path(app, "Reloaded the scenario from", path)

    def quit(self) -> None:
        """Quit; with unsaved changes, ask first (save and quit, quit, or stay)."""
        app = self.app
        if not app.dirty:
            app.exit()
        elif not isinstance(app.screen, UnsavedChangesScreen):
            app.push_screen(UnsavedChangesScreen(), self._quit_chosen)

    def _quit_chosen(self, choice: QuitChoice | None) -> None:
        if choice == "save" and self.save():
            self.app.saved_on_quit = self.path
            self.app.exit()
        elif choice == "quit":
            self.app.exit()
