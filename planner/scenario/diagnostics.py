"""Pydantic validation errors as ScenarioErrors: plain messages at file:line:column.

Each error's ``loc`` is looked up in the ruamel document's ``.lc`` line/column data; an
error inside a ``--set`` override names the override instead of the file. The words for a
refused number (out of range, not a number) are :mod:`planner.scenario.number_messages`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from planner.scenario.document import Loc, error_at, locate
from planner.scenario.errors import ScenarioError, dotted, show_value, shown
from planner.scenario.fields import (
    annotation_at,
    as_model,
    closest,
    did_you_mean,
    field_info,
    field_meta,
    field_names,
)
from planner.scenario.number_messages import COMPARISONS, number_hint, out_of_range
from planner.scenario.overrides import Override, last_setting
from planner.scenario.schema import FieldError, Scenario
from planner.scenario.tiers import SHARED_IN_TIER, SHARED_KEYS, within_tier
from planner.scenario.yaml_keys import missing_colon, space_after_colon

_YAML11_BOOLEANS = {
    "yes": "true",
    "y": "true",
    "on": "true",
    "no": "false",
    "n": "false",
    "off": "false",
}


def _yaml11_boolean(value: Any) -> str:
    """``; YAML 1.2 reads yes as text: write true`` for YAML 1.1's spellings of a boolean."""
    meant = _YAML11_BOOLEANS.get(value.strip().lower()) if isinstance(value, str) else None
    if meant is None:
        return ""
    return f"; YAML 1.2 reads {shown(value, quote=False)} as text: write {meant}"


def _flow(value: Any) -> str:
    """A plain value as one line of YAML flow style: ``{raid: raid5, group_size: 8}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _example(key: str, examples: list[Any] | None) -> str:
    """``; e.g. layouts: [{raid: raid5, group_size: 8}]`` from the field's own examples."""
    if not examples:
        return ""
    return f"; e.g. {key}: {_flow(examples[0])}"


def _mapping_hint(value: Any, loc: Loc) -> str:
    """What to write where a mapping is expected and ``value`` is found.

    ``arr:2%`` (no space after the colon: YAML reads text), ``data_disks`` (a key without
    its value), or nothing at all under the key.
    """
    if isinstance(value, str):
        corrected = space_after_colon(value)
        if corrected is not None:
            return f"; put a space after the colon: {shown(corrected, quote=False)}"
        word = value.strip()
        if not word.isidentifier():
            return ""
        plain = within_tier(loc)
        found = None
        if all(isinstance(part, str) for part in plain):
            found = field_meta(".".join([*map(str, plain), word]))
        if found is not None and found.example:
            return f"; {word} needs a value: write {word}: {found.example}"
        return f"; write {shown(word, quote=False)}: followed by its value"
    if value is None and loc:
        model = as_model(annotation_at(loc[:-1]))
        info = field_info(model, str(loc[-1])) if model is not None else None
        example = _example(str(loc[-1]), info.examples if info is not None else None)
        return f"; write its keys on the lines below it, indented{example}"
    return ""


def describe(error: ErrorDetails, loc: Loc) -> str:
    """A one-line, plain-English message for one pydantic error, with a hint if known."""
    kind = error["type"]
    value = error.get("input")
    ctx = error.get("ctx") or {}
    if kind in ("value_error", "assertion_error") and "error" in ctx:
        return str(ctx["error"])
    if kind == "extra_forbidden":
        return _unknown_key(loc)
    if kind == "missing":
        model = as_model(annotation_at(loc[:-1]))
        info = field_info(model, str(loc[-1])) if model is not None else None
        about = info.description if info is not None and info.description else ""
        about = f": {about[:1].lower()}{about[1:].rstrip('.')}" if about else ""
        example = _example(str(loc[-1]), info.examples if info is not None else None)
        return f"missing required key {str(loc[-1])!r}{about}{example}"
    if kind in COMPARISONS:
        return out_of_range(kind, value, ctx, loc)
    if kind == "int_type":
        if isinstance(value, float) and value.is_integer():
            return f"{value!r} is not a whole number; write {int(value)} (a count)"
        hint = number_hint(value, loc, whole=True)
        return f"expected a whole number, got {show_value(value)}{hint}"
    if kind == "float_type":
        return f"expected a number, got {show_value(value)}{number_hint(value, loc)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"expected true or false, got {show_value(value)}{_yaml11_boolean(value)}"
    if kind in ("literal_error", "enum"):
        choices = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        return f"{show_value(value)} is not one of {', '.join(choices)}" + (
            did_you_mean(str(value), choices) if isinstance(value, str) else ""
        )
    if kind == "finite_number":
        return f"expected a finite number, got {show_value(value)}"
    if kind == "string_type":
        return f"expected text, got {show_value(value)}; put it in quotes"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        missing = missing_colon(value, _keys_at(loc)) if isinstance(value, str) else None
        if missing is not None:
            return missing
        return (
            f"expected a mapping of keys (key: value lines), got {show_value(value)}"
            f"{_mapping_hint(value, loc)}"
        )
    if kind == "list_type":
        return f"expected a list (lines starting with '- '), got {show_value(value)}"
    if kind == "too_short":
        return "needs at least one entry"
    if kind == "too_long":
        return f"has too many entries (at most {ctx.get('max_length')})"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "string_too_long":
        return f"is too long (at most {ctx.get('max_length')} characters)"
    return str(error["msg"])


def _keys_at(loc: Loc) -> list[str]:
    """The keys of the mapping expected at ``loc`` (a section, a layout), if it is a model."""
    model = as_model(annotation_at(loc))
    return field_names(model) if model is not None else []


def _unknown_key(loc: Loc) -> str:
    """``unknown key 'x'; did you mean 'y'?``, or the section a top-level key belongs to."""
    if len(loc) == 3 and loc[0] == "tiers" and loc[2] in SHARED_KEYS:
        return SHARED_IN_TIER.format(key=loc[2])
    model = as_model(annotation_at(loc[:-1]))
    names = field_names(model) if model is not None else []
    sections = _sections_with(str(loc[-1])) if len(within_tier(loc)) == 1 else []
    if sections:
        under = " or ".join(f"{name}:" for name in sections)
        return (
            f"unknown key {shown(str(loc[-1]))} at the top level: it is a key of "
            f"{' or '.join(sections)}, so indent it under {under}"
        )
    return f"unknown key {shown(str(loc[-1]))}{did_you_mean(str(loc[-1]), names)}"


def _sections_with(key: str) -> list[str]:
    """The sections of a scenario (``drive``, ``restore``) that have a key ``key``.

    A section's key pulled back to the top level (``watts:`` under ``drive:`` indented as
    a section) reads as an unknown top-level key.
    """
    found = []
    for section in field_names(Scenario):
        model = as_model(annotation_at((section,)))
        if model is not None and key in field_names(model):
            found.append(section)
    return found


def _error_loc(error: ErrorDetails) -> Loc:
    loc: Loc = tuple(error["loc"])
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, FieldError):
        loc = (*loc, *cause.subpath)
    return loc


Relocate = Callable[[Loc], tuple[Loc, str]]
"""Where an error at a scenario location is in the file, and words to put before its message.

A plan's tier is validated as a single scenario; its errors are then found in the tier, or
at the top level the tier takes a section from (:mod:`planner.scenario.plan`)."""


def _one(
    error: ErrorDetails,
    *,
    source: str,
    document: Any,
    overrides: Sequence[Override],
    relocate: Relocate | None = None,
) -> ScenarioError:
    loc = _error_loc(error)
    message = describe(error, loc)
    at, before = (loc, "") if relocate is None else relocate(loc)
    field = dotted(at) or None
    for override in reversed(overrides):
        if loc[: len(override.loc)] == override.loc:
            return ScenarioError(message, path=override.source, field=field)
    cause = (error.get("ctx") or {}).get("error")
    # a value derived from fields one of which --set gave: that --set is at fault
    inputs = [(*error["loc"], *path) for path in getattr(cause, "inputs", ())]
    derived_from = last_setting(inputs, overrides)
    if derived_from is not None:
        at_set = derived_from.loc if relocate is None else relocate(derived_from.loc)[0]
        return ScenarioError(message, path=derived_from.source, field=dotted(at_set) or None)
    cross_check = isinstance(cause, FieldError)
    # a message that names the override at fault itself needs no "with --set" before it
    cross_check = cross_check and not any(o.source in message for o in overrides)
    for override in reversed(overrides):
        if cross_check and override.loc[: len(loc) - 1] == loc[:-1]:
            # a check across fields, one of them set by --set: the file alone is not at fault
            message = f"with {override.source}: {message}"
            break
    at_key = error["type"] == "extra_forbidden" or getattr(cause, "at_key", False)
    return error_at(before + message, source, locate(document, at, at_key=at_key), field)


def _order(error: ScenarioError, kind: str) -> tuple[int, int, int]:
    # A misspelt key also shows up as a missing one; the misspelling is the useful report.
    rank = 0 if error.path.startswith("--set ") else 2 if kind == "missing" else 1
    return (rank, error.line or 0, error.column or 0)


def _misspelt_keys(details: Sequence[ErrorDetails]) -> set[tuple[str | int, ...]]:
    """Where a required key is missing because it is misspelt.

    An unknown key beside it whose "did you mean" names it: one mistake, reported once.
    """
    found = set()
    for error in details:
        loc = tuple(error["loc"])
        if error["type"] != "extra_forbidden" or not loc:
            continue
        model = as_model(annotation_at(loc[:-1]))
        near = closest(str(loc[-1]), field_names(model)) if model is not None else None
        if near is not None:
            found.add((*loc[:-1], near))
    return found


def from_validation_error(
    exc: ValidationError,
    *,
    source: str,
    document: Any,
    overrides: Sequence[Override] = (),
    relocate: Relocate | None = None,
) -> ScenarioError:
    """The first problem (overrides first, then by position in the file), with all of them.

    The returned error's ``all_errors`` holds every problem, itself first. ``overrides`` are
    matched against the errors' own locations; ``relocate`` (a plan's tier) says where each
    location is in ``document`` and what to say before its message.
    """
    ranked = []
    details = exc.errors(include_url=False)
    misspelt = _misspelt_keys(details)
    for index, error in enumerate(details):
        if error["type"] == "missing" and tuple(error["loc"]) in misspelt:
            continue  # the key is there, misspelt: its "did you mean" says so
        found = _one(
            error, source=source, document=document, overrides=overrides, relocate=relocate
        )
        ranked.append((_order(found, error["type"]), index, found))
    errors = [found for _, _, found in sorted(ranked)]
    first = errors[0]
    first.all_errors = tuple(errors)
    return first
