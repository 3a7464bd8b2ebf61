"""The simulator with ageing drives against the exact ageing chain.

With ``renew_replaced=False`` a rebuilt drive keeps the batch's age: the simulated process is
then the chain of planner.core.markov.piecewise, exactly for a table of rates by year (its
pieces are exact), so the simulator's interval must hold the chain's P(loss). The simulator
renews replaced drives by default (a new drive, age 0): on a short mission, where few drives
are replaced, it still agrees with the chain; on a long one with wear-out it is lower, as
docs/ageing.md shows. Each run also rejects a model it should not match (teeth).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from planner.core.markov.ageing import Ageing, HazardTable, WeibullHazard
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.loss_figures import chain_figures
from planner.core.markov.piecewise import aged_chain_figures
from planner.core.simulation.distributions import DistributionSet
from planner.core.simulation.simulate import GroupSimulation, simulate_group
from planner.core.simulation.time_laws import Exponential, HazardByYear, Weibull

YEAR = 8760.0
TABLE = HazardTable(tuple(a / YEAR for a in (0.01, 0.03, 0.06, 0.09)))


def test_the_yearly_law_integrates_its_table() -> None:
    """Mean life: the survival integrated numerically; sampling inverts H."""
    from scipy import integrate  # here: only this test needs it (0.2 s to import)

    law = HazardByYear(TABLE)
    mean, _ = integrate.quad(lambda t: float(law.survival(t)), 0, 400 * YEAR, limit=400)
    assert law.mean_hours == pytest.approx(mean, rel=1e-7)
    scaled = law.time_scaled(2.0)
    assert scaled.mean_hours == pytest.approx(2 * law.mean_hours, rel=1e-12)
    times = law.sample(np.random.default_rng(1), 1000)
    np.testing.assert_allclose(law.cumulative_hazard(times), -np.log1p(-law.cdf(times)))
    np.testing.assert_allclose(law.inverse_cumulative_hazard(law.cumulative_hazard(times)), times)


def _laws(life: HazardByYear | Weibull, age: float, renew: bool) -> DistributionSet:
    return DistributionSet(
        life,
        Exponential(24.0),
        Exponential(168.0),
        1e-4,
        drive_age_hours_at_start=age,
        renew_replaced=renew,
    )


def test_a_batch_that_keeps_its_age_is_the_chain() -> None:
    """RAID 5 of 8, a table rising from 1% to 9%, drives a year old, 3 years: exact."""
    inputs = ChainInputs.of(8, 1e-6, 1e-4, 24.0, 168.0, 3 * YEAR)
    chain = aged_chain_figures(1, inputs, Ageing(TABLE, YEAR))
    exact = float(chain.figures.p_loss)
    run = GroupSimulation(1, 8, _laws(HazardByYear(TABLE), YEAR, False), 3 * YEAR,
                          rel_error=0.03, seed=3)  # fmt: skip
    result = simulate_group(run)
    assert result.ci95_low <= exact <= result.ci95_high
    first_year = float(chain_figures(1, dataclasses.replace(inputs, op_failures_per_hour=np.array(
        TABLE.failures_per_hour[1]))).p_loss)  # fmt: skip
    assert not result.ci95_low <= first_year <= result.ci95_high


def _weibull_case(years: float, age_years: float) -> tuple[float, float, float, Weibull]:
    law = WeibullHazard.with_first_year_rate(2.0, 0.01 / YEAR)
    inputs = ChainInputs.of(8, 1e-6, 1e-4, 24.0, 168.0, years * YEAR)
    chain = aged_chain_figures(1, inputs, Ageing(law, age_years * YEAR))
    low, high = float(chain.p_loss_low), float(chain.p_loss_high)
    return float(chain.figures.p_loss), low, high, Weibull(law.shape, law.scale_hours)


def test_renewals_rarely_matter_on_a_short_mission() -> None:
    """Half a year from age 2 (shape 2): few drives are replaced, and the renewed
    simulation's interval at ±2.3% (3,500 trials) holds the chain's bracket (renewals lower
    P(loss) by ~0.6% here: 200,000 trials, 0.9945x the bracket's low end)."""
    _, low, high, life = _weibull_case(0.5, 2.0)
    run = GroupSimulation(1, 8, _laws(life, 2 * YEAR, True), 0.5 * YEAR, trials=3_500, seed=5)
    result = simulate_group(run)
    assert result.ci95_low <= low <= high <= result.ci95_high


def test_renewals_lower_the_risk_of_a_long_wear_out_mission() -> None:
    """Eight years from new (shape 2): new drives in place of failed ones fail less often
    than the batch, so the renewed simulation is below the chain's bracket (the batch
    assumption is pessimistic), and the one that keeps the batch's age agrees with it."""
    value, low, _, life = _weibull_case(8.0, 0.0)
    renewed = simulate_group(GroupSimulation(1, 8, _laws(life, 0.0, True), 8 * YEAR,
                                             trials=500, seed=5))  # fmt: skip
    assert renewed.ci95_high < low
    assert renewed.p_loss_group / value == pytest.approx(0.88, abs=0.03)
    batch = simulate_group(GroupSimulation(1, 8, _laws(life, 0.0, False), 8 * YEAR,
                                           trials=500, seed=5))  # fmt: skip
    assert batch.ci95_low <= value <= batch.ci95_high
