"""Saving a key a section did not have puts it in the section, above the lines that end it.

ruamel.yaml keeps the blank lines and comments after a mapping's last key with that key's
value. A key added after it was written below them: setting Rebuilds to all (``0``) in the
TUI on ns3574-default.yaml wrote ``parallel_rebuilds: true`` after the blank line that ends
``restore:``, which then sat inside the section and ``aggregate:`` right under the new key
(newcomer review).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from shipped import SINGLE_AGGREGATE

from planner.scenario import load_scenario_text
from planner.scenario.document import parse_yaml
from planner.scenario.edits import FieldSpec, field_specs, spec_of, with_value
from planner.scenario.save import updated_text
from planner.scenario.schema import Scenario

ROOT = Path(__file__).parents[2]
SHIPPED = SINGLE_AGGREGATE  # a plan's tiers: the plan tests (tests/shipped.py)


def section_lines(lines: list[str], section: str) -> tuple[int, int]:
    """(index of ``section:``'s line, index after its last key's last line) in ``lines``.

    The lines after the last key, up to the next top-level key, are blank or comments.
    """
    start = lines.index(f"{section}:\n")
    end = start + 1
    for index in range(start + 1, len(lines)):
        line = lines[index]
        if line.strip() and not line.startswith((" ", "#")):
            break  # the next top-level key
        if line.strip() and not line.lstrip().startswith("#"):
            end = index + 1
    return start, end


def ends_with_gap_or_comment(lines: list[str], section: str) -> bool:
    """Whether blank lines or comment lines follow the section's last key."""
    _, end = section_lines(lines, section)
    return end < len(lines) and not (lines[end].strip() and not lines[end].startswith((" ", "#")))


def additions(scenario: Scenario) -> list[tuple[str, FieldSpec, Any]]:
    """(section, field, value) of each editable key the scenario's file can gain."""
    found: list[tuple[str, FieldSpec, Any]] = []
    rebuilds = next(s for s in field_specs(scenario) if s.path == ("restore", "parallel_rebuilds"))
    if "parallel_rebuilds" not in scenario.restore.model_fields_set:
        found.append(("restore", rebuilds, True))
    drive = scenario.drive
    if "capacity_tb" not in drive.model_fields_set:
        found.append(("drive", spec_of("drive.capacity_tb"), 10))
    elif "price" not in drive.model_fields_set:
        found.append(("drive", spec_of("drive.price"), 300))
    return found


@functools.cache
def cases(path: Path) -> tuple[tuple[str, FieldSpec, Any], ...]:
    """(section, field, value) of each key the shipped file can gain in a section that ends
    with blank or comment lines: loaded in the test, not while every worker collects."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    return tuple(
        (section, spec, value)
        for section, spec, value in additions(load_scenario_text(text))
        if ends_with_gap_or_comment(lines, section)
    )


def assert_added_in_section(
    text: str, name: str, section: str, spec: FieldSpec, value: Any
) -> None:
    """Saving ``text`` with ``value`` at ``spec`` adds one line, in ``section``, and moves none."""
    original = load_scenario_text(text)
    edited = with_value(original, spec, value)
    out = updated_text(parse_yaml(text, name), text, original, edited, {spec.path: value})
    assert load_scenario_text(out) == edited  # the file validates to the edit
    lines = text.splitlines(keepends=True)
    saved = out.splitlines(keepends=True)
    _, end = section_lines(lines, section)
    added = [line for line in saved if line.lstrip().startswith(f"{spec.path[-1]}:")]
    assert len(added) == 1
    # Right after the section's last key, indented as its keys: in the section.
    assert saved[end] == added[0]
    indent = len(lines[end - 1]) - len(lines[end - 1].lstrip())
    assert added[0].startswith(" " * indent)
    assert added[0][indent] != " "
    # Every other line, blank lines and comments included, where it was.
    assert saved[:end] + saved[end + 1 :] == lines


@pytest.mark.parametrize("path", SHIPPED, ids=[path.stem for path in SHIPPED])
def test_an_added_key_goes_above_the_lines_that_end_its_section(path: Path) -> None:
    for section, spec, value in cases(path):
        assert_added_in_section(path.read_text(encoding="utf-8"), path.name, section, spec, value)


@pytest.mark.parametrize(
    "ending",
    [
        "  # rebuild_mb_per_s: 100   # the rebuild model instead of rebuild_hours\n\n",
        "\n# What the layouts must hold.\n",
        "# What the layouts must hold.\n",
    ],
    ids=["commented-out-key", "gap-and-comment", "comment"],
)
def test_an_added_key_goes_above_a_comment_that_ends_its_section(ending: str) -> None:
    """The shipped default with a comment, not only a blank line, after restore's last key."""
    path = ROOT / "scenarios" / "ns3574-default.yaml"
    shipped = path.read_text(encoding="utf-8")
    text = shipped.replace(
        "  scrub_hours: 168\n\naggregate:", f"  scrub_hours: 168\n{ending}aggregate:"
    )
    assert text != shipped
    rebuilds = next(
        s for s in field_specs(load_scenario_text(text)) if s.path[-1] == "parallel_rebuilds"
    )
    assert_added_in_section(text, path.name, "restore", rebuilds, True)


def test_the_shipped_files_have_sections_ending_with_a_gap_or_a_comment() -> None:
    """The cases above are not empty: the review's file and section among them."""
    sections = {(path.name, section) for path in SHIPPED for section, *_ in cases(path)}
    assert ("ns3574-default.yaml", "restore") in sections
    assert ("ns3574-default.yaml", "drive") in sections
    assert {name for name, _ in sections} == {path.name for path in SHIPPED}
