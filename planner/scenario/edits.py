"""Editing a validated scenario field by field (the TUI's parameter fields).

What each editable field is, how typed text is read, and the validated copies an edit
makes. Every edit goes through the scenario's own Pydantic model, so an editor accepts
exactly what a scenario file accepts and explains a refusal in the same words as
``planner validate``. Edits of the layouts list are :mod:`planner.scenario.layout_edits`'.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError
from ruamel.yaml.comments import CommentedSeq

from planner.scenario.diagnostics import from_validation_error
from planner.scenario.errors import shown
from planner.scenario.fields import field_meta
from planner.scenario.restore import MAX_REBUILD_STREAMS
from planner.scenario.schema import Scenario
from planner.scenario.unit_hints import typed_hint
from planner.scenario.units import plain_number_text, terabytes

FieldKind = Literal["fraction", "fractions", "float", "int", "optional_float", "streams"]

FieldPath = tuple[str, ...]
"""A path into the scenario data, e.g. ``("drive", "arr")``."""


@dataclass(frozen=True)
class FieldSpec:
    """One editable parameter of the scenario.

    Attributes:
        path: where the value lives in the scenario, e.g. ``("restore", "rebuild_hours")``.
        label: the short name shown beside the input.
        hint: units and accepted forms, shown as the input's placeholder.
        kind: how the typed text is read (fraction accepts ``1.9%``).
        shows_rebuild_hours: the rebuild rate field, which shows the restore time it gives.
    """

    path: FieldPath
    label: str
    hint: str
    kind: FieldKind
    shows_rebuild_hours: bool = False
    """Show the derived mean restore time (read-only) beside the input."""
    terabytes: bool = False
    """A capacity: text with a unit (``18.19 TiB``) goes to the model, which converts it."""

    @property
    def key(self) -> str:
        """A DOM-safe identifier of the field, e.g. ``drive-arr``."""
        return "-".join(self.path).replace("_", "-")

    @property
    def dotted(self) -> str:
        """The field as ``--set`` and error messages name it, e.g. ``drive.arr``."""
        return ".".join(self.path)


def spec_of(dotted_name: str, *, shows_rebuild_hours: bool = False) -> FieldSpec:
    """The editable field ``dotted_name``, its label, hint and form read from the model.

    Raises:
        KeyError: the field has no editing metadata (:func:`planner.scenario.base.meta`).
    """
    found = field_meta(dotted_name)
    if found is None:
        raise KeyError(dotted_name)
    kind: FieldKind = "float"
    if found.many:
        kind = "fractions"  # the one list field: ageing.arr_by_year
    elif found.percent:
        kind = "fraction"
    elif found.integer:
        kind = "int"
    elif found.optional:
        kind = "optional_float"
    hint = found.hint + (" (optional)" if found.optional else "")
    return FieldSpec(found.path, found.label, hint, kind, shows_rebuild_hours, found.terabytes)


_FAILURE_FIELDS = {name: spec_of(f"drive.{name}") for name in ("arr", "afr", "mtbf_hours")}
_LATENT_FIELD = spec_of("drive.latent_defects_per_hour")
_READ_ERROR_FIELDS = (spec_of("drive.read_errors_per_byte"), spec_of("drive.bytes_read_per_hour"))
_SPEC_SHEET_FIELD = spec_of("drive.unrecoverable_read_errors_per_bit")
_DRIVE_RATE_FIELD = spec_of("drive.sustained_mb_per_s", shows_rebuild_hours=True)
_REBUILD_HOURS_FIELD = spec_of("restore.rebuild_hours")
_REBUILD_RATE_FIELD = spec_of("restore.rebuild_mb_per_s", shows_rebuild_hours=True)
_PARALLEL_REBUILDS_FIELD = FieldSpec(
    ("restore", "parallel_rebuilds"),
    "Rebuilds",
    f"at once: 1 (one at a time) to {MAX_REBUILD_STREAMS}, or all",
    "streams",
)
"""Not a number field: 1, a count of rebuild streams, or all (read by ``_parse_streams``)."""
_PRICE_FIELD = spec_of("drive.price")
"""Shown when the scenario prices its drives (drive.price or drive.watts): an unpriced
scenario keeps its rows of fields for the table (80x24)."""
_CORRELATION_FIELDS = tuple(
    spec_of(f"correlation.{name}")
    for name in ("degraded_multiplier", "shocks_per_year", "shock_drive_probability")
)
"""Shown when the scenario has a ``correlation`` section (docs/correlated.md), like the
price: a scenario without one keeps its rows of fields for the table (80x24)."""
_ENCLOSURE_FIELDS = tuple(
    spec_of(f"enclosures.{name}") for name in ("failures_per_year", "repair_hours")
)
"""Shown when the scenario has an ``enclosures`` section (docs/domains.md), with its placement
rule (members_per_enclosure or spread, whichever the file gives)."""
_AGEING_TABLE_FIELD = spec_of("ageing.arr_by_year")
_AGEING_WEIBULL_FIELDS = (spec_of("ageing.weibull.shape"), spec_of("ageing.weibull.scale_hours"))
_AGEING_AGE_FIELD = spec_of("ageing.drive_age_years_at_start")
"""Shown when the scenario has an ``ageing`` section (docs/ageing.md): its law as the file
gives it (by year, or a Weibull) and the drives' age at the start."""
_OTHER_FIELDS = (
    spec_of("restore.scrub_hours"),
    _PARALLEL_REBUILDS_FIELD,
    *(spec_of(name) for name in ("mission_years", "aggregate.data_disks", "drive.capacity_tb")),
)


def field_specs(scenario: Scenario) -> tuple[FieldSpec, ...]:
    """The parameter fields for ``scenario``, failure rate first (as the file gives it).

    A drive given by ``afr`` or ``mtbf_hours`` is edited in those terms, and a latent defect
    rate given as read errors per byte x bytes read per hour is edited as those two numbers,
    so saving writes back the form the user chose; a spec-sheet drive is edited by its error
    rate per bit. Likewise a restore time given by the rebuild model (``restore.rebuild_mb_per_s``,
    or the drive's ``sustained_mb_per_s``) is edited as the rate, never as hours, so an edit
    can never give both. The drive's price is a field when the scenario gives drive.price or
    drive.watts; the three correlation fields when it has a ``correlation`` section; the
    enclosures' failures, repair and placement rule when it has an ``enclosures`` section; the
    ageing law (ARR by year, or a Weibull's shape and scale) and the drives' age when it has an
    ``ageing`` section.
    """
    drive = scenario.drive
    failure = next(
        (spec for name, spec in _FAILURE_FIELDS.items() if getattr(drive, name) is not None),
        _FAILURE_FIELDS["arr"],
    )
    if drive.uses_spec_sheet:
        latent: tuple[FieldSpec, ...] = (_SPEC_SHEET_FIELD,)
    elif drive.latent_defects_per_hour is not None:
        latent = (_LATENT_FIELD,)
    else:
        latent = _READ_ERROR_FIELDS
    if scenario.restore.uses_rebuild_model:
        rebuild = _REBUILD_RATE_FIELD
    elif scenario.restore.uses_drive_rate:
        rebuild = _DRIVE_RATE_FIELD
    else:
        rebuild = _REBUILD_HOURS_FIELD
    price = (_PRICE_FIELD,) if scenario.cost_prices() is not None else ()
    correlation = _CORRELATION_FIELDS if scenario.correlation is not None else ()
    enclosures: tuple[FieldSpec, ...] = ()
    if scenario.enclosures is not None:
        rule = "spread" if scenario.enclosures.spread is not None else "members_per_enclosure"
        enclosures = (*_ENCLOSURE_FIELDS, spec_of(f"enclosures.{rule}"))
    ageing = _ageing(scenario)
    return (failure, *latent, rebuild, *_OTHER_FIELDS, *price, *correlation, *enclosures, *ageing)


def _ageing(scenario: Scenario) -> tuple[FieldSpec, ...]:
    """The ageing section's fields, its law in the form the file gives it."""
    section = scenario.ageing
    if section is None:
        return ()
    law = (_AGEING_TABLE_FIELD,) if section.arr_by_year is not None else _AGEING_WEIBULL_FIELDS
    return (*law, _AGEING_AGE_FIELD)


class EditError(ValueError):
    """A typed value or an edit that cannot be used; ``str()`` is the reason to show.

    ``field`` is the dotted scenario field refused (``layouts[4].group_size``), when known.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def value_at(scenario: Scenario, path: FieldPath) -> Any:
    """The current value at ``path`` in ``scenario`` (None when unset)."""
    node: Any = scenario
    for part in path:
        node = getattr(node, part)
    return node


def display_value(spec: FieldSpec, value: Any) -> str:
    """Text for an input holding ``value``: fractions as a percentage, short but exact.

    The text reads back to the same number, so showing a value never changes it.
    """
    if value is None:
        return ""
    if spec.kind == "streams":
        return "all" if value is True else "1" if value is False else str(value)
    if spec.kind == "fractions":
        one = FieldSpec(spec.path, spec.label, spec.hint, "fraction")
        return ", ".join(display_value(one, v) for v in value)
    if spec.kind == "fraction":
        percent = f"{float(value) * 100:.10g}"
        return f"{percent}%" if float(percent) / 100 == value else repr(float(value))
    if isinstance(value, float):
        short = f"{value:g}"
        return short if float(short) == value else repr(value)
    return str(value)


def parse_text(spec: FieldSpec, text: str) -> Any:
    """The YAML value for what the user typed; raises EditError with a reason.

    Thousands separators (``1,000`` or ``1_000``) are accepted, a decimal comma (``1,9%``)
    is refused. A fraction may be written as
    a percentage; the scenario model converts ``"1.9%"`` itself.
    """
    if spec.terabytes and _UNIT_AT_END.search(text):
        try:
            terabytes(text)  # refuses other units (27c, 4 GB) in the file's words
        except ValueError as problem:
            raise EditError(str(problem)) from None
        return text.strip()  # 18.19 TiB, kept as typed (and saved so); the model converts
    if spec.kind == "fractions":
        return _parse_fractions(spec, text)
    cleaned = without_separators(text.strip())
    if spec.kind == "streams":
        return _parse_streams(cleaned, text.strip())
    if not cleaned:
        if spec.kind == "optional_float":
            return None
        raise EditError("required: type a number")
    if spec.kind == "fraction" and cleaned.endswith("%"):
        return cleaned
    if cleaned.endswith("%"):  # a number, but this field takes none as a percentage
        raise EditError(f"this field takes no percentage: {spec.hint}")
    try:
        number = float(cleaned)
    except ValueError:
        forms = "a fraction like 0.019 or a percentage like 1.9%" if spec.kind == "fraction" else ""
        found = field_meta(".".join(spec.path))
        typed = "" if forms or found is None else typed_hint(text, found.unit, found.example)
        raise EditError(  # "7d": 7 d is 168 hours, as the file's message says
            f"{shown(text.strip())} is not a number"
            + (typed or "; " + (f"write {forms}" if forms else spec.hint))
        ) from None
    if not math.isfinite(number):
        raise EditError(f"{shown(text.strip(), quote=False)} is not a finite number")
    if spec.kind == "int":
        if not number.is_integer():
            raise EditError(f"{shown(text.strip(), quote=False)} is not a whole number of drives")
        return int(number)
    if number.is_integer() and not any(c in cleaned for c in ".eE"):
        return int(number)  # saved back as typed: 30, not 30.0
    return number


def _parse_fractions(spec: FieldSpec, text: str) -> list[Any]:
    """``2.1%, 3.5%, 4.2%`` (commas, semicolons or spaces between) as a list of fractions.

    Each item as :func:`parse_text` reads one fraction (``"2.1%"`` kept for the model to
    convert, and saved as typed); the model checks each value and the list's length.
    """
    items = [item for item in re.split(r"[,;\s]+", text.strip()) if item]
    if not items:
        raise EditError("required: type the ARR of each year, e.g. 2.1%, 3.5%, 4.2%")
    one = FieldSpec(spec.path, spec.label, spec.hint, "fraction")
    values = CommentedSeq(parse_text(one, item) for item in items)
    values.fa.set_flow_style()  # saved on one line, [2.5%, 4%], as planner fit prints it
    return values


_UNIT_AT_END = re.compile(r"[0-9.]\s*[A-Za-z]+\s*$")
"""Text ending in a unit after a number (``18.19 TiB``, ``400TB``), but not ``1e5``."""


def without_separators(text: str) -> str:
    """``text`` without its thousands separators (``,`` or ``_``).

    A comma that does not group thousands is a decimal comma, refused
    (:func:`planner.scenario.units.plain_number_text`, as capacities in a file are).
    """
    try:
        return plain_number_text(text)
    except ValueError as problem:
        raise EditError(str(problem)) from None


def _parse_streams(text: str, typed: str) -> bool | int:
    """``restore.parallel_rebuilds`` from ``1``, ``all`` or a number of rebuild streams.

    ``text`` is ``typed`` without thousands separators. The words are the file's and
    ``planner derive --parallel-rebuilds``'s (:data:`~planner.scenario.restore.STREAMS_GRAMMAR`:
    0, yes and no are refused in all three). A refusal says, in the field's own terms, why
    and what to type.
    """
    what = f"type a whole number from 1 to {MAX_REBUILD_STREAMS}, or all"
    word = text.lower()
    if word in ("all", "true"):  # the grammar of restore.STREAMS_GRAMMAR
        return True
    if word == "false":
        return False
    if not word:
        raise EditError(f"required: {what}")
    try:
        number = float(word)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number < 1:
        quote = not math.isfinite(number)  # -3 as typed; 'abc' quoted
        raise EditError(f"{shown(typed, quote=quote)} is not a number of rebuilds: {what}")
    if not number.is_integer():
        raise EditError(f"{shown(typed, quote=False)} is not a whole number: {what}")
    if number > MAX_REBUILD_STREAMS:
        raise EditError(
            f"{shown(typed, quote=False)} is more than {MAX_REBUILD_STREAMS} rebuilds at once: "
            f"{what}"
        )
    streams = int(number)
    return False if streams == 1 else streams


def scenario_data(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain data that validates back to an equal scenario."""
    return scenario.model_dump(exclude_none=True)


def revalidate(data: dict[str, Any], focus: FieldPath | None = None) -> Scenario:
    """Validate scenario ``data``; a refusal raises EditError in the loader's words.

    When several problems are found, the one at ``focus`` (the field being edited) is told.
    """
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        error = from_validation_error(exc, source="<tui>", document=None)
        if focus is not None:
            wanted = ".".join(focus)
            error = next((e for e in error.all_errors if e.field == wanted), error)
        raise EditError(error.message, error.field) from None


def with_value(scenario: Scenario, spec: FieldSpec, value: Any) -> Scenario:
    """A validated copy of ``scenario`` with ``value`` at the field ``spec``."""
    data = scenario_data(scenario)
    node = data
    for part in spec.path[:-1]:
        node = node[part]
    if value is None:
        node.pop(spec.path[-1], None)
    else:
        node[spec.path[-1]] = value
    return revalidate(data, spec.path)
