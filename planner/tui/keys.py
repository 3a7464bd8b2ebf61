"""The app's keys: what each does, which the app reads first, which a dialog turns off.

Most of the app's own keys (Tab, function keys, Ctrl keys) are priority bindings: the app
reads them before the focused field does, so digits typed right behind one never reach the
field it leaves. Behind a dialog the view keys do nothing (:data:`MAIN_SCREEN_ACTIONS`,
``PlannerApp.check_action``). The palette offers the same actions by name
(:mod:`planner.tui.commands`), each view with its key from :data:`VIEWS`.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

APP_BINDINGS: list[BindingType] = [
    # Tab and Shift+Tab move the focus as the app reads them, before the keys after them:
    # as the screen's own (non-priority) bindings they went first to the focused field
    # and back up to the screen, and digits typed right behind them (read in the same
    # burst from the terminal) were already on their way to the field being left.
    Binding("tab", "focus_next", "Next field", show=False, priority=True),
    Binding("shift+tab", "focus_previous", "Previous field", show=False, priority=True),
    # The function keys likewise act as read (digits behind F2 went to the field it
    # left), but not behind a dialog (check_action); ?, [ and ] are characters a field
    # can take, so they stay the focused widget's first.
    Binding("f1", "help", "Help", priority=True),
    Binding("question_mark", "help", "Help", show=False),
    Binding("f2", "view('compare')", "Compare", priority=True),
    Binding("f3", "view('sweep')", "Sweep", priority=True),
    Binding("f4", "view('model')", "Model", priority=True),
    Binding("f5", "view('sensitivity')", "Sensitivity", priority=True),
    Binding("f6", "simulate", "Simulate", priority=True),
    Binding("f7", "view('choose')", "Choose", priority=True),
    Binding("ctrl+o", "export_markdown", "Export MD", priority=True),
    Binding("ctrl+s", "save", "Save", priority=True),
    Binding("ctrl+r", "reload", "Reload", priority=True),
    Binding("ctrl+q", "quit", "Quit", priority=True),
    Binding("f8", "tier(1)", "Next tier", show=False, priority=True),
    Binding("right_square_bracket", "tier(1)", "Next tier", show=False),
    Binding("shift+f8", "tier(-1)", "Previous tier", show=False, priority=True),
    Binding("left_square_bracket", "tier(-1)", "Previous tier", show=False),
]
"""Every key of :class:`~planner.tui.app.PlannerApp` itself (the views add their own)."""

MAIN_SCREEN_ACTIONS = frozenset({"help", "view", "simulate", "tier"})
"""Actions of the function keys (priority bindings) that a dialog on screen turns off."""

VIEWS = {
    "compare": "F2",
    "sweep": "F3",
    "model": "F4",
    "sensitivity": "F5",
    "choose": "F7",
}
"""The views (tab ids) and the key that shows each."""
