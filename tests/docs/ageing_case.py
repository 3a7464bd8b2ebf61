"""docs/ageing.md's worked case, computed: the tables between its markers.

The scenario is scenarios/ageing-fleet.yaml (``planner fit``'s example, model hdd-b; a
constant ARR of 3.92 %) with its Weibull (shape 1.48, scale 116,000 h) in place of its ARR by
year and new drives, over 5 and 10 years. The first table is ``planner evaluate``'s analysis
(:func:`planner.analysis.compare.comparison`); the second simulates RAID 5 (5+1) over 10
years twice, replaced drives renewed (``planner simulate``'s rule) and replaced drives
keeping the batch's age (the chain's), with the seed and stopping rule of the page.
``tests/docs/test_docs_ageing.py`` checks the page against this; to rewrite the page after a
change of the model, run ``.venv/bin/python tests/docs/ageing_case.py``.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from planner.analysis.compare import comparison
from planner.analysis.simulation import RunSettings, simulate_layout
from planner.core.design.layout_comparison import Comparison
from planner.report.numbers import ratio_column
from planner.report.percentages import percent_column, percent_interval_column
from planner.scenario import Scenario, load_scenario, scenario_with_overrides
from planner.scenario.distributions import distribution_set

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "ageing.md"
SCENARIO = ROOT / "scenarios" / "ageing-fleet.yaml"
START, END = "<!-- worked-case: start -->", "<!-- worked-case: end -->"
MISSIONS = (5, 10)
WEIBULL = ("ageing={weibull: {shape: 1.48, scale_hours: 116000}, drive_age_years_at_start: 0}",)
SIMULATED = "RAID 5 (5+1)"
SETTINGS = RunSettings(trials=None, rel_error=0.03, time_budget_seconds=None, seed=1, method="auto")


def _scenario(years: int) -> Scenario:
    base = load_scenario(SCENARIO)
    return scenario_with_overrides(base, [f"mission_years={years}", *WEIBULL])


def chain_table(evaluated: dict[int, Comparison]) -> str:
    """P(loss) of one group: constant rate, ageing with its bracket, and the ratio."""
    rows = [(years, r) for years, c in evaluated.items() for r in c.results]
    aged = [r.aged for _, r in rows]
    assert all(a is not None for a in aged)
    constant = percent_column([r.p_loss_group for _, r in rows])
    value = percent_column([a.p_loss_group for a in aged if a is not None])
    bracket = percent_interval_column(
        [(a.p_loss_group_low, a.p_loss_group_high) for a in aged if a is not None]
    )
    ratio = ratio_column([a.p_loss_group / r.p_loss_group for (_, r), a in
                          zip(rows, aged, strict=True) if a is not None])  # fmt: skip
    lines = [
        "| layout | mission | P(loss) group, constant ARR | P(loss) group, ageing | bracket | × |",
        "|:---|---:|---:|---:|---:|---:|",
    ]
    for i, (years, r) in enumerate(rows):
        lines.append(
            f"| {r.layout.label} | {years} years | {constant[i]} | {value[i]} | "
            f"{bracket[i]} | {ratio[i]} |"
        )
    return "\n".join(lines)


def simulation_table(evaluated: dict[int, Comparison]) -> str:
    """RAID 5 (5+1) over 10 years: the chain, and the simulator renewing or not."""
    scenario = _scenario(10)
    row = next(r for r in evaluated[10].results if r.layout.label == SIMULATED)
    assert row.aged is not None
    laws, _ = distribution_set(None, scenario.rates(), scenario.core_ageing())
    lines = [
        "| RAID 5 (5+1), 10 years from new | P(loss) group | 95 % interval |",
        "|:---|---:|---:|",
    ]
    chain = (row.aged.p_loss_group_low, row.aged.p_loss_group_high)
    found = [("chain: every drive at the batch's age", row.aged.p_loss_group, chain)]
    for name, renew in (("simulation: replaced drives new", True),
                        ("simulation: replaced drives at the batch's age", False)):  # fmt: skip
        laws_now = dataclasses.replace(laws, renew_replaced=renew)
        result = simulate_layout(row.layout, laws_now, scenario.mission_hours, SETTINGS)
        found.append((name, result.p_loss_group, (result.ci95_low, result.ci95_high)))
    values = percent_column([v for _, v, _ in found])
    intervals = percent_interval_column([i for _, _, i in found])
    for (name, _, _), value, interval in zip(found, values, intervals, strict=True):
        lines.append(f"| {name} | {value} | {interval} |")
    return "\n".join(lines)


def worked_case() -> str:
    """The markdown between the page's markers, as the model gives it now."""
    evaluated = {years: comparison(_scenario(years)) for years in MISSIONS}
    return chain_table(evaluated) + "\n\n" + simulation_table(evaluated)


def between_markers(text: str) -> str:
    """What the page holds between its markers (stripped)."""
    return text.split(START, 1)[1].split(END, 1)[0].strip()


def main() -> int:
    """Rewrite the page's worked case (after a change of the model)."""
    text = PAGE.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1]
    PAGE.write_text(f"{head}{START}\n{worked_case()}\n{END}{tail}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
