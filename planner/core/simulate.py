"""Monte Carlo probability of data loss with any time distributions, with a 95% interval.

The Markov model (:mod:`planner.core.evaluate`) is exact for constant rates; NS3574 says
"the best method, which accounts for nonconstant failure and repair rates, is Monte Carlo
simulation" [Elerath07b]. :func:`simulate_group` runs the same events and data-loss rules
(see :mod:`planner.core.sim_kernel` for the semantics: drives start new, a rebuilt drive is
new, one rebuild at a time, the scrub is suspended during rebuilds) with the distributions of
:mod:`planner.core.distributions`, in batches of trials vectorised with NumPy.

Two methods:

* ``plain``: each trial is a loss indicator; the interval is Clopper-Pearson (exact binomial).
* ``conditional``: conditioning on the last failure plus balanced failure biasing
  (:mod:`planner.core.rare_events`), unbiased, for the 1e-5 to 1e-9 probabilities of RAID 6
  and triple parity; the interval is normal, from the sample variance of the weighted trials.

Runs stop after a fixed number of trials, or when a target relative error (half-width of the
95% interval over the estimate) or a time budget is reached, whichever comes first. The same
seed and stopping rule give the same result (a time budget makes the trial count, and so the
result, depend on the machine).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from planner.core.distributions import DistributionSet
from planner.core.evaluate import p_loss_aggregate
from planner.core.rare_events import DEFAULT_BIAS, conditional_plan, plain_plan
from planner.core.sim_kernel import FloatArray, run_batch

Z95 = 1.959963984540054
"""Two-sided 95% standard normal quantile."""

DEFAULT_BATCH_TRIALS = 10_000
"""Trials per vectorised batch: ~0.5 s of work, so a progress bar moves smoothly."""

ProgressCallback = Callable[[int, float], None]
"""Called after each batch with (trials done, current estimate of P(loss) per group)."""


class Method(StrEnum):
    """Estimator of the simulation."""

    PLAIN = "plain"
    CONDITIONAL = "conditional"


@dataclass(frozen=True)
class SimulationResult:
    """Estimated probability that one group loses data within the mission.

    Attributes:
        method: ``"plain"`` or ``"conditional"`` (:class:`Method` value).
        parity: parity drives per group, k.
        drives: drives per group, N.
        mission_hours: mission length (h).
        trials: simulated groups.
        p_loss_group: the estimate of P(loss) for one group.
        ci95_low: lower end of the 95% confidence interval.
        ci95_high: upper end of the 95% confidence interval.
        rel_error: half-width of the interval over the estimate (inf when it is 0).
        std_error: standard error of the estimate.
        hits: trials that contributed: losses (plain) or trials that reached a critical
            state (conditional).
        seed: the seed of the random generator, if one was given.
    """

    method: str
    parity: int
    drives: int
    mission_hours: float
    trials: int
    p_loss_group: float
    ci95_low: float
    ci95_high: float
    rel_error: float
    std_error: float
    hits: int
    seed: int | None = None

    def p_loss_aggregate(self, groups: int) -> float:
        """P(loss) of an aggregate of ``groups`` independent groups: 1 - (1 - p)^g."""
        return p_loss_aggregate(self.p_loss_group, groups)

    def ci95_aggregate(self, groups: int) -> tuple[float, float]:
        """The 95% interval mapped to ``groups`` groups (1 - (1 - p)^g is increasing)."""
        return (
            p_loss_aggregate(self.ci95_low, groups),
            p_loss_aggregate(self.ci95_high, groups),
        )


@dataclass
class _Running:
    """Pooled count, mean and sum of squared deviations (Chan et al. 1979 merge)."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0
    hits: int = 0

    def add(self, y: FloatArray) -> None:
        if y.size == 0:
            return
        n_b, mean_b = y.size, float(y.mean())
        m2_b = float(((y - mean_b) ** 2).sum())
        total = self.n + n_b
        delta = mean_b - self.mean
        self.mean += delta * n_b / total
        self.m2 += m2_b + delta * delta * self.n * n_b / total
        self.n = total
        self.hits += int(np.count_nonzero(y))


def _plain_interval(losses: int, trials: int) -> tuple[float, float]:
    """Clopper-Pearson exact 95% interval for a binomial proportion."""
    from scipy.stats import beta

    low = 0.0 if losses == 0 else float(beta.ppf(0.025, losses, trials - losses + 1))
    high = 1.0 if losses == trials else float(beta.ppf(0.975, losses + 1, trials - losses))
    return low, high


def _summary(method: Method, acc: _Running) -> tuple[float, float, float, float, float]:
    """(estimate, ci95_low, ci95_high, rel_error, std_error) of the pooled trials."""
    p = acc.mean
    se = math.sqrt(acc.m2 / (acc.n - 1) / acc.n) if acc.n > 1 else math.inf
    if method is Method.PLAIN:
        low, high = _plain_interval(acc.hits, acc.n)
    else:
        low, high = max(0.0, p - Z95 * se), min(1.0, p + Z95 * se)
    rel = (high - low) / 2 / p if p > 0 else math.inf
    return p, low, high, rel, se


def simulate_group(
    parity: int,
    drives: int,
    distributions: DistributionSet,
    mission_hours: float,
    *,
    method: Method | str = Method.CONDITIONAL,
    trials: int | None = None,
    rel_error: float | None = None,
    time_budget_seconds: float | None = None,
    seed: int | None = None,
    batch_trials: int = DEFAULT_BATCH_TRIALS,
    min_hits: int = 30,
    bias: float = DEFAULT_BIAS,
    on_progress: ProgressCallback | None = None,
) -> SimulationResult:
    """Estimate P(loss) of one group of ``drives`` drives, ``parity`` of them parity.

    Args:
        parity: parity drives per group, k >= 1.
        drives: drives per group, N > k.
        distributions: time to failure, rebuild and scrub laws (h), latent defects per hour.
        mission_hours: mission length (h); the group starts with all drives new.
        method: ``"plain"`` or ``"conditional"`` (rare-event, the default).
        trials: run exactly this many trials; with ``rel_error`` or a time budget, at most
            this many.
        rel_error: stop once the 95% half-width is at most this fraction of the estimate
            (and at least ``min_hits`` trials contributed).
        time_budget_seconds: stop after the batch that exceeds this wall time (s).
        seed: seed of ``numpy.random.default_rng``; None draws fresh entropy.
        batch_trials: trials per vectorised batch.
        min_hits: contributing trials required before ``rel_error`` may stop the run.
        bias: failure-biasing strength of the conditional method (0 = conditioning only).
        on_progress: called as ``on_progress(trials_done, estimate)`` after each batch.

    Returns:
        The estimate with its 95% interval. Without any stopping rule the run stops at
        10% relative error or 60 s, whichever comes first.
    """
    method = Method(method)
    if parity < 1 or drives <= parity:
        raise ValueError(f"a group of {drives} drives cannot hold {parity} parity drives")
    if not (math.isfinite(mission_hours) and mission_hours > 0):
        raise ValueError(f"mission_hours must be a positive finite number, got {mission_hours!r}")
    if trials is not None and trials < 1:
        raise ValueError(f"trials must be at least 1, got {trials}")
    if rel_error is not None and not rel_error > 0:
        raise ValueError(f"rel_error must be positive, got {rel_error}")
    if batch_trials < 1:
        raise ValueError(f"batch_trials must be at least 1, got {batch_trials}")
    if trials is None and rel_error is None and time_budget_seconds is None:
        rel_error, time_budget_seconds = 0.1, 60.0
    plan = (
        plain_plan(parity, drives)
        if method is Method.PLAIN
        else conditional_plan(parity, drives, distributions, mission_hours, bias)
    )
    rng = np.random.default_rng(seed)
    acc = _Running()
    start = time.perf_counter()
    while True:
        size = batch_trials if trials is None else min(batch_trials, trials - acc.n)
        y, _ = run_batch(plan, distributions, mission_hours, size, rng)
        acc.add(y)
        p, low, high, rel, se = _summary(method, acc)
        if on_progress is not None:
            on_progress(acc.n, p)
        if trials is not None and acc.n >= trials:
            break
        if rel_error is not None and acc.hits >= min_hits and rel <= rel_error:
            break
        if time_budget_seconds is not None and time.perf_counter() - start >= time_budget_seconds:
            break
    return SimulationResult(
        method=method.value,
        parity=parity,
        drives=drives,
        mission_hours=mission_hours,
        trials=acc.n,
        p_loss_group=p,
        ci95_low=low,
        ci95_high=high,
        rel_error=rel,
        std_error=se,
        hits=acc.hits,
        seed=seed,
    )
