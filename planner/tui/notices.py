"""Notices that name a file: its path on lines of its own, each cut at a separator.

A notice (Textual's toast) is :data:`TOAST_WIDTH` columns wide, at most half the screen
less the notices' scroll bar (app.tcss sets the width), so at 80 columns its text has 36,
at 120 56. A path has no spaces to wrap at, and was folded inside a folder's name
(``/tmp/planner/a-rathe`` | ``r-long-folder/...``).
Here the path goes under the message, cut only after a separator; when it needs more than
:data:`PATH_LINES` lines its first folders are left out (``…/``), never the file's name
(cut from its left only when wider than a line).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from textual.app import App
from textual.notifications import SeverityLevel

TOAST_WIDTH = 60
"""A notice's width in columns (app.tcss: ``Toast { width: 60 }``)."""

TOAST_SHARE = 0.5
"""The largest share of the notices' column a notice takes (``max-width: 50%``)."""

RACK_GUTTER = 2
"""Columns of the screen the notices' column leaves to its scroll bar (Textual's own)."""

TOAST_FRAME = 3
"""Columns of a notice that hold no text: its coloured left edge and a space each side."""

PATH_LINES = 3
"""The most lines a path takes in a notice; a longer one loses its start."""

ELLIPSIS = "…"


def notice_width(screen_width: int) -> int:
    """Columns of text in a notice on a screen ``screen_width`` columns wide."""
    column = screen_width - RACK_GUTTER
    return max(1, min(TOAST_WIDTH, int(column * TOAST_SHARE)) - TOAST_FRAME)


def path_lines(path: Path | str, width: int, most: int = PATH_LINES) -> list[str]:
    """``path`` in at most ``most`` lines of at most ``width`` columns, each cut at a separator.

    Folders show whole or not at all: when the whole path needs more lines, its first
    folders are left out (``…/`` stands for them). The file's name always shows, whole
    when it fits a line, else cut from its left (``…``).
    """
    parts = str(path).split(os.sep)
    pieces = [part + os.sep for part in parts[:-1]] + [parts[-1]]
    for start in range(len(pieces)):
        shown = pieces if start == 0 else [ELLIPSIS + os.sep, *pieces[start:]]
        lines = _packed(shown, width)
        if lines is not None and len(lines) <= most:
            return lines
    return _packed_name(pieces[-1], width)


def _packed(pieces: list[str], width: int) -> list[str] | None:
    """``pieces`` filled into lines of ``width`` columns; None if a folder is wider alone."""
    if any(cell_len(piece) > width for piece in pieces[:-1]):
        return None
    lines = [""]
    for piece in pieces[:-1]:
        if lines[-1] and cell_len(lines[-1] + piece) > width:
            lines.append("")
        lines[-1] += piece
    name = pieces[-1]
    if cell_len(lines[-1] + name) <= width:
        lines[-1] += name
    else:
        lines.append(_cut_left(name, width))
    return lines


def _packed_name(name: str, width: int) -> list[str]:
    """The file's name alone, after ``…/`` (every folder left out)."""
    return _packed([ELLIPSIS + os.sep, name], width) or [_cut_left(name, width)]


def _cut_left(text: str, width: int) -> str:
    """``text`` with its start cut (``…``) to fit ``width`` columns."""
    if cell_len(text) <= width:
        return text
    kept = ""
    for char in reversed(text):
        if cell_len(ELLIPSIS + char + kept) > width:
            break
        kept = char + kept
    return ELLIPSIS + kept


def notify_path(
    app: App[Any],
    message: str,
    path: Path | str,
    *,
    title: str = "",
    severity: SeverityLevel = "information",
    timeout: float | None = None,
) -> None:
    """Say ``message`` with ``path`` under it, cut to the notice's width (see the module)."""
    lines = path_lines(path, notice_width(app.size.width))
    # markup=False: a path may hold [brackets]
    app.notify(
        "\n".join([message, *lines]),
        title=title,
        severity=severity,
        timeout=timeout,
        markup=False,
    )
