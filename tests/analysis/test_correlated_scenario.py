"""A scenario's correlation section, from the file to every surface.

The section's limits and defaults; the exports' inputs line and keys; the independent risk
beside the correlated one, checked against ``evaluate`` of the same file with the section
taken out; and the tornado's three correlation bars, each ``evaluate --set field=value``
(the pattern of tests/analysis/test_tornado_is_evaluate.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from planner.analysis.compare import comparison
from planner.analysis.sensitivity import sensitivity_report
from planner.analysis.varied_fields import field_for
from planner.cli import app
from planner.scenario import ScenarioError, load_scenario

ROOT = Path(__file__).resolve().parents[2]
TODAY = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
CORRELATED = [
    "correlation.degraded_multiplier=3",
    "correlation.shocks_per_year=0.1",
]
REL = 1e-9


def _json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, [*args, "-f", "json"])
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def _sets(overrides: list[str]) -> list[str]:
    return [arg for text in overrides for arg in ("--set", text)]


def test_defaults_and_limits() -> None:
    scenario = load_scenario(TODAY, ["correlation.shocks_per_year=0.1"])
    assert scenario.correlation is not None
    assert scenario.correlation.degraded_multiplier == 1.0
    assert scenario.correlation.shock_drive_probability == 0.012  # the stated default
    rates = scenario.rates()
    assert rates.shocks_per_hour == pytest.approx(0.1 / 8760)
    assert rates.correlated
    assert not load_scenario(TODAY, ["correlation.degraded_multiplier=1"]).correlated
    for text, words in [
        ("correlation.degraded_multiplier=0.5", "drives would fail less often"),
        ("correlation.shocks_per_year=-1", "cannot be negative"),
        ("correlation.shock_drive_probability=150%", "between 0 and 1"),
        ("correlation.shock_rate=1", "shock"),
    ]:
        with pytest.raises(ScenarioError, match=words):
            load_scenario(TODAY, [text])
    assert load_scenario(TODAY, ["correlation.shock_drive_probability=5%"]).correlation


def test_evaluate_shows_the_independent_risk() -> None:
    document = _json("evaluate", str(TODAY), *_sets(CORRELATED))
    plain = _json("evaluate", str(TODAY))
    assert document["inputs"]["correlation"] == {
        "degraded_multiplier": 3.0,
        "shocks_per_year": 0.1,
        "shock_drive_probability": 0.012,
    }
    assert "correlation" not in plain["inputs"]
    for row, twin in zip(document["layouts"], plain["layouts"], strict=True):
        assert list(row)[-2:] == ["p_loss_aggregate_independent", "correlation_factor"]
        assert row["p_loss_aggregate_independent"] == pytest.approx(
            twin["p_loss_aggregate"], rel=REL
        )
        ratio = row["p_loss_aggregate"] / twin["p_loss_aggregate"]
        assert row["correlation_factor"] == pytest.approx(ratio, rel=REL)
        assert row["correlation_factor"] > 1
        assert "p_loss_aggregate_independent" not in twin
    table = CliRunner().invoke(app, ["evaluate", str(TODAY), *_sets(CORRELATED), "-f", "markdown"])
    assert "P(loss) if independent" in table.stdout
    assert "correlated failures: degraded x3, 0.1 shocks/group-yr failing 1.2% of drives" in (
        table.stdout
    )


def test_the_correlation_bars_are_evaluate_with_set() -> None:
    scenario = load_scenario(TODAY, ["correlation.degraded_multiplier=2"])
    label = scenario.baseline_label()
    report = sensitivity_report(scenario, label)
    names = {field_for(b.parameter).name: b for b in report.sensitivity.bars}
    assert len(names) == 9
    shocks = names["correlation.shocks_per_year"]
    assert field_for(shocks.parameter).from_core(shocks.low_value) == 0.0
    assert field_for(shocks.parameter).from_core(shocks.high_value) == pytest.approx(0.1)
    assert any("shocks_per_year is 0 here" in note for note in report.notes)
    base = ["correlation.degraded_multiplier=2"]
    for name in ("correlation.degraded_multiplier", "correlation.shocks_per_year"):
        bar = names[name]
        field = field_for(bar.parameter)
        for value, p_loss in ((bar.low_value, bar.p_loss_low), (bar.high_value, bar.p_loss_high)):
            text = f"{name}={float(f'{field.from_core(value):.12g}')!r}"
            moved = comparison(load_scenario(TODAY, [*base, text]))
            expected = next(r for r in moved.results if r.layout.label == label)
            assert p_loss == pytest.approx(expected.p_loss_aggregate, rel=REL), text
    assert names["correlation.shocks_per_year"].p_loss_high > report.sensitivity.p_loss_aggregate


def test_simulate_with_shocks() -> None:
    """auto runs plain Monte Carlo (and says so); a rare-event method is bad input."""
    sets = _sets(CORRELATED)
    refused = CliRunner().invoke(app, ["simulate", str(TODAY), *sets, "--method", "biased"])
    assert refused.exit_code == 2
    assert "do not simulate shocks" in refused.stderr
    document = _json(
        "simulate", str(TODAY), *sets, "--layout", "RAID 10", "--trials", "500", "--seed", "1"
    )
    assert document["method"] == "plain"


def test_sweep_and_compare_methods_run_the_correlated_chain() -> None:
    """A sweep row is evaluate with the same --set; compare-methods refuses biased + shocks."""
    document = _json(
        "sweep", str(TODAY), *_sets(["correlation.degraded_multiplier=3"]),
        "--vary", "correlation.shocks_per_year=0..0.2:2",
    )  # fmt: skip
    rows = [r for r in document["rows"] if r["label"] == "RAID 6 (10+2)"]
    for row, shocks in zip(rows, ("0", "0.2"), strict=True):
        sets = ["correlation.degraded_multiplier=3", f"correlation.shocks_per_year={shocks}"]
        evaluated = _json("evaluate", str(TODAY), *_sets(sets))
        expected = next(r for r in evaluated["layouts"] if r["label"] == "RAID 6 (10+2)")
        assert row["p_loss_aggregate"] == pytest.approx(expected["p_loss_aggregate"], rel=REL)
    refused = CliRunner().invoke(
        app, ["compare-methods", str(TODAY), *_sets(CORRELATED), "--method", "biased"]
    )
    assert refused.exit_code == 2
