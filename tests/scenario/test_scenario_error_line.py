"""An error line keeps its message whole: a deep folder shortens the path, not the hint.

The location was kept whole up to 120 characters and the message cut to the rest, so a
scenario 145 characters deep lost its file name, line and column and the end of a long
message, which is the hint (what would be right).
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from planner.cli import app
from planner.scenario import ScenarioError, load_scenario
from planner.scenario.errors import MAX_LOCATION_CHARS, MAX_MESSAGE_CHARS

TEXT = """\
name: deep
drive: {arr: 2%, latent_defects_per_hour: 1.08e-4}
restore: {rebuild_hours: 12, scrub_hours: 168}
aggregate: {data_disks: 40}
layouts:
  - raid: raid55
    group_size: 8
"""

HINT_END = "draid1, draid2, draid3)"
"""The last words of the unknown preset's hint: the list of presets it knows."""


def _deep_scenario(tmp_path: Path) -> Path:
    folder = tmp_path.joinpath(*(f"deep-folder-{i:02d}" for i in range(1, 10)))
    folder.mkdir(parents=True)
    path = folder / "scenario.yaml"
    path.write_text(TEXT, encoding="utf-8")
    assert len(str(path)) >= 150
    return path


def _rejected(path: Path) -> ScenarioError:
    try:
        load_scenario(path)
    except ScenarioError as error:
        return error
    raise AssertionError("the scenario was accepted")


def test_a_deep_path_is_shortened_from_its_left_and_the_hint_kept_whole(tmp_path: Path) -> None:
    path = _deep_scenario(tmp_path)
    error = _rejected(path)
    line = str(error)
    assert line.endswith(f": layouts[0].raid: {error.message}"), line
    assert error.message.endswith(HINT_END)
    assert len(f"planner: error: {line}") < 300
    location = line[: -len(f": layouts[0].raid: {error.message}")]
    assert location.startswith("…/")
    assert location.endswith(f"{os.sep}deep-folder-09{os.sep}scenario.yaml:6:11")
    assert str(path).endswith(location[1:].rsplit(":", 2)[0])
    # just enough: the folder before the ones kept would not have fitted
    kept = location[2:].rsplit(":", 2)[0]
    next_folder = str(path)[: -len(kept) - 1].rsplit(os.sep, 1)[-1]
    assert len(line) + len(next_folder) + 1 > MAX_MESSAGE_CHARS


def test_the_command_line_shows_the_hint_whole_from_a_deep_folder(tmp_path: Path) -> None:
    path = _deep_scenario(tmp_path)
    for command in ("validate", "evaluate"):
        result = CliRunner().invoke(app, [command, str(path)])
        assert result.exit_code == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith("planner: error: …/")
        assert lines[0].endswith(HINT_END)
        assert len(lines[0]) < 300


def test_a_path_that_fits_stays_whole(tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text(TEXT, encoding="utf-8")
    error = _rejected(path)
    assert str(error) == f"{path}:6:11: layouts[0].raid: {error.message}"


def test_a_message_too_long_for_any_path_is_cut_and_the_path_keeps_its_room() -> None:
    """As before: the location takes up to 120 characters, the message the rest."""
    folders = [f"folder-{i:03d}" for i in range(30)]
    path = os.sep.join(["", *folders, "scenario.yaml"])
    message = "x" * 250 + " the end"
    line = ScenarioError(message, path=path, line=26, column=3, field="drive.arr").line_text()
    location, rest = line.split(": drive.arr: ")
    assert location.startswith(f"…{os.sep}folder-")
    assert location.endswith(f"{os.sep}folder-029{os.sep}scenario.yaml:26:3")
    assert MAX_LOCATION_CHARS - len(folders[0]) - 1 < len(location) <= MAX_LOCATION_CHARS
    assert rest.startswith("xxx")
    assert rest.endswith("x…")
    assert len(line) == MAX_MESSAGE_CHARS
    short = f"{os.sep}tmp{os.sep}s.yaml"
    line = ScenarioError(message, path=short, line=26, column=3, field="drive.arr").line_text()
    assert line.startswith(f"{short}:26:3: drive.arr: xxx")


def test_a_file_name_too_long_for_the_location_is_cut_from_its_left() -> None:
    path = os.sep.join(["", "tmp", "n" * 200 + ".yaml"])
    line = ScenarioError("z" * 300, path=path, line=1, column=2).line_text()
    assert line.startswith("…nnn")
    assert line.index(".yaml:1:2: zzz") == MAX_LOCATION_CHARS - len(".yaml:1:2")


def test_the_others_found_are_still_counted_after_a_shortened_path() -> None:
    path = os.sep.join(["", *(f"folder-{i:03d}" for i in range(30)), "scenario.yaml"])
    error = ScenarioError("y" * 150 + " hint", path=path, line=2, column=1, field="name")
    error.all_errors = (error, error, error)
    line = str(error)
    assert line.endswith("y hint (and 2 more: planner validate lists them)")
    assert line.startswith("…")
    assert len(line) <= MAX_MESSAGE_CHARS


_PATHS = st.lists(st.text(alphabet="ab/\\é\n\x1b:. ", max_size=60), max_size=10).map("/".join)
"""Paths up to 600 characters, with separators, control characters and colons."""


@given(
    path=_PATHS,
    message=st.text(max_size=600),
    field=st.none() | st.text(max_size=200),
    line=st.none() | st.integers(min_value=1, max_value=10**9),
    column=st.none() | st.integers(min_value=1, max_value=10**9),
    more=st.integers(min_value=0, max_value=10**6),
)
def test_every_line_is_one_line_within_the_bound(
    path: str, message: str, field: str | None, line: int | None, column: int | None, more: int
) -> None:
    error = ScenarioError(message, path=path, line=line, column=column, field=field)
    error.all_errors = (error,) * (more + 1)
    text = str(error)
    assert len(text) <= MAX_MESSAGE_CHARS
    assert "\n" not in text
    assert "\x1b" not in text
    if line is not None:  # line and column survive any shortening of the path
        assert f"{error.location[len(path) :]}: " in text
