"""Monte Carlo probability of data loss with any time distributions, with a 95% interval.

The Markov model (:mod:`planner.core.markov.transient`) is exact for constant rates; NS3574 says
"the best method, which accounts for nonconstant failure and repair rates, is Monte Carlo
simulation" [Elerath07b]. :func:`simulate_group` runs the same events and data-loss rules
(see :mod:`planner.core.simulation.events` for the semantics: drives start new, a rebuilt drive is
new, one rebuild at a time, the scrub is suspended during rebuilds) with the distributions of
:mod:`planner.core.simulation.distributions`, in batches of trials vectorised with NumPy.

Methods (:mod:`planner.core.simulation.rare_events` states why each is unbiased):

* ``plain``: each trial is a loss indicator; the interval is Clopper-Pearson (exact binomial).
* ``conditional``: conditioning on the last failure, no biasing.
* ``biased``: conditioning plus failure biasing renewed per rebuild period (splitting), for
  the 1e-5 to 1e-30 probabilities of RAID 6 and deeper parity.
* ``auto`` (the default): ``conditional`` where critical states are reached in a tenth of the
  missions or more (:func:`planner.core.simulation.biasing.expected_critical_visits`), else
  ``biased``; ``plain`` when the laws have shocks.

Correlated failures: the degraded multiplier runs with every method (it scales the natural
hazard; the plans' weights stay relative to it). Shocks run with ``plain`` only: the
rare-event plans hold or bias drive failures one at a time, and a shock fails several at
once (docs/correlated.md).

The rare-event intervals are normal, from the sample variance of the per-trial estimates.
Each result carries two diagnostics of the trials behind it
(:mod:`planner.core.simulation.estimate`): the effective sample size and the share of the
largest trial in the sum. When they say the variance estimate rests on a handful of trials,
:attr:`SimulationResult.reliable` is False and ``warning`` says why.

Trials run in growing batches (500, 1,000, 2,000, ... up to ``batch_trials``), so progress
shows from the start and a hard case still runs in large vectorised batches. Runs stop after
a fixed number of trials, or when a target relative error (half-width of the 95% interval
over the estimate) or a time budget is reached, whichever comes first; the target stops a
weighted run only after :data:`~planner.core.simulation.estimate.MIN_TRIALS_REL_ERROR`
trials, where its interval no longer depends on when it stopped. The same seed and
stopping rule give the same result (a time budget makes the trial count, and so the
result, depend on the machine).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from planner.core.simulation.biasing import (
    CONDITIONING_PAYS_VISITS,
    DEFAULT_UP_PER_REBUILD,
    biased_plan,
    expected_critical_visits,
)
from planner.core.simulation.distributions import DistributionSet
from planner.core.simulation.estimate import (
    MIN_TRIALS_REL_ERROR,
    Interval,
    PooledTrials,
)
from planner.core.simulation.kernel import FloatArray
from planner.core.simulation.rare_events import SamplingPlan, conditional_plan, plain_plan
from planner.core.simulation.result import Method, SimulationResult
from planner.core.simulation.runs import run_batch, run_split

DEFAULT_BIAS = DEFAULT_UP_PER_REBUILD
"""Default failure-biasing strength: expected up-moves per mean rebuild in a biased state."""

DEFAULT_BATCH_TRIALS = 64_000
"""Largest vectorised batch (trials); batches grow from :data:`FIRST_BATCH_TRIALS`."""

FIRST_BATCH_TRIALS = 500
"""Trials in the first batch; each next batch doubles."""

BATCH_CELLS = 4_000_000
"""A batch holds at most this many drive cells (trials x drives) per array."""

DEFAULT_REL_ERROR = 0.1
"""The relative error a run stops at when it is given no stopping rule."""

DEFAULT_TIME_BUDGET_SECONDS = 60.0
"""The wall time (s) a run stops after when it is given no stopping rule."""

ProgressCallback = Callable[[int, float], None]
"""Called after each batch with (trials done, current estimate of P(loss) per group)."""


@dataclass(frozen=True)
class GroupSimulation:
    """One run of the simulator: the group and its laws, and how the run proceeds.

    Attributes:
        parity: parity drives per group, k >= 1.
        drives: drives per group, N > k.
        distributions: time to failure, rebuild and scrub laws (h), latent defects per hour,
            the concurrent rebuilds (``distributions.rebuild_streams``) and a declustered
            pool's stripe share sigma (``distributions.defect_stripe_share``).
        mission_hours: mission length (h); the group starts with all drives new.
        method: ``"auto"`` (the default), ``"conditional"``, ``"biased"`` or ``"plain"``.
        trials: run exactly this many trials; with ``rel_error`` or a time budget, at most
            this many.
        rel_error: stop once the 95% half-width is at most this fraction of the estimate,
            at least ``min_hits`` trials contributed, the diagnostics trust the interval
            and, for a weighted estimator, at least ``min_trials`` trials ran.
        time_budget_seconds: stop after the batch that exceeds this wall time (s).
        seed: seed of ``numpy.random.default_rng``; None draws fresh entropy.
        batch_trials: the largest vectorised batch (trials); batches grow from 500.
        min_hits: contributing trials required before ``rel_error`` may stop the run.
        min_trials: trials a conditional or biased run takes before ``rel_error`` may stop
            it (:data:`~planner.core.simulation.estimate.MIN_TRIALS_REL_ERROR` says why);
            plain runs ignore it.
        bias: failure-biasing strength of the biased method: expected up-moves per mean
            rebuild in a biased state (0 = conditioning only).

    Without any stopping rule the run stops at :data:`DEFAULT_REL_ERROR` or after
    :data:`DEFAULT_TIME_BUDGET_SECONDS`, whichever comes first (:meth:`stopping_rule`).
    """

    parity: int
    drives: int
    distributions: DistributionSet
    mission_hours: float
    method: Method | str = Method.AUTO
    trials: int | None = None
    rel_error: float | None = None
    time_budget_seconds: float | None = None
    seed: int | None = None
    batch_trials: int = DEFAULT_BATCH_TRIALS
    min_hits: int = 30
    min_trials: int = MIN_TRIALS_REL_ERROR
    bias: float = DEFAULT_BIAS

    def __post_init__(self) -> None:
        if self.parity < 1 or self.drives <= self.parity:
            raise ValueError(
                f"a group of {self.drives} drives cannot hold {self.parity} parity drives"
            )
        hours = self.mission_hours
        if not (math.isfinite(hours) and hours > 0):
            raise ValueError(f"mission_hours must be a positive finite number, got {hours!r}")
        if self.trials is not None and self.trials < 1:
            raise ValueError(f"trials must be at least 1, got {self.trials}")
        if self.rel_error is not None and not self.rel_error > 0:
            raise ValueError(f"rel_error must be positive, got {self.rel_error}")
        if self.batch_trials < 1:
            raise ValueError(f"batch_trials must be at least 1, got {self.batch_trials}")
        if not (math.isfinite(self.bias) and self.bias >= 0):
            raise ValueError(f"bias must be a finite number >= 0, got {self.bias!r}")
        laws = self.distributions
        if laws.defects_per_data_drive or (laws.hot_spares and laws.replace_delay_hours):
            raise ValueError(
                "scenario laws not adapted to the layout: give "
                "Layout.chain_distributions(distributions, groups)"
            )  # a data drive's defect rate, or spares; as ChainInputs refuses them
        method = Method(self.method)  # a ValueError naming an unknown method
        if self.distributions.shocks and method in (Method.CONDITIONAL, Method.BIASED):
            raise ValueError(
                f"the {method.value} method does not simulate shocks (several drives failing "
                "at once); use the plain method"
            )

    def stopping_rule(self) -> tuple[int | None, float | None, float | None]:
        """``(trials, rel_error, time_budget_seconds)``, the defaults when none is given."""
        if self.trials is None and self.rel_error is None and self.time_budget_seconds is None:
            return None, DEFAULT_REL_ERROR, DEFAULT_TIME_BUDGET_SECONDS
        return self.trials, self.rel_error, self.time_budget_seconds


def resolve_method(run: GroupSimulation) -> Method:
    """The estimator ``auto`` stands for in ``run`` (others are returned as they are)."""
    method = Method(run.method)
    if method is not Method.AUTO:
        return method
    if run.distributions.shocks:
        return Method.PLAIN
    visits = expected_critical_visits(run.parity, run.drives, run.distributions, run.mission_hours)
    return Method.CONDITIONAL if visits >= CONDITIONING_PAYS_VISITS else Method.BIASED


def batch_sizes(first: int, largest: int) -> Iterator[int]:
    """500, 1,000, 2,000, ... capped at ``largest``."""
    size = max(1, min(first, largest))
    while True:
        yield size
        size = min(2 * size, largest)


def simulate_group(
    run: GroupSimulation, on_progress: ProgressCallback | None = None
) -> SimulationResult:
    """Estimate P(loss) of one group of ``run.drives`` drives, ``run.parity`` of them parity.

    Args:
        run: the group, its laws, the mission, the method and the stopping rule.
        on_progress: called as ``on_progress(trials_done, estimate)`` after each batch.

    Returns:
        The estimate with its 95% interval and diagnostics.
    """
    method, batch = trial_batches(run, np.random.default_rng(run.seed))
    return run_until_stopped(run, method, batch, on_progress)


def run_until_stopped(
    run: GroupSimulation,
    method: Method,
    batch: Callable[[int], FloatArray],
    on_progress: ProgressCallback | None = None,
) -> SimulationResult:
    """Pool growing batches of ``batch`` until ``run``'s stopping rule holds; the result.

    ``batch(size)`` gives ``size`` independent per-trial estimates of ``method``
    (:func:`trial_batches`): 0/1 indicators for ``plain`` (a Clopper-Pearson interval), else
    weighted ones (a normal interval). ``on_progress`` as in :func:`simulate_group`.
    """
    pooled = PooledTrials()
    stopped_by = _pool_until_stopped(run, method is Method.PLAIN, batch, pooled, on_progress)
    return _result(run, method, pooled, stopped_by)


def trial_batches(
    run: GroupSimulation, rng: np.random.Generator
) -> tuple[Method, Callable[[int], FloatArray]]:
    """The estimator that runs, and a function giving the per-trial estimates of a batch.

    ``batch(size)`` simulates ``size`` independent trials of ``run`` (its stopping rule
    aside) in one vectorised batch; its estimates are those :func:`simulate_group` pools.
    A biased run with nothing to bias (k = 1, or failures already frequent) runs as
    ``conditional``.
    """
    k, n, laws = run.parity, run.drives, run.distributions
    share = laws.defect_stripe_share
    method = resolve_method(run)
    copy_plan: SamplingPlan | None = None
    if method is Method.BIASED:
        copy_plan = biased_plan(k, n, laws, run.mission_hours, up_per_rebuild=run.bias)
        if not copy_plan.biased:
            method, copy_plan = Method.CONDITIONAL, None
    plan = plain_plan(k, n, share) if method is Method.PLAIN else conditional_plan(k, n, share)

    def batch(size: int) -> FloatArray:
        if copy_plan is not None:
            return run_split(plan, copy_plan, laws, run.mission_hours, size, rng)[0]
        return run_batch(plan, laws, run.mission_hours, size, rng)[0]

    return method, batch


def _pool_until_stopped(
    run: GroupSimulation,
    indicators: bool,
    batch: Callable[[int], FloatArray],
    pooled: PooledTrials,
    on_progress: ProgressCallback | None,
) -> str:
    """Add growing batches to ``pooled`` until the stopping rule holds; say which rule."""
    trials, rel_error, budget = run.stopping_rule()
    start = time.perf_counter()
    largest = max(1, min(run.batch_trials, BATCH_CELLS // run.drives))
    for size in batch_sizes(FIRST_BATCH_TRIALS, largest):
        if trials is not None:
            size = min(size, trials - pooled.n)
        pooled.add(batch(size))
        if on_progress is not None:
            on_progress(pooled.n, pooled.mean)
        if trials is not None and pooled.n >= trials:
            return "trials"
        if (
            rel_error is not None
            and (indicators or pooled.n >= run.min_trials)
            and pooled.hits >= run.min_hits
            and pooled.trusted()
            and pooled.interval(indicators).rel_error <= rel_error
        ):
            return "rel_error"
        if budget is not None and time.perf_counter() - start >= budget:
            return "time_budget"
    raise AssertionError("batch_sizes never ends")


def _result(
    run: GroupSimulation, method: Method, pooled: PooledTrials, stopped_by: str
) -> SimulationResult:
    """The result of ``run`` from its pooled trials."""
    interval: Interval = pooled.interval(method is Method.PLAIN)
    if method is not Method.PLAIN and pooled.hits == 0:
        # Every trial's estimate is 0: a normal interval would be 0 to 0, which no run of a
        # weighted estimator can vouch for (a plain run's Clopper-Pearson bound can): none.
        interval = replace(interval, low=math.nan, high=math.nan)
    return SimulationResult(
        method=method.value,
        parity=run.parity,
        drives=run.drives,
        mission_hours=run.mission_hours,
        trials=pooled.n,
        p_loss_group=interval.estimate,
        ci95_low=interval.low,
        ci95_high=interval.high,
        rel_error=interval.rel_error,
        std_error=interval.std_error,
        hits=pooled.hits,
        seed=run.seed,
        effective_trials=pooled.effective_trials(),
        max_weight_share=pooled.max_share(),
        rebuild_streams=run.distributions.rebuild_streams,
        stopped_by=stopped_by,
    )
