"""docs/today.md's "Not modelled yet" lists only what planner leaves out (a buyer's review).

It said correlated failures and ageing drives were not modelled ("every failure is
independent at a constant rate") long after ``correlation:`` and ``ageing:`` were: each is
named there now as modelled, with its page and a shipped scenario that uses it; and no page
of the manual says one of them is not modelled.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from planner.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
MODELLED = [
    ("correlation", "correlated.md", "scenarios/correlated-20tb.yaml"),
    ("ageing", "ageing.md", "scenarios/ageing-fleet.yaml"),
    ("enclosures", "domains.md", "scenarios/enclosures-20tb.yaml"),
]


def _not_modelled_section() -> str:
    text = (DOCS / "today.md").read_text(encoding="utf-8")
    start = text.index("## Not modelled yet")
    end = text.find("\n## ", start + 1)
    return text[start : len(text) if end < 0 else end]


@pytest.mark.parametrize(("key", "page", "scenario"), MODELLED)
def test_what_is_modelled_is_named_with_its_page_and_scenario(
    key: str, page: str, scenario: str
) -> None:
    section = _not_modelled_section()
    assert f"`{key}:`" in section
    assert f"({page})" in section
    assert scenario in section
    assert getattr(load_scenario(ROOT / scenario), key) is not None


def test_no_page_says_correlated_failures_or_ageing_are_not_modelled() -> None:
    stale = re.compile(
        r"(fail together|correlated failures|drives that age|ageing)[^.]{0,80}"
        r"(not modelled|independent at a constant rate)",
        re.IGNORECASE,
    )
    assert "every failure is independent at a constant rate" not in _not_modelled_section()
    for path in sorted(DOCS.glob("*.md")):
        text = " ".join(path.read_text(encoding="utf-8").split())
        found = [m.group(0) for m in stale.finditer(text) if "together yet" not in m.group(0)]
        assert found == [], path.name
