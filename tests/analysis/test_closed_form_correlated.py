"""The closed-form MTTDL row says it leaves a scenario's correlated failures out.

A buyer's review: in ``planner report scenarios/correlated-20tb.yaml`` (and ``planner
compare-methods``) the "1-exp(-T/MTTDL), closed form" row read 0.00428x the exact value, and
nothing beside it said why. The leading-order closed form is the independent chain's (m = 1,
no shocks); the exact rows, the spec sheet's and the simulations carry the correlation. The
row now says so in its name, and the line that defines it gives, per layout, how much the
correlation raises the exact chain and what the closed form reads against the chain with
independent drives (its own leading-order error), both checked here against the chains
rebuilt in mpmath (:mod:`tests.reference`).
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from planner.analysis.compare import compare_data
from planner.analysis.method_comparison import methods_report
from planner.analysis.method_estimates import MTTDL_APPROX, SPEC_SHEET
from planner.analysis.simulation import RunSettings
from planner.cli import app
from planner.report.methods import notes
from planner.scenario import load_scenario
from tests import reference

ROOT = Path(__file__).resolve().parents[2]
CORRELATED = ROOT / "scenarios" / "correlated-20tb.yaml"
FEW = RunSettings(trials=200, rel_error=None, time_budget_seconds=None, seed=3, method="auto")
TRIPLE = "triple parity (12+3)"


def _triple_report():  # type: ignore[no-untyped-def]
    scenario = load_scenario(CORRELATED)
    layout = next(x for x in scenario.core_layouts() if x.label == TRIPLE)
    return scenario, methods_report(scenario, [layout], FEW)


def test_the_row_and_its_definition_say_what_it_leaves_out() -> None:
    # failed first: the row was "1-exp(-T/MTTDL), closed form" with no word beside it
    scenario, report = _triple_report()
    estimate = next(e for e in report.layouts[0].estimates if e.key == MTTDL_APPROX)
    assert estimate.name == "1-exp(-T/MTTDL), closed form, independent drives"
    rates = scenario.rates()
    args = (3, 15, rates.op_failures_per_hour, rates.latent_defects_per_hour,
            rates.rebuild_hours, rates.scrub_hours, scenario.mission_hours)  # fmt: skip
    correlated = reference.correlated_figures(
        *args, rates.degraded_multiplier, rates.shocks_per_hour, rates.shock_drive_probability
    )["p_loss"]
    independent = reference.p_loss(*args)
    lines = notes(report)
    where = next(i for i, n in enumerate(lines) if n.startswith("1-exp(-T/MTTDL): exact MTTDL"))
    said = lines[where + 1]  # right under the row's definition
    assert "correlated failures" in said
    assert f"{float(correlated / independent):.3g}x" in said  # ~200x riskier than independent
    assert f"{estimate.p_loss_group / float(independent):.3g}x" in said  # its own error, ~1.1x
    assert f"{estimate.ratio_to_markov:.3g}x" in said  # what the row reads, 0.005x
    # the spec sheet's row carries the correlation: no note may say it assumes independence
    spec = next(e for e in report.layouts[0].estimates if e.key == SPEC_SHEET)
    without = scenario.model_copy(update={"correlation": None})
    layout = report.layouts[0].layout
    alone = methods_report(without, [layout], FEW).layouts[0].estimates
    assert spec.p_loss_group > 10 * next(e for e in alone if e.key == SPEC_SHEET).p_loss_group
    assert "the spec sheet) assume" not in " ".join(lines)


def test_independent_drives_keep_the_row_as_it_was() -> None:
    scenario = load_scenario(ROOT / "scenarios" / "today-20tb-nl-sas.yaml")
    layout = scenario.core_layouts()[1]
    report = methods_report(scenario, [layout], FEW)
    estimate = next(e for e in report.layouts[0].estimates if e.key == MTTDL_APPROX)
    assert estimate.name == "1-exp(-T/MTTDL), closed form"
    assert not any("correlated failures" in n for n in notes(report))


def test_evaluate_methods_and_the_report_say_it_too() -> None:
    data = compare_data(load_scenario(CORRELATED), methods=True)
    assert any("closed form is the independent chain's" in n for n in data.notes)
    plain = compare_data(load_scenario(CORRELATED))
    assert not any("closed form is the independent chain's" in n for n in plain.notes)
    result = CliRunner().invoke(
        app, ["compare-methods", str(CORRELATED), "--trials", "200", "--layout", TRIPLE]
    )
    assert result.exit_code == 0, result.stderr
    assert "closed form is the independent chain's" in " ".join(result.stdout.split())
