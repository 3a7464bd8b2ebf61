"""The models of a plan: several tiers (aggregates) in one file, each a scenario of its own.

A plan file is a scenario file with a ``tiers:`` list. Each tier holds a ``name`` and any
section a single-aggregate scenario holds (``drive``, ``restore``, ``aggregate``,
``layouts``, ``workload``, ``costs``, ``target``, ...); a section it leaves out is the top
level's, taken whole (a tier's ``drive`` replaces the top level's ``drive``, key for key
nothing of it is merged). ``name`` and ``mission_years`` are the plan's, shared by every
tier: the plan's P(any tier loses data) is over one mission.

The tier's sections are the single-aggregate scenario's own fields
(:class:`planner.scenario.schema.Scenario`), made optional: a section added to the scenario
is a tier's section too, with no change here. The models only check each section and the
list's shape; :mod:`planner.scenario.plan` builds every tier's
:class:`~planner.scenario.schema.Scenario` from its sections and the top level's, and
checks it whole.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, create_model, model_validator

from planner.scenario.base import DisplayName, FieldError, FrozenModel
from planner.scenario.errors import shown
from planner.scenario.schema import Scenario

__all__ = [
    "MAX_TIERS",
    "SHARED_IN_TIER",
    "SHARED_KEYS",
    "TIER_KEYS",
    "PlanFile",
    "TierSpec",
    "within_tier",
]

SHARED_KEYS: tuple[str, ...] = ("name", "mission_years")
"""The plan's own keys, shared by every tier (a tier's ``name`` is the tier's)."""

TIER_KEYS: tuple[str, ...] = tuple(key for key in Scenario.model_fields if key not in SHARED_KEYS)
"""The sections a tier may give (and the top level may give for every tier)."""

MAX_TIERS = 16
"""Most tiers in one plan: a storage system has a few tiers, not dozens; each tier is
evaluated whole by every command, so the bound keeps a plan's run bounded too."""


def _optional(key: str, default_from: str) -> tuple[Any, Any]:
    """The scenario's field ``key`` as an optional one (default None), its checks kept."""
    info = Scenario.model_fields[key]
    annotation: Any = info.annotation
    checked = Annotated[annotation, *info.metadata] if info.metadata else annotation
    field = Field(
        default=None,
        description=f"{info.description} {default_from}",
        examples=info.examples,
        json_schema_extra=info.json_schema_extra,
    )
    return (checked | None, field)


def _tier_name() -> Any:
    return Field(
        strict=True,
        min_length=1,
        max_length=60,
        description="The tier's name (unique in the plan): the title of its tables, its tab "
        "in the TUI, what --tier selects.",
        examples=["SSD"],
    )


_TIER_FIELDS: dict[str, Any] = {
    "name": (DisplayName, _tier_name()),
    **{key: _optional(key, "Left out: the top level's.") for key in TIER_KEYS},
}

TierSpec: type[FrozenModel] = create_model(
    "TierSpec",
    __base__=FrozenModel,
    __doc__="One tier of a plan: an aggregate with its own drive, workload and layouts. A "
    "section left out is the top level's (taken whole); name and mission_years are the "
    "plan's.",
    **_TIER_FIELDS,
)
"""One tier: ``name`` and the single-aggregate scenario's sections, each optional."""


def _unique_names(tiers: list[Any]) -> None:
    seen: dict[str, int] = {}
    for index, tier in enumerate(tiers):
        name: str = tier.name
        if name in seen:
            raise FieldError(
                f"duplicate tier name {shown(name)} (also tiers[{seen[name]}]); give each tier "
                "its own name",
                "tiers",
                index,
                "name",
            )
        seen[name] = index


def _plan_field(key: str) -> tuple[Any, Any]:
    if key in SHARED_KEYS:
        info = Scenario.model_fields[key]
        return (info.annotation, info)
    return _optional(key, "In a plan: every tier's that gives none of its own.")


def _check_plan(self: Any) -> Any:
    _unique_names(list(self.tiers))
    return self


_PLAN_FIELDS: dict[str, Any] = {
    **{key: _plan_field(key) for key in Scenario.model_fields},
    "tiers": (
        list[TierSpec],
        Field(
            min_length=1,
            max_length=MAX_TIERS,
            description="Several tiers (aggregates) in one plan, each with its own name and "
            "any section of a single-aggregate scenario (drive, restore, aggregate, layouts, "
            "workload, costs, target, ...); a section a tier leaves out is the top level's. "
            "Outputs show every tier, then the plan's drives, cost and P(any tier loses data), "
            "the tiers taken as independent (docs/scenarios.md#several-tiers-in-one-plan).",
            examples=[[{"name": "SSD", "drive": {"model": "ssd-7.68tb"}}]],
        ),
    ),
}
_PLAN_CHECKS: dict[str, Any] = {"_check_plan": model_validator(mode="after")(_check_plan)}

PlanFile: type[FrozenModel] = create_model(
    "PlanFile",
    __base__=FrozenModel,
    __doc__="A plan file: the plan's name and mission, sections every tier shares unless it "
    "gives its own, and the tiers.",
    __validators__=_PLAN_CHECKS,
    **_PLAN_FIELDS,
)
"""The top level of a plan file, every section optional (a tier may give it)."""


SHARED_IN_TIER = (
    "{key} is the plan's, shared by every tier (one mission for P(any tier loses data)): "
    "set it at the top level"
)
"""What a tier that gives ``mission_years`` is told."""


def within_tier(loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """A location inside a tier as a single scenario's: ``tiers[1].drive.arr`` -> ``drive.arr``.

    Other locations are returned as they are.
    """
    if len(loc) >= 2 and loc[0] == "tiers" and isinstance(loc[1], int):
        return loc[2:]
    return loc
