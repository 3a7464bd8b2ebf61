"""The failure log of ``planner fit``: what it reads, and a file:line message for what not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.scenario import ScenarioError, fleet_log
from planner.scenario.fleet_log import parse_fleet_log, read_fleet_log

GOOD = """\
# a comment line, then a header in another case, with a column planner does not read
Hours , FAILED,serial,model,group,installed_at_hours
100,0,S1,a,g1,0

250.5,1,S2,b,g1,10
0,0,S3,a,g2,5
"""


def test_a_log_is_read_into_arrays() -> None:
    log = parse_fleet_log(GOOD, "log.csv")
    assert log.drives == 3
    assert log.hours.tolist() == [100.0, 250.5, 0.0]
    assert log.failed.tolist() == [False, True, False]
    assert log.models is not None
    assert log.models.names == ("a", "b")
    assert log.models.codes.tolist() == [0, 1, 0]
    assert log.groups is not None
    assert log.groups.codes.tolist() == [0, 0, 1]
    assert log.installed_at_hours is not None
    assert log.installed_at_hours.tolist() == [0.0, 10.0, 5.0]
    assert log.ignored_columns == ("serial",)


def test_the_optional_columns_may_be_left_out() -> None:
    log = parse_fleet_log("hours,failed\r\n5,1\r\n7,0\r\n", "log.csv")
    assert log.models is None
    assert log.groups is None
    assert log.installed_at_hours is None
    assert log.failed.dtype == np.bool_
    assert log.failed.tolist() == [True, False]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("5,yes", "log.csv:3: column 'failed': 'yes' is not 0 or 1"),
        ("-1,0", "log.csv:3: column 'hours': '-1' is not a finite number of hours >= 0"),
        ("nan,0", "log.csv:3: column 'hours': 'nan' is not a finite number of hours >= 0"),
        ("ten,1", "log.csv:3: column 'hours': 'ten' is not a number of hours"),
        ("2e6,0", "log.csv:3: column 'hours': 2e+06 h is more than 1,000,000 h"),
        ("0,1", "log.csv:3: column 'hours': a failed drive needs the hours it ran"),
        ("5,0,extra", "log.csv:3: expected 2 fields as in the header, found 3"),
        ('"5,0', "log.csv:3: not valid CSV"),
    ],
)
def test_a_bad_row_is_named_by_its_line_and_column(row: str, message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_fleet_log(f"hours,failed\n1,0\n{row}\n", "log.csv")
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "log.csv: the log is empty"),
        ("# only a comment\n\n", "log.csv: the log is empty"),
        ("hours,failed\n", "log.csv: the log has a header but no drives"),
        ("hours,failed\n0,0\n0,0\n", "log.csv: no drive has any hours in service"),
        ("hours,state\n1,0\n", "log.csv:1: the header needs the columns hours and failed"),
        ("hours,failed,Hours\n1,0,1\n", "log.csv:1: column 'hours' is named twice"),
        ("hours,failed,group\n1,0,\n", "log.csv:2: column 'group': '' is not a name"),
        (
            "hours,failed,installed_at_hours\n1,0,-3\n",
            "log.csv:2: column 'installed_at_hours': '-3' is not a finite number",
        ),
    ],
)
def test_a_log_that_cannot_be_used_says_why(text: str, message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_fleet_log(text, "log.csv")
    assert str(caught.value).startswith(message)


def test_a_file_over_the_byte_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    with open(path, "wb") as handle:  # sparse: no disk is written
        handle.truncate(fleet_log.MAX_LOG_BYTES + 1)
    with pytest.raises(ScenarioError, match="more than 64,000,000 bytes"):
        read_fleet_log(path)


def test_a_log_over_the_row_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fleet_log, "MAX_LOG_ROWS", 3)
    text = "hours,failed\n" + "1,0\n" * 3
    assert parse_fleet_log(text, "log.csv").drives == 3
    with pytest.raises(ScenarioError) as caught:
        parse_fleet_log(text + "1,0\n", "log.csv")
    assert str(caught.value).startswith("log.csv:5: the log has more than 3 drives")


def test_unreadable_and_non_utf8_files(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read the log"):
        read_fleet_log(tmp_path / "missing.csv")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("hours,failed,model\n1,0,caf\xe9\n".encode("latin-1"))
    with pytest.raises(ScenarioError) as caught:
        read_fleet_log(latin)
    assert str(caught.value).startswith(f"{latin}:2: not UTF-8 text")
    bom = tmp_path / "bom.csv"
    bom.write_bytes("\ufeffhours,failed\n1,1\n".encode())
    assert read_fleet_log(bom).failed.tolist() == [True]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet='01,.-#e\n\r "xhoursfailedmodelgroup', max_size=200))
def test_any_text_is_a_log_or_one_scenario_error(text: str) -> None:
    message = None
    try:
        log = parse_fleet_log(text, "log.csv")
    except ScenarioError as error:
        message = str(error)
    if message is not None:
        assert "\n" not in message
        assert message.startswith("log.csv")
        return
    assert log.drives >= 1
    assert np.all(log.hours >= 0)
    assert np.all(np.isfinite(log.hours))
    assert log.hours.sum() > 0


@pytest.mark.parametrize(
    ("header", "hint"),
    [
        ("hours,failure", "column 'failure': did you mean 'failed'?"),
        ("Hour,failed", "column 'Hour': did you mean 'hours'?"),
    ],
)
def test_a_misnamed_column_is_told_its_likely_name(header: str, hint: str) -> None:
    """A newcomer's log with ``failure`` for ``failed`` was told only what was missing."""
    with pytest.raises(ScenarioError) as caught:
        parse_fleet_log(f"{header}\n1,0\n", "log.csv")
    message = str(caught.value)
    assert message.startswith("log.csv:1: the header needs the columns hours and failed")
    assert message.endswith(hint)
