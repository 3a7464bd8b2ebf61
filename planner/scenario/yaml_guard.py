"""Checks on the YAML event stream, before ruamel builds a single object from it.

A scenario is a few dozen plain values. Building objects from a hostile or broken file can
take minutes and gigabytes (nine nested aliases expand 300 bytes into a billion values), loop
(an alias inside the mapping it names), or fail deep inside the library with no position (a
date of month 13, a 5,000-digit integer). The parser's events carry positions and cost
nothing to read, so every such file is refused here, at ``file:line:column`` and field:

* an explicit tag (``!!python/object``, ``!custom``, even ``!!str``);
* an anchor defined twice (ruamel would print an 8-line warning and take the second);
* an alias inside the collection it names (recursive; ruamel fails constructing it);
* aliases that would expand the document past :data:`MAX_VALUES` values, counted without
  expanding anything: each anchor's expanded size is computed once, when it closes;
* nesting deeper than :data:`MAX_DEPTH` (the composer recurses; Python's stack is finite);
* a list or mapping as a key (``? - raid: raid5``: ruamel fails hashing it, no position);
* a plain number written with more than :data:`MAX_NUMBER_CHARS` characters, and a plain
  scalar that reads as a date but is not one (``2001-13-45``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
)
from ruamel.yaml.parser import RoundTripParser
from ruamel.yaml.util import create_timestamp, timestamp_regexp

from planner.scenario.errors import ScenarioError, dotted, shown

MAX_VALUES = 100_000
"""Most keys and values a document may expand to through aliases ("billion laughs")."""

MAX_DEPTH = 64
"""Deepest nesting of lists and mappings (a scenario needs four levels)."""

MAX_NUMBER_CHARS = 100
"""Longest plain number (Python refuses to read integers of more than 4,300 digits)."""

_CORE_TAG_PREFIX = "tag:yaml.org,2002:"
_NUMBER = re.compile(r"^[-+]?(?:[0-9_]+\.?[0-9_]*|\.[0-9_]+)(?:[eE][-+]?[0-9]+)?$")


@dataclass
class _Collection:
    """An open mapping or sequence while the events are read."""

    anchor: str | None
    is_mapping: bool
    path: tuple[str | int, ...]
    start: tuple[int, int]
    size: int = 1
    items: int = 0
    key: str | int | None = None


@dataclass
class _Scan:
    source: str
    open: list[_Collection] = field(default_factory=list)
    anchor_sizes: dict[str, int] = field(default_factory=dict)
    anchor_marks: dict[str, tuple[int, int]] = field(default_factory=dict)
    total: int = 0
    aliased: bool = False

    def error(self, message: str, event: Any, path: tuple[str | int, ...] = ()) -> ScenarioError:
        mark = event.start_mark
        return ScenarioError(
            message,
            path=self.source,
            line=mark.line + 1,
            column=mark.column + 1,
            field=dotted(path) or None,
        )

    def place(self) -> tuple[tuple[str | int, ...], bool]:
        """The path of the node the next event starts, and whether it is a mapping key."""
        if not self.open:
            return (), False
        parent = self.open[-1]
        if not parent.is_mapping:
            return (*parent.path, parent.items), False
        is_key = parent.items % 2 == 0
        return (parent.path if is_key else (*parent.path, parent.key or "?")), is_key

    def add(self, size: int, event: Any, path: tuple[str | int, ...]) -> None:
        self.total += size
        if self.total > MAX_VALUES:
            raise self.error(
                f"aliases expand the document past {MAX_VALUES:,} values; a scenario needs "
                "a few dozen: write the values out instead"
                if self.aliased
                else f"the document holds more than {MAX_VALUES:,} keys and values; a "
                "scenario needs a few dozen (at most 200 layouts): is this the right file?",
                event,
                path,
            )
        if self.open:
            self.open[-1].size += size

    def node(self, event: NodeEvent) -> None:
        path, is_key = self.place()
        if self.open:
            parent = self.open[-1]
            if parent.is_mapping and is_key:
                value = event.value if isinstance(event, ScalarEvent) else None
                parent.key = value if isinstance(value, str) else None
            parent.items += 1
        tag = getattr(event, "tag", None)
        if tag is not None:
            raise self.error(
                f"YAML tag {show_tag(str(tag))!r} is not allowed: a scenario holds plain "
                "numbers, text, lists and mappings; remove the tag",
                event,
                path,
            )
        if isinstance(event, AliasEvent):
            self.alias(event, path)
            return
        self.anchor(event, path)
        if isinstance(event, ScalarEvent):
            self.scalar(event, path)
            self.add(1, event, path)
            return
        assert isinstance(event, CollectionStartEvent)
        if is_key:  # ruamel failed hashing a key holding a mapping (TypeError, no position)
            kind = "a mapping" if isinstance(event, MappingStartEvent) else "a list"
            raise self.error(
                f"this key is {kind}; a key is a name such as rebuild_hours (a line starting "
                "'? ' begins a key: remove the '?')",
                event,
                path,
            )
        if len(self.open) >= MAX_DEPTH:
            raise self.error(f"nested more than {MAX_DEPTH} levels deep", event, path)
        self.total += 1
        mark = event.start_mark
        self.open.append(
            _Collection(
                event.anchor,
                isinstance(event, MappingStartEvent),
                path,
                (mark.line + 1, mark.column + 1),
            )
        )

    def anchor(self, event: NodeEvent, path: tuple[str | int, ...]) -> None:
        name = event.anchor
        if name is None:
            return
        first = self.anchor_marks.get(name)
        if first is not None:
            raise self.error(
                f"anchor &{shown(name, quote=False)} is defined twice (first at line "
                f"{first[0]}, column {first[1]}); give each anchor its own name",
                event,
                path,
            )
        mark = event.start_mark
        self.anchor_marks[name] = (mark.line + 1, mark.column + 1)

    def alias(self, event: AliasEvent, path: tuple[str | int, ...]) -> None:
        name = event.anchor
        if any(collection.anchor == name for collection in self.open):
            raise self.error(
                f"alias *{shown(name, quote=False)} refers to a list or mapping that contains "
                "it (a recursive alias); write the values out",
                event,
                path,
            )
        # An undefined alias is left to the composer, which reports it with its position.
        self.aliased = True
        self.add(self.anchor_sizes.get(name or "", 1), event, path)

    def scalar(self, event: ScalarEvent, path: tuple[str | int, ...]) -> None:
        if event.style is not None or not event.implicit[0]:
            return  # quoted: text, never a number or a date
        value = event.value
        if len(value) > MAX_NUMBER_CHARS and _NUMBER.match(value):
            raise self.error(
                f"a number written with {len(value):,} characters; at most "
                f"{MAX_NUMBER_CHARS} (write e.g. 1.5e+300)",
                event,
                path,
            )
        if _NUMBER.match(value):
            self.representable(value, event, path)
        match = timestamp_regexp.match(value)
        if match is not None:
            try:
                create_timestamp(**match.groupdict())
            except (ValueError, OverflowError) as exc:
                raise self.error(
                    f"{shown(value)} reads as a date but is not one ({exc}); a scenario needs "
                    "numbers and text: quote it if it is text",
                    event,
                    path,
                ) from None

    def representable(self, value: str, event: Any, path: tuple[str | int, ...]) -> None:
        """Refuse a number that a float cannot hold: ``1e-400`` read as 0, ``1e400`` as inf.

        Read as they come, the first was reported as "0 is out of range", which the file
        does not say.
        """
        if not any(mark in value for mark in ".eE"):
            return  # an integer: Python holds every one this short
        try:
            number = float(value.replace("_", ""))
        except ValueError:
            return
        mantissa = re.split("[eE]", value)[0]
        if number == 0 and any(digit in mantissa for digit in "123456789"):
            raise self.error(
                f"{shown(value, quote=False)} is too small to hold: it reads as 0 (numbers "
                "stop near 1e-308); write a larger value",
                event,
                path,
            )
        if math.isinf(number):
            raise self.error(
                f"{shown(value, quote=False)} is too large to hold: it reads as infinity "
                "(numbers stop near 1.8e308); write a smaller value",
                event,
                path,
            )

    def end(self, event: Any) -> None:
        closed = self.open.pop()
        if closed.anchor is not None:
            self.anchor_sizes[closed.anchor] = closed.size
        if self.open:
            self.open[-1].size += closed.size


def show_tag(tag: str) -> str:
    """A tag as written in YAML: ``!!str`` for the core schema's, else as is."""
    if tag.startswith(_CORE_TAG_PREFIX):
        return "!!" + tag.removeprefix(_CORE_TAG_PREFIX)
    return shown(tag if tag.startswith("!") else f"!<{tag}>", quote=False)


def checked_load(yaml: YAML, text: str, source: str) -> Any:
    """``yaml.load(text)``, every parser event checked as the composer takes it.

    One pass of ruamel's reader over the text instead of two (a scan of the events, then
    the load). Each event is checked before the composer builds a node from it, and the
    constructor makes objects only once the whole document is composed, so nothing is
    constructed from a file that must be refused.

    Raises:
        ScenarioError: at the first problem (see the module docstring).
        ruamel.yaml.error.YAMLError: a syntax error, for the caller to map.
    """
    scan = _Scan(source)

    class CheckedParser(RoundTripParser):
        """The round-trip parser, its events checked as they are taken."""

        def get_event(self) -> Any:
            event = super().get_event()
            if isinstance(event, NodeEvent):
                scan.node(event)
            elif isinstance(event, CollectionEndEvent):
                scan.end(event)
            return event

    yaml.Parser = CheckedParser
    return yaml.load(text)
