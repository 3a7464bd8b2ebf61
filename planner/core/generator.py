"""The numeric generator matrix Q of the n+k chain: one builder, one layout or a stack.

Q (per hour) is built from the transition rules of :func:`planner.core.model.build_chain`
(NS3574 "Probability of data loss"; loss state last, rows summing to zero). Every numeric
result of the engine starts here: the transient probability, the MTTDL and the rate
derivatives of the sensitivity analysis.

Q is linear in each of the four rates (lambda_op, lambda_ld, mu_op, mu_scrub): every
transition carries exactly one of them. The generator built with only one event's
transitions (``events=``) is therefore ``theta dQ/dtheta`` for that event's rate theta,
and the four parts sum to Q.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import numpy.typing as npt

from planner.core.model import Event, build_chain
from planner.core.rates import Rates

FloatArray = npt.NDArray[np.float64]


def _as_float(value: npt.ArrayLike) -> FloatArray:
    return np.asarray(value, dtype=np.float64)


def _check_inputs(
    parity: int,
    drives: FloatArray,
    op_failures_per_hour: FloatArray,
    latent_defects_per_hour: FloatArray,
    rebuild_hours: FloatArray,
    scrub_hours: FloatArray,
) -> None:
    if parity < 1:
        raise ValueError(f"parity must be at least 1, got {parity}")
    if np.any(drives <= parity) or np.any(drives != np.round(drives)):
        raise ValueError(f"every group must hold more than {parity} whole drives")
    for name, values in (
        ("op_failures_per_hour", op_failures_per_hour),
        ("rebuild_hours", rebuild_hours),
        ("scrub_hours", scrub_hours),
    ):
        if not np.all(np.isfinite(values) & (values > 0)):
            raise ValueError(f"{name} must be positive and finite")
    if not np.all(np.isfinite(latent_defects_per_hour) & (latent_defects_per_hour >= 0)):
        raise ValueError("latent_defects_per_hour must be >= 0 and finite")


def generator_stack(
    parity: int,
    drives: npt.ArrayLike,
    op_failures_per_hour: npt.ArrayLike,
    latent_defects_per_hour: npt.ArrayLike,
    rebuild_hours: npt.ArrayLike,
    scrub_hours: npt.ArrayLike,
    *,
    events: Collection[Event] | None = None,
    rebuild_streams: int | None = 1,
) -> FloatArray:
    """Generators Q (per hour) for broadcast inputs: shape ``broadcast + (m, m)``.

    Args:
        parity: parity drives per group, k >= 1.
        drives: drives per group N (> k, whole).
        op_failures_per_hour: operational failure rate of one drive, lambda_op (1/h).
        latent_defects_per_hour: latent defect rate of one drive, lambda_ld (1/h).
        rebuild_hours: mean time to restore a failed drive, 1 / mu_op (h).
        scrub_hours: mean time for a scrub to find a latent defect, 1 / mu_scrub (h).
        events: only the transitions of these events (default: all). With one event this
            is ``theta dQ/dtheta`` for its rate theta, the diagonal included (Q is linear
            in each rate).
        rebuild_streams: concurrent rebuilds (1: one at a time; None: all failed drives).

    Returns:
        The generators, states in the paper's order with the loss state last; the rows
        sum to zero.
    """
    arrays = np.broadcast_arrays(
        _as_float(drives),
        _as_float(op_failures_per_hour),
        _as_float(latent_defects_per_hour),
        _as_float(rebuild_hours),
        _as_float(scrub_hours),
    )
    n, lop, lld, rebuild, scrub = arrays
    _check_inputs(parity, n, lop, lld, rebuild, scrub)
    chain = build_chain(parity, rebuild_streams)
    size = len(chain.states)
    per_event = {
        Event.OPERATIONAL_FAILURE: lop,
        Event.LATENT_DEFECT: lld,
        Event.REBUILD: 1.0 / rebuild,
        Event.SCRUB: 1.0 / scrub,
    }
    q = np.zeros((*n.shape, size, size))
    for t in chain.transitions:
        if events is not None and t.event not in events:
            continue
        rate = per_event[t.event]
        if t.drives_excluded is not None:
            rate = (n - t.drives_excluded) * rate
        elif t.concurrent != 1:
            rate = t.concurrent * rate
        q[..., t.source, t.target] += rate
    diagonal = np.arange(size)
    q[..., diagonal, diagonal] = -q.sum(axis=-1)
    return q


def generator_matrix(parity: int, drives: int, rates: Rates) -> FloatArray:
    """The generator Q (per hour) of one group of ``drives`` drives, ``parity`` of them parity.

    :func:`generator_stack` for one layout: rows are source states, columns targets (paper
    order, loss last); rows sum to zero.
    """
    if drives <= parity:
        raise ValueError(f"a group of {drives} drives cannot hold {parity} parity drives")
    return generator_stack(
        parity,
        drives,
        rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
        rebuild_streams=rates.rebuild_streams,
    )


def split_loss_generator(q: FloatArray, parity: int) -> FloatArray:
    """Generators with the loss state split in two: group lost, then sectors lost.

    ``q`` (shape ``... x m x m``, loss state last) becomes ``... x (m + 1) x (m + 1)``: the
    moves into the loss state out of :attr:`~planner.core.model.Chain.sector_loss_sources`
    (a latent defect among the events) go to the new last state, "sectors lost"; the others
    (k + 1 operational failures) stay in state ``m - 1``, "group lost". Both are absorbing,
    so P(group lost by T) + P(sectors lost by T) = P(loss by T) exactly.
    """
    chain = build_chain(parity)
    size = q.shape[-1]
    if size != len(chain.states):
        raise ValueError(f"a generator of the n+{parity} chain has {len(chain.states)} states")
    split = np.zeros((*q.shape[:-2], size + 1, size + 1))
    split[..., :size, :size] = q
    for source in chain.sector_loss_sources:
        split[..., source, size] = q[..., source, size - 1]
        split[..., source, size - 1] = 0.0
    return split
