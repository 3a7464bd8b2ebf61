"""Editing a validated scenario's layouts: add, remove, choose the baseline.

The TUI's add-layout form and its remove and baseline keys, and ``planner design``'s adding
of a searched candidate. As every edit (:mod:`planner.scenario.edits`), each goes through the
scenario's own model, so it accepts what a scenario file accepts and refuses in its words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from planner.core.arrays.presets import PRESETS
from planner.scenario.edits import EditError, revalidate, scenario_data, without_separators
from planner.scenario.errors import show_value, shown
from planner.scenario.schema import Scenario

if TYPE_CHECKING:
    from planner.core.arrays.layouts import Layout


def with_layout_added(
    scenario: Scenario,
    *,
    raid: str | None,
    parity: int | None,
    group_size: int | None,
    data: int | None = None,
    spares: int | None = None,
    write_penalty: float | None = None,
) -> Scenario:
    """A copy with one more layout (a preset, or ``parity`` + ``group_size``).

    A declustered preset (``draid2``) takes the pool's drives as ``group_size`` and its
    stripe's ``data`` blocks and distributed ``spares`` (OpenZFS defaults when None).
    ``write_penalty``: the layout's own, for sizing (None: its preset's).
    """
    layout: dict[str, Any] = {}
    if raid:
        layout["raid"] = raid
    if parity is not None:
        layout["parity"] = parity
    if group_size is not None:
        layout["group_size"] = group_size
    if data is not None:
        layout["data"] = data
    if spares is not None:
        layout["spares"] = spares
    if write_penalty is not None:
        layout["write_penalty"] = write_penalty
    document = scenario_data(scenario)
    document["layouts"].append(layout)
    return revalidate(document, ("layouts", str(len(document["layouts"]) - 1)))


LAYOUT_INPUTS: dict[str, str] = {
    "parity": "parity",
    "group_size": "group size",
    "data": "data per stripe",
    "spares": "spares",
}
"""The add-layout form's inputs by layout key, as its messages name them (a declustered
pool's group size is its ``children``)."""

_LAYOUT_INPUT_OF = {"children": "group_size", **{key: key for key in LAYOUT_INPUTS}}
"""The form's input a refused layout field was typed in."""


def with_layout_typed(
    scenario: Scenario,
    raid: str | None,
    *,
    parity: str = "",
    group_size: str = "",
    data: str = "",
    spares: str = "",
) -> Scenario:
    """A copy with the layout of the add-layout form, from the texts as typed.

    ``raid`` is a preset, or None for a custom layout of ``parity`` k. Only the inputs the
    layout takes are read: parity for a custom layout, data and spares for a declustered
    preset. A refusal starts with the input's name (:data:`LAYOUT_INPUTS`; children for a
    pool's drives) and shows the value as it was typed, not as the model read it
    (99999999999999999999, not 1e+20).
    """
    preset = PRESETS.get(raid) if raid is not None else None
    declustered = preset is not None and preset.declustered
    names = {**LAYOUT_INPUTS, "group_size": "children" if declustered else "group size"}
    texts = {"group_size": group_size.strip()}
    if raid is None:
        texts["parity"] = parity.strip()
    if declustered:
        texts.update(data=data.strip(), spares=spares.strip())
    values = {key: _whole(text, names[key]) for key, text in texts.items()}
    if raid is None and values["parity"] is None:
        raise EditError(
            f"{names['parity']}: required for a custom layout: type the parity drives per "
            "group, e.g. 3"
        )
    try:
        return with_layout_added(
            scenario,
            raid=raid,
            parity=values.get("parity"),
            group_size=values["group_size"],
            data=values.get("data"),
            spares=values.get("spares"),
        )
    except EditError as problem:
        key = _LAYOUT_INPUT_OF.get((problem.field or "").rsplit(".", 1)[-1])
        if key is None:
            raise
        message = str(problem)
        value = values.get(key)
        if value is not None and message.startswith(f"{show_value(value)} "):
            message = shown(texts[key], quote=False) + message[len(show_value(value)) :]
        raise EditError(f"{names[key]}: {message}", problem.field) from None


def _whole(text: str, name: str) -> int | None:
    """A whole number typed in the form's input ``name``, None when empty; else EditError.

    Commas and underscores follow the main fields' rule (:func:`without_separators`):
    ``1,000`` is 1000, a decimal comma (``1,5``) is refused.
    """
    if not text:
        return None
    try:
        plain = without_separators(text)
    except EditError as problem:
        raise EditError(f"{name}: {problem}") from None
    try:
        return int(plain)
    except ValueError:
        raise EditError(f"{name}: {shown(text)} is not a whole number") from None


def with_core_layout_added(
    scenario: Scenario, layout: Layout, write_penalty: float | None = None
) -> Scenario:
    """A copy with the core ``layout`` added under its default label (a searched candidate).

    A preset keeps its name; a plain layout is ``parity`` + ``group_size``; a pool keeps
    its stripe and spares; ``write_penalty``, the one it was sized at (None: its preset's).
    """
    declustered = layout.declustered
    return with_layout_added(
        scenario,
        raid=layout.raid,
        parity=None if layout.raid is not None else layout.parity,
        group_size=layout.group_size,
        data=None if declustered is None else declustered.data,
        spares=None if declustered is None else declustered.spares,
        write_penalty=write_penalty,
    )


def with_layout_removed(scenario: Scenario, label: str, fallback: str | None = None) -> Scenario:
    """A copy without the layout ``label``.

    When ``label`` is the baseline, the baseline becomes ``fallback`` (the scenario file's
    ``baseline:``) if that layout is still there, else the first layout.
    """
    data = scenario_data(scenario)
    remaining = [item for item in data["layouts"] if item["label"] != label]
    if not remaining:
        raise EditError("the last layout cannot be removed; add another one first")
    data["layouts"] = remaining
    if scenario.baseline_label() == label:
        if fallback is not None and any(item["label"] == fallback for item in remaining):
            data["baseline"] = fallback
        else:
            data.pop("baseline", None)
    return revalidate(data)


def with_baseline(scenario: Scenario, label: str) -> Scenario:
    """A copy whose relative risks are measured against the layout ``label``."""
    data = scenario_data(scenario)
    data["baseline"] = label
    return revalidate(data, ("baseline",))
