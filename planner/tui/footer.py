"""The key footer: on a narrow screen the view keys give way to Export, Save and Reload."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

FULL_FOOTER_WIDTH = 114
"""Columns the compact footer needs for every key (measured with Textual 8.2)."""


class KeyFooter(Footer):
    """Textual's footer with the view keys (F2-F5) marked ``-view-key``.

    ``app.tcss`` hides them below :data:`FULL_FOOTER_WIDTH` columns: the tabs already name
    the views and take a click, and the help screen and the palette list every key.
    """

    def compose(self) -> ComposeResult:
        """Textual's keys, the view keys marked."""
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.action.startswith("view("):
                widget.add_class("-view-key")
            yield widget
