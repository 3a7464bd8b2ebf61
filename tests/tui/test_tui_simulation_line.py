"""The F6 line compares with Markov only when it simulated the scenario (issue 20, item 7)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from planner.analysis.simulation import SimulationRequest
from planner.core.simulation.result import SimulationResult
from planner.scenario import Scenario, load_scenario
from planner.tui.simulation_line import simulation_text

TODAY = Path(__file__).parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"


def _request(scenario: Scenario) -> SimulationRequest:
    """The TUI's request for RAID 6, its exact value set to 4e-4 (twice :func:`_result`'s)."""
    request = SimulationRequest.of(scenario, scenario.core_layouts()[1])
    return replace(request, markov=replace(request.markov, p_loss_group=4e-4))


def _result() -> SimulationResult:
    return SimulationResult(
        method="conditional",
        parity=2,
        drives=12,
        mission_hours=43_800.0,
        trials=4_000,
        p_loss_group=2e-4,
        ci95_low=1.8e-4,
        ci95_high=2.2e-4,
        rel_error=0.1,
        std_error=1e-5,
        hits=4_000,
        effective_trials=3_000.0,
        max_weight_share=0.001,
    )


def test_a_section_with_other_means_gets_no_ratio() -> None:
    scenario = load_scenario(TODAY, ["distributions.preset=elerath2009"])
    request = _request(scenario)
    assert not request.same_scenario
    text = simulation_text(request, _result())
    assert "simulation / Markov" not in text
    assert "another scenario" in text


def test_the_scenarios_own_rates_keep_the_ratio() -> None:
    scenario = load_scenario(TODAY)
    request = _request(scenario)
    assert request.same_scenario
    assert "simulation / Markov = 0.5" in simulation_text(request, _result())


def test_the_half_width_reads_as_relative_and_the_method_points_to_its_page() -> None:
    """Newcomer review: "16%, 95% CI [16%, 17%] (±1.7%; 500 trials, conditional method)"
    read ±1.7% as percentage points, and an interval narrower than 500 plain trials give
    had no explanation on screen."""
    scenario = load_scenario(TODAY)
    request = _request(scenario)
    text = simulation_text(request, _result())
    assert "±10% relative" in text
    assert "docs/simulation.md" in text


def test_a_run_without_a_hit_shows_no_interval_and_no_inside_or_outside() -> None:
    """A weighted run whose trials never reached a critical state has no interval (NaN ends,
    tests/core/test_sim_no_hit.py): the line says so instead of "[n/a, n/a]" and "Markov
    outside the interval"."""
    scenario = load_scenario(TODAY)
    request = _request(scenario)
    empty = replace(_result(), p_loss_group=0.0, ci95_low=float("nan"), ci95_high=float("nan"))
    text = simulation_text(request, replace(empty, hits=0))
    assert "95% CI none" in text
    assert "no interval to hold" in text
    assert "outside" not in text
    assert "no interval can be given" in text


def test_a_pool_is_simulated_whole_and_says_so() -> None:
    """A re-check: F6 said "Monte Carlo, one group" for a dRAID pool, which F4 says it
    simulates whole (the pool is the chain's group)."""
    scenario = load_scenario(TODAY)
    pool = next(x for x in scenario.core_layouts() if x.declustered is not None)
    assert "Monte Carlo, the pool: P(loss)" in simulation_text(
        SimulationRequest.of(scenario, pool), _result()
    )
    assert "Monte Carlo, one group: P(loss)" in simulation_text(_request(scenario), _result())
