"""The title bar's line fitted to the width: the scenario's name gives way first.

At 80 columns a plan's long name with the unsaved mark in front pushed the file name off
the right edge (newcomer review); the Pilot check of that is in test_tui_tiers' 80x24
session. This checks :func:`fitted_title` against titles written out by hand.
"""

from __future__ import annotations

from planner.tui.title_bar import TitleParts, fitted_title


def test_the_title_gives_up_the_name_before_the_mark_or_the_file() -> None:
    parts = TitleParts(unsaved=True, name="Three tiers, SSD", source="plan.yaml")
    assert fitted_title(parts, 80) == "planner · ● Three tiers, SSD (plan.yaml)"
    assert fitted_title(parts, 30) == "planner · ● Three… (plan.yaml)"
    assert fitted_title(parts, 16) == "● T… (plan.yaml)"  # the app's name goes too
    assert fitted_title(parts, 10) == "● (plan.yaml)"  # the file at least, cut at the edge
    # no space or comma left before the ellipsis ("Three …", "Three tiers,…")
    saved = parts._replace(unsaved=False)
    assert fitted_title(saved, 29) == "planner · Three… (plan.yaml)"
    assert fitted_title(saved, 35) == "planner · Three tiers… (plan.yaml)"
