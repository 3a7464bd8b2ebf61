"""Dedicated hot spares shared by an aggregate: how long a failed drive waits to be rebuilt.

An aggregate of traditional groups keeps ``s`` dedicated hot spares beside its ``D`` drives
(``aggregate.hot_spares``). A failed drive's rebuild starts onto a free spare at once; the
spare is taken from the failure until the replacement drive arrives, ``delay`` hours later
(``restore.replace_delay_hours``), when the new drive becomes the spare. A failure that
finds every spare taken waits the delay for its own replacement and is rebuilt onto it (it
might take the next spare to come free sooner: counting the whole delay errs on the safe
side).

Failures arrive at ``D lambda_op`` an hour, each holding a spare for the delay: a loss
system of ``s`` servers offered ``A = D lambda_op delay`` erlangs, where the chance that a
failure finds every spare taken is Erlang's loss formula ``B(s, A)``
(:func:`~planner.core.arrays.declustered.spares_all_taken`; A. K. Erlang, "Solution of some
Problems in the Theory of Probabilities of Significance in Automatic Telephone Exchanges",
1917; it depends on the delay only through its mean). A failure waits ``B(s, A) x delay``
on average, so the mean time to restore is ``T + B(s, A) x delay``, ``T`` the rebuild
itself. With no spare ``B = 1``: the whole delay, the model without spares. It is the rule
of a declustered pool's distributed spares
(:func:`~planner.core.arrays.declustered.pool_rebuild_hours`), which keeps its own model:
dedicated spares beside a pool change nothing of it.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import numpy.typing as npt

from planner.core.markov.rates import Rates
from planner.core.simulation.distributions import DistributionSet

FloatArray = npt.NDArray[np.float64]


def spares_all_taken_batch(spares: int, offered_load: npt.ArrayLike) -> FloatArray:
    """Erlang's ``B(s, A)`` for each offered load ``A`` (erlangs), ``s`` spares.

    The recursion of :func:`~planner.core.arrays.declustered.spares_all_taken` on an array;
    it stops early once every chance is 0 (thousands of spares against a light load).
    """
    if spares < 0:
        raise ValueError(f"spares must be >= 0, got {spares}")
    load = np.asarray(offered_load, dtype=np.float64)
    if not np.all(np.isfinite(load) & (load >= 0)):
        raise ValueError("offered_load must be >= 0 and finite")
    taken = np.ones(load.shape)
    for k in range(1, spares + 1):
        taken = load * taken / (k + load * taken)
        if not taken.any():
            break
    return taken


def spared_wait_hours(
    delay_hours: npt.ArrayLike,
    op_failures_per_hour: npt.ArrayLike,
    drives: npt.ArrayLike,
    spares: int,
) -> FloatArray:
    """The mean wait of a failed drive for somewhere to rebuild onto (h): ``B(s, A) x delay``.

    Args:
        delay_hours: the wait for a replacement drive (h).
        op_failures_per_hour: failures per drive-hour, lambda_op.
        drives: the aggregate's drives that share the spares, D.
        spares: the dedicated hot spares, s.
    """
    delay = np.asarray(delay_hours, dtype=np.float64)
    load = np.asarray(drives, dtype=np.float64) * np.asarray(op_failures_per_hour) * delay
    return spares_all_taken_batch(spares, load) * delay


def spares_pending(rates: Rates) -> bool:
    """Whether ``rates`` have hot spares whose shorter wait is still to be applied."""
    return rates.hot_spares > 0 and rates.replace_delay_hours > 0.0


def with_hot_spares(rates: Rates, drives: int | None) -> Rates:
    """``rates`` of a group of an aggregate of ``drives`` drives sharing ``rates.hot_spares``.

    The wait for a replacement, ``replace_delay_hours``, inside ``rebuild_hours`` becomes
    :func:`spared_wait_hours`; the returned rates hold no spares (they are counted in).
    ``rates`` themselves when there are no spares or no wait.

    Raises:
        ValueError: spares to share and no aggregate (``drives`` None).
    """
    if not spares_pending(rates):
        return rates
    if drives is None:
        raise ValueError(
            f"{rates.hot_spares} hot spares are shared by the aggregate: give its groups "
            "(Layout.chain_rates(rates, groups))"
        )
    delay = rates.replace_delay_hours
    wait = float(spared_wait_hours(delay, rates.op_failures_per_hour, drives, rates.hot_spares))
    return dataclasses.replace(
        rates,
        rebuild_hours=rates.rebuild_hours - delay + wait,
        replace_delay_hours=wait,
        hot_spares=0,
    )


def distributions_with_hot_spares(
    distributions: DistributionSet, drives: int | None
) -> DistributionSet:
    """:func:`with_hot_spares` for the simulator: the restoration law scaled to its mean.

    The law's mean, less the wait and plus the spared wait, as the chain's (its shape kept;
    a law whose mean is below the wait, another scenario's, is taken as the rebuild alone).

    Raises:
        ValueError: spares to share and no aggregate (``drives`` None).
    """
    spares, delay = distributions.hot_spares, distributions.replace_delay_hours
    mean = distributions.restoration.mean_hours
    if spares == 0 or delay <= 0.0 or delay >= mean:
        return dataclasses.replace(distributions, hot_spares=0)
    rates = Rates(
        op_failures_per_hour=1.0 / distributions.operational_failure.mean_hours,
        latent_defects_per_hour=distributions.latent_defects_per_hour,
        rebuild_hours=mean,
        scrub_hours=distributions.scrub.mean_hours,
        replace_delay_hours=delay,
        hot_spares=spares,
    )
    spared = with_hot_spares(rates, drives)
    return dataclasses.replace(
        distributions,
        restoration=distributions.restoration.time_scaled(spared.rebuild_hours / mean),
        replace_delay_hours=spared.replace_delay_hours,
        hot_spares=0,
    )
