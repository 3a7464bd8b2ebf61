"""docs/correlated.md's worked case, computed: the tables between its markers.

The scenario is the page's own YAML block (RAID 6 of 12 x 20 TB beside four other layouts,
the inputs of scenarios/today-20tb-nl-sas.yaml); each table is that scenario evaluated by
``planner evaluate``'s analysis (:func:`planner.analysis.compare.comparison`) with the
correlation set as each row or column says, written with the report's own number formats.
``tests/docs/test_docs_correlated.py`` checks the page against this; to rewrite the page
after a change of the model, run ``.venv/bin/python tests/docs/correlated_case.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from planner.analysis.compare import comparison
from planner.core.design.layout_comparison import Comparison, LayoutResult
from planner.report.numbers import ratio_column, years_column
from planner.report.percentages import percent_column
from planner.scenario import Scenario, load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "correlated.md"
START, END = "<!-- worked-case: start -->", "<!-- worked-case: end -->"
BASE = "RAID 6 (10+2)"
MULTIPLIERS = (2, 3, 4)
SHOCKS = ("correlation.shocks_per_year=0.1",)
NO_SHOCKS = ("correlation.shocks_per_year=0",)


def page_scenario(text: str) -> Scenario:
    """The page's whole-scenario YAML block."""
    found = re.search(r"```yaml\n(.*?)```", text, re.DOTALL)
    assert found is not None, "docs/correlated.md has no yaml block"
    return load_scenario_text(found[1], source="docs/correlated.md")


def _evaluated(scenario: Scenario, multiplier: float, sets: tuple[str, ...]) -> Comparison:
    from planner.scenario import scenario_with_overrides

    overrides = [f"correlation.degraded_multiplier={multiplier:g}", *sets]
    return comparison(scenario_with_overrides(scenario, overrides))


def _row(c: Comparison, label: str) -> LayoutResult:
    return next(r for r in c.results if r.layout.label == label)


def raid6_table(scenario: Scenario) -> str:
    """How far independent is from correlated, for the RAID 6 of 12 aggregate."""
    cases = [("independent drives (m = 1, no shocks)", 1.0, NO_SHOCKS)]
    cases += [(f"m = {m}, no shocks", float(m), NO_SHOCKS) for m in MULTIPLIERS]
    cases += [("shocks alone (m = 1)", 1.0, SHOCKS)]
    cases += [(f"m = {m} and shocks", float(m), SHOCKS) for m in MULTIPLIERS]
    rows = [_row(_evaluated(scenario, m, sets), BASE) for _, m, sets in cases]
    group = percent_column([r.p_loss_group for r in rows])
    aggregate = percent_column([r.p_loss_aggregate for r in rows])
    factor = ratio_column([_factor(r) for r in rows])
    mttdl = years_column([r.mttdl_hours for r in rows])
    lines = [
        "| correlation | P(loss) group | P(loss) aggregate | × independent | MTTDL group (years) |",
        "|:---|---:|---:|---:|---:|",
    ]
    for (name, _, _), *cells in zip(cases, group, aggregate, factor, mttdl, strict=True):
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def multiplier_table(scenario: Scenario) -> str:
    """Every layout's × independent with the multiplier alone (no shocks)."""
    columns = [(f"m = {m}", _evaluated(scenario, float(m), NO_SHOCKS)) for m in MULTIPLIERS]
    labels = [r.layout.label for r in columns[0][1].results]
    lines = [
        "| layout | " + " | ".join(f"× independent, {name}" for name, _ in columns) + " |",
        "|:---|" + "---:|" * len(columns),
    ]
    factors = [ratio_column([_factor(_row(c, label)) for label in labels]) for _, c in columns]
    for i, label in enumerate(labels):
        lines.append(f"| {label} | " + " | ".join(column[i] for column in factors) + " |")
    return "\n".join(lines)


def _factor(row: LayoutResult) -> float:
    return 1.0 if row.independent is None else row.independent.factor


def ranking_table(scenario: Scenario) -> str:
    """Every layout's aggregate P(loss) and rank, independent and with m = 2-4 and shocks."""
    columns = [("independent", _evaluated(scenario, 1.0, NO_SHOCKS))]
    columns += [(f"m = {m}, shocks", _evaluated(scenario, float(m), SHOCKS)) for m in MULTIPLIERS]
    labels = [r.layout.label for r in columns[0][1].results]
    header = "| layout | drives | " + " | ".join(name for name, _ in columns) + " |"
    lines = [header, "|:---|---:|" + "---:|" * len(columns)]
    cells = {}
    for name, c in columns:
        ordered = sorted(c.results, key=lambda r: r.p_loss_aggregate)
        ranks = {r.layout.label: i for i, r in enumerate(ordered, 1)}
        texts = percent_column([_row(c, label).p_loss_aggregate for label in labels])
        for label, text in zip(labels, texts, strict=True):
            cells[label, name] = f"{text} ({ranks[label]})"
    for label in labels:
        drives = _row(columns[0][1], label).shape.total_disks
        row = " | ".join(cells[label, name] for name, _ in columns)
        lines.append(f"| {label} | {drives} | {row} |")
    return "\n".join(lines)


def worked_case(text: str) -> str:
    """The markdown between the page's markers, as the model gives it now."""
    scenario = page_scenario(text)
    tables = (raid6_table(scenario), multiplier_table(scenario), ranking_table(scenario))
    return "\n\n".join(tables)


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
