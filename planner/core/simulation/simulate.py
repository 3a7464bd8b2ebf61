"""Monte Carlo probability of data loss with any time distributions, with a 95% interval.

The Markov model (:mod:`planner.core.markov.transient`) is exact for constant rates; NS3574 says
"the best method, which accounts for nonconstant failure and repair rates, is Monte Carlo
simulation" [Elerath07b]. :func:`simulate_group` runs the same events and data-loss rules
(see :mod:`planner.core.simulation.kernel` for the semantics: drives start new, a rebuilt drive is
new, one rebuild at a time, the scrub is suspended during rebuilds) with the distributions of
:mod:`planner.core.simulation.distributions`, in batches of trials vectorised with NumPy.

Methods (:mod:`planner.core.simulation.rare_events` states why each is unbiased):

* ``plain``: each trial is a loss indicator; the interval is Clopper-Pearson (exact binomial).
* ``conditional``: conditioning on the last failure, no biasing.
* ``biased``: conditioning plus failure biasing renewed per rebuild period (splitting), for
  the 1e-5 to 1e-30 probabilities of RAID 6 and deeper parity.
* ``auto`` (the default): ``conditional`` where critical states are reached in a tenth of the
  missions or more (:func:`planner.core.simulation.rare_events.expected_critical_visits`), else
  ``biased``.

The rare-event intervals are normal, from the sample variance of the per-trial estimates.
Each result carries two diagnostics of the trials behind it: the effective sample size
``(sum y)^2 / sum y^2`` (Kish; for plain sampling the number of losses) and the share of the
largest trial in the sum. Below :data:`MIN_EFFECTIVE_TRIALS` or above
:data:`MAX_WEIGHT_SHARE` the variance estimate rests on a handful of trials and the interval
cannot be trusted: :attr:`SimulationResult.reliable` is False and ``warning`` says why.

Trials run in growing batches (500, 1,000, 2,000, ... up to ``batch_trials``), so an easy
case stops after a few hundred trials and a hard one still runs in large vectorised batches.
Runs stop after a fixed number of trials, or when a target relative error (half-width of the
95% interval over the estimate) or a time budget is reached, whichever comes first. The same
seed and stopping rule give the same result (a time budget makes the trial count, and so the
result, depend on the machine).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from planner.core.markov.transient import p_loss_aggregate
from planner.core.simulation.distributions import DistributionSet
from planner.core.simulation.kernel import FloatArray
from planner.core.simulation.rare_events import (
    CONDITIONING_PAYS_VISITS,
    DEFAULT_UP_PER_REBUILD,
    biased_plan,
    conditional_plan,
    expected_critical_visits,
    plain_plan,
)
from planner.core.simulation.runs import run_batch, run_split

Z95 = 1.959963984540054
"""Two-sided 95% standard normal quantile."""

DEFAULT_BIAS = DEFAULT_UP_PER_REBUILD
"""Default failure-biasing strength: expected up-moves per mean rebuild in a biased state."""

DEFAULT_BATCH_TRIALS = 64_000
"""Largest vectorised batch (trials); batches grow from :data:`FIRST_BATCH_TRIALS`."""

FIRST_BATCH_TRIALS = 500
"""Trials in the first batch; each next batch doubles."""

BATCH_CELLS = 4_000_000
"""A batch holds at most this many drive cells (trials x drives) per array."""

MIN_EFFECTIVE_TRIALS = 30.0
"""Below this effective sample size the interval is flagged as not to be trusted."""

MAX_WEIGHT_SHARE = 0.1
"""Above this share of the sum carried by one trial the interval is flagged."""

ProgressCallback = Callable[[int, float], None]
"""Called after each batch with (trials done, current estimate of P(loss) per group)."""


class Method(StrEnum):
    """Estimator of the simulation."""

    AUTO = "auto"
    CONDITIONAL = "conditional"
    BIASED = "biased"
    PLAIN = "plain"


@dataclass(frozen=True)
class SimulationResult:
    """Estimated probability that one group loses data within the mission.

    Attributes:
        method: the estimator that ran: ``"plain"``, ``"conditional"`` or ``"biased"``
            (``auto`` resolved).
        parity: parity drives per group, k.
        drives: drives per group, N.
        mission_hours: mission length (h).
        trials: simulated groups.
        p_loss_group: the estimate of P(loss) for one group.
        ci95_low: lower end of the 95% confidence interval.
        ci95_high: upper end of the 95% confidence interval.
        rel_error: half-width of the interval over the estimate (inf when it is 0).
        std_error: standard error of the estimate.
        hits: trials that contributed: losses (plain) or trials with a non-zero estimate.
        seed: the seed of the random generator, if one was given.
        effective_trials: Kish effective sample size ``(sum y)^2 / sum y^2`` (0 when no
            trial contributed).
        max_weight_share: share of the sum carried by the largest trial (0 to 1).
        rebuild_streams: concurrent rebuilds simulated (1 = one at a time, None = all).
        stopped_by: what ended the run: ``"trials"``, ``"rel_error"`` or ``"time_budget"``.
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
    effective_trials: float = 0.0
    max_weight_share: float = 0.0
    rebuild_streams: int | None = 1
    stopped_by: str = "trials"

    @property
    def reliable(self) -> bool:
        """False when the diagnostics say the interval cannot be trusted."""
        return not self.warning

    @property
    def warning(self) -> str:
        """Why the interval cannot be trusted, or ``""``.

        A plain (Clopper-Pearson) interval is exact for any number of losses, even none; the
        normal interval of a weighted estimator needs enough effective trials.
        """
        if self.method == Method.PLAIN:
            return ""
        if self.hits == 0:
            return "no trial reached data loss or a critical state: the interval is a bound only"
        if self.effective_trials < MIN_EFFECTIVE_TRIALS:
            return (
                f"effective sample size {self.effective_trials:.0f} < "
                f"{MIN_EFFECTIVE_TRIALS:.0f}: the interval cannot be trusted, run more trials"
            )
        if self.max_weight_share > MAX_WEIGHT_SHARE:
            return (
                f"one trial carries {100 * self.max_weight_share:.0f}% of the estimate: the "
                "interval cannot be trusted, run more trials"
            )
        return ""

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
    total: float = 0.0
    total_sq: float = 0.0
    largest: float = 0.0

    def add(self, y: FloatArray) -> None:
        if y.size == 0:
            return
        self.total += float(y.sum())
        self.total_sq += float((y * y).sum())
        self.largest = max(self.largest, float(y.max()))
        n_b, mean_b = y.size, float(y.mean())
        m2_b = float(((y - mean_b) ** 2).sum())
        total = self.n + n_b
        delta = mean_b - self.mean
        self.mean += delta * n_b / total
        self.m2 += m2_b + delta * delta * self.n * n_b / total
        self.n = total
        self.hits += int(np.count_nonzero(y))

    def effective_trials(self) -> float:
        """Kish effective sample size of the pooled trials."""
        return self.total**2 / self.total_sq if self.total_sq > 0 else 0.0

    def max_share(self) -> float:
        """Share of the sum carried by the largest trial."""
        return self.largest / self.total if self.total > 0 else 0.0


def _plain_interval(losses: int, trials: int) -> tuple[float, float]:
    """Clopper-Pearson exact 95% interval for a binomial proportion.

    The beta quantiles come from ``scipy.special.betaincinv`` (the inverse regularised
    incomplete beta function, which ``scipy.stats.beta.ppf`` calls) without importing
    ``scipy.stats`` (~1 s).
    """
    from scipy.special import betaincinv

    low = 0.0 if losses == 0 else float(betaincinv(losses, trials - losses + 1, 0.025))
    high = 1.0 if losses == trials else float(betaincinv(losses + 1, trials - losses, 0.975))
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


def simulate_group_lost(
    parity: int,
    drives: int,
    distributions: DistributionSet,
    mission_hours: float,
    **options: Any,
) -> SimulationResult:
    """Estimate P(group lost) of one group: k + 1 drives down at once within the mission.

    :func:`simulate_group` with latent defects off
    (:meth:`~planner.core.simulation.distributions.DistributionSet.without_latent_defects` says why
    that is right for any laws); ``options`` are :func:`simulate_group`'s. The result's
    ``p_loss_group`` and interval are those of P(group lost).
    """
    return simulate_group(
        parity, drives, distributions.without_latent_defects(), mission_hours, **options
    )


def resolve_method(
    method: Method | str,
    parity: int,
    drives: int,
    distributions: DistributionSet,
    mission_hours: float,
) -> Method:
    """The estimator ``auto`` stands for here (others are returned as they are)."""
    method = Method(method)
    if method is not Method.AUTO:
        return method
    visits = expected_critical_visits(parity, drives, distributions, mission_hours)
    return Method.CONDITIONAL if visits >= CONDITIONING_PAYS_VISITS else Method.BIASED


def batch_sizes(first: int, largest: int) -> Iterator[int]:
    """500, 1,000, 2,000, ... capped at ``largest``."""
    size = max(1, min(first, largest))
    while True:
        yield size
        size = min(2 * size, largest)


def simulate_group(
    parity: int,
    drives: int,
    distributions: DistributionSet,
    mission_hours: float,
    *,
    method: Method | str = Method.AUTO,
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
        distributions: time to failure, rebuild and scrub laws (h), latent defects per hour,
            the concurrent rebuilds (``distributions.rebuild_streams``) and a declustered
            pool's stripe share sigma (``distributions.defect_stripe_share``).
        mission_hours: mission length (h); the group starts with all drives new.
        method: ``"auto"`` (the default), ``"conditional"``, ``"biased"`` or ``"plain"``.
        trials: run exactly this many trials; with ``rel_error`` or a time budget, at most
            this many.
        rel_error: stop once the 95% half-width is at most this fraction of the estimate,
            at least ``min_hits`` trials contributed and the diagnostics trust the interval.
        time_budget_seconds: stop after the batch that exceeds this wall time (s).
        seed: seed of ``numpy.random.default_rng``; None draws fresh entropy.
        batch_trials: the largest vectorised batch (trials); batches grow from 500.
        min_hits: contributing trials required before ``rel_error`` may stop the run.
        bias: failure-biasing strength of the biased method: expected up-moves per mean
            rebuild in a biased state (0 = conditioning only).
        on_progress: called as ``on_progress(trials_done, estimate)`` after each batch.

    Returns:
        The estimate with its 95% interval and diagnostics. Without any stopping rule the
        run stops at 10% relative error or 60 s, whichever comes first.
    """
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
    method = resolve_method(method, parity, drives, distributions, mission_hours)
    copy_plan = biased_plan(
        parity,
        drives,
        distributions,
        mission_hours,
        up_per_rebuild=bias,
    )
    if method is Method.BIASED and not copy_plan.biased:
        method = Method.CONDITIONAL  # nothing to bias (k = 1, or failures already frequent)

    share = distributions.defect_stripe_share

    def one_batch(size: int) -> FloatArray:
        if method is Method.PLAIN:
            plan = plain_plan(parity, drives, share)
        elif method is Method.CONDITIONAL:
            plan = conditional_plan(parity, drives, share)
        else:
            return run_split(
                conditional_plan(parity, drives, share),
                copy_plan,
                distributions,
                mission_hours,
                size,
                rng,
            )[0]
        return run_batch(plan, distributions, mission_hours, size, rng)[0]

    rng = np.random.default_rng(seed)
    acc = _Running()
    start = time.perf_counter()
    largest = max(1, min(batch_trials, BATCH_CELLS // drives))
    stopped_by = "trials"
    for size in batch_sizes(FIRST_BATCH_TRIALS, largest):
        if trials is not None:
            size = min(size, trials - acc.n)
        acc.add(one_batch(size))
        p, low, high, rel, se = _summary(method, acc)
        if on_progress is not None:
            on_progress(acc.n, p)
        if trials is not None and acc.n >= trials:
            break
        trusted = (
            acc.effective_trials() >= MIN_EFFECTIVE_TRIALS and acc.max_share() <= MAX_WEIGHT_SHARE
        )
        if rel_error is not None and acc.hits >= min_hits and trusted and rel <= rel_error:
            stopped_by = "rel_error"
            break
        if time_budget_seconds is not None and time.perf_counter() - start >= time_budget_seconds:
            stopped_by = "time_budget"
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
        effective_trials=acc.effective_trials(),
        max_weight_share=acc.max_share(),
        rebuild_streams=distributions.rebuild_streams,
        stopped_by=stopped_by,
    )
