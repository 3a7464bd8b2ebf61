"""Issue 20: every tornado bar is ``planner evaluate --set field=value`` (one model).

The tornado held a spec-sheet drive's derived defect rate fixed while ``evaluate`` let it
follow the scrub interval, so the two disagreed in direction; and it scaled a declustered
pool's chain rebuild hours where ``--set restore.rebuild_hours`` sets the scenario's. Here
each bar's P(loss) is checked against the command the user would run: ``planner evaluate
FILE --set field=value`` (``planner size`` for a scenario with a workload, whose tornado
moves the sized aggregate the compare table shows), through the CLI's JSON for each
scenario's baseline, and through the analysis layer's compare for every other layout.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from shipped import SINGLE_AGGREGATE
from typer.testing import CliRunner

from planner.analysis.compare import comparison
from planner.analysis.sensitivity import sensitivity_report
from planner.analysis.sizing_report import sized_results
from planner.analysis.varied_fields import field_for
from planner.cli import app
from planner.scenario import Scenario, load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = SINGLE_AGGREGATE  # a plan's tiers: the plan tests (tests/shipped.py)
REL = 1e-9


def run_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, [*args, "-f", "json"])
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def set_text(field: str, value: float) -> str:
    """``--set`` text for a bar's value as the JSON gives it (whole drives as integers)."""
    shown = str(round(value)) if field == "aggregate.data_disks" else repr(float(value))
    return f"{field}={shown}"


def command_p_loss(path: Path, label: str, sized: bool, overrides: list[str]) -> float:
    """The aggregate's P(loss) of ``label`` as ``evaluate`` (or ``size``) prints it."""
    sets = [arg for text in overrides for arg in ("--set", text)]
    document = run_json("size" if sized else "evaluate", str(path), *sets)
    row = next(r for r in document["layouts"] if r["label"] == label)
    return float(row["p_loss_aggregate"])


def analysis_p_loss(scenario: Scenario) -> dict[str, float]:
    """Every layout's aggregate P(loss) through the analysis layer ``evaluate``/``size`` render."""
    sized = sized_results(scenario)
    if sized is not None:
        return {r.label: r.p_loss_aggregate for r in sized}
    return {r.layout.label: r.p_loss_aggregate for r in comparison(scenario).results}


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_bar_of_the_baseline_is_evaluate_with_set(path: Path) -> None:
    scenario = load_scenario(path)
    label = scenario.baseline_label()
    sized = scenario.workload is not None
    tornado = run_json("sensitivity", str(path), "--layout", label)
    assert tornado["p_loss_aggregate"] == pytest.approx(
        command_p_loss(path, label, sized, []), rel=REL
    )
    sections = 3 * (scenario.correlation is not None) + 2 * (scenario.enclosures is not None)
    # docs/correlated.md, docs/domains.md; a sized aggregate is not aggregate.data_disks'
    assert len(tornado["bars"]) == (5 if sized else 6) + sections
    assert sized != any(bar["field"] == "aggregate.data_disks" for bar in tornado["bars"])
    for bar in tornado["bars"]:
        for side in ("low", "high"):
            text = set_text(bar["field"], bar[f"{side}_value"])
            expected = command_p_loss(path, label, sized, [text])
            assert bar[f"p_loss_{side}"] == pytest.approx(expected, rel=REL), (text, side)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_bar_of_every_layout_is_the_compare_with_set(path: Path) -> None:
    scenario = load_scenario(path)
    base = analysis_p_loss(scenario)
    moved: dict[str, dict[str, float]] = {}  # by --set text: a field's values are the layouts'
    for layout in scenario.layouts:
        tornado = sensitivity_report(scenario, layout.label).sensitivity
        assert tornado.p_loss_aggregate == pytest.approx(base[layout.label], rel=REL)
        for bar in tornado.bars:
            field = field_for(bar.parameter)
            for value, p_loss in (
                (bar.low_value, bar.p_loss_low),
                (bar.high_value, bar.p_loss_high),
            ):
                text = set_text(field.name, float(f"{field.from_core(value):.12g}"))
                if text not in moved:
                    moved[text] = analysis_p_loss(load_scenario(path, [text]))
                assert p_loss == pytest.approx(moved[text][layout.label], rel=REL), (
                    layout.label,
                    text,
                )


def test_halving_the_scrub_interval_lowers_the_risk_in_both() -> None:
    """The issue's example: the tornado said x0.79 for halving the scrub, evaluate said more."""
    path = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
    label = "RAID 6 (10+2)"
    tornado = run_json("sensitivity", str(path), "--layout", label)
    scrub = next(b for b in tornado["bars"] if b["field"] == "restore.scrub_hours")
    assert scrub["low_value"] == 84
    base = command_p_loss(path, label, False, [])
    halved = command_p_loss(path, label, False, ["restore.scrub_hours=84"])
    assert halved < base
    assert scrub["p_loss_low"] == pytest.approx(halved, rel=REL)
    assert math.isfinite(scrub["elasticity"])
    assert scrub["elasticity"] > 0  # longer scrubs, more risk
