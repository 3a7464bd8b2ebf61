"""Enclosures move the risk the right way (hypothesis; docs/domains.md).

More enclosure failures or longer repairs never lower P(loss), P(group lost) or
P(unavailable); P(unavailable) is never below P(loss); enclosures never make a group safer
than its drives alone. How the spread moves the risk is no such rule: an outage within
parity exposes the data, one beyond parity only stops the group (the worked case of
docs/domains.md, tests/docs/test_docs_domains.py).
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.markov.domain_figures import group_loss_figures
from planner.core.markov.enclosures import Enclosures
from planner.core.markov.loss_figures import LossFigures
from planner.core.markov.rates import Rates
from planner.core.markov.transient import loss_figures

SLACK = 1e-9
"""Relative slack of a comparison: the two figures come from different matrices."""

cases = st.tuples(
    st.integers(1, 3),  # parity
    st.integers(0, 9),  # data drives beyond 1
    st.integers(1, 12),  # members per enclosure
    st.floats(0.01, 3.0),  # enclosure failures per year
    st.floats(1.0, 300.0),  # repair hours
    st.floats(0.002, 0.2),  # ARR
    st.floats(0.0, 3e-4),  # latent defects per drive-hour
    st.sampled_from(["failures", "repair"]),
    st.floats(1.01, 4.0),  # how much more of it
)


def _figures(parity: int, drives: int, rates: Rates) -> LossFigures:
    return group_loss_figures(parity, drives, rates, 5 * 8760.0)


def _no_less(more: float, less: float) -> bool:
    return more >= less * (1 - SLACK) - 1e-300


@settings(max_examples=30, deadline=None)
@given(cases)
def test_more_enclosure_failures_or_longer_repairs_never_lower_the_risk(
    case: tuple[int, int, int, float, float, float, float, str, float],
) -> None:
    parity, extra, members, per_year, repair, arr, lld, which, factor = case
    drives = parity + 1 + extra
    enclosures = Enclosures(per_year / 8760, repair, members_per_enclosure=members)
    rates = Rates(arr / 8760, lld, 30.0, 168.0, enclosures=enclosures)
    more = dataclasses.replace(
        enclosures,
        **(
            {"failures_per_hour": enclosures.failures_per_hour * factor}
            if which == "failures"
            else {"repair_hours": repair * factor}
        ),
    )
    base = _figures(parity, drives, rates)
    worse = _figures(parity, drives, dataclasses.replace(rates, enclosures=more))
    alone = loss_figures(parity, drives, dataclasses.replace(rates, enclosures=None), 5 * 8760.0)
    assert base.p_unavailable is not None
    for name in ("p_loss", "p_group_lost", "p_unavailable"):
        assert _no_less(getattr(worse, name), getattr(base, name)), name
    assert _no_less(base.p_unavailable, base.p_loss)
    assert _no_less(base.p_loss, alone.p_loss)
    assert _no_less(base.p_group_lost, alone.p_group_lost)
