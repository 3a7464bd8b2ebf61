"""Modal screens: add a layout, unsaved changes on quit or reload, and the help screen of keys."""

from __future__ import annotations

from typing import ClassVar, Literal

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Markdown, Select, Static

from planner.core.arrays.presets import PRESETS
from planner.scenario import Scenario
from planner.scenario.edits import EditError
from planner.scenario.layout_edits import with_layout_typed
from planner.tui.footer import KeyFooter
from planner.tui.params import SteadyInput

CUSTOM = "custom"
"""The Select value for a plain ``parity: k`` layout rather than a preset."""


class AddLayoutScreen(ModalScreen[Scenario | None]):
    """Pick a preset (or parity k) and a group size; returns the scenario with the layout.

    The focused field or button is framed (app.tcss), and the title's line says where the
    focus is: a key typed on a button goes into no field, and the line says so.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    # Below 27 lines the dialog drops its blank rows: 24 lines hold it above the footer with
    # a refusal of two lines shown (the longest), 27 with its blank rows.
    # Textual declares this an instance attribute, so it cannot be a ClassVar here.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (27, "-tall")]  # noqa: RUF012

    def __init__(self, scenario: Scenario) -> None:
        super().__init__()
        self.scenario = scenario
        self.refused = False
        """Whether a refusal is shown: then each edit checks the values again."""
        self.names = {
            "add-preset": "Preset",
            "add-parity": "Parity k",
            "add-size": "Group size N",
            "add-data": "Data / stripe",
            "add-spares": "Spares",
            "add-ok": "Add",
            "add-cancel": "Cancel",
        }
        """What the focus line calls each field and button, by id."""

    def compose(self) -> ComposeResult:
        """Preset, parity and group size, an error line, and Add / Cancel."""
        options = [(f"{p.name}: {p.description}", p.name) for p in PRESETS.values()]
        options.append(("custom: parity k + group size", CUSTOM))
        with Vertical(id="add-dialog"):
            with Horizontal(classes="dialog-title-row"):
                yield Label("Add a layout", classes="dialog-title")
                yield Static("", id="add-focus", markup=False)
            yield Select(options, value="raid6", allow_blank=False, id="add-preset")
            with Horizontal(classes="dialog-row"):
                yield Label("Parity k", classes="dialog-label")
                yield SteadyInput(placeholder="from the preset", id="add-parity", disabled=True)
            with Horizontal(classes="dialog-row"):
                yield Label("Group size N", classes="dialog-label", id="add-size-label")
                yield SteadyInput(placeholder="drives per group, parity included", id="add-size")
            with Horizontal(classes="dialog-row"):
                yield Label("Data / stripe", classes="dialog-label")
                yield SteadyInput(placeholder="dRAID only", id="add-data", disabled=True)
            with Horizontal(classes="dialog-row"):
                yield Label("Spares", classes="dialog-label")
                yield SteadyInput(placeholder="dRAID only", id="add-spares", disabled=True)
            yield Static("", id="add-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Add", variant="primary", id="add-ok")
                yield Button("Cancel", id="add-cancel")
        yield KeyFooter()  # this dialog's keys, over the table's

    def on_mount(self) -> None:
        """Start in the group size: the preset defaults to RAID 6."""
        self.query_one("#add-size", Input).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        """Parity is typed only for a custom layout; mirrors need no group size."""
        custom = event.value == CUSTOM
        parity = self.query_one("#add-parity", Input)
        parity.disabled = not custom
        parity.placeholder = "parity drives per group, e.g. 3" if custom else "from the preset"
        preset = PRESETS.get(str(event.value))
        size = self.query_one("#add-size", Input)
        fixed = preset is not None and preset.fixed_group_size is not None
        declustered = preset is not None and preset.declustered
        label = self.query_one("#add-size-label", Label)
        self.names["add-size"] = "Children C" if declustered else "Group size N"
        label.update(self.names["add-size"])
        if fixed:
            size.placeholder = "fixed by the preset"
        elif declustered:
            size.placeholder = "drives in the pool (children), e.g. 48"
        else:
            size.placeholder = "drives per group, parity included"
        for name, hint in (("data", "data blocks per stripe, default 8"), ("spares", "default 0")):
            box = self.query_one(f"#add-{name}", Input)
            box.disabled = not declustered
            box.placeholder = hint if declustered else "dRAID only"
        if self.refused:
            self._check()

    def on_input_changed(self) -> None:
        """Once a value was refused, check again as the user edits: the refusal follows.

        It was left shown, for a value already corrected, until Enter.
        """
        if self.refused:
            self._check()

    def watch_focused(self, focused: Widget | None) -> None:
        """Say where the focus went, as it moves: into a field (typing goes there) or onto a button.

        Said on each control's focus event, the line followed the order in which those events
        came back up to the dialog, each by its own path through the containers (a button's a
        hop longer than the preset list's): three Tabs in one burst left it naming Cancel
        with the focus on Preset. The screen's ``focused`` changes as each key is handled.
        """
        name = None if focused is None else self.names.get(focused.id or "")
        if name is None:  # the preset list's own parts
            return
        if isinstance(focused, Button):
            self._say_focus(f"on {name}: Enter presses it")
        elif isinstance(focused, Select):
            self._say_focus(f"on {name}: Enter opens the list")
        else:
            self._say_focus(f"typing goes into {name}")

    def on_key(self, event: events.Key) -> None:
        """A character typed on a button goes into no field: say how to reach one."""
        focused = self.focused
        if isinstance(focused, Button) and event.is_printable:
            name = self.names.get(focused.id or "", "a button")
            self._say_focus(f"on {name}: Shift+Tab to a field to type", warn=True)

    def _say_focus(self, text: str, *, warn: bool = False) -> None:
        line = self.query_one("#add-focus", Static)
        line.update(text)
        line.set_class(warn, "-warning")

    def on_input_submitted(self) -> None:
        """Enter in either input adds the layout."""
        self._add()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Add or cancel."""
        if event.button.id == "add-ok":
            self._add()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        """Close without adding."""
        self.dismiss(None)

    def _add(self) -> None:
        scenario = self._check()
        if scenario is not None:
            self.dismiss(scenario)

    def _check(self) -> Scenario | None:
        """The scenario with the layout typed, or None with the refusal shown."""
        choice = str(self.query_one("#add-preset", Select).value)
        error = self.query_one("#add-error", Static)
        try:
            scenario = with_layout_typed(
                self.scenario,
                None if choice == CUSTOM else choice,
                parity=self.query_one("#add-parity", Input).value,
                group_size=self.query_one("#add-size", Input).value,
                data=self.query_one("#add-data", Input).value,
                spares=self.query_one("#add-spares", Input).value,
            )
        except EditError as problem:
            self.refused = True
            error.update(str(problem))
            return None
        self.refused = False
        error.update("")
        return scenario


QuitChoice = Literal["save", "quit"]
"""What the unsaved-changes dialog returns (None: cancel, stay in the app)."""


class UnsavedChangesScreen(ModalScreen[QuitChoice | None]):
    """Ctrl+Q with unsaved changes: save and quit, quit without saving, or stay."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('save')", "Save and quit"),
        Binding("q", "choose('quit')", "Quit without saving"),
        Binding("escape", "choose('')", "Cancel"),
    ]

    def compose(self) -> ComposeResult:
        """One line of text and the three keys."""
        with Vertical(id="quit-dialog"):
            yield Static(
                "Unsaved changes: [s]ave and quit, [q]uit without saving, [Esc] cancel",
                markup=False,
            )
        yield KeyFooter()

    def action_choose(self, choice: str) -> None:
        """Close with the user's choice ('' for cancel)."""
        self.dismiss("save" if choice == "save" else "quit" if choice == "quit" else None)


class ReloadChangesScreen(ModalScreen[bool]):
    """Ctrl+R with unsaved changes: reload from disk and lose them (True), or stay (False)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose(True)", "Reload, lose the changes"),
        Binding("escape", "choose(False)", "Cancel"),
    ]

    def compose(self) -> ComposeResult:
        """One line of text and the two keys."""
        with Vertical(id="reload-dialog"):
            yield Static(
                "Unsaved changes: [r]eload from disk and lose them, [Esc] cancel",
                markup=False,
            )
        yield KeyFooter()

    def action_choose(self, reload: bool) -> None:
        """Close with the user's choice."""
        self.dismiss(reload)


HELP_TITLE = "planner: keys"
"""The help screen's title, in its border (:class:`HelpScreen`)."""

HELP_TEXT = """\
Type in a parameter field and every view updates as you type: a field's text is
selected when it gets the focus (and by **Ctrl+A**), so typing replaces it. **Tab** /
**Shift+Tab** move between the fields and the table. An invalid value turns its field
red, with the reason below the fields; the last valid results stay on screen. A ● in the
title marks changes not saved yet.

| key | does |
|---|---|
| **F1** / **?** | this help: **F1** anywhere, **?** when the focus is not in a field |
| **F2** | compare view: the layouts side by side (sized, with a workload); focus its table |
| **F3** | sweep view: P(loss) against group size for n+1, n+2, n+3 |
| **F4** | model view: the selected layout's states, rates and MTTDL |
| **F5** | sensitivity view: the selected layout's inputs ranked by effect |
| **F6** | simulate one group of the selected layout (Monte Carlo, in the model view) |
| **F7** | choose view: the Pareto front of cost against P(loss); ←/→ move, Enter adds |
| **F8** / **Shift+F8** | a plan (`tiers:`): the next / previous tier (or **]** / **[**, a click) |
| **Ctrl+O** | export the compare table shown to Markdown (the path is shown) |
| **Ctrl+S** | save the scenario back to its YAML file (comments kept) |
| **Ctrl+R** | reload the scenario file from disk (with unsaved changes: reload, or stay) |
| **Ctrl+P** | command palette (every action by name) |
| **Ctrl+Q** | quit (with unsaved changes: save and quit, quit, or stay) |

Ctrl+S is refused while a field is invalid; if the file changed on disk since it was
loaded, the first Ctrl+S warns and a second one overwrites it. Ctrl+O exports what the
screen shows: while a field is invalid, the last valid results (the notice says so).

In the compare table (focus it with F2, Tab or a click):

| key | does |
|---|---|
| **↑ / ↓** | select a layout (F4 and F5 show it; the cursor starts on the baseline ◆) |
| **a** | add a layout: a preset, parity k + group size, or a dRAID pool (children, data, spares) |
| **x** / **Delete** | remove the selected layout (a removed baseline goes back to the file's) |
| **b** | make the selected layout the baseline (◆) of relative risk |
| **s** | sort: scenario order → by risk → by overhead drives (disks needed when sized) |
| **c** | with a workload: sizing columns ↔ the fixed aggregate of *Data disks* |
| **o** | pick and order the columns (kept in ~/.config/planner/tui.yaml) |
| **← / →** | scroll the table sideways, a column at a time (the layout stays in view) |

The notes under the table scroll where they do not fit, and a line under them says how
many lines are out of view: Tab from the table reaches them, then ↓ / PgDn, ↑ / PgUp,
Home / End (or the mouse wheel over them).

With a `workload:` section the compare view sizes each layout (disks for capacity and
for IOPS, whole groups, the larger decides) and shows the risk of that sized aggregate.
The sensitivity view (F5) halves and doubles each input of the selected layout and ranks
the inputs by the change in P(loss) of its aggregate, with each one's elasticity.
The choose view (F7) searches mirrors, parity groups and pools for the scenario's
`target:` (1 in 10,000 without one), as `planner recommend` does, and draws the layouts
no other beats on both cost and risk.

ARR is a fraction per year (0.019) or a percentage (1.9%). Latent defects are per
drive-hour; rebuild and scrub times are mean hours; the mission is in years of 8,760 h.
A scenario that gives the rebuild as a rate (`restore.rebuild_mb_per_s`) is edited as
*Rebuild MB/s*; the mean restore time it gives is shown beside it.
"""


class HelpScreen(ModalScreen[None]):
    """Every key of the app, and how values are written."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q,question_mark", "dismiss_help", "Close"),
    ]

    def compose(self) -> ComposeResult:
        """The help text in a scrollable box, its title in the box's top border.

        As a heading of the text, the title had three blank rows above it (the Markdown
        heading's margin and the text's first), a sixth of an 80x24 screen.
        """
        with Vertical(id="help-dialog") as dialog:
            dialog.border_title = HELP_TITLE
            with VerticalScroll(id="help-scroll"):
                yield Markdown(HELP_TEXT)
            yield Static("Esc closes", classes="dialog-hint")
        yield KeyFooter()

    def action_dismiss_help(self) -> None:
        """Close the help screen."""
        self.dismiss(None)
