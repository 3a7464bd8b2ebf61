"""Correlation moves the risk the right way, and the elasticities are the derivatives.

Directions (hypothesis): a larger degraded multiplier, a higher shock rate or a larger shock
probability never lowers P(loss) or P(group lost) and never raises the MTTDL. Elasticities
to m, the shock rate and q: against central differences of P(loss) (the chain's exact
P(loss), not the elasticity code), and their sum rule with the mission's.
"""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.design.elasticity import elasticities_of
from planner.core.design.sweep_points import Parameter
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.rates import Rates
from planner.core.markov.transient import loss_figures, p_loss_group

BASE = Rates(4.3e-6, 1.7e-4, 23.0, 151.0)

cases = st.tuples(
    st.integers(1, 3),  # parity
    st.integers(0, 9),  # data drives beyond 1
    st.floats(1.0, 8.0),  # m
    st.floats(0.0, 2.0),  # shocks per group-year
    st.floats(0.0, 0.5),  # q
    st.sampled_from(["m", "shocks", "q"]),
    st.floats(1.01, 3.0),  # how much more of it
)


@settings(max_examples=25, deadline=None)
@given(cases)
def test_more_correlation_never_lowers_the_risk(
    case: tuple[int, int, float, float, float, str, float],
) -> None:
    parity, extra, m, shocks, q, which, factor = case
    drives = parity + 1 + extra
    rates = dataclasses.replace(
        BASE,
        degraded_multiplier=m,
        shocks_per_hour=shocks / 8760,
        shock_drive_probability=q,
    )
    field = {
        "m": "degraded_multiplier",
        "shocks": "shocks_per_hour",
        "q": "shock_drive_probability",
    }[which]
    value = getattr(rates, field) * factor
    if which == "shocks" and value == 0:
        value = 1e-4
    if which == "q":
        value = min(1.0, max(value, 0.01))
    more = dataclasses.replace(rates, **{field: value})
    base = loss_figures(parity, drives, rates, 43_800.0, mttdl=True)
    moved = loss_figures(parity, drives, more, 43_800.0, mttdl=True)
    slack = 1e-12
    assert moved.p_loss >= base.p_loss * (1 - slack)
    assert moved.p_group_lost >= base.p_group_lost * (1 - slack)
    assert base.mttdl_hours is not None
    assert moved.mttdl_hours is not None
    assert moved.mttdl_hours <= base.mttdl_hours * (1 + slack)


CORRELATED = dataclasses.replace(
    BASE, degraded_multiplier=3.0, shocks_per_hour=0.7 / 8760, shock_drive_probability=0.06
)
FIELDS = {
    Parameter.DEGRADED_MULTIPLIER: "degraded_multiplier",
    Parameter.SHOCKS_PER_HOUR: "shocks_per_hour",
    Parameter.SHOCK_DRIVE_PROBABILITY: "shock_drive_probability",
}


@pytest.mark.parametrize(("parity", "drives"), [(1, 6), (2, 10), (3, 14)])
def test_elasticities_are_the_derivatives(parity: int, drives: int) -> None:
    found = elasticities_of(
        parity, ChainInputs.of_rates(drives, CORRELATED, 43_800.0), correlation=True
    )
    for parameter, field in FIELDS.items():
        x, h = getattr(CORRELATED, field), 1e-4
        up = p_loss_group(
            parity, drives, dataclasses.replace(CORRELATED, **{field: x * (1 + h)}), 43_800.0
        )
        down = p_loss_group(
            parity, drives, dataclasses.replace(CORRELATED, **{field: x * (1 - h)}), 43_800.0
        )
        central = (math.log(up) - math.log(down)) / (math.log1p(h) - math.log1p(-h))
        assert float(found[parameter]) == pytest.approx(central, rel=1e-6), parameter
    rates = [Parameter.OP_FAILURES_PER_HOUR, Parameter.LATENT_DEFECTS_PER_HOUR]
    total = sum(float(found[p]) for p in [*rates, Parameter.SHOCKS_PER_HOUR])
    total -= float(found[Parameter.REBUILD_HOURS]) + float(found[Parameter.SCRUB_HOURS])
    assert total == pytest.approx(float(found[Parameter.MISSION_HOURS]), rel=1e-9)


def test_elasticity_at_neutral_values() -> None:
    """m = 1, no shocks: m's elasticity is the one-sided derivative; q's is 0 (no shocks)."""
    neutral = dataclasses.replace(BASE, shock_drive_probability=0.05)
    found = elasticities_of(2, ChainInputs.of_rates(10, neutral, 43_800.0), correlation=True)
    h = 1e-6
    up = p_loss_group(2, 10, dataclasses.replace(neutral, degraded_multiplier=1 + h), 43_800.0)
    one_sided = (math.log(up) - math.log(p_loss_group(2, 10, neutral, 43_800.0))) / math.log1p(h)
    assert float(found[Parameter.DEGRADED_MULTIPLIER]) == pytest.approx(one_sided, rel=1e-4)
    assert float(found[Parameter.SHOCK_DRIVE_PROBABILITY]) == 0.0
    assert float(found[Parameter.SHOCKS_PER_HOUR]) == 0.0
