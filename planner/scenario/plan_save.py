"""Writing an edited plan back into its YAML text, keeping the user's comments.

Each tier that changed is written as a single scenario is (:func:`planner.scenario.save.
update_document`), into the tier's own mapping. A section the tier took from the top level
and now changes becomes the tier's own (a copy of the top level's, then edited), so the
other tiers keep what they had; a value the tier cleared where the top level gives one is
written as ``null``, so that the top level's does not come back. The mission is the plan's:
it is written at the top level.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from planner.scenario.edits import FieldPath
from planner.scenario.plan import Plan
from planner.scenario.save import added_key, dump_like, move_lines_after, update_document
from planner.scenario.schema import Scenario
from planner.scenario.tiers import TIER_KEYS

MISSION: FieldPath = ("mission_years",)


def updated_plan_text(
    document: CommentedMap,
    original_text: str,
    original: Plan,
    plan: Plan,
    typed: Mapping[int, Mapping[FieldPath, Any]],
) -> str:
    """The YAML text of ``document`` (which validates to ``original``) edited to ``plan``.

    Args:
        document: the round-trip document of ``original_text`` (edited in place).
        original_text: the text it was read from (its indentation is kept).
        original: the plan the document validates to.
        plan: the plan to write (the same tiers, in the same order).
        typed: by tier index, the YAML value the user typed per field (``"4%"``).
    """
    update_plan_document(document, original, plan, typed)
    return dump_like(document, original_text)


def update_plan_document(
    document: CommentedMap,
    original: Plan,
    plan: Plan,
    typed: Mapping[int, Mapping[FieldPath, Any]],
) -> None:
    """Change in ``document`` (which validates to ``original``) what differs in ``plan``."""
    if plan.mission_years != original.mission_years:
        typed_mission = [t[MISSION] for t in typed.values() if MISSION in t]
        _set_key(document, "mission_years", (typed_mission or [plan.mission_years])[-1])
    nodes = document["tiers"]
    for index, (before, after) in enumerate(zip(original.tiers, plan.tiers, strict=True)):
        old = before.scenario
        new = after.scenario.model_copy(update={"mission_years": old.mission_years})
        if new == old:
            continue
        node = nodes[index]
        for key in TIER_KEYS:
            inherited = key not in node and document.get(key) is not None
            if inherited and getattr(old, key) != getattr(new, key):
                # the tier's own copy, edited below: the other tiers keep the top level's
                _set_key(node, key, _plain_copy(document[key]))
        mine = {path: value for path, value in typed.get(index, {}).items() if path != MISSION}
        update_document(node, old, new, mine)
        _keep_cleared(document, node, new)


def _set_key(mapping: CommentedMap, key: str, value: Any) -> None:
    """``mapping[key] = value``; a new last key takes the lines that ended the mapping."""
    added = added_key(mapping, key)
    mapping[key] = value
    if added is not None:
        move_lines_after(*added)


def _plain_copy(node: Any) -> Any:
    """A copy of a document's mapping or list without its comments (they stay where they are)."""
    if isinstance(node, dict):
        copy = CommentedMap()
        for key, value in node.items():
            copy[key] = _plain_copy(value)
        return copy
    if isinstance(node, list):
        return CommentedSeq(_plain_copy(value) for value in node)
    return node


def _keep_cleared(document: CommentedMap, node: CommentedMap, scenario: Scenario) -> None:
    """Write ``key: null`` in the tier for a section it cleared that the top level gives."""
    for key in TIER_KEYS:
        if getattr(scenario, key) is None and key not in node and document.get(key) is not None:
            _set_key(node, key, None)
