"""The simulator against the exact Markov answer (exponential laws) and a scalar reference.

With exponential distributions the simulated process is the n+k chain itself, so the plain
and the conditional estimates must agree with planner.core.markov.transient.p_loss_group within
their statistical error. The failure rate is inflated and the missions short so that plain
sampling resolves p ~ 1e-2..0.5 in a fraction of a second. Every comparison asserts
|sim - exact| < 4 sigma; the same runs are checked to be far from a perturbed model, so the
assertion has the power to catch a wrong rule.
"""

import math
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from planner.core.markov.rates import Rates
from planner.core.markov.transient import p_loss_aggregate, p_loss_group
from planner.core.simulation.distributions import DistributionSet, exponential_from_rates
from planner.core.simulation.estimate import MIN_TRIALS_REL_ERROR
from planner.core.simulation.result import Method, SimulationResult
from planner.core.simulation.simulate import GroupSimulation, simulate_group
from planner.core.simulation.time_laws import Exponential, Weibull

INFLATED = Rates(
    op_failures_per_hour=2e-4, latent_defects_per_hour=5e-4, rebuild_hours=50.0, scrub_hours=100.0
)
NO_LATENT = Rates(2e-4, 0.0, 50.0, 100.0)

# (parity k, drives N, mission hours, rates)
CASES = [
    (1, 4, 1_000.0, INFLATED),
    (1, 10, 1_000.0, INFLATED),
    (2, 6, 2_000.0, INFLATED),
    (2, 12, 2_000.0, INFLATED),
    (2, 12, 2_000.0, NO_LATENT),
    (3, 10, 3_000.0, INFLATED),
]


def case_id(case: tuple[int, int, float, Rates]) -> str:
    k, n, hours, rates = case
    return f"k{k}-N{n}-T{hours:g}-ld{rates.latent_defects_per_hour:g}"


def assert_agrees(result: SimulationResult, exact: float) -> None:
    """|sim - exact| < 4 sigma, sigma from the exact p for plain (binomial) sampling."""
    if result.method == "plain":
        sigma = math.sqrt(exact * (1 - exact) / result.trials)
    else:
        sigma = result.std_error
    assert abs(result.p_loss_group - exact) < 4 * sigma, (result, exact)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("method", ["plain", "conditional"])
def test_exponential_simulation_matches_markov(
    case: tuple[int, int, float, Rates], method: str
) -> None:
    k, n, hours, rates = case
    exact = p_loss_group(k, n, rates, hours)
    # The conditional estimator is 3 to 4 times tighter than plain sampling: a quarter of
    # the trials gives it more power than plain's half.
    trials = 10_000 if method == "plain" else 5_000
    result = simulate_group(
        GroupSimulation(
            k, n, exponential_from_rates(rates), hours, method=method, trials=trials, seed=2026
        )
    )
    assert result.trials == trials
    assert_agrees(result, exact)
    # Power: a model with 20% more failures (a drive-count multiplier off by one in ~5) is
    # clearly rejected by the same run. It sits >= 7 binomial sigmas from the exact value in
    # every case at 10,000 plain trials (>= 10 at 20,000; the conditional runs 18 to 33 of
    # their own sigmas at 5,000). 50% longer rebuilds sat only 2.9 sigmas away for RAID 5
    # of 4 at 20,000 plain trials, where the latent defects dominate, so that check passed
    # or failed with the seed.
    wrong_rates = Rates(
        1.2 * rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
    )
    wrong = p_loss_group(k, n, wrong_rates, hours)
    sigma = result.std_error
    assert abs(result.p_loss_group - wrong) > 4 * sigma


def test_weibull_of_shape_one_is_the_markov_chain() -> None:
    """Shape-1 Weibulls take the Weibull code path and must still give the exact chain."""
    k, n, hours, r = 2, 8, 2_000.0, INFLATED
    laws = DistributionSet(
        Weibull(1.0, 1 / r.op_failures_per_hour),
        Weibull(1.0, r.rebuild_hours),
        Weibull(1.0, r.scrub_hours),
        r.latent_defects_per_hour,
    )
    result = simulate_group(GroupSimulation(k, n, laws, hours, trials=20_000, seed=5))
    assert_agrees(result, p_loss_group(k, n, r, hours))


# --- a scalar reference simulator of the same rules, written independently --------------------


def reference_loss(k: int, n: int, laws: DistributionSet, hours: float, rng) -> bool:
    """One trial, one event at a time. Drives start new; a rebuilt drive is new; every working
    drive fails, the defect's holder included, taking its defect with it; the scrub clock stops
    while a drive is failed; loss = failure of a drive other than the holder at f+l=k, but
    with a defect present only with probability ``laws.defect_stripe_share`` (a pool's
    stripe share), the other such failures clearing the defect."""
    life = laws.operational_failure
    assert isinstance(life, Weibull)

    def inv(h: float) -> float:
        return life.location_hours + life.scale_hours * h ** (1 / life.shape)

    def draw(w: Weibull) -> float:
        return w.location_hours + w.scale_hours * rng.weibull(w.shape)

    t, f, holder = 0.0, 0, -1
    # each drive's failure time: its cumulative hazard from birth to failure drawn at birth
    due = [inv(h) for h in rng.standard_exponential(n)]
    failed = [False] * n
    rebuild_end, scrub_left, scrub_since = math.inf, 0.0, 0.0
    while True:
        at_risk = [i for i in range(n) if not failed[i]]
        fail_times = [due[i] for i in at_risk]
        t_fail = min(fail_times, default=math.inf)
        rate = (n - f) * laws.latent_defects_per_hour if holder < 0 and f < k else 0.0
        t_ld = t + rng.exponential(1 / rate) if rate > 0 else math.inf
        t_scrub = scrub_since + scrub_left if holder >= 0 and f == 0 else math.inf
        t = min(t_fail, t_ld, rebuild_end, t_scrub)
        if t >= hours:
            return False
        if t == t_fail:
            i = at_risk[fail_times.index(t_fail)]
            if i == holder:
                holder = -1
            elif f + (holder >= 0) == k:
                share = laws.defect_stripe_share
                if holder < 0 or share == 1 or rng.random() < share:
                    return True
                holder = -1
            failed[i] = True
            if f == 0:
                rebuild_end = t + draw(laws.restoration)
                scrub_left -= t - scrub_since
            f += 1
        elif t == t_ld:
            working = [i for i in range(n) if not failed[i]]
            holder = working[int(rng.integers(len(working)))]
            scrub_left, scrub_since = draw(laws.scrub), t
        elif t == rebuild_end:
            i = failed.index(True)
            failed[i], due[i] = False, t + inv(rng.standard_exponential())
            f -= 1
            rebuild_end = t + draw(laws.restoration) if f else math.inf
            scrub_since = t
        else:
            holder = -1


WEAR_OUT = DistributionSet(
    operational_failure=Weibull(1.5, 4_000.0),
    restoration=Weibull(2.0, 40.0, 10.0),
    scrub=Weibull(3.0, 150.0, 6.0),
    latent_defects_per_hour=3e-4,
)


@pytest.mark.parametrize(
    ("k", "n", "hours", "share"),
    [(1, 4, 2_000.0, 1.0), (2, 5, 4_000.0, 1.0), (1, 4, 2_000.0, 0.3), (2, 5, 8_000.0, 0.3)],
)
def test_weibull_simulation_matches_scalar_reference(
    k: int, n: int, hours: float, share: float
) -> None:
    laws = replace(WEAR_OUT, defect_stripe_share=share)
    rng = np.random.default_rng(99)
    trials = 3_000
    # The scalar reference (pure Python, most of this test's time) is drawn once for both
    # estimators: the same seed gave both the same draws when each method drew its own.
    losses = sum(reference_loss(k, n, laws, hours, rng) for _ in range(trials))
    p_ref = losses / trials
    assert 0.02 < p_ref < 0.5
    # The reference's own binomial error dominates sigma: with 10,000 plain trials (1/3 of
    # its error or less) sigma is at most 6% wider than with 20,000, with 5,000 conditional
    # ones (1/6 or less) at most 1.2%.
    for method, sim_trials in (("plain", 10_000), ("conditional", 5_000)):
        sim = simulate_group(
            GroupSimulation(k, n, laws, hours, method=method, trials=sim_trials, seed=4)
        )
        sigma = math.hypot(math.sqrt(p_ref * (1 - p_ref) / trials), sim.std_error)
        assert abs(sim.p_loss_group - p_ref) < 4 * sigma, (method, sim, p_ref)


# --- reproducibility, stopping rules, result ---------------------------------------------------

LAWS = exponential_from_rates(INFLATED)


@pytest.mark.parametrize("method", list(Method))
def test_same_seed_same_result_different_seed_differs(method: Method) -> None:
    run = {"method": method, "trials": 2_000, "batch_trials": 1_000}  # batches 500, 1,000, 500
    a = simulate_group(GroupSimulation(2, 6, LAWS, 2_000.0, seed=1, **run))
    b = simulate_group(GroupSimulation(2, 6, LAWS, 2_000.0, seed=1, **run))
    c = simulate_group(GroupSimulation(2, 6, LAWS, 2_000.0, seed=2, **run))
    assert a == b
    assert a.p_loss_group != c.p_loss_group


def test_fixed_trials_and_progress_callback() -> None:
    calls: list[tuple[int, float]] = []
    result = simulate_group(
        GroupSimulation(1, 4, LAWS, 1_000.0, trials=7_000, batch_trials=3_000, seed=0),
        on_progress=lambda *a: calls.append(a),
    )
    # Batches grow 500, 1,000, 2,000, then stay at the 3,000 cap; the last one is cut to fit.
    assert [done for done, _ in calls] == [500, 1_500, 3_500, 6_500, 7_000]
    assert calls[-1][1] == result.p_loss_group
    assert result.trials == 7_000


def test_stops_at_target_relative_error() -> None:
    """With no floor the run stops at the first batch that meets the target."""
    result = simulate_group(
        GroupSimulation(
            2, 6, LAWS, 2_000.0, rel_error=0.05, batch_trials=2_000, seed=0, min_trials=0
        )
    )
    assert result.rel_error <= 0.05
    assert result.hits >= 30
    fewer = simulate_group(GroupSimulation(2, 6, LAWS, 2_000.0, trials=result.trials // 2, seed=0))
    assert fewer.rel_error > 0.05


def test_a_weighted_run_meets_the_target_only_after_its_floor() -> None:
    """The target does not stop a weighted run before ``min_trials`` (test_sim_stopping says
    why); plain runs, whose Clopper-Pearson interval needs no floor, stop as soon as it holds."""
    run = GroupSimulation(2, 6, LAWS, 2_000.0, rel_error=0.1, batch_trials=2_000, seed=0)
    weighted = simulate_group(run)
    assert weighted.stopped_by == "rel_error"
    assert MIN_TRIALS_REL_ERROR <= weighted.trials < MIN_TRIALS_REL_ERROR + 2_000
    early = simulate_group(replace(run, min_trials=0))
    assert early.trials < 4_000
    plain = simulate_group(
        GroupSimulation(1, 4, LAWS, 1_000.0, method="plain", rel_error=0.1, seed=0)
    )
    assert plain.stopped_by == "rel_error"
    assert plain.trials < MIN_TRIALS_REL_ERROR


def test_time_budget_and_trial_cap() -> None:
    result = simulate_group(
        GroupSimulation(1, 4, LAWS, 1_000.0, time_budget_seconds=0.0, batch_trials=500)
    )
    assert result.trials == 500
    capped = simulate_group(
        GroupSimulation(2, 6, LAWS, 2_000.0, rel_error=1e-6, trials=1_500, batch_trials=1_000)
    )
    assert capped.trials == 1_500


def test_plain_interval_is_clopper_pearson() -> None:
    result = simulate_group(
        GroupSimulation(1, 4, LAWS, 1_000.0, method="plain", trials=4_000, seed=8)
    )
    losses = round(result.p_loss_group * result.trials)
    from scipy import stats  # here: it takes a second to import, and only this test needs it

    ci = stats.binomtest(losses, result.trials).proportion_ci(0.95, method="exact")
    assert result.ci95_low == pytest.approx(ci.low, rel=1e-9)
    assert result.ci95_high == pytest.approx(ci.high, rel=1e-9)
    assert result.hits == losses
    assert result.rel_error == pytest.approx((ci.high - ci.low) / 2 / result.p_loss_group)


def test_aggregate_uses_the_markov_formula() -> None:
    result = simulate_group(GroupSimulation(2, 6, LAWS, 2_000.0, trials=2_000, seed=3))
    assert result.p_loss_aggregate(7) == p_loss_aggregate(result.p_loss_group, 7)
    low, high = result.ci95_aggregate(7)
    assert low <= result.p_loss_aggregate(7) <= high
    assert result.ci95_low <= result.p_loss_group <= result.ci95_high


def test_no_loss_gives_zero_with_an_upper_bound() -> None:
    calm = DistributionSet(Exponential(1e9), Exponential(10.0), Exponential(100.0), 0.0)
    result = simulate_group(
        GroupSimulation(1, 3, calm, 100.0, method="plain", trials=1_000, seed=0)
    )
    assert result.p_loss_group == 0.0
    assert result.rel_error == math.inf
    assert 0 < result.ci95_high < 0.004


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"parity": 0}, "cannot hold"),
        ({"drives": 1}, "cannot hold"),
        ({"mission_hours": -1.0}, "mission_hours"),
        ({"trials": 0}, "trials"),
        ({"rel_error": 0.0}, "rel_error"),
        ({"batch_trials": 0}, "batch_trials"),
        ({"method": "magic"}, "magic"),
    ],
)
def test_invalid_arguments(kwargs: dict, match: str) -> None:
    args = {
        "parity": 1,
        "drives": 2,
        "distributions": LAWS,
        "mission_hours": 10.0,
        "trials": 10,
    } | kwargs
    with pytest.raises(ValueError, match=match):
        simulate_group(GroupSimulation(**args))


def test_simulator_imports_no_front_end_library() -> None:
    code = (
        "import planner.core.simulation.simulate, planner.core.simulation.distributions, sys, json;"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = {name.split(".")[0] for name in __import__("json").loads(out.stdout)}
    assert not loaded & {"textual", "typer", "rich", "pydantic", "ruamel", "yaml", "sympy"}
