"""Each command's help as paragraphs that wrap at the terminal's width.

Typer (0.28, ``rich_markup_mode="rich"``) joins the lines of a help's first paragraph but keeps
the single line breaks of the others, so a docstring wrapped at the source's 100 columns
printed ragged at 80 ("P(any tier" alone on a line). :func:`unwrap_help` gives each command
its docstring with the lines of every paragraph joined, through Typer's ``help=``.
"""

from __future__ import annotations

import inspect

import typer


def unwrap_help(app: typer.Typer) -> None:
    """Set the help of each command of ``app`` without one: its docstring, paragraphs joined."""
    for info in app.registered_commands:
        if info.help is not None or info.callback is None:
            continue
        doc = inspect.getdoc(info.callback) or ""
        info.help = "\n\n".join(" ".join(p.split()) for p in doc.split("\n\n"))
