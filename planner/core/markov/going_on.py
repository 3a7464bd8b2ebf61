"""The chain that goes on after every loss: what the losses count, and how long a group is degraded.

The life an administrator plans for: a group that loses data is restored and goes on. A
whole-group loss (k + 1 drives down at once, a shock past parity) returns the group to
pristine, restored from backup; a sector loss (a failure out of ``(k - 1, 1)``, a shock that
leaves k drives down with the defect) goes to ``(k, 0)``: the stripes under the defect are
restored from backup, the defect is gone and the rebuild goes on. In this chain, over a
mission of T hours from pristine, four integrals of the state probabilities ``p(t)``:

* **expected whole-group losses**: ``integral_0^T p(t) g dt``, ``g`` each state's
  whole-group-loss rate (1/h);
* **expected sector-loss events**: the same with ``s``, each state's sector-loss rate (1/h);
* **degraded fraction**: ``(1/T) integral_0^T P(f >= 1) dt``, at least one drive down;
* **critical fraction**: ``(1/T) integral_0^T P(f = k) dt``, no redundancy left: every
  stripe has lost k of its blocks. The state ``(k - 1, 1)`` (k - 1 drives down and an
  undiscovered defect) is not counted: only the stripes under the defect have no
  redundancy there, every other stripe keeps one. For a declustered pool, f = p drives down
  leaves without redundancy only the stripes that hold all p failed drives, the ones its
  rebuild restores first (docs/declustered.md).

Times a year's hours (8,760) the fractions are the expected hours per year a group is
degraded or critical, averaged over the mission.

All four come from ONE matrix exponential per layout: the going-on generator on its
``n = 2k + 1`` transient states augmented by four Van Loan reward columns,
``exp([[Q_on T, R T], [0, 0]])[0, n + c] = integral_0^T p(t) R[:, c] dt`` (C. F. Van Loan,
"Computing integrals involving the matrix exponential", IEEE Transactions on Automatic
Control 23(3), 1978). The indicators' columns hold ``1 / T`` per hour, so that the integral
is the fraction of the mission and the column stays of order one (a column of T would add
squarings to the exponential for nothing: the reward block is linear in it). Every entry
is a sum of non-negative terms, so a critical fraction of 1e-12 keeps its relative
accuracy.

:func:`going_on_job` gives the chain to the compiled kernel as edits of the paper's
generator stack (no copy of it): the transient states gathered in place, each state's loss
rates by kind moved to pristine and to ``(k, 0)``, and the four reward columns read from
``extra`` (:func:`going_on_extra`); :func:`going_on_matrix` builds the same matrix in NumPy
for the NumPy path and the one-layout path.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import State, build_chain
from planner.core.markov.expm_compiled import ADD, RowJob
from planner.core.markov.generator import GeneratorParts
from planner.core.markov.rates import HOURS_PER_YEAR
from planner.core.markov.transition_stack import TransitionStack

FloatArray = npt.NDArray[np.float64]

__all__ = [
    "GROUP_LOSSES",
    "REWARD_COLUMNS",
    "SECTOR_LOSS_EVENTS",
    "GoingOn",
    "full_defect",
    "going_on_extra",
    "going_on_job",
    "going_on_matrix",
    "read_going_on",
]

GROUP_LOSSES, SECTOR_LOSS_EVENTS, DEGRADED, CRITICAL = range(4)
"""The reward columns, in order (and the columns of :func:`going_on_extra`)."""

REWARD_COLUMNS = 4
"""Reward columns of the going-on chain."""


@cache
def full_defect(parity: int) -> int:
    """``(k, 0)``: where a sector loss leaves a group that goes on (k drives down)."""
    index = {state: i for i, state in enumerate(build_chain(parity).states)}
    return index[State(parity, 0)]


@cache
def _indicators(parity: int) -> tuple[FloatArray, FloatArray]:
    """Over the paper's states (the loss state last, 0): f >= 1 and f = k, as 0 or 1."""
    states = build_chain(parity).states
    degraded = np.array([float(s.failed >= 1 and not s.is_loss) for s in states])
    critical = np.array([float(s.failed == parity and not s.is_loss) for s in states])
    degraded.setflags(write=False)
    critical.setflags(write=False)
    return degraded, critical


def going_on_extra(
    parts: GeneratorParts | TransitionStack, parity: int, mission_hours: FloatArray
) -> FloatArray:
    """The reward columns per hour beside each generator of ``parts`` (``... x m x 4``).

    Whole-group and sector-loss rates (1/h, as ``parts`` has them), then the degraded and
    critical indicators times ``1 / T`` (``mission_hours`` per generator; 0 for T = 0, whose
    fractions are those of t = 0, pristine: 0).
    """
    degraded, critical = _indicators(parity)
    hours = np.asarray(mission_hours, dtype=np.float64)
    per_hour = np.divide(1.0, hours, out=np.zeros(hours.shape), where=hours > 0)[..., None]
    return np.stack(
        np.broadcast_arrays(
            parts.group_loss, parts.sector_loss, degraded * per_hour, critical * per_hour
        ),
        axis=-1,
    )


def going_on_job(base: RowJob, parity: int, mission_hours: FloatArray, extra: FloatArray) -> RowJob:
    """The going-on chain of the generator stack ``base`` (per hour) as a kernel job.

    ``base``: the paper's generators from pristine (Q, or its transitions' rates), its
    ``lead_power`` kept. The job's states are their transient states, gathered in place,
    then the four reward columns of ``extra`` (:func:`going_on_extra`, read through the
    gather); each state's loss rates are added to pristine (whole group) and to ``(k, 0)``
    (sectors). The loss state's column is left out, so each state's exit rate is unchanged.
    """
    size = base.matrix_size
    loss = size - 1
    restored = tuple((state, size + GROUP_LOSSES, 0, ADD) for state in range(loss))
    goes_on = tuple(
        (state, size + SECTOR_LOSS_EVENTS, full_defect(parity), ADD) for state in range(loss)
    )
    gather = (*range(loss), *(size + c for c in range(REWARD_COLUMNS)))
    return replace(
        base,
        reward_columns=REWARD_COLUMNS,
        moves=restored + goes_on,
        gather=gather,
        scale=mission_hours,
        extra=extra,
    )


def going_on_matrix(
    g: FloatArray, group: FloatArray, sectors: FloatArray, parity: int
) -> FloatArray:
    """Van Loan's matrix of the going-on chain from the paper's ``g = Q T`` (``... x m x m``).

    ``group`` and ``sectors`` (``... x m``): each state's loss rates by kind times T. The
    result (``... x (m + 3) x (m + 3)``) holds the going-on chain on the m - 1 transient
    states and the four reward columns (:data:`GROUP_LOSSES` ...), each indicator 1 (the
    fraction of the mission, as ``g`` is already times T); its reward rows are zero. The
    diagonal is left as ``g``'s: the exponential takes the exit rates from the
    off-diagonal entries.
    """
    loss = g.shape[-1] - 1
    degraded, critical = _indicators(parity)
    out = np.zeros((*g.shape[:-2], loss + REWARD_COLUMNS, loss + REWARD_COLUMNS))
    out[..., :loss, :loss] = g[..., :loss, :loss]
    out[..., :loss, 0] += group[..., :loss]
    out[..., :loss, full_defect(parity)] += sectors[..., :loss]
    out[..., :loss, loss + GROUP_LOSSES] = group[..., :loss]
    out[..., :loss, loss + SECTOR_LOSS_EVENTS] = sectors[..., :loss]
    out[..., :loss, loss + DEGRADED] = degraded[:loss]
    out[..., :loss, loss + CRITICAL] = critical[:loss]
    return out


class GoingOn:
    """The four integrals of the going-on chain, read from its rows (``... x columns``).

    Attributes:
        expected_group_losses: mean number of whole-group losses over the mission.
        expected_sector_loss_events: mean number of sector-loss events.
        degraded_hours_per_year: expected hours a year with at least one drive down.
        critical_hours_per_year: expected hours a year with k drives down (no redundancy).
    """

    def __init__(self, rewards: FloatArray) -> None:
        """``rewards``: the last four entries of each row (``... x 4``), in column order."""
        clipped = np.maximum(rewards, 0.0)
        self.expected_group_losses: FloatArray = clipped[..., GROUP_LOSSES]
        self.expected_sector_loss_events: FloatArray = clipped[..., SECTOR_LOSS_EVENTS]
        fractions = np.minimum(clipped[..., DEGRADED : CRITICAL + 1], 1.0)
        self.degraded_hours_per_year: FloatArray = fractions[..., 0] * HOURS_PER_YEAR
        self.critical_hours_per_year: FloatArray = fractions[..., 1] * HOURS_PER_YEAR


def read_going_on(rows: FloatArray) -> GoingOn:
    """:class:`GoingOn` from rows of the going-on exponential (its reward columns last)."""
    return GoingOn(rows[..., -REWARD_COLUMNS:])
