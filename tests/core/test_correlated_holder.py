"""A shock may fail the latent defect's holder: what follows for the correlated figures.

At a shock each of the N - f working drives fails with probability q, the defect's holder
included, its defect going with it (docs/correlated.md). The number of drives down is then
the same process as in the chain without defects whatever the defects do, so:

* a mean count is at least the probability of one: E[whole-group losses] >= P(group lost);
* P(loss) never falls as the defect rate rises, a declustered pool's included;
* the going-on figures (expected whole-group losses, degraded and critical hours) do not
  depend on the defect rate at all: they equal the defect-free chain's (λLd = 0).

Each failed while shocks spared the holder (an audit of every shipped scenario found the
first in every layout of scenarios/correlated-20tb.yaml, the second for a pool at q = 5 %).
Checked on one group (the one-layout path) and on a stack (the stack's path), with frequent
defects and large shocks so that the holder matters.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.loss_figures import chain_figures
from planner.core.markov.rates import Rates
from planner.core.markov.transient import loss_figures

HOURS = 43_800.0
SHOCKED = Rates(
    op_failures_per_hour=2e-6,
    latent_defects_per_hour=1e-4,
    rebuild_hours=40.0,
    scrub_hours=336.0,
    degraded_multiplier=3.0,
    shocks_per_hour=2.0 / 8760.0,
    shock_drive_probability=0.2,
)
POOL_SHOCKS = {"shocks_per_hour": 0.1 / 8760.0, "shock_drive_probability": 0.05}
"""Rare small shocks: a pool's P(loss) fell with more defects while shocks spared the holder."""
CASES = [
    (1, 6, SHOCKED),
    (2, 10, SHOCKED),
    (3, 14, dataclasses.replace(SHOCKED, shock_drive_probability=0.05, rebuild_streams=None)),
    (2, 48, dataclasses.replace(SHOCKED, defect_stripe_share=0.033, **POOL_SHOCKS)),  # ~20 %
    (1, 2, dataclasses.replace(SHOCKED, shock_drive_probability=0.5)),  # a mirror
]
IDS = ["raid5-of-6", "raid6-of-10", "tp-of-14-parallel", "pool-of-48", "mirror"]
DEFECT_FACTORS = (0.0, 1.0, 10.0, 100.0)
"""The defect rate times these (0: no defects at all, the reference of the going-on figures)."""
GOING_ON = ("expected_group_losses", "degraded_hours_per_year", "critical_hours_per_year")
SLACK = 1e-9
"""Relative: two exact evaluations of different matrices."""


def _with_defects(rates: Rates, factor: float) -> Rates:
    defects = rates.latent_defects_per_hour * factor
    return dataclasses.replace(rates, latent_defects_per_hour=defects)


@pytest.mark.parametrize(("parity", "drives", "rates"), CASES, ids=IDS)
def test_one_group_more_defects_raise_only_what_defects_cause(
    parity: int, drives: int, rates: Rates
) -> None:
    figures = [loss_figures(parity, drives, _with_defects(rates, f), HOURS) for f in DEFECT_FACTORS]
    clean = figures[0]
    for fewer, more in itertools.pairwise(figures):
        assert more.p_loss >= fewer.p_loss * (1 - SLACK)
    for found in figures:
        assert found.expected_group_losses >= found.p_group_lost * (1 - SLACK)
        assert found.p_group_lost == pytest.approx(clean.p_group_lost, rel=SLACK)
        for name in GOING_ON:
            assert getattr(found, name) == pytest.approx(getattr(clean, name), rel=SLACK), name


@pytest.mark.parametrize(("parity", "drives", "rates"), CASES[1:4:2], ids=IDS[1:4:2])
def test_a_stack_more_defects_raise_only_what_defects_cause(
    parity: int, drives: int, rates: Rates
) -> None:
    """The same in one stack (every defect rate a group of it)."""
    stack = [_with_defects(rates, f) for f in DEFECT_FACTORS]
    n = len(stack)
    found = chain_figures(
        parity, ChainInputs.from_rates(np.full(n, float(drives)), stack, np.full(n, HOURS))
    )
    assert np.all(np.diff(found.p_loss) >= -SLACK * found.p_loss[:-1])
    assert np.all(found.expected_group_losses >= found.p_group_lost * (1 - SLACK))
    for name in GOING_ON:
        values = getattr(found, name)
        assert values == pytest.approx(np.full(n, values[0]), rel=SLACK), name
