"""The key footer: every file and view key in one row, labels shortened to fit the width.

Textual's footer lists the focused widget's keys first and lets the rest run off the
right edge, under the palette key; at 80 columns the view keys (F2-F7) could not be shown
at all, and at 120 F7 ran off. This footer is a widget of its own, built on public Textual
APIs only (a screen's ``active_bindings`` and ``bindings_updated_signal``,
``App.get_key_display`` and ``App.simulate_key``): the keys are ranked (quit, export,
save, reload and help first; then the view keys and F6; the focused widget's keys last)
and drawn in the first style that fits every key of the first two ranks:

1. full labels, then the focused widget's keys while they fit, the palette key at the right;
2. the same with the palette key as ``^p`` alone;
3. compact labels (:data:`COMPACT_LABELS`: ``f3 Swp``), no palette key (Ctrl+P still works,
   and the help screen lists it);
4. the view keys without labels (the tabs above name the views in the same order).

A key is clicked as it is pressed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widget import Widget

ESSENTIAL_ACTIONS = ("quit", "export_markdown", "save", "reload", "help")
"""Actions whose keys always show, in this order."""

COMPACT_LABELS = {
    "export_markdown": "MD",
    "reload": "Load",
    "view('compare')": "Cmp",
    "view('sweep')": "Swp",
    "view('model')": "Mdl",
    "view('sensitivity')": "Sens",
    "simulate": "Sim",
    "view('choose')": "Chs",
}
"""Labels at 80 columns, by action (the tabs above name the views in full)."""

VIEW_ACTIONS = ("simulate",)
"""Actions ranked with the view keys (``view(...)``): the F-keys that show a view."""


@dataclass(frozen=True)
class FooterEntry:
    """One key of the footer: the key pressed, as shown, its label and rank."""

    key: str
    display: str
    label: str
    compact: str
    rank: tuple[int, int]
    enabled: bool = True


@dataclass(frozen=True)
class Placed:
    """An entry drawn at cells ``start`` to ``end`` (exclusive) of the row."""

    entry: FooterEntry
    start: int
    end: int


@dataclass(frozen=True)
class FooterStyle:
    """How a style of the footer draws its entries (see the module docstring)."""

    compact: bool
    palette: str | None
    view_labels: bool = True


STYLES = (
    FooterStyle(compact=False, palette="palette"),
    FooterStyle(compact=False, palette=""),
    FooterStyle(compact=True, palette=None),
    FooterStyle(compact=True, palette=None, view_labels=False),
)
"""The footer's styles, widest first; the first in which every ranked key fits is used."""


def rank_of(action: str) -> tuple[int, int]:
    """Sort key of a footer key: essentials first, then the view keys, the rest last."""
    if action in ESSENTIAL_ACTIONS:
        return (0, ESSENTIAL_ACTIONS.index(action))
    if action.startswith("view(") or action in VIEW_ACTIONS:
        return (1, 0)
    return (2, 0)


def entry_text(entry: FooterEntry, style: FooterStyle) -> str:
    """The entry's label in ``style`` ("" for a view key drawn without one)."""
    if entry.rank[0] == 1 and not style.view_labels:
        return ""
    return entry.compact if style.compact else entry.label


@dataclass(frozen=True)
class Fitted:
    """The footer at one width: the style used, the keys drawn and the palette key."""

    style: FooterStyle
    keys: list[Placed]
    palette: Placed | None


def layout(entries: list[FooterEntry], width: int, palette: FooterEntry | None) -> Fitted:
    """The entries drawn in ``width`` cells, and the palette key (None: not shown).

    Keys of rank 0 and 1 all show in the first style they fit; the rest follow while they
    fit. When even the last style is too wide, keys go from the last.
    """
    for style in STYLES:
        palette_text = None
        if palette is not None and style.palette is not None:
            palette_text = f"{palette.display} {style.palette}".rstrip()
        room = width - (cell_len(palette_text) + 2 if palette_text else 0)
        placed = list(_place(entries, style, room))
        ranked = [e for e in entries if e.rank[0] < 2]
        if len([p for p in placed if p.entry.rank[0] < 2]) == len(ranked) or style is STYLES[-1]:
            placed_palette = None
            if palette is not None and palette_text is not None:
                placed_palette = Placed(
                    FooterEntry(palette.key, palette_text, "", "", (0, 0), palette.enabled),
                    width - cell_len(palette_text) - 1,
                    width - 1,
                )
            return Fitted(style, placed, placed_palette)
    raise AssertionError("unreachable: the last style always returns")  # pragma: no cover


def _place(entries: list[FooterEntry], style: FooterStyle, room: int) -> Iterator[Placed]:
    x = 0
    for entry in entries:
        size = _size(entry, style)
        start = x + (1 if x else 0)
        if start + size > room:
            return  # nothing after a key that does not fit: the order is the ranking
        yield Placed(entry, start, start + size)
        x = start + size


class KeyFooter(Widget, can_focus=False):
    """The screen's keys in one row, fitted to the width (see the module docstring)."""

    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .key-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .key-footer--label {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .key-footer--disabled {
            text-style: dim;
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "key-footer--key",
        "key-footer--label",
        "key-footer--disabled",
    }

    entries: tuple[FooterEntry, ...] = ()
    """The screen's keys to show, ranked (the palette key apart)."""

    palette: FooterEntry | None = None
    """The command palette's key, or None when the screen has none."""

    def on_mount(self) -> None:
        """Follow the screen's keys as the focus moves and actions are enabled."""
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.bindings_changed(self.screen)

    def on_unmount(self) -> None:
        """Stop following the screen's keys."""
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """Read the screen's keys; paint again only if what shows changed."""
        entries, palette = self._read(screen)
        if (entries, palette) != (self.entries, self.palette):
            self.entries, self.palette = entries, palette
            self.refresh()

    def _read(self, screen: Screen[Any]) -> tuple[tuple[FooterEntry, ...], FooterEntry | None]:
        app = self.app
        seen: set[str] = set()
        entries: list[FooterEntry] = []
        palette: FooterEntry | None = None
        for key, active in screen.active_bindings.items():
            binding = active.binding
            if app.ENABLE_COMMAND_PALETTE and key == app.COMMAND_PALETTE_BINDING:
                palette = FooterEntry(
                    key, app.get_key_display(binding), "", "", (0, 0), active.enabled
                )
                continue
            if not binding.show or binding.action in seen:
                continue  # one key an action, as Textual's footer shows them
            seen.add(binding.action)
            label = binding.description
            entries.append(
                FooterEntry(
                    key,
                    app.get_key_display(binding),
                    label,
                    COMPACT_LABELS.get(binding.action, label),
                    rank_of(binding.action),
                    active.enabled,
                )
            )
        # sorted() is stable: keys of the same rank keep the bindings' order.
        return tuple(sorted(entries, key=lambda e: e.rank)), palette

    def fitted(self) -> Fitted:
        """The keys drawn at the current width, and the palette key."""
        return layout(list(self.entries), self.size.width, self.palette)

    def render(self) -> Text:
        """The keys, each key in bold then its label, one space apart."""
        key_style = self.get_component_rich_style("key-footer--key")
        label_style = self.get_component_rich_style("key-footer--label")
        dim = self.get_component_rich_style("key-footer--disabled")
        fitted = self.fitted()
        palette = fitted.palette
        text = Text(no_wrap=True, overflow="crop")
        x = 0
        for item in fitted.keys:
            extra = Style() if item.entry.enabled else dim
            text.append(" " * (item.start - x))
            text.append(item.entry.display, key_style + extra)
            label = entry_text(item.entry, fitted.style)
            if label:
                text.append(f" {label}", label_style + extra)
            x = item.end
        if palette is not None:
            text.append(" " * (palette.start - 1 - x))
            text.append("▏", Style(dim=True))
            key, _, label = palette.entry.display.partition(" ")
            text.append(key, key_style)
            if label:
                text.append(f" {label}", label_style)
        return text

    def on_click(self, event: events.Click) -> None:
        """Press the key clicked (a bell for a key whose action is disabled)."""
        fitted = self.fitted()
        for item in [*fitted.keys, *([fitted.palette] if fitted.palette else [])]:
            if item.start <= event.x < item.end:
                if item.entry.enabled:
                    self.app.simulate_key(item.entry.key)
                else:
                    self.app.bell()
                return


def _size(entry: FooterEntry, style: FooterStyle) -> int:
    text = entry_text(entry, style)
    return cell_len(entry.display) + (cell_len(text) + 1 if text else 0)
