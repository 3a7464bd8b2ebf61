"""A mis-indented scenario says what is wrong with the indentation (newcomer review).

ruamel reports "mapping values are not allowed here" for a key indented under a key that
already has a value, and "expected <block end>, but found ..." for a line that lines up
with no level above it: parser words with no hint. Each message below must name the
indentation and the lines involved, on one line.
"""

from __future__ import annotations

import pytest

from planner.scenario import ScenarioError, load_scenario_text

BASE = """\
drive:
  arr: 1.9%
  latent_defects_per_hour: 1.08e-4
restore: {rebuild_hours: 12, scrub_hours: 168}
aggregate:
  data_disks: 42
layouts:
  - raid: raid5
    group_size: 8
"""


def rejected(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text)
    message = str(info.value)
    assert "\n" not in message
    assert len(message) < 300, message
    return info.value


def test_a_key_indented_under_a_key_with_a_value() -> None:
    err = rejected(BASE.replace("  latent_defects_per_hour", "    latent_defects_per_hour"))
    assert err.line == 3
    assert "mapping values are not allowed here" in err.message
    assert "line 3 is indented under line 2 (arr: 1.9%), which already has a value" in (err.message)
    assert "indent it like line 2" in err.message


def test_a_key_of_a_list_item_indented_under_a_value() -> None:
    err = rejected(BASE.replace("    group_size: 8", "      group_size: 8"))
    assert err.line == 9
    assert "line 9 is indented under line 8 (- raid: raid5)" in err.message


def test_a_colon_inside_a_value_asks_for_quotes() -> None:
    err = rejected("name: RAID: the comparison\n" + BASE)
    assert err.line == 1
    assert "quotes" in err.message
    assert "indented under" not in err.message


ABOVE = "the key on line {} is in column {}"


@pytest.mark.parametrize(
    ("old", "new", "line", "column", "above"),
    [
        # between the levels of drive: (0) and arr: (2)
        ("  latent_defects_per_hour", " latent_defects_per_hour", 3, 2, ABOVE.format(2, 3)),
        # deeper than its siblings but after a nested mapping ended
        ("  data_disks: 42", "  data_disks: 42\n data_disks_spare: 1", 7, 2, ABOVE.format(6, 3)),
        # a list item's key pulled back to the dash
        ("    group_size: 8", "   group_size: 8", 9, 4, ABOVE.format(8, 5)),
    ],
)
def test_a_line_that_lines_up_with_no_level_above(
    old: str, new: str, line: int, column: int, above: str
) -> None:
    err = rejected(BASE.replace(old, new))
    assert err.line == line
    assert f"check the indentation of line {line} (column {column}; {above})" in err.message
    assert "keys of one mapping start in one column" in err.message


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("  latent_defects_per_hour: 1.08e-4", '  "latent" x: 1.08e-4', 3),  # beside arr
        ("  arr: 1.9%", '  "arr" x: 1.9%', 2),  # the first key of drive:
    ],
)
def test_a_bad_key_in_the_right_column_gets_no_indentation_hint(
    old: str, new: str, line: int
) -> None:
    err = rejected(BASE.replace(old, new))
    assert err.line == line
    assert "indentation" not in err.message
