"""Messages a new user meets, each naming the right key, limit and fix (issue 21, items 9,
10, 12 and 15).

Each case failed first: max_cost 1e308 was accepted (and printed with 309 digits);
max_p_loss 1e-400 was "0 is out of range"; mirrors: yes was pydantic's "Input should be a
valid boolean"; lose-sector had no did-you-mean; children: 1e308 was blamed on group_size
with the group limit; an unknown drive key made a 315-character line; a --set that broke a
cross-check was blamed on the file without naming it; parallel_rebuilds took different
words in the file, the TUI and derive; a catalogue drive without a rate was told to give
"(or a drive.model)", which it had.
"""

from __future__ import annotations

import pytest

from planner.scenario import ScenarioError, load_scenario_text
from planner.scenario.edits import EditError, field_specs, parse_text, with_value
from planner.scenario.restore import MAX_REBUILD_STREAMS

BASE = """\
name: clarity
drive:
  arr: 2%
  latent_defects_per_hour: 1e-5
  capacity_tb: 10
  price: 300
restore:
  rebuild_hours: 24
  scrub_hours: 168
aggregate:
  data_disks: 24
layouts:
  - raid: raid6
    group_size: 8
  - raid: draid2
    data: 8
    children: 48
    spares: 2
target:
  max_p_loss: 0.01%
search:
  mirrors: true
"""

PLANNER_PREFIX = len("planner: error: ")


def rejected(old: str, new: str, overrides: tuple[str, ...] = ()) -> ScenarioError:
    assert BASE.count(old) == 1, old
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(BASE.replace(old, new), "s.yaml", overrides)
    error = caught.value
    assert PLANNER_PREFIX + len(str(error)) < 300, str(error)
    return error


def test_a_budget_has_an_upper_bound() -> None:
    error = rejected("  max_p_loss: 0.01%\n", "  max_p_loss: 0.01%\n  max_cost: 1e308\n")
    assert error.field == "target.max_cost"
    assert "1e+308 is out of range: must be at most 1e+15" in error.message


def test_a_number_too_small_to_hold_is_not_called_zero() -> None:
    error = rejected("max_p_loss: 0.01%", "max_p_loss: 1e-400")
    assert error.field == "target.max_p_loss"
    assert (error.line, error.column) == (20, 15)
    assert "1e-400" in error.message
    assert "reads as 0" in error.message
    assert not error.message.startswith("0 is out of range")


def test_a_number_too_large_to_hold_is_named() -> None:
    error = rejected("capacity_tb: 10", "capacity_tb: 1e400")
    assert error.field == "drive.capacity_tb"
    assert "1e400" in error.message
    assert "infinity" in error.message


@pytest.mark.parametrize(("word", "meant"), [("yes", "true"), ("No", "false"), ("on", "true")])
def test_a_yaml_11_boolean_is_explained(word: str, meant: str) -> None:
    error = rejected("mirrors: true", f"mirrors: {word}")
    assert error.field == "search.mirrors"
    assert "Input should be" not in error.message
    assert f"write {meant}" in error.message
    assert "true or false" in error.message


def test_a_boolean_of_another_kind_is_plain() -> None:
    error = rejected("mirrors: true", "mirrors: 3")
    assert "expected true or false, got 3" in error.message


def test_a_choice_gets_a_did_you_mean() -> None:
    error = rejected(
        "  scrub_hours: 168\n", "  scrub_hours: 168\n  on_unreadable_sector: lose-sector\n"
    )
    assert error.field == "restore.on_unreadable_sector"
    assert "did you mean 'lose-sectors'?" in error.message
    assert "Input should be" not in error.message


def test_a_huge_children_names_children_and_its_limit() -> None:
    error = rejected("children: 48", "children: 1e308")
    assert error.field == "layouts[1].children"
    assert (error.line, error.column) == (17, 15)
    assert "at most 255" in error.message
    assert "1000" not in error.message


def test_an_unknown_drive_key_is_a_short_line() -> None:
    error = rejected("  arr: 2%\n", "  arr: 2%\n  frobnicate_the_widgets_please: 3\n")
    assert error.field == "drive.frobnicate_the_widgets_please"
    assert "unknown key" in error.message
    assert "…" not in str(error)  # the list of keys is cut at a whole name, not mid-word
    assert "planner schema" in error.message


def test_a_set_that_breaks_a_cross_check_is_named() -> None:
    error = rejected("name: clarity", "name: clarity", ("layouts[1].spares=100",))
    assert "--set layouts[1].spares=100" in str(error)
    assert "children must be at least 110" in str(error)


def test_a_catalogue_drive_without_a_rate_names_the_key_to_add() -> None:
    text = BASE.replace("  capacity_tb: 10\n", "  model: sas-10k-2.4tb\n").replace(
        "  rebuild_hours: 24\n", ""
    )
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, "s.yaml")
    error = caught.value
    assert "(or a drive.model)" not in error.message
    assert "sas-10k-2.4tb" in error.message
    assert "drive.sustained_mb_per_s" in error.message
    assert error.field == "drive.model"


# One grammar for parallel_rebuilds: a whole number of streams from 1 to 64, or all
# (true and false, the file's booleans, read as all and 1 everywhere too).
ACCEPTED = [
    ("all", None),
    ("ALL", None),
    ("true", None),
    ("false", 1),
    ("1", 1),
    ("2", 2),
    ("64", 64),
]
REFUSED = ["0", "yes", "no", "one", "65", "-1"]


def _file(value: str) -> int | None:
    text = BASE.replace(
        "  scrub_hours: 168\n", f"  scrub_hours: 168\n  parallel_rebuilds: {value}\n"
    )
    return load_scenario_text(text, "s.yaml").restore.rebuild_streams


def _tui(value: str) -> int | None:
    scenario = load_scenario_text(BASE, "s.yaml")
    spec = next(s for s in field_specs(scenario) if s.path == ("restore", "parallel_rebuilds"))
    return with_value(scenario, spec, parse_text(spec, value)).restore.rebuild_streams


@pytest.mark.parametrize(("value", "streams"), ACCEPTED)
def test_the_file_and_the_tui_take_the_same_words(value: str, streams: int | None) -> None:
    assert _file(value) == streams
    assert _tui(value) == streams


@pytest.mark.parametrize("value", REFUSED)
def test_the_file_and_the_tui_refuse_the_same_words(value: str) -> None:
    with pytest.raises(ScenarioError) as in_file:
        _file(value)
    assert f"from 1 to {MAX_REBUILD_STREAMS}" in in_file.value.message
    assert "or all" in in_file.value.message
    with pytest.raises(EditError) as in_tui:
        _tui(value)
    assert f"from 1 to {MAX_REBUILD_STREAMS}, or all" in str(in_tui.value)


def test_a_target_below_fifteen_nines_is_refused() -> None:
    # found by the fuzz suite: 5e-324 overflowed the ratio by which a candidate misses it
    error = rejected("max_p_loss: 0.01%", "max_p_loss: 5e-324")
    assert error.field == "target.max_p_loss"
    assert "must be at least 1e-15" in error.message
