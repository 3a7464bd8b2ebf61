"""Commas in typed numbers: one rule for the main fields and the add-layout form.

``1,000`` groups thousands and reads as 1000; a decimal comma (``1,9%``, ``1,5``) is refused.
The add-layout form refused ``1,000`` as a group size (``'1,000' is not a whole number``)
while the main fields read it, and the fields' decimal-comma refusal did not start as the
file's and ``--set``'s for the same mistake (``'1,9%' is not a number; ...``) (newcomer
review).
"""

from __future__ import annotations

import pytest

from planner.scenario import load_default_scenario, load_scenario_text
from planner.scenario.edits import EditError, field_specs, parse_text
from planner.scenario.errors import ScenarioError
from planner.scenario.layout_edits import with_layout_typed

DEFAULT = load_default_scenario()


@pytest.mark.parametrize("typed", ["1,000", "1_000", " 1,000 "])
def test_the_form_reads_a_thousands_separator_in_the_group_size(typed: str) -> None:
    edited = with_layout_typed(DEFAULT, "raid6", group_size=typed)
    assert len(edited.layouts) == len(DEFAULT.layouts) + 1
    assert edited.layouts[-1].group_size == 1000
    assert edited.layouts[-1].parity == 2


def test_every_form_input_reads_thousands_as_the_main_fields_do() -> None:
    custom = with_layout_typed(DEFAULT, None, parity="1", group_size="1,000")
    assert (custom.layouts[-1].parity, custom.layouts[-1].group_size) == (1, 1000)
    pool = with_layout_typed(DEFAULT, "draid2", group_size="48", data="8", spares="2")
    same = with_layout_typed(DEFAULT, "draid2", group_size="4_8", data="8", spares="2")
    assert same.layouts[-1] == pool.layouts[-1]
    # A value read but out of range is echoed as typed, with its comma.
    with pytest.raises(EditError) as refused:
        with_layout_typed(DEFAULT, "draid2", group_size="1,000")
    assert str(refused.value).startswith("children: 1,000 is out of range")
    with pytest.raises(EditError) as refused:
        with_layout_typed(DEFAULT, "draid2", group_size="48", spares="1,000")
    assert str(refused.value).startswith("spares: 1,000 is out of range")


@pytest.mark.parametrize(
    ("preset", "inputs", "name"),
    [
        ("raid6", {"group_size": "1,5"}, "group size"),
        ("raid6", {"group_size": "12,0"}, "group size"),
        (None, {"parity": "1,0", "group_size": "8"}, "parity"),
        ("draid2", {"group_size": "48", "data": "8,5"}, "data per stripe"),
    ],
)
def test_the_form_refuses_a_decimal_comma_as_the_main_fields_do(
    preset: str | None, inputs: dict[str, str], name: str
) -> None:
    typed = next(text for text in inputs.values() if "," in text)
    with pytest.raises(EditError) as refused:
        with_layout_typed(DEFAULT, preset, **inputs)
    message = str(refused.value)
    assert message.startswith(f"{name}: '{typed}' is not a number: ")
    assert "decimal point" in message


def test_a_decimal_comma_is_refused_in_the_file_s_words_with_the_comma_hint() -> None:
    text = (
        "name: x\ndrive:\n  arr: 1,9%\n  latent_defects_per_hour: 1e-4\n"
        "restore:\n  rebuild_hours: 12\n  scrub_hours: 168\n"
        "aggregate:\n  data_disks: 42\nlayouts:\n  - raid: raid6\n    group_size: 8\n"
    )
    with pytest.raises(ScenarioError) as in_file:
        load_scenario_text(text)
    assert "'1,9%' is not a number" in str(in_file.value)
    arr = next(s for s in field_specs(DEFAULT) if s.path == ("drive", "arr"))
    with pytest.raises(EditError) as typed:
        parse_text(arr, "1,9%")
    message = str(typed.value)
    assert message.startswith("'1,9%' is not a number: ")
    assert "write the decimal point as '.'" in message
    assert "a comma only groups thousands" in message
