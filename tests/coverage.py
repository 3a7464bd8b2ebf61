"""Interval coverage of the simulator: many runs of a few hundred trials, cheaply.

An honest 95% interval covers the true value in 95% of runs, so the number of covering runs
out of ``M`` is Binomial(M, 0.95); :func:`lower_bound` is its 0.1% quantile. The runs are the
consecutive slices of one vectorised batch (:func:`covering_runs`): the trials of a batch are
independent (each row draws its own times; which rows share a NumPy step changes no draw's
law), so each slice of ``run.trials`` trials is a run of
:func:`planner.core.simulation.simulate.simulate_group` as it stands (its first batch holds
500 trials), and each slice gets the interval ``simulate_group`` gives
(:meth:`planner.core.simulation.estimate.PooledTrials.interval`). One batch of ``M x 500``
trials takes a fraction of the NumPy steps of ``M`` runs of 500.
"""

from __future__ import annotations

import numpy as np
from scipy.special import bdtr

from planner.core.simulation.estimate import PooledTrials
from planner.core.simulation.result import Method
from planner.core.simulation.simulate import FIRST_BATCH_TRIALS, GroupSimulation, trial_batches

LOWER_QUANTILE = 0.001


def binomial_quantile(probability: float, trials: int, success: float) -> int:
    """The ``probability`` quantile of Binomial(trials, success): the least k with CDF >= it.

    As ``scipy.stats.binom.ppf`` defines it, from the binomial CDF of ``scipy.special.bdtr``
    (scipy.stats takes a second of every test process's start-up to import).
    """
    below = bdtr(np.arange(trials + 1), trials, success) < probability
    return int(np.count_nonzero(np.cumprod(below)))


def lower_bound(runs: int) -> int:
    """The 0.1% quantile of Binomial(runs, 0.95): an honest interval does at least this."""
    return binomial_quantile(LOWER_QUANTILE, runs, 0.95)


def covering_runs(run: GroupSimulation, exact: float, runs: int) -> int:
    """How many of ``runs`` runs of ``run.trials`` trials hold ``exact`` in their interval."""
    return run_coverage(run, exact, runs)[0]


def run_coverage(run: GroupSimulation, exact: float, runs: int) -> tuple[int, int]:
    """:func:`covering_runs`, and how many runs cover ``exact`` or flag their interval.

    The second count is the runs that are honest with the user: the interval holds the
    reference, or the run says it is not to be trusted (the ⚠ mark,
    :meth:`~planner.core.simulation.estimate.PooledTrials.trusted`).
    """
    assert run.trials is not None
    assert run.trials <= FIRST_BATCH_TRIALS  # one batch a run
    method, batch = trial_batches(run, np.random.default_rng(run.seed))
    covering = honest = 0
    for trials in batch(runs * run.trials).reshape(runs, run.trials):
        pooled = PooledTrials()
        pooled.add(trials)
        interval = pooled.interval(method is Method.PLAIN)
        covers = interval.low <= exact <= interval.high
        covering += covers
        honest += covers or not pooled.trusted()
    return covering, honest
