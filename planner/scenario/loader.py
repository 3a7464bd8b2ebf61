"""Load a scenario: read the YAML file, apply ``--set`` overrides, validate, map errors.

Every problem, from undecodable bytes to an out-of-range rebuild time, comes out as one
:class:`~planner.scenario.errors.ScenarioError` naming ``file:line:column`` and the field.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from planner.scenario.diagnostics import from_validation_error
from planner.scenario.document import (
    decode_text,
    map_position,
    node_position,
    parse_yaml,
    read_bounded,
    to_plain,
)
from planner.scenario.errors import ScenarioError, shown
from planner.scenario.fields import field_names
from planner.scenario.overrides import parse_override, validate_overridden
from planner.scenario.plan import Plan, is_plan_data, plan_from_data
from planner.scenario.schema import Scenario
from planner.scenario.tiers import PlanFile

DEFAULT_SOURCE = "<default scenario>"
"""How errors name the bundled default scenario."""

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

_TOP_KEYS = ", ".join([*field_names(Scenario), "tiers"])
"""Every top-level key, from the models (a hand-written list once left out costs and target)."""

T = TypeVar("T")

_REQUIRED = [name for name, info in Scenario.model_fields.items() if info.is_required()]


def _as_document(node: Any, source: str) -> CommentedMap:
    """The parsed top level, which must be a mapping."""
    if node is None:
        raise ScenarioError(
            f"the scenario is empty; it needs the keys {', '.join(_REQUIRED[:-1])} and "
            f"{_REQUIRED[-1]} (allowed: {_TOP_KEYS})",
            path=source,
        )
    if not isinstance(node, CommentedMap):
        line, column = node_position(node) or (1, 1)
        if isinstance(node, str) and source.lower().endswith(".csv"):
            raise ScenarioError(
                "this is a CSV file, not a scenario: a fleet's failure log is read by "
                f"`planner fit {source}` (docs/fit.md), whose snippet goes into a scenario",
                path=source,
                line=line,
                column=column,
            )
        kind = "a list" if isinstance(node, CommentedSeq) else f"the value {shown(node)}"
        raise ScenarioError(
            f"the top level must be a mapping of keys ({_TOP_KEYS}), not {kind}",
            path=source,
            line=line,
            column=column,
        )
    return node


def load_scenario_text_document(
    text: str, source: str = "<string>", overrides: Sequence[str] = (), tier: str | None = None
) -> tuple[Scenario, CommentedMap]:
    """Validate scenario YAML ``text``; return the scenario and its round-trip document.

    The document keeps the comments and layout of the text, without the overrides, so an
    editor can change values in it and save it back.

    Args:
        text: the YAML text.
        source: the name errors use for the text (a file name, ``<string>``).
        overrides: ``--set`` strings such as ``drive.arr=2.5%``, applied in order.
        tier: for a plan (a file with ``tiers:``), the name of the tier to return; a plan
            needs one, a single-aggregate file takes none.

    Raises:
        ScenarioError: for any problem, at the first one found.
    """
    document = _as_document(parse_yaml(text, source), source)
    return _scenario_of(to_plain(document, source), document, source, overrides, tier), document


def _scenario_of(
    data: Any,
    document: CommentedMap | None,
    source: str,
    overrides: Sequence[str],
    tier: str | None,
) -> Scenario:
    """The scenario (or the plan's tier ``tier``) of the plain ``data``, changed in place.

    ``document`` gives an error its line and column (None: the error has none).
    """
    if is_plan_data(data) or tier is not None:
        return _tier_of(data, document, source, overrides, tier)
    parsed = [parse_override(text) for text in overrides]
    try:
        return validate_overridden(data, parsed)
    except ValidationError as exc:
        raise from_validation_error(
            exc, source=source, document=document, overrides=parsed
        ) from None


def _plan_of(
    data: Any, document: CommentedMap | None, source: str, overrides: Sequence[str]
) -> Plan:
    """The plan of the plain ``data`` (a single-aggregate file as one tier), as above."""
    if is_plan_data(data):
        return plan_from_data(data, source=source, document=document, overrides=overrides)
    return Plan.single(_scenario_of(data, document, source, overrides, None), overrides)


@functools.lru_cache(maxsize=32)
def _plain_data(text: str, source: str) -> Any:
    """The plain data of YAML ``text``, parsed once per text (callers take a deep copy).

    Parsing is most of a load's time (ruamel's pure-Python reader, about 13 ms for the
    default scenario, its events checked as they are read), and a process often loads one
    text many times: the default scenario under different ``--set`` overrides, a
    sensitivity's every bar, a session's reloads. 32 texts of at most 1 MB each.
    """
    return to_plain(_as_document(parse_yaml(text, source), source), source)


@functools.lru_cache(maxsize=8)
def _positions(text: str, source: str) -> CommentedMap:
    """The round-trip document of ``text``, parsed once per text, for errors' positions.

    Only read (each error looks up its line and column in it), never changed or returned:
    a refused ``--set`` value or field edit of the same file (every keystroke of a bad
    value in the TUI, a test suite's hundreds of refusals) parses it once, not each time.
    """
    return _as_document(parse_yaml(text, source), source)


def _from_text(text: str, source: str, build: Callable[[Any, CommentedMap | None], T]) -> T:
    """``build(data, document)`` for ``text``, from its cached data without the document.

    An error of ``build`` is found again with the document (:func:`_positions`), which gives
    it its line and column (the same error the uncached load raises). An error of the parse
    itself already has its position: it is raised as it is, not parsed for a second time.
    """
    data = _plain_data(text, source)
    try:
        return build(copy.deepcopy(data), None)
    except ScenarioError:
        document = _positions(text, source)
        return build(to_plain(document, source), document)


def _tier_of(
    data: Any,
    document: CommentedMap | None,
    source: str,
    overrides: Sequence[str],
    tier: str | None,
) -> Scenario:
    """The tier ``tier`` of the plan ``data``, or the error that says why there is none."""
    if not is_plan_data(data):
        raise ScenarioError(
            f"tier {shown(tier)}: the file describes one aggregate (it has no tiers: list); "
            "leave the tier out",
            path=source,
        )
    plan = plan_from_data(data, source=source, document=document, overrides=overrides)
    where = map_position(document, "tiers", at_key=True) if document is not None else None
    line, column = where or (None, None)
    if tier is None:
        raise ScenarioError(
            f"the file is a plan of {len(plan.tiers)} tiers ({', '.join(map(shown, plan.names))})"
            "; this needs one of them: name it (--tier NAME)",
            path=source,
            line=line,
            column=column,
            field="tiers",
        )
    try:
        return plan.tier_named(tier).scenario
    except KeyError as missing:
        raise ScenarioError(missing.args[0], path=source, line=line, column=column) from None


def load_plan_text_document(
    text: str, source: str = "<string>", overrides: Sequence[str] = ()
) -> tuple[Plan, CommentedMap]:
    """Validate YAML ``text`` as a plan: its tiers, or a single-aggregate file as one tier.

    Raises:
        ScenarioError: for any problem, at the first one found (a tier's names the tier).
    """
    document = _as_document(parse_yaml(text, source), source)
    return _plan_of(to_plain(document, source), document, source, overrides), document


def load_plan(path: str | Path, overrides: Sequence[str] = ()) -> Plan:
    """Load the file at ``path`` as a plan (a single-aggregate file is a plan of one tier).

    Raises:
        ScenarioError: the file cannot be read, is not UTF-8 YAML, or does not validate.
    """
    source = str(path)
    return _from_text(
        read_scenario_text(path),
        source,
        lambda data, document: _plan_of(data, document, source, overrides),
    )


def scenario_with_overrides(
    scenario: Scenario, overrides: Sequence[str], source: str = "<scenario>"
) -> Scenario:
    """``scenario`` with ``--set`` ``overrides`` applied, as the loader applies them to a file.

    The scenario's own data (catalogue values filled in) takes the overrides, so a field
    that replaces others (``restore.rebuild_hours`` drops the rebuild model) does so here
    too. ``planner sensitivity`` moves its inputs this way, so that each bar is what
    ``planner evaluate --set`` gives.

    Raises:
        ScenarioError: an override is malformed or its value is refused.
    """
    data = scenario.model_dump(exclude_none=True)
    parsed = [parse_override(text) for text in overrides]
    try:
        return validate_overridden(data, parsed)
    except ValidationError as exc:
        raise from_validation_error(exc, source=source, document=None, overrides=parsed) from None


def load_scenario_text(
    text: str, source: str = "<string>", overrides: Sequence[str] = ()
) -> Scenario:
    """Validate scenario YAML ``text`` (see :func:`load_scenario_text_document`)."""
    return _load_scenario_text(text, source, overrides, None)


def _load_scenario_text(
    text: str, source: str, overrides: Sequence[str], tier: str | None
) -> Scenario:
    return _from_text(
        text,
        source,
        lambda data, document: _scenario_of(data, document, source, overrides, tier),
    )


def read_scenario_text(path: str | Path) -> str:
    """The text of a scenario file: strict UTF-8, errors as ScenarioError."""
    return decode_text(read_bounded(path), str(path))


def load_scenario_document(
    path: str | Path, overrides: Sequence[str] = (), tier: str | None = None
) -> tuple[Scenario, CommentedMap]:
    """Load the scenario file at ``path``; return the scenario and its round-trip document."""
    return load_scenario_text_document(read_scenario_text(path), str(path), overrides, tier)


def load_scenario(
    path: str | Path, overrides: Sequence[str] = (), tier: str | None = None
) -> Scenario:
    """Load and validate the scenario file at ``path``, applying ``--set`` ``overrides``.

    A plan's tier is loaded by its name (``tier``).

    Raises:
        ScenarioError: the file cannot be read, is not UTF-8 YAML, or does not validate.
    """
    return _load_scenario_text(read_scenario_text(path), str(path), overrides, tier)


def default_scenario_text() -> str:
    """The bundled default scenario (NS3574's 42-data-disk aggregate), as YAML text."""
    resource = resources.files("planner.scenario").joinpath("data", "default.yaml")
    return resource.read_bytes().decode("utf-8")


def load_default_scenario(overrides: Sequence[str] = ()) -> Scenario:
    """The bundled default scenario, validated, with ``--set`` ``overrides`` applied."""
    return load_scenario_text(default_scenario_text(), DEFAULT_SOURCE, overrides)


def scenario_json_schema() -> dict[str, Any]:
    """The JSON Schema of scenario files, for editors (``planner schema`` prints it).

    A single-aggregate scenario's, with the ``tiers`` of a plan (:mod:`planner.scenario.tiers`):
    a file gives ``drive``, ``restore``, ``aggregate`` and ``layouts``, or ``tiers``.
    """
    schema = Scenario.model_json_schema()
    plan = PlanFile.model_json_schema()
    required = schema.pop("required")
    return {
        "$schema": JSON_SCHEMA_DIALECT,
        **schema,
        "properties": {**schema["properties"], "tiers": plan["properties"]["tiers"]},
        "anyOf": [{"required": required}, {"required": ["tiers"]}],
        "$defs": {**schema["$defs"], **plan["$defs"]},
        "title": "planner scenario",
        "description": "A scenario for planner: drive rates, restore times, an aggregate of "
        "data drives and the RAID layouts to compare (rates as in NS3574); or a plan of "
        "several such tiers.",
    }
