"""What a group's losses cost: whole-group loss, sector loss and their count (issue 20).

Three figures beside the paper's P(loss) (NS3574 "Probability of data loss", the first loss
of any kind), for one group over a mission of T hours starting pristine, each computed
exactly from a chain of its own (never as ``1 - reliability`` or a difference):

* **P(group lost)**: k + 1 drives down at once during the mission (parity p for a pool),
  sector losses written off and the group going on. Latent defects play no part, so it
  is the birth-death chain on f = 0 .. k + 1 drives down: failure ``(N - f) lambda_op``,
  rebuild ``min(f, streams) mu_op``, absorbing at k + 1 (:func:`group_lost_stack`).
* **P(sectors lost)**: at least one sector-loss event. The paper's chain with its
  sector-loss move (a failure out of ``(k - 1, 1)``) absorbing, and its whole-group-loss
  move (a failure out of ``(k, 0)``) returning the group to pristine: restored from
  backup, it goes on (:func:`sectors_lost_generator`).
* **Expected sector-loss events**: the mean number of sector-loss moves by T in the chain
  that goes on after both: a sector loss goes ``(k - 1, 1) -> (k, 0)`` (the stripes
  restored from backup, the defect gone, the rebuild going on) and a group loss
  ``(k, 0) -> (0, 0)``. It is ``integral_0^T p(t) r dt`` with ``r`` the sector-loss rate of
  each state: one matrix exponential of the generator augmented by the column ``r``
  (Van Loan, "Computing integrals involving the matrix exponential", IEEE Trans.
  Automatic Control 23(3), 1978), :func:`sector_events_matrix`.

They no longer sum: a path can lose sectors and later the whole group, and P(group lost)
counts every time k + 1 drives are down while P(loss) stops at the first loss. By Markov's
inequality P(sectors lost) <= the expected events. A declustered pool's chain thins the
sector-loss move by its stripe share sigma (:mod:`planner.core.markov.chain`); P(group lost) does
not depend on it.

With ``restore.on_unreadable_sector: fail-rebuild`` an unreadable sector fails the rebuild,
so every loss ends the group: P(group lost) = P(loss), no sector losses
(:meth:`LossFigures.sectors_fail_rebuild`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import State, build_chain, concurrent_rebuilds
from planner.core.markov.expm import expm_metzler
from planner.core.markov.generator import generator_matrix, generator_stack
from planner.core.markov.rates import Rates

FloatArray = npt.NDArray[np.float64]

__all__ = [
    "LossFigures",
    "group_lost_stack",
    "loss_figures",
    "loss_figures_batch",
    "sector_events_matrix",
    "sectors_lost_generator",
]


@dataclass(frozen=True)
class LossFigures:
    """The loss figures of one group over the mission (module docstring), all exact.

    Attributes:
        p_loss: the paper's P(loss): the first loss of any kind.
        p_group_lost: P(k + 1 drives down at once), sector losses written off.
        p_sectors_lost: P(at least one sector-loss event), a lost group restored.
        expected_sector_loss_events: mean number of sector-loss events.
    """

    p_loss: float
    p_group_lost: float
    p_sectors_lost: float
    expected_sector_loss_events: float

    def sectors_fail_rebuild(self) -> LossFigures:
        """The figures when an unreadable sector fails the rebuild: every loss ends the group."""
        return LossFigures(self.p_loss, self.p_loss, 0.0, 0.0)


@cache
def _indices(parity: int) -> tuple[int, int]:
    """Indices of ``(k, 0)`` (the group-loss source) and ``(k - 1, 1)`` in the paper's order."""
    chain = build_chain(parity)
    index = {state: i for i, state in enumerate(chain.states)}
    return index[State(parity, 0)], index[State(parity - 1, 1)]


def sectors_lost_generator(q: FloatArray, parity: int) -> FloatArray:
    """The chain of P(sectors lost) from the paper's generators ``q`` (``... x m x m``).

    The loss state (last) is now reached by sector loss only; the group-loss move out of
    ``(k, 0)`` goes back to pristine instead. Rows still sum to zero.
    """
    group_source, _ = _indices(parity)
    loss = q.shape[-1] - 1
    out = np.array(q, dtype=np.float64, copy=True)
    out[..., group_source, 0] += q[..., group_source, loss]
    out[..., group_source, loss] = 0.0
    return out


def sector_events_matrix(q: FloatArray, parity: int) -> FloatArray:
    """Van Loan's matrix for the expected sector-loss events, from the paper's ``q``.

    ``[[Q_on, r], [0, 0]]`` (``... x m x m``): ``Q_on`` the going-on chain on the m - 1
    transient states (a sector loss to ``(k, 0)``, a group loss to pristine), ``r`` each
    state's sector-loss rate (1/h). ``exp(M T)[0, m - 1] = integral_0^T p(t) r dt``, the
    expected events from pristine. The last column makes the rows sum to ``r``, not zero:
    :func:`~planner.core.markov.expm.expm_metzler` takes it as a reward column
    (``reward_columns=1``) and conserves the mass of the generator block.
    """
    group_source, sector_source = _indices(parity)
    loss = q.shape[-1] - 1
    out = np.array(q, dtype=np.float64, copy=True)
    out[..., group_source, 0] += q[..., group_source, loss]
    out[..., group_source, loss] = 0.0
    out[..., sector_source, group_source] += q[..., sector_source, loss]
    out[..., loss, :] = 0.0
    # The diagonal keeps each state's total exit rate, the sector-loss move included.
    return out


def group_lost_stack(
    parity: int,
    drives: npt.ArrayLike,
    op_failures_per_hour: npt.ArrayLike,
    rebuild_hours: npt.ArrayLike,
    *,
    rebuild_streams: int | None = 1,
) -> FloatArray:
    """Generators of the birth-death chain on f = 0 .. k + 1 drives down (``... x (k+2)^2``).

    Failure ``f -> f + 1`` at ``(N - f) lambda_op`` (1/h), rebuild ``f -> f - 1`` at
    ``min(f, streams) / rebuild_hours``; ``f = k + 1`` (the group lost) absorbing.
    """
    n, lop, rebuild = np.broadcast_arrays(
        np.asarray(drives, dtype=np.float64),
        np.asarray(op_failures_per_hour, dtype=np.float64),
        np.asarray(rebuild_hours, dtype=np.float64),
    )
    size = parity + 2
    q = np.zeros((*n.shape, size, size))
    for f in range(parity + 1):
        q[..., f, f + 1] = (n - f) * lop
        if f > 0:
            q[..., f, f - 1] = concurrent_rebuilds(f, rebuild_streams) / rebuild
        q[..., f, f] = -q[..., f, :].sum(axis=-1)
    return q


def _figures(
    q: FloatArray, group: FloatArray, parity: int, hours: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """P(loss), P(group lost), P(sectors lost), expected events from the two generators."""
    lead = parity + 1
    last = q.shape[-1] - 1
    t = hours[..., None, None]
    p_loss = expm_metzler(q * t, entry=(0, last), lead_power=lead, generator=True)
    p_group = expm_metzler(group * t, entry=(0, parity + 1), lead_power=lead, generator=True)
    sectors = sectors_lost_generator(q, parity) * t
    p_sectors = expm_metzler(sectors, entry=(0, last), lead_power=lead, generator=True)
    events = expm_metzler(
        sector_events_matrix(q, parity) * t,
        entry=(0, last),
        lead_power=lead,
        generator=True,
        reward_columns=1,
    )
    return (
        np.clip(p_loss, 0.0, 1.0),
        np.clip(p_group, 0.0, 1.0),
        np.clip(p_sectors, 0.0, 1.0),
        np.maximum(events, 0.0),
    )


def loss_figures(
    parity: int,
    drives: int,
    rates: Rates,
    mission_hours: float,
    *,
    sectors_fail_rebuild: bool = False,
) -> LossFigures:
    """The loss figures of one group of ``drives`` drives under ``rates`` (module docstring).

    ``rates.defect_stripe_share`` thins a declustered pool's sector losses;
    ``sectors_fail_rebuild``: ``restore.on_unreadable_sector: fail-rebuild``.
    """
    q = generator_matrix(parity, drives, rates)
    group = group_lost_stack(
        parity,
        drives,
        rates.op_failures_per_hour,
        rates.rebuild_hours,
        rebuild_streams=rates.rebuild_streams,
    )
    p_loss, p_group, p_sectors, events = _figures(
        q[None], group[None], parity, np.array([float(mission_hours)])
    )
    figures = LossFigures(
        float(p_loss[0]), float(p_group[0]), float(p_sectors[0]), float(events[0])
    )
    return figures.sectors_fail_rebuild() if sectors_fail_rebuild else figures


def loss_figures_batch(
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
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """(P(loss), P(group lost), P(sectors lost), expected events) for broadcast inputs.

    Arguments as for :func:`planner.core.markov.batch.p_loss_group_batch` (rates per hour, hours),
    plus sigma (``defect_stripe_share``, 1 for a traditional group). One group each; the
    P(loss) is the same number as that function's.
    """
    q = generator_stack(
        parity,
        drives,
        op_failures_per_hour,
        latent_defects_per_hour,
        rebuild_hours,
        scrub_hours,
        rebuild_streams=rebuild_streams,
        defect_stripe_share=defect_stripe_share,
    )
    hours = np.asarray(mission_hours, dtype=np.float64)
    if not np.all(np.isfinite(hours) & (hours >= 0)):
        raise ValueError("mission_hours must be >= 0 and finite")
    group = group_lost_stack(
        parity, drives, op_failures_per_hour, rebuild_hours, rebuild_streams=rebuild_streams
    )
    shape = np.broadcast_shapes(q.shape[:-2], group.shape[:-2], hours.shape)
    q = np.broadcast_to(q, (*shape, *q.shape[-2:]))
    group = np.broadcast_to(group, (*shape, *group.shape[-2:]))
    return _figures(q, group, parity, np.broadcast_to(hours, shape))
