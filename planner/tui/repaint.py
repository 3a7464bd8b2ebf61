"""Updates that repaint one widget instead of laying out the whole screen again.

A Static's ``update`` lays out the whole screen unless told the widget keeps its size, and
a layout repaints every widget on screen: on a keystroke that re-rendered the tables and
charts of the view (``benchmarks/bench_tui.py``). These helpers say when the size stays.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


def wrapped_lines(static: Static, text: str | Text) -> int | None:
    """Lines ``text`` takes in ``static`` at its current width; None before it has one."""
    width = static.content_size.width
    if width <= 0:
        return None
    return len((Text(text) if isinstance(text, str) else text).wrap(static.app.console, width))


def update_text(static: Static, text: str | Text, shown: str | Text | None) -> None:
    """Show ``text`` in ``static``, which shows ``shown``; a layout only if its height changes."""
    if text == shown:
        return
    before = None if shown is None else wrapped_lines(static, shown)
    after = wrapped_lines(static, text)
    static.update(text, layout=before is None or before != after)
