"""The key footer: the keys that matter most first, and never more keys than fit.

Textual's footer lists the focused widget's keys first and lets the rest run off the
right edge, under the palette key (leaving stray letters: "^p paletter"). Here the keys are
ranked (quit, export, save, reload and help first; then the focused widget's keys and F6;
the view keys last) and those that do not fit are hidden, lowest rank first. The tabs name
the views and take a click, and the help screen and the palette list every key.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

FULL_FOOTER_WIDTH = 114
"""Columns the compact footer needs for every app key (measured with Textual 8.2)."""

ESSENTIAL_ACTIONS = ("quit", "export_markdown", "save", "reload", "help")
"""Actions whose keys always show, in this order."""


def key_rank(key: FooterKey) -> tuple[int, int]:
    """Sort key of a footer key: essentials first, view keys last."""
    if key.action in ESSENTIAL_ACTIONS:
        return (0, ESSENTIAL_ACTIONS.index(key.action))
    if key.action.startswith("view("):
        return (2, 0)
    return (1, 0)


class KeyFooter(Footer):
    """Textual's footer, keys ranked and fitted to the width (see the module docstring)."""

    def compose(self) -> ComposeResult:
        """Textual's keys, ranked; the view keys marked ``-view-key``."""
        widgets = list(super().compose())
        keys = [w for w in widgets if isinstance(w, FooterKey) and not _is_palette(w)]
        others = [w for w in widgets if w not in keys]
        for key in keys:
            if key.action.startswith("view("):
                key.add_class("-view-key")
        # sorted() is stable: keys of the same rank keep Textual's order.
        yield from sorted(keys, key=key_rank)
        yield from others

    _shown: tuple[object, ...] | None = None
    """What the keys showed when last composed: each key's action, label and state."""

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """Compose again only if the keys to show changed, not on every move of the focus.

        Textual composes the footer again whenever the focus moves; composing and styling
        its keys cost more than the rest of a keystroke's frame.
        """
        shown = tuple(
            (key, b.binding.action, b.binding.description, b.binding.show, b.enabled, b.tooltip)
            for key, b in screen.active_bindings.items()
        )
        if shown == self._shown:
            return
        if screen.app.app_focus:  # else Textual composes nothing, so nothing is shown yet
            self._shown = shown
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        """Compose the keys again (the bindings changed), then fit them."""
        await super().recompose()
        self.fit_keys()

    def on_resize(self) -> None:
        """Show again what fits the new width (again once the new layout is done)."""
        self.fit_keys()
        self.call_after_refresh(self.fit_keys)

    def fit_keys(self) -> None:
        """Hide the lowest-ranked keys until the rest fit beside the palette key."""
        keys = [k for k in self.query(FooterKey) if not _is_palette(k)]
        palette = [k for k in self.query(FooterKey) if _is_palette(k)]
        room = self.size.width - sum(_width(k) for k in palette)
        used = 0
        shown = 0
        for key in keys:
            fits = used + _width(key) <= room and not (
                key.has_class("-view-key") and self._views_hidden_by_css()
            )
            key.display = fits
            if fits:
                used += _width(key)
                shown += 1
            else:
                room = used  # nothing after a hidden key: the order is the ranking
        self.styles.grid_size_columns = max(1, shown)

    def _views_hidden_by_css(self) -> bool:
        screen = self.screen
        return screen.has_class("-narrow") or screen.has_class("-medium")


def _is_palette(widget: Widget) -> bool:
    return widget.has_class("-command-palette")


def _width(key: FooterKey) -> int:
    """Cells a key takes as rendered (key, description, their padding) and one to separate."""
    return key.render().cell_len + 1
