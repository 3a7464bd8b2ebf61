"""The whole scenarios the manual shows are valid scenarios.

A page that teaches the format with a file the loader refuses teaches the wrong format;
fragments (a ``drive:`` section alone, the keys a sizing scenario adds) are not checked,
only blocks with every required section at the top level, and plans (a ``tiers:`` list).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from planner.scenario import load_plan_text_document, scenario_json_schema

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"```yaml\n(.*?)```", re.DOTALL)
REQUIRED = tuple(scenario_json_schema()["anyOf"][0]["required"])


def _whole_scenarios() -> list[tuple[str, str]]:
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for number, match in enumerate(BLOCK.finditer(page.read_text(encoding="utf-8")), 1):
            text = match[1]
            whole = all(re.search(f"^{key}:", text, re.MULTILINE) for key in REQUIRED)
            if whole or re.search("^tiers:", text, re.MULTILINE):
                found.append((f"{page.relative_to(ROOT)}, yaml block {number}", text))
    return found


SCENARIOS = _whole_scenarios()


def test_the_manual_shows_a_whole_scenario() -> None:
    assert any(name.startswith("docs/scenarios.md") for name, _ in SCENARIOS)


@pytest.mark.parametrize(("name", "text"), SCENARIOS, ids=[name for name, _ in SCENARIOS])
def test_each_whole_scenario_in_the_docs_loads(name: str, text: str) -> None:
    plan, _ = load_plan_text_document(text, source=name)
    assert all(tier.scenario.layouts for tier in plan.tiers)
