"""The closed-form (leading-order) MTTDL of a declustered pool takes its stripe share.

compare-methods' "1-exp(-T/MTTDL), closed form" row was 48 times the exact Markov value on
scenarios/today-20tb-nl-sas.yaml's draid2:8d:48c:2s: the closed form was a traditional
group's, every defect meeting the failed drives (sigma = 1), while the chain thins the
sector-loss move by sigma = 3.3 %.
"""

from __future__ import annotations

import dataclasses

import pytest

from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.core.markov.methods import mttdl_approx_hours
from planner.core.markov.rates import Rates
from planner.core.markov.transient import mttdl_hours


@pytest.mark.parametrize("sigma", [1.0, 0.3, 0.033])
def test_k1_leading_order_with_a_stripe_share_is_the_hand_form(sigma: float) -> None:
    # Level 1 of the n+1 chain, to leading order: p(0, 1) = N lld / mu_scrub (the scrub is
    # its only repair), p(1, 0) = N lop / mu_op; loss at (N - 1) lop from both, the first
    # thinned by sigma:
    # MTTDL = mu_op mu_scrub / (N (N - 1) lop (sigma lld mu_op + lop mu_scrub)).
    rates = Rates(2e-6, 3e-4, 20.0, 150.0, defect_stripe_share=sigma)
    n, lop, lld, mop, msc = 10, 2e-6, 3e-4, 1 / 20.0, 1 / 150.0
    expected = mop * msc / (n * (n - 1) * lop * (sigma * lld * mop + lop * msc))
    assert mttdl_approx_hours(1, n, rates) == pytest.approx(expected, rel=1e-12)


def test_a_pools_closed_form_is_near_its_exact_mttdl() -> None:
    pool = Layout("pool", "draid2", 2, 48, Declustered(8, 2))
    rates = pool.chain_rates(Rates(0.01 / 8760, 9e-5, 77.2, 168.0))
    assert rates.defect_stripe_share < 0.05
    exact = mttdl_hours(2, 48, rates)
    traditional = mttdl_approx_hours(2, 48, dataclasses.replace(rates, defect_stripe_share=1.0))
    # The leading order assumes the group is pristine almost always; with 48 drives a week
    # from their scrub it holds a defect 40 % of the time, so the form is only near (0.59x
    # here), against 0.021x without sigma.
    assert 0.5 < mttdl_approx_hours(2, 48, rates) / exact < 2
    assert traditional < exact / 20  # the form without sigma was far off
