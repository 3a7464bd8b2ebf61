"""The interactive planner: a Textual TUI that re-evaluates layouts as parameters change.

Use :func:`planner.tui.app.make_app` (the CLI's ``planner tui`` and the tests do).
"""

from planner.tui.app import PlannerApp, make_app

__all__ = ["PlannerApp", "make_app"]
