"""A fleet's failure log (CSV) -> validated arrays for ``planner fit``, with file:line errors.

The log has a header line and one drive per row (docs/fit.md)::

    hours,failed,model,group,installed_at_hours
    26280,0,nl-sas-a,g001,0
    9120.5,1,nl-sas-a,g001,0

* ``hours`` (required): the drive's time in service, until it failed or until the log was
  taken (hours, >= 0, finite, at most :data:`MAX_SERVICE_HOURS`).
* ``failed`` (required): 1 if the drive failed at ``hours``, 0 if it was still running (or
  was taken out of service for another reason): a right-censored time.
* ``model`` (optional): a drive model; ``planner fit`` fits each model on its own too.
* ``group`` (optional): the RAID group the drive belongs to, for the degraded multiplier.
* ``installed_at_hours`` (optional): when the drive entered service, in hours on one clock
  for the whole fleet (hours since the fleet's first drive, say). A drive's failure is then
  at ``installed_at_hours + hours`` on that clock; a replacement drive is a row of its own.
  Without it every drive is taken as installed at hour 0.

Column names are matched without regard to case or surrounding blanks; other columns
(serial numbers, notes) are ignored and named in a note. Blank lines and lines whose first
field starts with ``#`` are skipped. Reading is bounded: at most :data:`MAX_LOG_BYTES`
bytes and :data:`MAX_LOG_ROWS` drives.
"""

from __future__ import annotations

import csv
import difflib
import io
import math
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from planner.scenario.errors import ScenarioError, shown
from planner.scenario.files import read_at_most

MAX_LOG_BYTES = 64_000_000
"""Largest log (bytes): a million drives at ~40 bytes a row, with room for extra columns."""

MAX_LOG_ROWS = 1_000_000
"""Most drives in one log: the largest published fleets (Backblaze's ~300,000 drives) fit
three times over, and reading stays within a few seconds and a few hundred MB."""

MAX_SERVICE_HOURS = 1_000_000.0
"""Longest time in service or install time (hours; 114 years): more is a typo (minutes, a
serial number in the wrong column)."""

MAX_NAME_CHARS = 200
"""Longest model or group name."""

REQUIRED_COLUMNS = ("hours", "failed")
OPTIONAL_COLUMNS = ("model", "group", "installed_at_hours")

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Labels:
    """A text column as codes: ``names[codes[i]]`` is row i's value (names in first-seen order)."""

    names: tuple[str, ...]
    codes: IntArray


@dataclass(frozen=True)
class FleetLog:
    """A failure log as validated arrays, one entry per drive (row).

    Attributes:
        source: the file name as given (for messages).
        hours: time in service of each drive (hours, >= 0).
        failed: whether each drive failed at ``hours`` (else it is right-censored there).
        models: the ``model`` column, or None when the log has none.
        groups: the ``group`` column, or None.
        installed_at_hours: the ``installed_at_hours`` column (hours on the fleet's clock),
            or None.
        ignored_columns: header names that are not columns planner reads.
    """

    source: str
    hours: FloatArray
    failed: BoolArray
    models: Labels | None = None
    groups: Labels | None = None
    installed_at_hours: FloatArray | None = None
    ignored_columns: tuple[str, ...] = ()

    @property
    def drives(self) -> int:
        """Drives (rows) in the log."""
        return int(self.hours.size)


def read_fleet_log(path: str | Path) -> FleetLog:
    """Read and check the failure log at ``path``.

    Raises:
        ScenarioError: the file cannot be read, is too large, is not UTF-8 CSV with the
            required columns, or a row holds a value that is not allowed (the message names
            the file, the line and the column, what is wrong and what would be right).
    """
    source = str(path)
    try:
        data = read_at_most(path, MAX_LOG_BYTES)
    except OSError as exc:
        raise ScenarioError(f"cannot read the log: {exc.strerror or exc}", path=source) from None
    if len(data) > MAX_LOG_BYTES:
        raise ScenarioError(
            f"the log has more than {MAX_LOG_BYTES:,} bytes, more than planner fit reads; "
            "leave out the columns it does not use, or split the log by model",
            path=source,
        )
    return parse_fleet_log(_decoded(data, source), source)


def _decoded(data: bytes, source: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be decoded; save the log "
            "as UTF-8 CSV",
            path=source,
            line=data.count(b"\n", 0, exc.start) + 1,
        ) from None
    return text.removeprefix("\ufeff")


def _records(text: str, source: str) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of each CSV record that is not blank or a ``#`` comment."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        for fields in reader:
            if not fields or all(not f.strip() for f in fields):
                continue
            if fields[0].lstrip().startswith("#"):
                continue
            yield reader.line_num, fields
    except csv.Error as exc:
        raise ScenarioError(f"not valid CSV: {exc}", path=source, line=reader.line_num) from None


def _header(fields: Sequence[str], source: str, line: int) -> tuple[dict[str, int], list[str]]:
    """The index of each column planner reads, and the names of those it ignores."""
    index: dict[str, int] = {}
    ignored: list[str] = []
    for position, raw in enumerate(fields):
        name = raw.strip().lower()
        if name not in REQUIRED_COLUMNS + OPTIONAL_COLUMNS:
            ignored.append(raw.strip())
            continue
        if name in index:
            raise ScenarioError(f"column {name!r} is named twice", path=source, line=line)
        index[name] = position
    missing = [name for name in REQUIRED_COLUMNS if name not in index]
    if missing:
        found = ", ".join(shown(f.strip(), 20) for f in fields[:6]) or "nothing"
        raise ScenarioError(
            f"the header needs the columns hours and failed (missing: {', '.join(missing)}); "
            f"found {found}{_likely_names(ignored, missing)}",
            path=source,
            line=line,
        )
    return index, ignored


def _likely_names(ignored: Sequence[str], missing: Sequence[str]) -> str:
    """A hint for each ignored column close to a missing one, else nothing.

    ``; column 'failure': did you mean 'failed'?``, as a scenario's misspelt key is told.
    """
    hints = []
    for raw in ignored:
        near = difflib.get_close_matches(raw.lower(), list(missing), n=1, cutoff=0.6)
        if near:
            hints.append(f"column {shown(raw, 20)}: did you mean {near[0]!r}?")
    return "".join(f"; {hint}" for hint in hints)


class _Columns:
    """The columns as they are read, row by row, into compact arrays."""

    def __init__(self, index: dict[str, int], source: str, width: int) -> None:
        self.index = index
        self.source = source
        self.width = width
        self.hours = array("d")
        self.failed = bytearray()
        self.installed = array("d") if "installed_at_hours" in index else None
        self.labels: dict[str, tuple[dict[str, int], array[int]]] = {
            name: ({}, array("q")) for name in ("model", "group") if name in index
        }

    def _error(self, line: int, column: str, message: str) -> ScenarioError:
        return ScenarioError(f"column {column!r}: {message}", path=self.source, line=line)

    def _hours(self, text: str, line: int, column: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise self._error(line, column, f"{shown(text)} is not a number of hours") from None
        if not math.isfinite(value) or value < 0:
            raise self._error(line, column, f"{shown(text)} is not a finite number of hours >= 0")
        if value > MAX_SERVICE_HOURS:
            raise self._error(
                line,
                column,
                f"{value:g} h is more than {MAX_SERVICE_HOURS:,.0f} h (114 years); "
                "give hours, not minutes or seconds",
            )
        return value

    def add(self, line: int, fields: list[str]) -> None:
        if len(fields) != self.width:
            raise ScenarioError(
                f"expected {self.width} fields as in the header, found {len(fields)}",
                path=self.source,
                line=line,
            )
        hours = self._hours(fields[self.index["hours"]].strip(), line, "hours")
        failed_text = fields[self.index["failed"]].strip()
        if failed_text not in ("0", "1"):
            raise self._error(
                line, "failed", f"{shown(failed_text)} is not 0 or 1 (1: the drive failed)"
            )
        if failed_text == "1" and hours == 0:
            raise self._error(
                line,
                "hours",
                "a failed drive needs the hours it ran, more than 0 (a drive dead on "
                "arrival was never in service: leave it out)",
            )
        if self.installed is not None:
            text = fields[self.index["installed_at_hours"]].strip()
            self.installed.append(self._hours(text, line, "installed_at_hours"))
        for name, (codes, values) in self.labels.items():
            label = fields[self.index[name]].strip()
            if not label or len(label) > MAX_NAME_CHARS:
                raise self._error(
                    line, name, f"{shown(label)} is not a name of 1 to {MAX_NAME_CHARS} characters"
                )
            values.append(codes.setdefault(label, len(codes)))
        self.hours.append(hours)
        self.failed.append(failed_text == "1")

    def labels_of(self, name: str) -> Labels | None:
        if name not in self.labels:
            return None
        codes, values = self.labels[name]
        return Labels(tuple(codes), np.frombuffer(values, dtype=np.int64).copy())


def parse_fleet_log(text: str, source: str) -> FleetLog:
    """Check the log's ``text`` (read from ``source``) and return it as arrays.

    Raises:
        ScenarioError: see :func:`read_fleet_log`.
    """
    records = _records(text, source)
    first = next(records, None)
    if first is None:
        raise ScenarioError(
            "the log is empty: it needs a header line with at least hours and failed, then "
            "one line per drive",
            path=source,
        )
    index, ignored = _header(first[1], source, first[0])
    columns = _Columns(index, source, len(first[1]))
    for count, (line, fields) in enumerate(records, start=1):
        if count > MAX_LOG_ROWS:
            raise ScenarioError(
                f"the log has more than {MAX_LOG_ROWS:,} drives, more than planner fit reads; "
                "split it by model or by year of installation",
                path=source,
                line=line,
            )
        columns.add(line, fields)
    hours = np.frombuffer(columns.hours, dtype=np.float64).copy()
    if hours.size == 0:
        raise ScenarioError("the log has a header but no drives", path=source)
    if not hours.any():
        raise ScenarioError("no drive has any hours in service: every row has hours 0", path=source)
    installed = columns.installed
    return FleetLog(
        source=source,
        hours=hours,
        failed=np.frombuffer(bytes(columns.failed), dtype=np.bool_).copy(),
        models=columns.labels_of("model"),
        groups=columns.labels_of("group"),
        installed_at_hours=None
        if installed is None
        else np.frombuffer(installed, dtype=np.float64).copy(),
        ignored_columns=tuple(ignored),
    )
