"""The app's file side: the scenario file, unsaved changes, save, reload, export and quit.

:class:`FileActions` holds the state a save needs (the last valid scenario, the fields
refused, the scenario as saved) and the actions that read and write files. Every action
refuses rather than write something the user did not see: no save while a field is invalid
or over a file changed on disk (until asked twice), no quit or reload over unsaved changes
unasked.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.reactive import var
from textual.widgets import Static

from planner.analysis.compare import CompareData
from planner.scenario import Scenario, ScenarioError, load_default_scenario
from planner.scenario.files import ReadOnlyError
from planner.tui import persist
from planner.tui.compare import CompareView
from planner.tui.dialogs import QuitChoice, ReloadChangesScreen, UnsavedChangesScreen
from planner.tui.params import ParamsPanel
from planner.tui.source import ChangedOnDiskError, ScenarioFile, ScenarioSource


class FileActions(App[None]):
    """The planner app's state that files are made of, and its file actions.

    The app's state is held in ``var``s (reactives that never repaint): an App-level
    ``reactive`` repaints the whole screen whenever it is set, which on every keystroke
    (scenario, results, field errors) cost a full frame. The watchers update the widgets
    that show the state; each repaints only itself.
    """

    scenario: var[Scenario] = var(load_default_scenario, init=False)
    """The last valid scenario: what every view shows (set only after validation)."""

    results: var[CompareData | None] = var(None, init=False)
    """Results of :attr:`scenario`'s layouts (and their sizing, with a workload); None until
    the first worker finishes."""

    field_errors: var[dict[str, str]] = var(dict, init=False)
    """Why a parameter field's text was refused, by field key; empty when all are valid."""

    saved_scenario: var[Scenario] = var(load_default_scenario, init=False)
    """The scenario as last opened, reloaded or saved (what quitting would keep)."""

    dirty: var[bool] = var(False, init=False)
    """Whether there is something unsaved: the scenario differs from
    :attr:`saved_scenario`, or a field holds text that was refused."""

    def __init__(self, source: ScenarioSource, scenario: Scenario) -> None:
        super().__init__()
        self.file = ScenarioFile(source, {})
        """The file saved to and reloaded from, and the values typed since the last save."""
        self.set_reactive(FileActions.scenario, scenario)
        self.set_reactive(FileActions.saved_scenario, scenario)
        self.sub_title = self._sub_title(dirty=False)

    @property
    def scenario_path(self) -> Path | None:
        """The scenario file (None: the bundled default, until it is first saved)."""
        return self.file.source.path

    def _sub_title(self, *, dirty: bool) -> str:
        path = self.scenario_path
        source = path.name if path is not None else "bundled default scenario"
        # The mark goes first: a long name is cut at the right edge, the mark never is.
        return ("● " if dirty else "") + f"{self.scenario.name} ({source})"

    def compute_dirty(self) -> bool:
        """Unsaved: the scenario is not the one saved, or a field's text was refused."""
        return self.scenario != self.saved_scenario or bool(self.field_errors)

    def watch_dirty(self, dirty: bool) -> None:
        """Mark the title "●" while there are unsaved changes."""
        self._show_title(dirty=dirty)

    def _show_title(self, *, dirty: bool) -> None:
        # Textual runs this watcher on every read of a computed reactive: change only news.
        title = self._sub_title(dirty=dirty)
        if title != self.sub_title:
            # set_reactive: App.sub_title would repaint the whole screen; only #title shows it
            self.set_reactive(App.sub_title, title)
            # one row of fixed height: no new layout of the screen is needed
            self.query_one("#title", Static).update(f"planner · {title}", layout=False)

    def _invalid_fields(self) -> str:
        """The labels of the fields whose text was refused, e.g. ``Rebuild h, Scrub h``."""
        specs = self.query_one(ParamsPanel).specs
        return ", ".join(spec.label for spec in specs if spec.key in self.field_errors)

    def action_export_markdown(self) -> None:
        """Write the table shown (comparison or sizing) as Markdown beside the scenario.

        While a field is invalid this exports what the screen shows, the last valid
        results, and the notice says so.
        """
        if self.results is None:
            self.notify("No results yet", severity="warning")
            return
        view = self.query_one(CompareView)
        try:
            what, path = persist.export_table(
                self.results, view.showing_sizing, view.sort_key, self.scenario_path
            )
        except OSError as err:
            where = err.filename or "the Markdown file"
            self.notify(f"Export failed: cannot write {where}: {err.strerror}", severity="error")
            return
        if self.field_errors:
            self.notify(
                f"Exported the last valid results ({self._invalid_fields()} invalid, "
                f"not included): the {what} to {path}",
                title="Markdown",
                severity="warning",
            )
        else:
            self.notify(f"Exported the {what} to {path}", title="Markdown")

    def action_save(self) -> None:
        """Save the scenario back to its YAML file, keeping the user's comments."""
        self._save()

    def _save(self) -> bool:
        """Save unless a field is invalid or the file changed on disk; whether it saved."""
        if self.field_errors:
            verb = "is" if len(self.field_errors) == 1 else "are"
            self.notify(
                f"Not saved: {self._invalid_fields()} {verb} invalid (fix, or Ctrl+R to reload)",
                severity="error",
            )
            return False
        file = self.file
        try:
            file.check_disk(self.scenario)
            source = persist.save_scenario(self.scenario, file.source, file.typed, file.target())
        except ChangedOnDiskError as changed:
            self.notify(str(changed), severity="warning", timeout=10)
            return False
        except ReadOnlyError:
            self.notify(
                f"Not saved: {file.target().name} is read-only; make it writable (chmod u+w) "
                "to save over it",
                severity="error",
                timeout=10,
            )
            return False
        except OSError as err:
            reason = err.strerror or str(err)
            self.notify(f"Save failed: cannot write {file.target()}: {reason}", severity="error")
            return False
        except ScenarioError as err:
            self.notify(f"Save failed: {err}", severity="error")
            return False
        file.saved(source)
        self.saved_scenario = self.scenario
        self._show_title(dirty=False)  # a default scenario saved now has a file name
        self.notify(f"Saved the scenario to {source.path}", title="Saved")
        return True

    async def action_reload(self) -> None:
        """Read the scenario file again; with unsaved changes, ask first (reload, or stay)."""
        if not self.dirty:
            await self._reload()
        elif not isinstance(self.screen, (ReloadChangesScreen, UnsavedChangesScreen)):
            self.push_screen(ReloadChangesScreen(), self._reload_chosen)

    async def _reload_chosen(self, reload: bool | None) -> None:
        if reload:
            await self._reload()

    async def _reload(self) -> None:
        """Read the scenario file again, discarding unsaved edits."""
        path = self.scenario_path
        try:
            source = ScenarioSource.read(path)
            scenario, _ = source.document()
        except ScenarioError as err:
            self.notify(f"Reload failed: {err}", severity="error", timeout=10)
            return
        self.file = ScenarioFile(source, {})
        self.field_errors = {}
        await self.query_one(ParamsPanel).load(scenario)
        self.saved_scenario = scenario
        self.scenario = scenario
        self.notify(f"Reloaded {path or 'the default scenario'}")

    async def action_quit(self) -> None:
        """Quit; with unsaved changes, ask first (save and quit, quit, or stay)."""
        if not self.dirty:
            self.exit()
        elif not isinstance(self.screen, UnsavedChangesScreen):
            self.push_screen(UnsavedChangesScreen(), self._quit_chosen)

    def _quit_chosen(self, choice: QuitChoice | None) -> None:
        if choice == "quit" or (choice == "save" and self._save()):
            self.exit()
