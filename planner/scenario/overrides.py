"""``--set key.path=value`` overrides, applied to the plain data before validation.

Paths name schema fields with dots and 0-based list indices: ``drive.arr=2.5%``,
``restore.rebuild_hours=24``, ``layouts[1].group_size=10``, ``baseline=raid5 8``. Values
are read as one YAML value, so ``24`` is a number, ``2.5%`` is text, an empty value is
null (the key is then treated as absent) and ``{raid: raid6, group_size: 8}`` is a whole
mapping. Text fields (``name``, ``baseline``, ``layouts[i].label``, ``layouts[i].raid``) take
the value as written, so ``baseline=raid5 8`` needs no quotes.

Setting one of the drive's mutually exclusive rates replaces the others: ``drive.afr=2%``
drops an ``arr`` or ``mtbf_hours`` from the file, and ``drive.read_errors_per_byte``
drops ``latent_defects_per_hour`` (and the other way round). Likewise for the restore
time: ``restore.rebuild_mb_per_s=27`` drops ``rebuild_hours``, and
``restore.rebuild_hours=12`` drops the rebuild model (rate, load, delay); the restore keys
dropped are noted on the section (:attr:`~planner.scenario.restore.Restore.set_aside`), and
a note says which load or delay no longer applies.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from planner.scenario.base import SetAside
from planner.scenario.baseline import RENAMED_LAYOUTS, Renamed
from planner.scenario.document import Loc, parse_yaml, to_plain
from planner.scenario.errors import ScenarioError, dotted, shown
from planner.scenario.fields import (
    allows_none,
    as_model,
    child,
    did_you_mean,
    field_info,
    field_meta,
    field_names,
    is_list,
    is_text,
)
from planner.scenario.layout import LayoutSpec
from planner.scenario.schema import Scenario
from planner.scenario.tiers import PlanFile, within_tier
from planner.scenario.yaml_guard import MAX_NUMBER_CHARS

_OVERRIDE = re.compile(r"^\s*(?P<path>[^=\s][^=]*?)\s*=(?P<value>.*)$", re.DOTALL)
_SEGMENT = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?P<indices>(?:\[[0-9]+\])*)$")
_INDEX = re.compile(r"\[([0-9]+)\]")


@dataclass(frozen=True)
class Override:
    """One parsed ``--set`` override.

    Attributes:
        text: the override as given, e.g. ``drive.arr=2.5%``.
        loc: the path it sets, e.g. ``("drive", "arr")``.
        value: the plain value parsed from the text after ``=``.
    """

    text: str
    loc: Loc
    value: Any

    @property
    def source(self) -> str:
        """How errors name this override: ``--set drive.arr=2.5%``."""
        return f"--set {shown(self.text, 60, quote=False)}"


def _fail(text: str, message: str, field: str | None = None) -> ScenarioError:
    return ScenarioError(message, path=f"--set {shown(text, 60, quote=False)}", field=field)


def _parse_path(text: str, path: str) -> tuple[Loc, Any]:
    """Check a dotted path against the schema; return its location and annotation."""
    loc: list[str | int] = []
    # tiers[1].drive.arr walks a plan file's tiers (planner.scenario.tiers)
    annotation: Any = PlanFile if path.strip().startswith("tiers") else Scenario
    for segment in path.split("."):
        match = _SEGMENT.match(segment.strip())
        if match is None:
            raise _fail(
                text, f"{shown(segment)} is not a key name; write e.g. drive.arr or layouts[1].raid"
            )
        name = match["name"]
        model = as_model(annotation)
        if model is None:
            raise _fail(
                text, f"{dotted(tuple(loc))} is a single value; it has no key {shown(name)}"
            )
        if field_info(model, name) is None:
            where = f" in {dotted(tuple(loc))}" if loc else ""
            hint = did_you_mean(name, field_names(model))
            raise _fail(text, f"unknown key {shown(name)}{where}{hint}", dotted((*loc, name)))
        loc.append(name)
        annotation = child(annotation, name)
        for index in _INDEX.findall(match["indices"]):
            if not is_list(annotation):
                raise _fail(text, f"{dotted(tuple(loc))} is not a list; it takes no [index]")
            loc.append(int(index))
            annotation = child(annotation, int(index))
    return tuple(loc), annotation


YAML_NULLS = ("null", "Null", "NULL", "~")
"""The spellings YAML reads as null (``--set baseline=null`` removes the key)."""


_PLAIN_INT = re.compile(r"[-+]?[0-9]+")
_PLAIN_FLOAT = re.compile(r"[-+]?[0-9]*\.[0-9]+([eE][-+]?[0-9]+)?")
"""Numbers every YAML 1.2 reader takes the same way as Python does: read without the YAML
parser, which costs about 1 ms a value (the tornado sets twelve per redraw)."""


def _plain_number(value_text: str) -> int | float | None:
    if len(value_text) > MAX_NUMBER_CHARS:
        return None  # the YAML path refuses it with the usual message (int() would raise)
    if _PLAIN_INT.fullmatch(value_text):
        return int(value_text)
    if _PLAIN_FLOAT.fullmatch(value_text):
        return float(value_text)
    return None


def parse_override(text: str) -> Override:
    """Parse ``key.path=value``; raises ScenarioError naming the override when malformed."""
    match = _OVERRIDE.match(text)
    if match is None:
        raise _fail(text, "expected KEY=VALUE, e.g. drive.arr=2.5% or layouts[1].group_size=10")
    loc, annotation = _parse_path(text, match["path"])
    value_text = match["value"].strip()
    if not value_text:
        # Read as YAML, nothing is null: the field would vanish and the error would blame
        # the scenario file; `null` says so on purpose.
        raise _fail(
            text.strip(),
            f"no value after '='; give one, e.g. {dotted(loc)}=<value> (null removes the key)",
            dotted(loc),
        )
    if is_text(annotation) and value_text and value_text[0] not in "'\"":
        if value_text in YAML_NULLS and allows_none(annotation):
            return Override(text=text, loc=loc, value=None)  # as for every other key
        # Taken as written: read as YAML, "name=NS3574: test" would be a mapping.
        return Override(text=text, loc=loc, value=value_text)
    number = _plain_number(value_text)
    if number is not None:
        return Override(text=text, loc=loc, value=number)
    try:
        node = parse_yaml(value_text, f"--set {text}") if value_text else None
        value = to_plain(node, f"--set {text}")
    except ScenarioError as exc:
        raise _fail(text, exc.message, dotted(loc)) from None
    return Override(text=text, loc=loc, value=value)


def apply_overrides(data: dict[str, Any], overrides: Sequence[Override]) -> list[SetAside]:
    """Set each override's value in the plain ``data`` (in place), in order.

    Missing mappings on the way are created; list items must already exist. Returns the
    keys the overrides removed by giving an exclusive alternative, and not given back.
    """
    set_aside: list[SetAside] = []
    for override in overrides:
        set_aside = [aside for aside in set_aside if aside.key != override.loc]
        node: Any = data
        for depth, part in enumerate(override.loc[:-1]):
            where = dotted(override.loc[: depth + 1])
            if isinstance(part, int):
                if not isinstance(node, list) or part >= len(node):
                    size = len(node) if isinstance(node, list) else 0
                    raise _fail(
                        override.text,
                        f"{where} does not exist: {dotted(override.loc[:depth])} has {size} "
                        f"entries (numbered from 0)",
                        dotted(override.loc),
                    )
                node = node[part]
                continue
            if not isinstance(node, dict):
                raise _fail(override.text, f"cannot set inside {where}: it is not a mapping")
            if node.get(part) is None and isinstance(override.loc[depth + 1], str):
                node[part] = {}
            node = node.get(part)
        set_aside.extend(_set(override, node))
    return set_aside


def _set(override: Override, node: Any) -> list[SetAside]:
    last = override.loc[-1]
    field = dotted(override.loc)
    if isinstance(last, int):
        if not isinstance(node, list) or last >= len(node):
            size = len(node) if isinstance(node, list) else 0
            raise _fail(override.text, f"{field} does not exist: there are {size} entries", field)
        node[last] = override.value
        return []
    if not isinstance(node, dict):
        raise _fail(override.text, f"cannot set {field}: its parent is not a mapping", field)
    node[last] = override.value
    removed = []
    if override.value is not None:
        # Giving one of exclusive alternatives removes the others (the field's metadata).
        found = field_meta(dotted(within_tier(override.loc)))
        for other in found.replaces if found is not None else ():
            value = node.pop(other, None)
            if value is not None:
                key = (*override.loc[:-1], other)
                removed.append(SetAside(key, value, override.source, override.loc))
    return removed


def validate_overridden(data: dict[str, Any], overrides: Sequence[Override]) -> Scenario:
    """The scenario of ``data`` (changed in place) with ``overrides`` applied.

    When an override renamed the layout the baseline names (``layouts[2].group_size=12``
    makes 'raid-dp 9' 'raid-dp 12'), the baseline's error says so (:func:`validate_renamed`).

    Raises:
        ValidationError: the data with the overrides does not validate.
        ScenarioError: an override cannot be applied.
    """
    touching = layout_overrides(overrides)
    before = copy.deepcopy(data.get("layouts")) if touching else None
    set_aside = apply_overrides(data, overrides)
    return noting_set_aside(validate_renamed(data, before, touching), set_aside)


def noting_set_aside(scenario: Scenario, set_aside: Sequence[SetAside]) -> Scenario:
    """``scenario`` with the ``restore`` keys of ``set_aside`` noted on its section.

    Only the restore section's are kept (:attr:`~planner.scenario.restore.Restore.set_aside`):
    the drive's alternatives (``afr`` for ``arr``) replace what they name and need no word.
    """
    restore = [aside for aside in set_aside if within_tier(aside.key)[:1] == ("restore",)]
    if not restore:
        return scenario
    return scenario.model_copy(update={"restore": scenario.restore.with_set_aside(restore)})


def last_setting(paths: Sequence[Loc], overrides: Sequence[Override]) -> Override | None:
    """The last of ``overrides`` that sets one of ``paths``, or a key under one, if any."""
    for override in reversed(overrides):
        if any(override.loc[: len(path)] == path for path in paths):
            return override
    return None


def layout_overrides(overrides: Sequence[Override]) -> list[Override]:
    """The overrides that set something in ``layouts`` (and so may rename a layout)."""
    return [o for o in overrides if o.loc[:1] == ("layouts",)]


def validate_renamed(
    data: dict[str, Any], before: Any, touching: Sequence[Override], prefix: str = ""
) -> Scenario:
    """The scenario of ``data``, whose ``layouts`` were ``before`` until ``touching`` ran.

    A valid scenario is validated once. When validation fails and one of ``touching``
    renamed the layout the baseline names, it is validated again with the rename in its
    context, so the baseline's error names the override and the new label; ``prefix``
    (``tiers[1].``) is where the suggested ``--set`` fixes point in a plan.

    Raises:
        ValidationError: ``data`` does not validate.
    """
    try:
        return Scenario.model_validate(data)
    except ValidationError:
        renamed = _renamed_baseline(before, data, touching, prefix)
        if renamed is None:
            raise
    return Scenario.model_validate(data, context={RENAMED_LAYOUTS: renamed})


def _renamed_baseline(
    before: Any, data: dict[str, Any], touching: Sequence[Override], prefix: str
) -> dict[str, Renamed] | None:
    """{baseline: the rename} when one of ``touching`` renamed the layout it named, else None."""
    baseline, layouts = data.get("baseline"), data.get("layouts")
    if not (isinstance(baseline, str) and isinstance(before, list) and isinstance(layouts, list)):
        return None
    index = next((i for i, item in enumerate(before) if _label(item) == baseline), None)
    if index is None or index >= len(layouts):
        return None
    label = _label(layouts[index])
    by = [o for o in touching if o.loc[:2] in (("layouts",), ("layouts", index))]
    if label is None or label == baseline or not by:
        return None
    return {baseline: Renamed(index, by[-1].source, label, prefix)}


def _label(item: Any) -> str | None:
    """The label of one plain layout entry (its default filled in), or None if it is invalid."""
    try:
        return LayoutSpec.model_validate(item).label
    except ValidationError:
        return None
