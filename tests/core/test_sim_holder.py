"""The drive holding the latent defect can fail: the simulator against that chain, in mpmath.

The rule (the n+k chain's, and so the simulator's): every working drive fails at its hazard,
the holder included. The holder's failure takes its defect with it, ``(f, 1) -> (f + 1, 0)``,
never a loss by itself; any other failure with ``f + l = k`` is data loss. NS3574 left the
holder out (``(N - f - l) lambda_op``), which let P(loss) rise as the scrub interval
shortened. The chain below is written here from that text, not from planner's code nor from
``tests/reference.py`` (which follows the chain on main), with the old rule beside it as the
alternative each run must reject.

The regimes are small groups with many defects and long scrubs, where the holder is a large
share of the drives most of the time: the two rules differ by 15% to 40%, more than seven
binomial sigmas of 10,000 plain trials (the conditional runs, several times tighter, take
5,000). Every comparison asserts |sim - exact| < 4 sigma and |sim - old rule| > 4 sigma.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache

import mpmath
import numpy as np
import pytest

from planner.core.markov.rates import Rates
from planner.core.simulation.distributions import exponential_from_rates
from planner.core.simulation.rare_events import conditional_plan
from planner.core.simulation.runs import run_batch
from planner.core.simulation.simulate import GroupSimulation, simulate_group

# one worker runs the whole module, so the cached references and runs are computed once
# (make test runs pytest with --dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_sim_holder")


def holder_chain(
    parity: int, drives: int, rates: Rates, *, holder_fails: bool = True
) -> mpmath.matrix:
    """Q (per hour) over the states (f, l), f + l <= k, then the loss state.

    Out of (f, l): the failure of one of the ``N - f - l`` drives without the defect goes to
    (f + 1, l), or to loss when ``f + 1 + l > k``; with ``holder_fails`` the holder's, at
    ``lambda_op``, goes from (f, 1) to (f + 1, 0). Defects appear at ``(N - f) lambda_ld``
    from (f, 0) while f < k; rebuilds at ``min(f, streams) mu_op``; the scrub from (0, 1).
    """
    k = parity
    lop, lld = mpmath.mpf(rates.op_failures_per_hour), mpmath.mpf(rates.latent_defects_per_hour)
    mu_op, mu_scrub = 1 / mpmath.mpf(rates.rebuild_hours), 1 / mpmath.mpf(rates.scrub_hours)
    streams = rates.rebuild_streams or k
    states = [(f, lat) for f in range(k + 1) for lat in (0, 1) if f + lat <= k]
    index = {s: i for i, s in enumerate(states)}
    loss = len(states)
    q = mpmath.zeros(loss + 1, loss + 1)
    for (f, lat), i in index.items():
        q[i, loss if f + 1 + lat > k else index[(f + 1, lat)]] += (drives - f - lat) * lop
        if lat == 1 and holder_fails:
            q[i, index[(f + 1, 0)]] += lop
        if lat == 0 and f < k:
            q[i, index[(f, 1)]] += (drives - f) * lld
        if f > 0:
            q[i, index[(f - 1, lat)]] += min(f, streams) * mu_op
        if (f, lat) == (0, 1):
            q[i, index[(0, 0)]] += mu_scrub
    for i in range(loss + 1):
        q[i, i] = -mpmath.fsum(q[i, j] for j in range(loss + 1) if j != i)
    return q


@cache
def exact(parity: int, drives: int, rates: Rates, hours: float, holder_fails: bool) -> float:
    """P(loss by ``hours``) from the pristine state: the (0, loss) entry of exp(Q T)."""
    with mpmath.workdps(40):
        q = holder_chain(parity, drives, rates, holder_fails=holder_fails)
        return float(mpmath.expm(q * hours)[0, q.rows - 1])


MANY_DEFECTS = Rates(1e-3, 1e-2, 400.0, 3_000.0)
WORSE = Rates(1e-3, 2e-2, 300.0, 3_000.0)

# (parity k, drives N, mission hours, rates)
CASES = [
    (2, 4, 500.0, MANY_DEFECTS),
    (2, 4, 600.0, replace(MANY_DEFECTS, rebuild_streams=2)),
    (3, 5, 600.0, WORSE),
    (3, 5, 600.0, replace(WORSE, rebuild_streams=None)),
]


def case_id(case: tuple[int, int, float, Rates]) -> str:
    k, n, hours, rates = case
    return f"k{k}-N{n}-T{hours:g}-streams{rates.rebuild_streams}"


def sigma_of(method: str, std_error: float, p: float, trials: int) -> float:
    """Plain sampling's sigma from the exact p (binomial), else the run's own."""
    return math.sqrt(p * (1 - p) / trials) if method == "plain" else std_error


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("method", ["plain", "conditional"])
def test_simulation_matches_the_chain_where_the_holder_fails(
    case: tuple[int, int, float, Rates], method: str
) -> None:
    k, n, hours, rates = case
    new = exact(k, n, rates, hours, True)
    old = exact(k, n, rates, hours, False)
    trials = 10_000 if method == "plain" else 5_000
    result = simulate_group(
        GroupSimulation(
            k, n, exponential_from_rates(rates), hours, method=method, trials=trials, seed=2026
        )
    )
    sigma = sigma_of(method, result.std_error, new, result.trials)
    assert abs(result.p_loss_group - new) < 4 * sigma, (result, new)
    # Teeth: the old rule (the holder cannot fail) is far outside the same run's error.
    assert abs(result.p_loss_group - old) > 4 * sigma, (result, old)


def test_rare_event_estimate_follows_the_holder_rule() -> None:
    """Splitting with failure biasing (auto picks it here) at p ~ 3e-4, old rule 27% lower."""
    k, n, hours = 3, 6, 5 * 8_760.0
    rates = Rates(2e-5, 2e-3, 100.0, 8_000.0)
    new = exact(k, n, rates, hours, True)
    old = exact(k, n, rates, hours, False)
    result = simulate_group(
        GroupSimulation(k, n, exponential_from_rates(rates), hours, trials=5_000, seed=11)
    )
    assert result.method == "biased"
    assert abs(result.p_loss_group - new) < 4 * result.std_error, (result, new)
    assert abs(result.p_loss_group - old) > 4 * result.std_error, (result, old)


@pytest.mark.parametrize("holder_weight", [0.25, 4.0])
def test_a_biased_holder_keeps_the_estimate_unbiased(holder_weight: float) -> None:
    """Scaling only the holder's hazard leaves the likelihood-weighted mean on the chain.

    A likelihood ratio that missed the holder's hazard (or charged it at the other drives'
    weight) would move the mean by far more than its error in this regime.
    """
    k, n, hours, rates = 2, 4, 500.0, MANY_DEFECTS
    plan = replace(conditional_plan(k, n), holder_weight=(holder_weight,) * (k + 1))
    assert plan.biased
    y, _ = run_batch(plan, exponential_from_rates(rates), hours, 20_000, np.random.default_rng(3))
    new = exact(k, n, rates, hours, True)
    old = exact(k, n, rates, hours, False)
    sigma = float(y.std(ddof=1)) / math.sqrt(y.size)
    assert abs(float(y.mean()) - new) < 4 * sigma, (y.mean(), new)
    assert abs(float(y.mean()) - old) > 4 * sigma, (y.mean(), old)


def test_holder_weights_must_be_positive() -> None:
    with pytest.raises(ValueError, match="holder weights"):
        replace(conditional_plan(2, 4), holder_weight=(1.0, 0.0, 1.0))
