"""Ageing moves the risk the right way (hypothesis).

* A higher ARR in any year of a table never lowers P(loss) or P(group lost), on random
  chains (correlated ones too) whose scrubs find a defect within a week (NS3574's 168 h).
  Not everywhere: where defects live for years a failure that takes one with it can lower
  the risk (``test_more_failures_can_lower_the_risk`` in test_ageing_chain.py), which is
  why the bracket of :mod:`planner.core.markov.piecewise` does not rest on this.
* Older drives at the start never lower them for a wear-out shape (shape > 1): on the same
  pieces every rate is higher, and so is the value; the brackets (bounds, not values: each
  end need not move with the age) keep the exact values' order possible, the older's upper
  end above the younger's lower one.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from planner.core.markov.ageing import (
    Ageing,
    HazardTable,
    WeibullHazard,
    initial_edges,
    pieces_between,
)
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.piecewise import aged_chain_figures
from planner.core.markov.piecewise_carry import carried_figures

YEAR = 8760.0
ROUNDING = 1e-12
"""How far under, relative, rounding may leave a figure that cannot be lower (1e-12: the
accuracy the figures are checked to against the references)."""

groups = st.tuples(
    st.integers(1, 3),  # parity
    st.integers(1, 12),  # data drives
    st.floats(0.0, 3e-4),  # latent defects per drive-hour
    st.floats(4.0, 72.0),  # rebuild hours
    st.floats(1.0, 4.0),  # degraded multiplier
)


def _inputs(case: tuple[int, int, float, float, float], years: float) -> ChainInputs:
    parity, data, lld, rebuild, m = case
    return ChainInputs.of(
        parity + data, 0.02 / YEAR, lld, rebuild, 168.0, years * YEAR, degraded_multiplier=m
    )


@settings(max_examples=30, deadline=None)
@given(
    groups,
    st.lists(st.floats(0.002, 0.2), min_size=2, max_size=5),
    st.integers(0, 4),
    st.floats(1.05, 4.0),
    st.floats(0.0, 3.0),
)
@example((1, 2, 0.0, 12.0, 2.0), [0.125] * 4, 2, 2.0, 2.9999999999999996)  # 1 ulp under
def test_a_higher_arr_in_any_year_never_lowers_the_risk(
    case: tuple[int, int, float, float, float],
    arr_by_year: list[float],
    which: int,
    factor: float,
    age_years: float,
) -> None:
    which = which % len(arr_by_year)
    higher = list(arr_by_year)
    higher[which] = min(0.99, higher[which] * factor)
    inputs = _inputs(case, 4.0)
    base, more = (
        aged_chain_figures(
            case[0], inputs, Ageing(HazardTable(tuple(a / YEAR for a in t)), age_years * YEAR)
        )
        for t in (arr_by_year, higher)
    )
    assert base.converged
    assert more.converged
    # Never lower, to the figures' own accuracy: with the drives 3 years old less 4e-16 y
    # (a fresh clone's Hypothesis found it), the year raised lasts 3.5e-12 h, a piece of its
    # own, and the sum of the two pieces came out 1 ulp under the one piece's (3e-16 rel).
    assert more.figures.p_loss >= base.figures.p_loss * (1 - ROUNDING)
    assert more.figures.p_group_lost >= base.figures.p_group_lost * (1 - ROUNDING)


@settings(max_examples=25, deadline=None)
@given(groups, st.floats(1.05, 3.0), st.floats(0.0, 4.0), st.floats(0.1, 3.0))
def test_older_drives_never_lower_the_risk_of_wear_out(
    case: tuple[int, int, float, float, float], shape: float, age_years: float, older: float
) -> None:
    law = WeibullHazard.with_first_year_rate(shape, 0.02 / YEAR)
    inputs = _inputs(case, 3.0).ravel()
    runs = []
    for age in (age_years, age_years + older):
        ageing = Ageing(law, age * YEAR)
        pieces = pieces_between(ageing, initial_edges(ageing, 3 * YEAR, 8))
        runs.append(carried_figures(case[0], inputs, ageing, pieces))
    young, old = runs
    assert np.all(old.figures.p_loss >= young.figures.p_loss)
    assert np.all(old.p_loss_high >= young.p_loss_low)
    assert np.all(old.figures.p_group_lost >= young.figures.p_group_lost)
