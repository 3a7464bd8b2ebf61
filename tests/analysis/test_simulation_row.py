"""The second simulation of compare-methods runs the scenario, not another one (issue 20, 7).

Without a ``distributions`` section the row used the elerath2009 preset as it stands (a 12 h
Weibull rebuild, 1.08e-4 defects per hour) and printed its ratio in the "vs Markov" column of
a scenario with a 77 h rebuild: two scenarios in one ratio. Now the preset gives the shapes
only, each law scaled so its mean is the scenario's; a section whose means are not the
scenario's is another scenario, and its row leaves "vs Markov" empty and says so.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from planner.analysis.method_comparison import methods_report
from planner.analysis.method_estimates import SIM_DISTRIBUTIONS
from planner.analysis.simulation import RunSettings, markov_check, plain_simulate
from planner.core.arrays.layouts import Layout
from planner.core.markov.rates import Rates
from planner.core.markov.transient import p_loss_group
from planner.core.simulation.distributions import DistributionSet, exponential_from_rates
from planner.core.simulation.result import SimulationResult
from planner.core.simulation.simulate import GroupSimulation, simulate_group
from planner.core.simulation.time_laws import Exponential, Weibull
from planner.scenario import Scenario, load_scenario
from planner.scenario.distributions import DISTRIBUTION_PRESETS

SCENARIOS = Path(__file__).parents[2] / "scenarios"
TODAY = SCENARIOS / "today-20tb-nl-sas.yaml"
SETTINGS = RunSettings(
    trials=2_000, rel_error=None, time_budget_seconds=None, seed=7, method="auto"
)
"""Runs whose interval is checked against Markov."""
LABELS_ONLY = RunSettings(
    trials=500, rel_error=None, time_budget_seconds=None, seed=7, method="auto"
)
"""Runs read for their laws, ratio and notes only: the count does not change them."""


def _captured(scenario: Scenario) -> dict[str, tuple[Layout, DistributionSet]]:
    """The distributions each simulation of compare-methods was given, by description."""
    seen: dict[str, tuple[Layout, DistributionSet]] = {}
    run = plain_simulate(RunSettings(100, None, None, 1, "auto"))  # read for its laws only

    def capture(
        description: str, layout: Layout, laws: DistributionSet, mission: float, groups: int
    ) -> SimulationResult:
        seen[description] = (layout, layout.chain_distributions(laws, groups))
        return run(description, layout, laws, mission, groups)

    methods_report(scenario, scenario.core_layouts(), LABELS_ONLY, capture)
    return seen


def _means(laws: DistributionSet) -> tuple[float, float, float, float]:
    return (
        laws.operational_failure.mean_hours,
        laws.restoration.mean_hours,
        laws.scrub.mean_hours,
        laws.latent_defects_per_hour,
    )


def _rate_means(rates: Rates) -> tuple[float, float, float, float]:
    return (
        1 / rates.op_failures_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
        rates.latent_defects_per_hour,
    )


def test_the_preset_row_runs_the_scenarios_means_with_the_presets_shapes() -> None:
    scenario = load_scenario(TODAY)
    rates = scenario.rates()
    preset = DISTRIBUTION_PRESETS["elerath2009"]
    seen = _captured(scenario)
    second = {d: v for d, v in seen.items() if "exponential" not in d}
    assert len(second) == len(scenario.core_layouts())
    for layout, laws in second.values():
        chain = layout.chain_rates(rates)
        assert _means(laws) == pytest.approx(_rate_means(chain), rel=1e-12)
        assert laws.rebuild_streams == chain.rebuild_streams
        for name in ("operational_failure", "restoration", "scrub"):
            law, shape = getattr(laws, name), getattr(preset, name)
            assert isinstance(law, Weibull)
            assert law.shape == shape.shape  # the preset's shape, scaled in time only
            assert law.location_hours / law.scale_hours == pytest.approx(
                shape.location_hours / shape.scale_hours
            )


def test_the_preset_row_keeps_its_ratio_and_says_what_it_ran() -> None:
    report = methods_report(load_scenario(TODAY), [], LABELS_ONLY)
    assert "shapes" in report.distributions
    assert "scaled" in report.distributions_note
    assert "77" in report.distributions_note  # the scenario's rebuild, not the preset's 12 h


def _exponential_shapes() -> DistributionSet:
    return DistributionSet(Exponential(1.0), Exponential(3.0), Exponential(5.0), 0.0)


def test_exponential_shapes_at_the_scenarios_means_agree_with_the_chain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With exponential shapes the scaled laws are the chain: the interval holds Markov."""
    monkeypatch.setitem(DISTRIBUTION_PRESETS, "elerath2009", _exponential_shapes())
    scenario = load_scenario(TODAY)
    chosen = [x for x in scenario.core_layouts() if x.parity == 2 and x.declustered is None]
    report = methods_report(scenario, chosen, SETTINGS)
    for entry in report.layouts:
        markov = entry.estimates[0].p_loss_group
        row = next(e for e in entry.estimates if e.key == SIM_DISTRIBUTIONS)
        assert row.simulation is not None
        assert row.simulation.ci95_low <= markov <= row.simulation.ci95_high
        assert row.ratio_to_markov == pytest.approx(row.p_loss_group / markov)


def test_scaling_exponential_shapes_gives_the_chain_in_core() -> None:
    rates = Rates(2.2e-6, 3e-4, 60.0, 200.0)
    laws = _exponential_shapes().at_means(rates)
    assert _means(laws) == pytest.approx(_rate_means(rates), rel=1e-12)
    exact = p_loss_group(2, 10, rates, 5 * 8760.0)
    result = simulate_group(GroupSimulation(2, 10, laws, 5 * 8760.0, trials=4_000, seed=3))
    assert result.ci95_low <= exact <= result.ci95_high


def _with_section(overrides: list[str]) -> Scenario:
    return load_scenario(TODAY, overrides)


def test_a_section_with_other_means_is_another_scenario() -> None:
    scenario = _with_section(["distributions.preset=elerath2009"])
    report = methods_report(scenario, scenario.core_layouts()[1:2], LABELS_ONLY)
    row = next(e for e in report.layouts[0].estimates if e.key == SIM_DISTRIBUTIONS)
    assert row.ratio_to_markov is None  # not a ratio of this scenario
    assert "another scenario" in report.distributions_note
    assert "rebuild" in report.distributions_note


def test_a_section_at_the_scenarios_means_keeps_its_ratio() -> None:
    scenario = load_scenario(TODAY)
    scale = scenario.rates().rebuild_hours / math.gamma(1.5)  # a Weibull(2)'s mean
    section = _with_section(
        [
            "distributions.restoration.weibull.shape=2",
            f"distributions.restoration.weibull.scale_hours={scale}",
        ]
    )
    report = methods_report(section, section.core_layouts()[1:2], LABELS_ONLY)
    row = next(e for e in report.layouts[0].estimates if e.key == SIM_DISTRIBUTIONS)
    assert row.ratio_to_markov is not None
    assert report.distributions_note == ""


def test_simulates_markov_column_tells_shapes_from_another_scenario() -> None:
    """``planner simulate``'s Markov column and the F6 line (:func:`markov_check`): one exact
    value in every case, a verdict only where the laws' means are the scenario's rates."""
    scenario = load_scenario(TODAY)
    rates = scenario.rates()
    layout = scenario.core_layouts()[1]
    preset = DISTRIBUTION_PRESETS["elerath2009"]
    constant = markov_check(scenario, layout, exponential_from_rates(rates))
    shapes = markov_check(scenario, layout, preset.at_means(rates))
    other = markov_check(scenario, layout, preset)
    assert (constant.same_scenario, constant.exponential) == (True, True)
    assert (shapes.same_scenario, shapes.exponential) == (True, False)
    assert not other.same_scenario
    assert constant.p_loss_group == shapes.p_loss_group == other.p_loss_group
