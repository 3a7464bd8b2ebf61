"""Vectorised evaluation of the n+k model: many groups and parameter sets in one call.

:func:`p_loss_group_batch` gives the same number as
:func:`planner.core.markov.transient.p_loss_group`
(the (pristine, loss) entry of exp(Q T), NS3574 "Probability of data loss") for a whole
stack of groups of one parity count at once, several times faster than calling
``scipy.linalg.expm`` once per group (see ``benchmarks/bench_batch.py``). The generator
comes from :mod:`planner.core.markov.generator`, the exponential from
:mod:`planner.core.markov.expm`
(non-negative Taylor series with squaring: no cancellation, ~1e-15 relative accuracy at
any size of the probability).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from planner.core.markov.aggregate import p_loss_aggregate_batch
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.expm import expm_metzler
from planner.core.markov.generator import generator_of, generator_stack
from planner.core.markov.loss_figures import chain_figures

FloatArray = npt.NDArray[np.float64]

__all__ = [
    "ChainInputs",
    "chain_figures",
    "expm_metzler",
    "generator_stack",
    "p_loss_aggregate_batch",
    "p_loss_group_batch",
    "p_loss_group_mixed",
    "p_loss_of",
]


def p_loss_group_batch(
    parity: int,
    drives: npt.ArrayLike,
    op_failures_per_hour: npt.ArrayLike,
    latent_defects_per_hour: npt.ArrayLike,
    rebuild_hours: npt.ArrayLike,
    scrub_hours: npt.ArrayLike,
    mission_hours: npt.ArrayLike,
    *,
    rebuild_streams: int | None = 1,
    defect_stripe_share: npt.ArrayLike = 1.0,
) -> FloatArray:
    """Probability that a group loses data within the mission, for broadcast inputs.

    Vectorised :func:`planner.core.markov.transient.p_loss_group`: the (pristine, loss) entry of
    exp(Q T) for groups of ``drives`` drives with ``parity`` parity drives (NS3574,
    "Probability of data loss"). All array arguments broadcast together
    (:meth:`~planner.core.markov.chain_inputs.ChainInputs.of`).

    Args:
        parity: parity drives per group, k >= 1 (one k per call; see
            :func:`p_loss_group_mixed` for several).
        drives: drives per group N (> k).
        op_failures_per_hour: operational failure rate of one drive, lambda_op (1/h).
        latent_defects_per_hour: latent defect rate of one drive, lambda_ld (1/h).
        rebuild_hours: mean time to restore a failed drive, 1 / mu_op (h).
        scrub_hours: mean time for a scrub to find a latent defect, 1 / mu_scrub (h).
        mission_hours: mission time T (h), >= 0.
        rebuild_streams: concurrent rebuilds (1: one at a time; None: all failed drives).
        defect_stripe_share: sigma, a declustered pool's share of sector-loss moves (1 for
            a traditional group; :mod:`planner.core.markov.chain`).

    Returns:
        P(loss) in [0, 1], of the broadcast shape of the inputs.
    """
    inputs = ChainInputs.of(
        drives,
        op_failures_per_hour,
        latent_defects_per_hour,
        rebuild_hours,
        scrub_hours,
        mission_hours,
        rebuild_streams=rebuild_streams,
        defect_stripe_share=defect_stripe_share,
    )
    return p_loss_of(parity, inputs)


def p_loss_of(parity: int, inputs: ChainInputs, *, threads: int | None = None) -> FloatArray:
    """P(loss) of every group of ``inputs``: the loss entry of exp(Q T), one chain each.

    Only the paper's chain (no other figure): what the sensitivity analysis needs.
    """
    q = generator_of(parity, inputs)
    g = q * inputs.mission_hours[..., None, None]
    loss = g.shape[-1] - 1
    p = expm_metzler(g, entry=(0, loss), lead_power=parity + 1, generator=True, threads=threads)
    return np.clip(p, 0.0, 1.0)


def p_loss_group_mixed(
    parities: npt.ArrayLike,
    drives: npt.ArrayLike,
    op_failures_per_hour: npt.ArrayLike,
    latent_defects_per_hour: npt.ArrayLike,
    rebuild_hours: npt.ArrayLike,
    scrub_hours: npt.ArrayLike,
    mission_hours: npt.ArrayLike,
    *,
    rebuild_streams: int | None = 1,
) -> FloatArray:
    """:func:`p_loss_group_batch` for mixed parity counts: one batch per distinct k.

    ``parities`` (ints >= 1) broadcasts with the other arguments like they do together.
    """
    arrays = np.broadcast_arrays(
        np.asarray(parities),
        *(
            np.asarray(a, dtype=np.float64)
            for a in (
                drives,
                op_failures_per_hour,
                latent_defects_per_hour,
                rebuild_hours,
                scrub_hours,
                mission_hours,
            )
        ),
    )
    k = arrays[0]
    if np.any(k != np.round(k)) or np.any(k < 1):
        raise ValueError("parities must be whole numbers >= 1")
    k = k.astype(np.int64)
    out = np.empty(k.shape)
    for parity in np.unique(k):
        pick = k == parity
        out[pick] = p_loss_group_batch(
            int(parity), *(a[pick] for a in arrays[1:]), rebuild_streams=rebuild_streams
        )
    return out
