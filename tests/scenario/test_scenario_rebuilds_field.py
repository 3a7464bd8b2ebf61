"""The TUI's "Rebuilds" field (restore.parallel_rebuilds) speaks its own language.

It takes a whole number of rebuilds at once from 1 to 64, or ``all``, as the file and
``planner derive --parallel-rebuilds`` do (0 is refused in all three). Every refusal says
what to type in those terms, never the YAML file's false/true (it failed first: 1000000 got
the file's wording, 2.5 was refused without saying why).
"""

from __future__ import annotations

import pytest

from planner.scenario import load_default_scenario
from planner.scenario.edits import EditError, field_specs, parse_text, with_value
from planner.scenario.restore import MAX_REBUILD_STREAMS

SPEC = next(s for s in field_specs(load_default_scenario()) if s.label == "Rebuilds")
WHAT_TO_TYPE = f"type a whole number from 1 to {MAX_REBUILD_STREAMS}, or all"


def refusal(text: str) -> str:
    with pytest.raises(EditError) as caught:
        with_value(load_default_scenario(), SPEC, parse_text(SPEC, text))
    return str(caught.value)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1000000", "1000000 is more than 64 rebuilds at once"),
        ("1,000,000", "1,000,000 is more than 64 rebuilds at once"),
        ("65", "65 is more than 64 rebuilds at once"),
        ("2.5", "2.5 is not a whole number"),
        ("-3", "-3 is not a number of rebuilds"),
        ("0", "0 is not a number of rebuilds"),
        ("yes", "'yes' is not a number of rebuilds"),
        ("abc", "'abc' is not a number of rebuilds"),
        ("", "required"),
    ],
)
def test_a_refusal_says_why_and_what_to_type(text: str, why: str) -> None:
    message = refusal(text)
    assert message.startswith(why), message
    assert message.endswith(WHAT_TO_TYPE), message
    for yaml_word in ("false", "true", "parallel_rebuilds"):
        assert yaml_word not in message


@pytest.mark.parametrize(
    ("text", "streams"),
    [("all", None), ("ALL", None), ("1", 1), ("2", 2), ("64", 64), ("1e1", 10)],
)
def test_accepted_values(text: str, streams: int | None) -> None:
    scenario = with_value(load_default_scenario(), SPEC, parse_text(SPEC, text))
    assert scenario.restore.rebuild_streams == streams  # None: every failed drive at once


def test_the_hint_names_the_range() -> None:
    assert f"1 (one at a time) to {MAX_REBUILD_STREAMS}, or all" in SPEC.hint
