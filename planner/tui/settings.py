"""The TUI's settings file: the columns each table shows, kept between sessions.

``$XDG_CONFIG_HOME/planner/tui.yaml`` (``~/.config/planner/tui.yaml`` by default), not the
scenario: a column choice is how one person likes to read the tables, while a scenario is
shared, reviewed and often under version control (a view preference saved into it would
be a diff nobody asked for, and a read-only scenario could not keep one). The file is read
and written with ruamel.yaml's round trip, so comments and keys this version does not know
stay; a write is atomic (:func:`planner.scenario.files.write_atomic`). A file that cannot be read
is named in a notice and never written over: the choice then lasts the session only.

::

    columns:
      compare:                       # the compare table without a workload
        order:
          - total_disks
          - usable_tb
          - ...
        hidden: [Groups]
      sizing: {...}                  # the sizing columns (a scenario with a workload)

Columns are named by :func:`planner.report.column_choice.column_id`.
"""

from __future__ import annotations

import os
import stat
from io import StringIO
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from planner.report.column_choice import ColumnChoice
from planner.scenario.files import write_atomic

MAX_SETTINGS_BYTES = 64 * 1024
"""A settings file larger than this is refused unread (a few hundred bytes is typical)."""

MAX_FLOW_DEPTH = 32
"""Brackets nested deeper than this are refused before parsing: ruamel took 16 s on 2,000
``[`` (the settings use three levels)."""


class SettingsError(Exception):
    """The settings file cannot be read or written; the message names it."""


def settings_path() -> Path:
    """Where the settings live: ``$XDG_CONFIG_HOME/planner/tui.yaml``.

    The XDG base directory specification ignores a relative ``XDG_CONFIG_HOME``; so does this.

    Raises:
        SettingsError: no ``XDG_CONFIG_HOME`` and no home folder.
    """
    configured = os.environ.get("XDG_CONFIG_HOME", "")
    if os.path.isabs(configured):
        return Path(configured) / "planner" / "tui.yaml"
    try:
        return Path.home() / ".config" / "planner" / "tui.yaml"
    except RuntimeError:  # no HOME and no passwd entry
        raise SettingsError("no home folder for the settings: set XDG_CONFIG_HOME") from None


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def read_settings(path: Path) -> CommentedMap:
    """The settings document at ``path`` (empty when there is no file).

    Raises:
        SettingsError: not a regular file, larger than :data:`MAX_SETTINGS_BYTES`, not
            UTF-8, not YAML, or not a mapping.
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return CommentedMap()
    except OSError as err:
        raise SettingsError(f"{path}: {err.strerror}") from None
    if not stat.S_ISREG(mode):  # a FIFO would block the open; a device never ends
        raise SettingsError(f"{path}: not a regular file")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_SETTINGS_BYTES + 1)
    except OSError as err:
        raise SettingsError(f"{path}: {err.strerror}") from None
    if len(data) > MAX_SETTINGS_BYTES:
        raise SettingsError(f"{path}: larger than {MAX_SETTINGS_BYTES // 1024} KB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SettingsError(f"{path}: not UTF-8 text") from None
    if _flow_depth(text) > MAX_FLOW_DEPTH:
        raise SettingsError(f"{path}: nested too deeply")
    try:
        document = _yaml().load(text)
    except YAMLError as err:
        where = getattr(err, "problem_mark", None)
        line = f":{where.line + 1}" if where is not None else ""
        raise SettingsError(f"{path}{line}: not valid YAML") from None
    except RecursionError:  # "[[[[..." a few thousand deep
        raise SettingsError(f"{path}: nested too deeply") from None
    if document is None:
        return CommentedMap()
    if not isinstance(document, CommentedMap):
        raise SettingsError(f"{path}: expected a mapping of settings")
    return document


def _flow_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` (brackets in quotes or comments count too)."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(0, depth - 1)
    return deepest


def column_choice(document: CommentedMap, table: str) -> ColumnChoice | None:
    """The choice saved for ``table`` ("compare", "sizing"); None when there is none.

    Entries that are not strings are skipped: a hand-edited file never stops the TUI.
    """
    columns = document.get("columns")
    entry = columns.get(table) if isinstance(columns, dict) else None
    if not isinstance(entry, dict):
        return None
    return ColumnChoice(tuple(_names(entry.get("order"))), frozenset(_names(entry.get("hidden"))))


def _names(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def with_column_choice(document: CommentedMap, table: str, choice: ColumnChoice) -> None:
    """Set ``table``'s choice in ``document``, in place; everything else stays as it is."""
    columns = document.get("columns")
    if not isinstance(columns, CommentedMap):
        columns = document["columns"] = CommentedMap()
    entry = columns.get(table)
    if not isinstance(entry, CommentedMap):
        entry = columns[table] = CommentedMap()
    # One name a line (block style): a diff of the file shows which column moved.
    entry["order"] = CommentedSeq(choice.order)
    position = {name: index for index, name in enumerate(choice.order)}
    entry["hidden"] = CommentedSeq(sorted(choice.hidden, key=lambda n: (position.get(n, -1), n)))


def write_settings(path: Path, document: CommentedMap) -> None:
    """Write ``document`` to ``path`` atomically, making its folder if needed.

    Raises:
        SettingsError: the folder or the file cannot be written.
    """
    text = StringIO()
    _yaml().dump(document, text)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text.getvalue())
    except OSError as err:
        raise SettingsError(f"{path}: {err.strerror or err}") from None


def save_column_choice(path: Path, table: str, choice: ColumnChoice) -> None:
    """Read the settings again, set ``table``'s choice and write them back.

    Read again, not from memory: another session may have saved since this one started.

    Raises:
        SettingsError: the file cannot be read (it is then left as it is) or written.
    """
    document = read_settings(path)
    with_column_choice(document, table, choice)
    write_settings(path, document)
