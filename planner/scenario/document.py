"""Safe YAML reading: bytes -> text -> ruamel round-trip nodes -> plain Python values.

The round-trip loader keeps comments and line/column data (``.lc``) so that errors can
point at the file and a later editor can save changes back with the comments kept. It
never builds Python objects from tags; on top of that every explicit tag (``!!python/...``,
``!custom``, even ``!!str``) is refused before anything is constructed, because a scenario
holds plain numbers, strings, lists and mappings only.
"""

from __future__ import annotations

import datetime as dt
import warnings
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError, YAMLWarning
from ruamel.yaml.scalarbool import ScalarBoolean

from planner.scenario.errors import ScenarioError, dotted, shown
from planner.scenario.yaml_guard import MAX_VALUES, checked_load
from planner.scenario.yaml_syntax import reader_fault, yaml_error

MAX_NODES = MAX_VALUES
"""Most values a scenario may expand to (checked on the events first; see yaml_guard)."""

MAX_FILE_BYTES = 1_000_000
"""Largest scenario file: a scenario is a few kilobytes, and reading more takes seconds."""

Position = tuple[int, int]
"""A 1-based (line, column)."""

Loc = tuple[str | int, ...]
"""A path into the data, as pydantic reports it: ``("layouts", 1, "group_size")``."""


def new_yaml() -> YAML:
    """A round-trip (YAML 1.2) reader/writer that refuses duplicate keys."""
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    return yaml


def _too_big(source: str) -> ScenarioError:
    return ScenarioError(
        f"the file has more than {MAX_FILE_BYTES:,} bytes; a scenario is a few kilobytes",
        path=source,
    )


def read_bounded(path: str | Path) -> bytes:
    """The bytes of the scenario file at ``path``: at most :data:`MAX_FILE_BYTES` are kept.

    One byte past the limit is read, never more, whatever ``path`` is: a file, a pipe
    (``/dev/stdin``), a device with no end (``/dev/zero`` once grew planner to 21 GB).

    Raises:
        ScenarioError: the file cannot be read, or holds more than the limit.
    """
    source = str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ScenarioError(f"cannot read the file: {exc.strerror or exc}", path=source) from None
    if len(data) > MAX_FILE_BYTES:
        raise _too_big(source)
    return data


def decode_text(data: bytes, source: str) -> str:
    """Strict UTF-8 decoding (a leading BOM is dropped); errors name the line and column."""
    if len(data) > MAX_FILE_BYTES:
        raise _too_big(source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ScenarioError(
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start} cannot be "
            "decoded; save the file as UTF-8",
            path=source,
            line=line,
            column=column,
        ) from None
    return text.removeprefix("\ufeff")


def parse_yaml(text: str, source: str) -> Any:
    """Parse one YAML document into ruamel round-trip nodes.

    The parser's events are checked as they are read (:func:`planner.scenario.yaml_guard.
    checked_load`: tags, anchors, alias expansion, depth, numbers, dates), so nothing is
    constructed from a file that would loop, explode or fail without a position.

    Returns a ``CommentedMap``, ``CommentedSeq``, scalar or None (empty document).
    """
    yaml = new_yaml()
    try:
        with warnings.catch_warnings():
            # Whatever ruamel still warns about must not reach the terminal as library text.
            warnings.simplefilter("ignore", YAMLWarning)
            return checked_load(yaml, text, source)
    except YAMLError as exc:
        raise yaml_error(exc, text, source) from None
    except (AssertionError, NotImplementedError):  # ruamel's own faults (%YAML 1.3, ...)
        raise reader_fault(text, source) from None
    except (ValueError, RecursionError) as exc:  # not expected after the checks
        message = shown(str(exc), 120, quote=False)
        raise ScenarioError(f"not a valid value: {message}", path=source) from None


def to_plain(node: Any, source: str) -> Any:
    """Round-trip nodes as plain dicts, lists, str, int, float, bool and None.

    Mapping keys must be text. Dates and times become ISO 8601 text.
    """
    count = 0
    active: set[int] = set()

    def convert(value: Any, position: Position | None, loc: Loc) -> Any:
        nonlocal count
        count += 1
        if count > MAX_NODES:
            raise ScenarioError(
                f"the document expands to more than {MAX_NODES} values (aliases?)",
                path=source,
            )
        if isinstance(value, CommentedMap | CommentedSeq):
            if id(value) in active:
                raise error_at("a recursive alias refers to itself", source, position)
            active.add(id(value))
            try:
                return convert_container(value, position, loc)
            finally:
                active.discard(id(value))
        if value is None:
            return None
        if isinstance(value, str):
            return str(value)
        if isinstance(value, float):
            return float(value)
        if isinstance(value, bool | ScalarBoolean):
            return bool(value)
        if isinstance(value, int):
            return int(value)
        if isinstance(value, dt.date | dt.time):
            return value.isoformat()
        return str(value)

    def convert_container(
        value: CommentedMap | CommentedSeq, position: Position | None, loc: Loc
    ) -> Any:
        if isinstance(value, CommentedSeq):
            return [
                convert(item, seq_item_position(value, i), (*loc, i))
                for i, item in enumerate(value)
            ]
        result: dict[str, Any] = {}
        for key, item in value.items():
            key_position = map_position(value, key, at_key=True) or position
            if not isinstance(key, str):
                raise error_at(_not_text(value, key), source, key_position, dotted(loc) or None)
            result[key] = convert(item, map_position(value, key, at_key=False), (*loc, key))
        return result

    return convert(node, None, ())


def _not_text(mapping: CommentedMap, key: Any) -> str:
    """Why ``key`` cannot be a key; for ``group_size: {8}``, that 8 was meant without braces."""
    if (
        len(mapping) == 1
        and mapping[key] is None
        and mapping.fa.flow_style()
        and isinstance(key, int | float)
        and not isinstance(key, bool)
    ):
        return (
            f"{{{shown(key)}}} is a mapping with the key {shown(key)} and no value; if "
            f"{shown(key)} is meant, write {shown(key)} without the {{ }}"
        )
    return f"key {shown(key)} is not text; keys are names such as rebuild_hours"


def error_at(
    message: str, source: str, position: Position | None, field: str | None = None
) -> ScenarioError:
    """A ScenarioError at an optional 1-based (line, column)."""
    line, column = position if position is not None else (None, None)
    return ScenarioError(message, path=source, line=line, column=column, field=field)


def map_position(node: CommentedMap, key: Any, *, at_key: bool) -> Position | None:
    """1-based position of ``key`` (or of its value) in a mapping; None if unknown.

    A null value has no text of its own, so its position is the key's.
    """
    try:
        line, column = node.lc.key(key) if at_key or node.get(key) is None else node.lc.value(key)
    except (KeyError, IndexError, TypeError):
        return None  # e.g. a key merged in with ``<<:``
    return line + 1, column + 1


def seq_item_position(node: CommentedSeq, index: int) -> Position | None:
    """1-based position of item ``index`` of a sequence; None if unknown."""
    try:
        line, column = node.lc.item(index)
    except (KeyError, IndexError, TypeError):
        return None
    return line + 1, column + 1


def node_position(node: Any) -> Position | None:
    """1-based position where a mapping or sequence starts; None for scalars."""
    if isinstance(node, CommentedMap | CommentedSeq):
        return node.lc.line + 1, node.lc.col + 1
    return None


def locate(document: Any, loc: Loc, *, at_key: bool = False) -> Position | None:
    """Where ``loc`` is in the document: its value (or its key, with ``at_key``).

    When the path leaves the document (a missing key, a default filled in by the schema)
    the position is the key of the deepest mapping entry, or sequence item, that exists;
    a top-level key that is missing is reported where the document starts. A whole mapping
    or list is also reported at its key.
    """
    node = document
    key_position: Position | None = None
    value_position: Position | None = None
    for part in loc:
        if isinstance(node, CommentedMap) and isinstance(part, str) and part in node:
            key_position = map_position(node, part, at_key=True) or key_position
            value_position = map_position(node, part, at_key=False) or key_position
        elif isinstance(node, CommentedSeq) and isinstance(part, int) and 0 <= part < len(node):
            key_position = seq_item_position(node, part) or key_position
            value_position = key_position
        else:
            return key_position if key_position is not None else node_position(document)
        node = node[part]
    whole = isinstance(node, CommentedMap | CommentedSeq)
    return key_position if at_key or whole else value_position
