"""The one exception a scenario problem raises, with where in the file it was found.

Beside it, the wording its messages share: a value as shown (:func:`shown`), a field's
dotted path (:func:`dotted`) and the layout label a misspelt one means
(:func:`closest_label`).
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping, Sequence

MAX_MESSAGE_CHARS = 299 - len("planner: error: ")
"""Longest ``str(error)``: the line planner prints, its ``planner: error:`` included, stays
under 300 characters, as docs/guarantees.md promises (the fuzz suite checks it)."""

MAX_SHOWN_CHARS = 40
"""Longest value quoted in a message (longer ones end in ``…``)."""

MAX_LOCATION_CHARS = 120
"""Most characters a location (``path:line:column``) takes beside a message too long to be
whole whatever the path; longer paths lose folders from their left, line and column stay."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def shown(value: object, limit: int = MAX_SHOWN_CHARS, *, quote: bool = True) -> str:
    """``value`` as a message quotes it: text in quotes, on one line, cut at ``limit``.

    A 100,000-character value once made a 100 KB message; a newline made two lines.
    """
    text = _escaped(repr(value) if quote and isinstance(value, str) else str(value))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _escaped(text: str) -> str:
    r"""``text`` with its control characters written as escapes (``\n``, ``\x1b``)."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def show_value(value: object) -> str:
    """A value as it would be written in YAML."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int) and abs(value) >= 10**15:
        return f"{value:.3g}"  # a count given as 1e300 is shown so, not as its 301 digits
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return shown(value)


def _one_line(text: str) -> str:
    return _CONTROL.sub(" ", text)


class ScenarioError(Exception):
    """A scenario file (or a ``--set`` override) that cannot be used, and where it went wrong.

    ``str(error)`` is one line, ``path:line:column: field: message``, leaving out the parts
    that are not known, so editors and terminals can jump to the spot.

    Attributes:
        path: the file name, ``<default scenario>``, ``<string>`` or ``--set key=value``.
        line: 1-based line of the offending text, or None when there is no single spot.
        column: 1-based column of the offending text, or None.
        field: dotted name of the scenario field, e.g. ``drive.arr`` or
            ``layouts[1].group_size``; None for problems that are not about one field.
        message: what is wrong, with a hint to fix it where one is known.
        all_errors: every problem found, this one first (validation can find several).
    """

    def __init__(
        self,
        message: str,
        *,
        path: str,
        line: int | None = None,
        column: int | None = None,
        field: str | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.column = column
        self.field = field
        self.message = message
        self.all_errors: tuple[ScenarioError, ...] = (self,)
        super().__init__(message)

    @property
    def location(self) -> str:
        """``path:line:column`` with the unknown parts left out."""
        parts = [self.path]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        """One line of at most :data:`MAX_MESSAGE_CHARS` characters, whatever went in.

        With other problems found, it ends ``(and N more: planner validate lists them)``.
        """
        more = len(self.all_errors) - 1
        return self.line_text(f" (and {more} more: planner validate lists them)" if more else "")

    def line_text(self, suffix: str = "") -> str:
        """This problem alone as one line, ``suffix`` after it.

        At most :data:`MAX_MESSAGE_CHARS` characters. The message is kept whole, since its
        end is the hint: a path too long beside it is shortened from its left
        (:meth:`_location_within`); only a message too long for any path is cut.
        """
        field = f" {shown(self.field, 80, quote=False)}:" if self.field else ""
        message = _one_line(self.message)
        location = self._location_within(
            MAX_MESSAGE_CHARS - len(f":{field} ") - len(message) - len(suffix)
        )
        head = f"{location}:{field} "
        room = MAX_MESSAGE_CHARS - len(head) - len(suffix)
        return head + shown(message, room, quote=False) + suffix

    def _location_within(self, room: int) -> str:
        """:attr:`location` in at most ``room`` characters if it can be.

        Whole if it fits; else the path loses folders from its left (``…/deep/folder/
        scenario.yaml:26:3``), just enough, down to its file name; line and column always
        stay. When even that leaves no room (the message is cut whatever the path), the
        location takes at most :data:`MAX_LOCATION_CHARS` characters, as it always had.
        """
        position = self.location[len(self.path) :]
        path = _escaped(self.path)
        fitted = _path_within(path, position, room)
        if fitted is None:
            fitted = _path_within(path, position, MAX_LOCATION_CHARS)
        if fitted is not None:
            return fitted + position
        most = MAX_LOCATION_CHARS - len(position)
        if path.startswith("--set "):
            return shown(path, most, quote=False) + position  # keeps --set and the key
        return "…" + path.rsplit(os.sep, 1)[-1][-most + 1 :] + position

    def __repr__(self) -> str:
        return (
            f"ScenarioError({self.message!r}, path={self.path!r}, line={self.line!r}, "
            f"column={self.column!r}, field={self.field!r})"
        )


def _path_within(path: str, position: str, room: int) -> str | None:
    """``path`` with the fewest folders left out from its left that fits ``room``, or None.

    ``…/folder/name``, the room counting ``position`` after it. A ``--set`` source is not a
    path: it fits whole or not at all.
    """
    if len(path) + len(position) <= room:
        return path
    folders = [] if path.startswith("--set ") else path.split(os.sep)
    for first in range(1, len(folders)):
        kept = f"…{os.sep}" + os.sep.join(folders[first:])
        if len(kept) + len(position) <= room:
            return kept
    return None


def dotted(loc: tuple[str | int, ...]) -> str:
    """A pydantic location as a field name: ``('layouts', 1, 'raid')`` -> ``layouts[1].raid``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


def closest_label(
    written: str, labels: Sequence[str], aliases: Mapping[str, str] | None = None
) -> str | None:
    """The label ``written`` most likely means, or None when none is close.

    Labels are compared without case, spaces or punctuation (``RAID6`` is ``RAID 6``), and
    with ``aliases`` (another name -> its label: a layout's preset and width, ``raid10 2``
    for one labelled ``RAID 10``). One that is what was written wins, then one that starts
    with it (``RAID6`` means ``RAID 6 (10+2)``, not the look-alike ``RAID 10``), else the
    closest by :func:`difflib.get_close_matches`.
    """
    key = squeezed(written)
    by_key = {squeezed(label): label for label in reversed(labels)}  # the first one kept
    for alias, label in (aliases or {}).items():
        by_key.setdefault(squeezed(alias), label)
    if key in by_key:
        return by_key[key]
    starting = sorted((k for k in by_key if key and k.startswith(key)), key=len)
    if starting:
        return by_key[starting[0]]
    near = difflib.get_close_matches(key, list(by_key), n=1, cutoff=0.5)
    return by_key[near[0]] if near else None


def squeezed(label: str) -> str:
    """``label`` without case, spaces or punctuation: ``RAID 6 (10+2)`` is ``raid61022``."""
    return "".join(c for c in label.casefold() if c.isalnum())
