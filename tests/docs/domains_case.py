"""docs/domains.md's worked case, computed: the table between its markers.

The scenario is the page's own YAML block (RAID 6 of 12 and triple parity of 12 x 20 TB,
the inputs of scenarios/today-20tb-nl-sas.yaml, enclosures failing 0.1 times a year and
repaired in 24 h); each row is that scenario evaluated by ``planner evaluate``'s analysis
(:func:`planner.analysis.compare.comparison`) with ``enclosures.members_per_enclosure`` set
as the row says, or without the section, written with the report's own number formats.
``tests/docs/test_docs_domains.py`` checks the page against this; to rewrite the page after
a change of the model, run ``.venv/bin/python tests/docs/domains_case.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from planner.analysis.compare import comparison
from planner.core.design.layout_comparison import Comparison, LayoutResult
from planner.report.numbers import ratio_column
from planner.report.percentages import percent_column
from planner.scenario import Scenario, load_scenario_text, scenario_with_overrides

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "domains.md"
START, END = "<!-- worked-case: start -->", "<!-- worked-case: end -->"
MEMBERS = (1, 2, 3, 4, 6, 12)


def page_scenario(text: str) -> Scenario:
    """The page's whole-scenario YAML block (the one with layouts)."""
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.DOTALL) if "layouts:" in b]
    assert len(blocks) == 1, "docs/domains.md needs one whole-scenario yaml block"
    return load_scenario_text(blocks[0], source="docs/domains.md")


def placed(scenario: Scenario, members: int) -> Comparison:
    """The page's layouts with ``members`` drives of a group per enclosure."""
    return comparison(
        scenario_with_overrides(scenario, [f"enclosures.members_per_enclosure={members}"])
    )


def alone(scenario: Scenario) -> Comparison:
    """The page's layouts without the enclosures section: the drives alone."""
    return comparison(scenario.model_copy(update={"enclosures": None}))


def _table(scenario: Scenario, label: str) -> str:
    rows: list[LayoutResult] = [
        next(r for r in placed(scenario, m).results if r.layout.label == label) for m in MEMBERS
    ]
    base = next(r for r in alone(scenario).results if r.layout.label == label)
    group = percent_column([r.p_loss_group for r in (*rows, base)])
    aggregate = percent_column([r.p_loss_aggregate for r in (*rows, base)])
    factor = ratio_column([r.p_loss_group / base.p_loss_group for r in rows])
    unavailable = percent_column(
        [r.enclosures.p_unavailable_group for r in rows if r.enclosures is not None]
    )
    lines = [
        f"| {label}: drives per enclosure | enclosures per group | P(loss) group "
        "| P(loss) aggregate | × drives alone | P(unavailable) group |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for i, (members, row) in enumerate(zip(MEMBERS, rows, strict=True)):
        assert row.enclosures is not None
        lines.append(
            f"| {members} | {row.enclosures.placement.enclosures} | {group[i]} "
            f"| {aggregate[i]} | {factor[i]} | {unavailable[i]} |"
        )
    lines.append(f"| no enclosures | | {group[-1]} | {aggregate[-1]} | 1.00× | {group[-1]} |")
    return "\n".join(lines)


def worked_case(text: str) -> str:
    """The markdown between the page's markers, as the model gives it now."""
    scenario = page_scenario(text)
    labels = [layout.label for layout in scenario.layouts]
    return "\n\n".join(_table(scenario, label) for label in labels)


def between_markers(text: str) -> str:
    """What the page holds between its markers (stripped)."""
    return text.split(START, 1)[1].split(END, 1)[0].strip()


def main() -> int:
    """Rewrite the page's worked case in place."""
    text = PAGE.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1]
    PAGE.write_text(f"{head}{START}\n{worked_case(text)}\n{END}{tail}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
