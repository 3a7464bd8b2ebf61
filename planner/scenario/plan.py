"""A plan: several tiers (aggregates) in one file, each validated as a scenario of its own.

A file with a ``tiers:`` list (:mod:`planner.scenario.tiers`) is a plan. Each tier's
scenario is the top level's sections with the tier's own in their place (a section is taken
whole); its ``name`` is the tier's, and ``mission_years`` the plan's. Every tier is then
checked as a single-aggregate file is, and its errors point
into the tier (``plan.yaml:23:7: tiers[1].drive.arr: ...``), or at the top-level section
the tier takes, saying which tier found it wrong.

A single-aggregate file is a plan of one tier (:meth:`Plan.single`), so a command can treat
both alike; :attr:`Plan.tiered` tells them apart (a single file's outputs are unchanged).

``--set`` on a plan: ``tiers[1].drive.arr=3%`` sets one tier's own value (as the file
would), ``name=...`` the plan's name, and any other path (``drive.arr=3%``) is set in every
tier's scenario, whether the tier gives that section or takes the top level's.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from ruamel.yaml.comments import CommentedMap

from planner.scenario.diagnostics import from_validation_error
from planner.scenario.document import Loc
from planner.scenario.errors import shown
from planner.scenario.overrides import (
    Override,
    apply_overrides,
    layout_overrides,
    noting_set_aside,
    parse_override,
    validate_renamed,
)
from planner.scenario.schema import Scenario
from planner.scenario.tiers import PlanFile, within_tier

__all__ = ["Plan", "Tier", "is_plan_data", "plan_from_data", "tier_data"]


@dataclass(frozen=True)
class Tier:
    """One tier of a plan: its name and its validated scenario.

    Attributes:
        name: the tier's name (a single-aggregate file's: the scenario's name).
        scenario: the tier as a single-aggregate scenario (its ``name`` is the tier's).
        overrides: the ``--set`` texts applied to this tier, for its inputs line.
    """

    name: str
    scenario: Scenario
    overrides: tuple[str, ...] = ()


@dataclass(frozen=True)
class Plan:
    """A validated plan: its name and its tiers, in the file's order.

    Attributes:
        name: the plan's title (the file's ``name``).
        tiers: every tier, at least one.
        tiered: True for a file with ``tiers:``; False for a single-aggregate file, whose
            one tier is the scenario itself (outputs are then a single scenario's).
    """

    name: str
    tiers: tuple[Tier, ...]
    tiered: bool = True

    @classmethod
    def single(cls, scenario: Scenario, overrides: Sequence[str] = ()) -> Plan:
        """A single-aggregate scenario as a plan of one tier."""
        return cls(scenario.name, (Tier(scenario.name, scenario, tuple(overrides)),), False)

    @property
    def names(self) -> list[str]:
        """The tiers' names, in order."""
        return [tier.name for tier in self.tiers]

    @property
    def mission_years(self) -> float:
        """The plan's mission (years): every tier's."""
        return self.tiers[0].scenario.mission_years

    def tier_named(self, name: str) -> Tier:
        """The tier called ``name``.

        Raises:
            KeyError: no tier has that name; the message lists the names (and the nearest).
        """
        for tier in self.tiers:
            if tier.name == name:
                return tier
        near = difflib.get_close_matches(name, self.names, n=1, cutoff=0.5)
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise KeyError(
            f"no tier named {shown(name)}; {hint}tiers: {', '.join(map(shown, self.names))}"
        )

    def with_tier(self, index: int, scenario: Scenario) -> Plan:
        """This plan with tier ``index``'s scenario replaced (a TUI edit).

        A change of the mission is the plan's, so every tier takes it.
        """
        tiers = list(self.tiers)
        tiers[index] = Tier(tiers[index].name, scenario, tiers[index].overrides)
        mission = scenario.mission_years
        tiers = [
            t
            if t.scenario.mission_years == mission
            else Tier(t.name, t.scenario.model_copy(update={"mission_years": mission}), t.overrides)
            for t in tiers
        ]
        return Plan(self.name, tuple(tiers), self.tiered)


def is_plan_data(data: Any) -> bool:
    """Whether plain scenario data is a plan's (it has a ``tiers`` key)."""
    return isinstance(data, dict) and "tiers" in data


def tier_data(data: dict[str, Any], index: int) -> dict[str, Any]:
    """Tier ``index``'s scenario data: the top level's sections with the tier's in their place."""
    tier = data["tiers"][index]
    merged = {key: value for key, value in data.items() if key not in ("tiers", "name")}
    merged.update({key: value for key, value in tier.items() if key != "name"})
    merged["name"] = tier["name"]
    return merged


def _is_plan_wide(override: Override) -> bool:
    """Whether an override is set in every tier (not ``tiers[...]`` nor the plan's name)."""
    return override.loc[0] not in ("tiers", "name")


def plan_from_data(
    data: dict[str, Any], *, source: str, document: CommentedMap | None, overrides: Sequence[str]
) -> Plan:
    """Validate a plan's plain ``data`` (changed in place by ``overrides``) into a Plan.

    Raises:
        ScenarioError: the first problem, at its place in ``document`` (a tier's error in
            the tier, or at the top-level section the tier takes).
    """
    parsed = [parse_override(text) for text in overrides]
    own = [o for o in parsed if not _is_plan_wide(o)]
    wide = [o for o in parsed if _is_plan_wide(o)]
    before = _layouts_before(data) if layout_overrides([*wide, *map(_within, own)]) else None
    own_aside = apply_overrides(data, own)
    try:
        checked: Any = PlanFile.model_validate(data)
    except ValidationError as exc:
        raise from_validation_error(exc, source=source, document=document, overrides=own) from None
    tiers = []
    for index, tier in enumerate(checked.tiers):
        merged = copy.deepcopy(tier_data(data, index)) if wide else tier_data(data, index)
        set_aside = [s for s in own_aside if s.key[:2] == ("tiers", index)]
        set_aside += apply_overrides(merged, wide)
        mine = [*wide, *(_within(o) for o in own if o.loc[:2] == ("tiers", index))]
        try:
            scenario = validate_renamed(
                merged,
                before[index] if before and index < len(before) else None,
                layout_overrides(mine),
                f"tiers[{index}].",
            )
        except ValidationError as exc:
            raise from_validation_error(
                exc,
                source=source,
                document=document,
                overrides=mine,
                relocate=_relocation(data, index),
            ) from None
        applied = [o.text for o in parsed if _is_plan_wide(o) or o.loc[:2] == ("tiers", index)]
        tiers.append(Tier(tier.name, noting_set_aside(scenario, set_aside), tuple(applied)))
    return Plan(checked.name, tuple(tiers))


def _layouts_before(data: dict[str, Any]) -> list[Any]:
    """Each tier's ``layouts`` (its own or the top level's) before any ``--set``, copied."""
    tiers = data.get("tiers")
    if not isinstance(tiers, list):
        return []
    top = data.get("layouts")
    return [
        copy.deepcopy(tier.get("layouts", top) if isinstance(tier, dict) else None)
        for tier in tiers
    ]


def _within(override: Override) -> Override:
    """A ``tiers[i]....`` override at its place in the tier's scenario."""
    return Override(override.text, within_tier(override.loc), override.value)


def _relocation(data: dict[str, Any], index: int) -> Any:
    """Where an error of tier ``index``'s scenario is in the file, and what to say first.

    In the tier when the tier gives the section (or when nobody does: a missing key is
    the tier's to add); at the top level, named as the tier's, when the tier takes it.
    """
    tier = data["tiers"][index]
    here: Loc = ("tiers", index)

    def relocate(loc: Loc) -> tuple[Loc, str]:
        if loc and loc[0] not in tier and loc[0] in data:
            return loc, f"in tier {shown(tier['name'])} (tiers[{index}]), which takes it: "
        return (*here, *loc), ""

    return relocate
