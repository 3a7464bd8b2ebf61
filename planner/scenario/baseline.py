"""The baseline's check: it must name a layout, and a layout a ``--set`` renamed is named.

The scenario's validator calls :func:`check_baseline`; the loader's
:func:`planner.scenario.overrides.validate_overridden` finds which layout an override
renamed and passes it in the validation context (:data:`RENAMED_LAYOUTS`).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from planner.scenario.base import FieldError
from planner.scenario.errors import closest_label, shown

RENAMED_LAYOUTS = "renamed_layouts"
"""The validation context's key for the layouts ``--set`` renamed: {old label: :class:`Renamed`}."""


@dataclass(frozen=True)
class Renamed:
    """A layout a ``--set`` renamed: which one (``index``), by what, and its new label."""

    index: int
    by: str
    """The override that renamed it, as errors name it: ``--set layouts[2].group_size=12``."""
    label: str
    prefix: str = ""
    """Where the scenario sits in a plan (``tiers[1].``), so the suggested fixes reach it."""

    def baseline_message(self, baseline: str) -> str:
        """Why ``baseline``, the layout's old label, names no layout, and the two fixes.

        The fixes are written to be pasted into a shell (quoted with :func:`shlex.quote`).
        """
        rebase = shlex.quote(f"{self.prefix}baseline={self.label}")
        keep = shlex.quote(f"{self.prefix}layouts[{self.index}].label={baseline}")
        return (
            f"baseline {shown(baseline)} names no layout: {self.by} made it {shown(self.label)}; "
            f"add --set {rebase} (or --set {keep} to keep its name)"
        )


def check_baseline(
    baseline: str,
    labels: Sequence[str],
    context: Mapping[str, Any] | None,
    aliases: Mapping[str, str] | None = None,
) -> None:
    """Raise FieldError (at ``baseline``) unless ``baseline`` is one of ``labels``.

    When an override renamed the layout it named (``context``'s :data:`RENAMED_LAYOUTS`),
    the error names that override and the new label; else it suggests the closest label
    (``aliases``: each layout's preset and width, :func:`closest_label`).
    """
    if baseline in labels:
        return
    renamed = (context or {}).get(RENAMED_LAYOUTS, {}).get(baseline)
    if isinstance(renamed, Renamed) and renamed.label in labels:
        raise FieldError(renamed.baseline_message(baseline), "baseline")
    near = closest_label(baseline, labels, aliases)
    hint = f"did you mean {near!r}? " if near is not None else ""
    raise FieldError(
        f"baseline {shown(baseline)} names no layout; {hint}"
        f"layouts: {', '.join(shown(label) for label in labels)}",
        "baseline",
    )
