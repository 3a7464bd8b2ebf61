"""The add-layout form names the least group size of the layout chosen, at the first refusal.

A newcomer typed 1 for a RAID 6 group and read "must be at least 2"; typing 2 then said
"must be at least 3". The least size depends on the parity: the first refusal says it.
"""

from __future__ import annotations

import pytest

from planner.scenario import load_default_scenario
from planner.scenario.edits import EditError
from planner.scenario.layout_edits import with_layout_typed

DEFAULT = load_default_scenario()


@pytest.mark.parametrize(
    ("raid", "parity", "typed", "least"),
    [("raid6", "", "1", 3), ("raid-tp", "", "-4", 4), (None, "4", "0", 5)],
)
def test_a_group_too_small_for_its_parity_is_refused_with_its_least_size(
    raid: str | None, parity: str, typed: str, least: int
) -> None:
    with pytest.raises(EditError) as refused:
        with_layout_typed(DEFAULT, raid, parity=parity, group_size=typed)
    message = str(refused.value)
    assert message.startswith(f"group size: {typed} is out of range: must be at least {least}")


def test_a_size_from_2_up_to_the_parity_keeps_the_models_refusal_naming_the_least() -> None:
    with pytest.raises(EditError) as refused:
        with_layout_typed(DEFAULT, "raid6", group_size="2")
    assert "group_size must be at least 3" in str(refused.value)


def test_the_least_size_is_accepted() -> None:
    edited = with_layout_typed(DEFAULT, "raid6", group_size="3")
    assert (edited.layouts[-1].parity, edited.layouts[-1].group_size) == (2, 3)
