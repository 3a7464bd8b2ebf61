"""A group too small for its layout is refused the first time with the least size it takes.

A newcomer wrote ``raid: raid6, group_size: 1`` and read "must be at least 2" (the field's own
bound, checked before the layout's parity was known); writing 2 then said "at least 3". A
dRAID pool of ``children: 1`` was told "at least 2" twice (children and group_size), then
"at least 3", then its real least, the stripe and its spares.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.scenario import ScenarioError, load_scenario

TEXT = """\
name: least
drive: {arr: 2%, latent_defects_per_hour: 1.08e-4}
restore: {rebuild_hours: 12, scrub_hours: 168}
aggregate: {data_disks: 40}
layouts:
  - {layout}
"""

RAID6_LEAST = "must be at least 3 (2 parity drives and at least one data drive)"


def _rejected(tmp_path: Path, layout: str, *overrides: str) -> ScenarioError:
    path = tmp_path / "s.yaml"
    path.write_text(TEXT.replace("{layout}", layout), encoding="utf-8")
    with pytest.raises(ScenarioError) as refused:
        load_scenario(path, overrides)
    return refused.value


@pytest.mark.parametrize(
    ("layout", "field", "message"),
    [
        ("{raid: raid6, group_size: 1}", "group_size", f"1 is out of range: {RAID6_LEAST}"),
        ("{parity: 2, group_size: 1}", "group_size", f"1 is out of range: {RAID6_LEAST}"),
        ("{raid: raid6, group_size: 1.0}", "group_size", f"1 is out of range: {RAID6_LEAST}"),
        (
            "{parity: 4, group_size: -4}",
            "group_size",
            "-4 is out of range: must be at least 5 (4 parity drives and at least one data drive)",
        ),
        (
            "{raid: raid5, group_size: 0}",
            "group_size",
            "0 is out of range: must be at least 2 (1 parity drive and at least one data drive)",
        ),
        (
            "{raid: raid-tp, group_size: 3}",
            "group_size",
            "a group of 3 drives cannot hold 3 parity drives and data; group_size must be at "
            "least 4",
        ),
        (
            "{raid: raid10, group_size: 1}",
            "group_size",
            "raid10 groups always have 2 drives, not 1; drop group_size or use another preset",
        ),
        (
            "{raid: draid2, children: 1}",
            "children",
            "a stripe of 8 data + 2 parity does not fit in 1 children less 0 spare(s); "
            "children must be at least 10, or lower data",
        ),
        (
            "{raid: draid2, children: 2}",
            "children",
            "a stripe of 8 data + 2 parity does not fit in 2 children less 0 spare(s); "
            "children must be at least 10, or lower data",
        ),
        (
            "{raid: draid1, data: 4, spares: 1, group_size: 0}",
            "children",
            "a stripe of 4 data + 1 parity does not fit in 0 children less 1 spare(s); "
            "children must be at least 6, or lower data",
        ),
    ],
)
def test_the_first_refusal_names_the_layouts_least_size(
    tmp_path: Path, layout: str, field: str, message: str
) -> None:
    error = _rejected(tmp_path, layout)
    assert (error.field, error.message) == (f"layouts[0].{field}", message)
    assert error.all_errors == (error,)  # one mistake, told once


def test_a_file_error_keeps_its_position_and_the_other_problems_of_the_layout(
    tmp_path: Path,
) -> None:
    error = _rejected(tmp_path, "{raid: raid6, group_size: 1, write_penalty: -1}")
    assert str(error).startswith(
        f"{tmp_path / 's.yaml'}:6:31: layouts[0].group_size: 1 is out of range: {RAID6_LEAST}"
    )
    assert [e.field for e in error.all_errors] == [
        "layouts[0].group_size",
        "layouts[0].write_penalty",
    ]


def test_an_override_is_told_the_least_size_too(tmp_path: Path) -> None:
    error = _rejected(tmp_path, "{raid: raid6, group_size: 12}", "layouts[0].group_size=1")
    assert str(error) == (
        f"--set layouts[0].group_size=1: layouts[0].group_size: 1 is out of range: {RAID6_LEAST}"
    )


@pytest.mark.parametrize(
    ("layout", "size"),
    [
        ("{raid: raid6, group_size: 3}", 3),
        ("{parity: 4, group_size: 5}", 5),
        ("{raid: raid5, group_size: 2}", 2),
        ("{raid: draid2, children: 10}", 10),
        ("{raid: draid1, data: 4, spares: 1, group_size: 6}", 6),
    ],
)
def test_the_least_size_named_is_accepted(tmp_path: Path, layout: str, size: int) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(TEXT.replace("{layout}", layout), encoding="utf-8")
    assert load_scenario(path).layouts[0].group_size == size
