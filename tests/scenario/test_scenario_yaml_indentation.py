"""A mis-indented scenario says what is wrong with the indentation (newcomer review).

ruamel reports "mapping values are not allowed here" for a key indented under a key that
already has a value, and "expected <block end>, but found ..." for a line that lines up
with no level above it: parser words with no hint. Each message below must name the
indentation and the lines involved, on one line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import ScenarioError, load_scenario, load_scenario_text

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
    assert (err.line, err.column) == (3, 5)  # the line to fix, at its text
    assert "mapping values" not in err.message  # ruamel's words (a newcomer's finding)
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


SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def line_of(lines: list[str], start: str) -> int:
    """1-based number of the one line that starts (after its indent) with ``start``."""
    found = [n for n, line in enumerate(lines, 1) if line.lstrip(" ").startswith(start)]
    assert len(found) == 1, (start, found)
    return found[0]


@pytest.mark.parametrize(
    ("name", "key", "above", "extra"),
    [
        # comment lines between the key and the one above it (the review's repro)
        ("ns3574-default.yaml", "latent_defects_per_hour:", "arr: 1.9%", 1),
        ("ns3574-default.yaml", "scrub_hours:", "rebuild_hours: 12", 1),
        ("ns3574-default.yaml", "capacity_tb:", "latent_defects_per_hour:", 2),
        ("example-modern-nl-sas.yaml", "read_errors_per_byte:", "arr: 1%", 1),
        ("example-modern-nl-sas.yaml", "scrub_hours:", "rebuild_hours: 36", 3),
        # a trailing comment on the line above ends its value as a comment line does
        ("example-modern-nl-sas.yaml", "group_size: 16", "- parity: 4", 1),
        ("ns3574-table2-n+1.yaml", "label: n+1 2 (raid10)", "- raid: raid10", 2),
    ],
)
def test_a_key_indented_under_a_value_across_comments_in_a_shipped_scenario(
    tmp_path: Path, name: str, key: str, above: str, extra: int
) -> None:
    lines = (SCENARIOS / name).read_text(encoding="utf-8").splitlines(keepends=True)
    bad, good = line_of(lines, key), line_of(lines, above)
    assert any(line.lstrip().startswith("#") for line in lines[good - 1 : bad - 1]) or (
        " #" in lines[good - 1]
    ), "the case must have a comment between or beside"
    lines[bad - 1] = " " * extra + lines[bad - 1]
    path = tmp_path / name
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    err = info.value
    assert err.line == bad
    assert f"line {bad} is indented under line {good} ({above}" in err.message
    if above.startswith("- "):  # the item's key, not its dash: "like line 8" put it there
        column = lines[good - 1].index("- ") + 3
        key = above.removeprefix("- ").split(":")[0]
        like = f"to column {column}, like {key} on line {good}"
    else:
        like = f"like line {good}"
    assert f"which already has a value: indent it {like}" in err.message
    assert "\n" not in str(err)
    assert len(str(err)) < 300


def test_the_review_repro_from_the_command_line(tmp_path: Path) -> None:
    """`planner evaluate` on the default scenario with one key indented one space too far."""
    lines = (SCENARIOS / "ns3574-default.yaml").read_text(encoding="utf-8").splitlines(True)
    bad, good = line_of(lines, "latent_defects_per_hour:"), line_of(lines, "arr: 1.9%")
    lines[bad - 1] = " " + lines[bad - 1]
    path = tmp_path / "indent.yaml"
    path.write_text("".join(lines), encoding="utf-8")
    result = CliRunner().invoke(app, ["evaluate", str(path)])
    assert result.exit_code == 2
    err = result.stderr.strip()
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1
    assert err.startswith(f"planner: error: {path}:{bad}:")
    assert f"line {bad} is indented under line {good} (arr: 1.9%)" in err


@pytest.mark.parametrize("blank", ["\n", "\n\n", "  \n"])
def test_blank_lines_above_the_bad_key_are_skipped(blank: str) -> None:
    err = rejected(BASE.replace("  latent", blank + "   latent"))
    assert "line 2 (arr: 1.9%), which already has a value" in err.message


def test_the_first_key_pulled_in_below_a_comment_header(tmp_path: Path) -> None:
    """name: indented under the file's header comment: the next top-level key is 'pulled
    back' from it, and the message names both lines."""
    lines = (SCENARIOS / "ns3574-default.yaml").read_text(encoding="utf-8").splitlines(True)
    first, second = line_of(lines, "name:"), line_of(lines, "mission_years:")
    lines[first - 1] = " " + lines[first - 1]
    with pytest.raises(ScenarioError) as info:
        load_scenario_text("".join(lines))
    err = info.value
    assert err.line == second
    assert (
        f"check the indentation of line {second} (column 1; the key on line {first} "
        "is in column 2)" in err.message
    )


@pytest.mark.parametrize("item", ["- raid: raid6", "- raid: raidz3"])
def test_a_list_item_pushed_in_to_the_keys_of_the_item_above(item: str) -> None:
    lines = (SCENARIOS / "example-modern-nl-sas.yaml").read_text(encoding="utf-8")
    lines = lines.splitlines(keepends=True)
    bad = next(n for n, line in enumerate(lines, 1) if line.lstrip().startswith(item))
    dash = lines[bad - 1].index("-") + 1
    lines[bad - 1] = "  " + lines[bad - 1]
    err = rejected("".join(lines))
    assert err.line == bad
    above = max(n for n, line in enumerate(lines[: bad - 1], 1) if line.lstrip().startswith("- "))
    assert (
        f"check the indentation of line {bad} (its '- ' is in column {dash + 2}, line {above}'s "
        f"in column {dash}): the '- ' of one list's items start in one column" in err.message
    )


def test_a_key_pulled_one_space_left_is_the_line_named(tmp_path: Path) -> None:
    """A key indented 1 space where the file uses 2 made the next key the culprit: "line 29
    is indented under line 26 ..., indent it like line 26" (newcomer review)."""
    text = (SCENARIOS / "ns3574-default.yaml").read_text(encoding="utf-8")
    assert text.count("\n  rebuild_hours: 12") == 1
    path = tmp_path / "b.yaml"
    path.write_text(text.replace("\n  rebuild_hours: 12", "\n rebuild_hours: 12"), "utf-8")
    bad = text.splitlines().index("  rebuild_hours: 12") + 1
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    message = info.value.message
    assert f"line {bad} (rebuild_hours: 12) is indented 1 space, the file's keys by 2" in message
    assert "indent it like line" in message
    assert f"like line {bad}" not in message


def test_a_tab_used_to_indent_asks_for_spaces() -> None:
    """Newcomer review: a tab gave "found character '\\t' that cannot start any token" and
    no word of what would be right."""
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(BASE.replace("  arr: 1.9%", "\tarr: 1.9%"), "tab.yaml")
    error = info.value
    assert (error.line, error.column) == (2, 1)
    assert error.message.endswith("indent with spaces: YAML does not allow tabs there")


NEWCOMER = """\
name: 400 TB on 20 TB NL-SAS
mission_years: 5
drive:
  model: nl-sas-20tb
  arr: 1.5%      # our fleet
  price: 380
  watts: 8
restore:
  load: busy
  scrub_hours: 168
aggregate:
  data_disks: 20
layouts:
  - raid: raid10
    label: RAID 10
  - raid: raid6
    group_size: 12
    label: RAID 6 (10+2)
  - raid: raid6
    group_size: 7
baseline: RAID 6 (10+2)
"""
"""The newcomer's file, cut down: lines 4-7 drive's keys, 14-20 the layouts' items."""


def newcomer_with(line: int, new: str) -> str:
    """The newcomer's file with its line ``line`` (1-based) replaced by ``new``."""
    lines = NEWCOMER.splitlines(keepends=True)
    lines[line - 1] = new + "\n"
    return "".join(lines)


@pytest.mark.parametrize(
    ("line", "new", "at", "says", "not_says"),
    [
        # x17.yaml: an item indented 1 space; its own next key (line 15) is no reference
        (14, " - raid: raid10", 14, "line 14 (- raid: raid10) is indented 1 space", None),
        (14, " - raid: raid10", 14, "indent it like line 16", "like line 15"),
        # z3.yaml: a section's first key pulled back to the top level
        (4, "model: nl-sas-20tb", 4, "line 4 (model: nl-sas-20tb) is in the column of line 3", ""),
        (4, "model: nl-sas-20tb", 4, "indent line 4 like line 5", "indent it like line 4"),
        # a list's first item in the column of its key, the other items indented
        (14, "- raid: raid10", 14, "line 14 (- raid: raid10) is in the column of line 13", None),
        (14, "- raid: raid10", 14, "indent line 14 like line 16", "like line 15"),
        # a section's middle key pulled back to the top level, its keys going on below
        (5, "arr: 1.5%      # our fleet", 5, "line 5 (arr: 1.5%) is left of the keys around", None),
        (5, "arr: 1.5%", 5, "indent it like line 6", "indent it like line 5"),
        # ... and its last but one: the next key may be the one pushed in
        (6, "price: 380", 7, "indent line 6 like line 5 if it belongs with the keys above", None),
        # a list item's key pushed in: aligned with the item's key, not its dash
        (17, "       group_size: 12", 17, "indent it to column 5, like raid on line 16", None),
        # ... pulled back between the dash and the key
        (17, "   group_size: 12", 17, "the key on line 16 is in column 5", None),
        # an item's dash pushed in one space
        (16, "   - raid: raid6", 16, "its '- ' is in column 4, line 14's in column 3", None),
    ],
)
def test_an_indentation_hint_names_the_wrong_line_and_a_sibling(
    line: int, new: str, at: int, says: str, not_says: str | None
) -> None:
    """The newcomer's x17.yaml and z3.yaml: the hint named the right line's neighbour, or
    a line to align with that would have made another mistake (a key of the item, a key
    at the top level); and the error's own line:column is the line to fix, not the line
    where parsing failed (a second newcomer's editor jumped to the line after it)."""
    err = rejected(newcomer_with(line, new))
    assert err.line == at, err.message
    assert says in err.message, err.message
    if not_says:
        assert not_says not in err.message, err.message


def test_a_section_key_at_the_top_level_is_told_to_go_under_its_section() -> None:
    """A section's last key pulled back to the top level is valid YAML: an unknown key."""
    err = rejected(newcomer_with(7, "watts: 8"))
    assert err.line == 7
    assert "unknown key 'watts' at the top level: it is a key of drive" in err.message
    assert "indent it under drive:" in err.message
