"""The design review says why the Weibull simulation differs from Markov (newcomer review).

The shapes' row read 0.06x Markov with no word of why. The words say a time to failure of
shape 1.2 fails fewer drives in the first years than a constant rate of the same mean; the
claim itself is checked here with SciPy's Weibull, independent of planner's laws.
"""

from __future__ import annotations

import math

from scipy import stats

from planner.analysis.method_comparison import second_distributions
from planner.core.simulation.time_laws import Weibull
from planner.scenario import load_default_scenario


def test_the_shapes_note_says_why_fewer_drives_fail_early() -> None:
    scenario = load_default_scenario()
    second = second_distributions(scenario)
    failure = second.laws.operational_failure
    assert isinstance(failure, Weibull)
    assert "shape 1.2 (wear-out): at the same mean, fewer drives fail in the first years" in (
        second.note
    )
    # the claim: over the mission, a Weibull(1.2) of the scenario's mean life fails fewer
    mean = 8760 / 0.019  # the scenario's 1.9% ARR as a mean life (h)
    weibull = stats.weibull_min(1.2, scale=mean / math.gamma(1 + 1 / 1.2))
    assert abs(weibull.mean() / mean - 1) < 1e-12
    hours = scenario.mission_hours
    assert weibull.cdf(hours) < 0.6 * stats.expon(scale=mean).cdf(hours)  # 5.4% vs 9.1%
