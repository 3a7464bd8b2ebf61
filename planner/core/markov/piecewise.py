"""The loss figures of ageing drives: a time-inhomogeneous chain, the mission in pieces.

With a failure rate that depends on the drives' age (:mod:`planner.core.markov.ageing`) the
chain's generator changes with time: ``Q(t)``, with lambda_op the hazard at the batch's age
``a_0 + t`` (every drive of the group at the same age: a replaced drive takes the batch's
age). The mission is cut into pieces with the rate constant on each, and the distribution
over the chain's states is carried from piece to piece, ``p_(j+1) = p_j exp(Q_j dt_j)``,
for each of the four chains of :mod:`planner.core.markov.loss_figures` (P(loss), P(group
lost), P(sectors lost) and the expected sector-loss events, whose absorbing and reward
columns accumulate as they are carried). Each piece's rate is the mean hazard over it, so a
drive's expected failures over the mission are exactly the law's.

**The bracket.** On piece j the exact generator Q(t) has lambda_op(t) somewhere in
``[low_j, high_j]``. Each of its entries is then between those of two matrices built from
the chains at the piece's ends: ``G_low - s_j I <= Q(t) <= G_high + s_j I`` entry by entry
(the off-diagonal moves rise with lambda_op; each diagonal is minus the exit rate, which
moves by at most ``s_j = c (high_j - low_j)``, ``c`` the most a state's exit rate grows per
unit of lambda_op: N, or m (N - 1) with a degraded multiplier). Off their diagonals all these
matrices are non-negative, and for such (Metzler) matrices the transition matrix of
``dp/dt = p A(t)`` grows with ``A`` entry by entry (its Peano-Baker series, shifted by a
multiple of I to be non-negative, is a sum of products of non-negative matrices). So, entry
by entry, ``prod_j exp(-s_j dt_j) exp(G_low,j dt_j) <= Phi(0, T) <= prod_j exp(s_j dt_j)
exp(G_high,j dt_j)``, and P(loss), the (pristine, loss) entry, lies between the chains at
the pieces' lowest and highest rates times ``exp(-/+ sum_j s_j dt_j)``: a bound that needs
no claim that P(loss) rises with the failure rate (it does not always: when scrubs are slow
and rebuilds fast, a failure that takes a long-lived defect with it can lower the risk a
little; tests/core/test_ageing_chain.py holds such a case). Both ends tend to the value as
the pieces shrink (``sum_j s_j dt_j`` is about the pieces' length times the hazard's rise
over the mission). A table's rate is constant on each piece: its three chains are one, and
exact. Where the hazard is unbounded on the first piece (a Weibull of shape < 1 with new
drives) the group stays pristine through it with probability at least ``1 - delta``,
``delta = 1 - exp(-(N H + N lambda_ld dt + shocks dt))``: the lower end goes on from that
mass alone and the upper end counts the rest as lost (no state is worse), and the piece is
made short enough that ``delta`` is a small part of the bracket.

**Refinement.** Until the bracket is within ``tolerance`` of the value, the pieces are cut
again where they widen it most: a piece's share of the width is modelled as ``(k + 1)``
times the P(loss) gained in it times its relative spread of rates (P(loss) grows as
lambda^(k+1) at most) plus ``2 s_j dt_j``, each piece is cut in proportion to the square
root of its share (which minimises the pieces for a given sum), and the new bracket is
computed, never estimated.

One pass over the pieces is :func:`~planner.core.markov.piecewise_carry.carried_figures`:
on the compiled kernel (``RowJob.start``) or by whole exponentials and row products.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from planner.core.markov.ageing import (
    Ageing,
    MissionPieces,
    initial_edges,
    pieces_between,
    split_edges,
)
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.loss_figures import ChainFigures, chain_figures, not_going_on
from planner.core.markov.piecewise_carry import Carried, carried_figures, first_piece_delta

FloatArray = npt.NDArray[np.float64]

__all__ = [
    "DEFAULT_TOLERANCE",
    "MAX_PIECES",
    "AgedFigures",
    "AgedLoss",
    "aged_chain_figures",
]

DEFAULT_TOLERANCE = 0.01
"""The bracket's width, relative to the value, that the pieces are refined to (1 %)."""

FIRST_PIECES_PER_YEAR = 4
"""Equal pieces per year of mission in the first pass (at least 4 in all)."""

MAX_PIECES = 4000
"""Most pieces of a mission: beyond, the bracket is reported as it stands (wider). A wear-out
shape of 2 over 5 years from new needs about 3,000 for 1 % (0.7 s for one layout)."""

MAX_PASSES = 8
"""Most refinements of the pieces (each computes the whole mission again)."""

REFINE_TARGET = 0.8
"""The share of the tolerance a refinement aims at (the model of the width is rough)."""

MAX_NARROWING = 8.0
"""The most one refinement aims to narrow the widest bracket by."""

FLOOR_SHARE = 0.125
"""The part of the tolerance the first piece's ``delta`` may take (unbounded hazards)."""


@dataclass(frozen=True)
class AgedFigures:
    """The loss figures of ageing drives, one array element per group (shape of the inputs).

    Attributes:
        figures: the four loss figures with each piece at its mean hazard.
        p_loss_low: the bracket's lower end: at most the exact P(loss).
        p_loss_high: its upper end: at least the exact P(loss).
        pieces: the pieces of the mission in the last pass.
        converged: every group's bracket is within the tolerance asked for.
    """

    figures: ChainFigures
    p_loss_low: FloatArray
    p_loss_high: FloatArray
    pieces: int
    converged: bool


@dataclass(frozen=True)
class AgedLoss:
    """One layout's P(loss) with ageing drives and its bracket, beside the constant-rate one.

    Attributes:
        p_loss_group: one group's P(loss), the pieces at their mean rates.
        p_loss_group_low: the bracket's lower end (at most the exact value).
        p_loss_group_high: its upper end (at least the exact value).
        p_loss_aggregate: the aggregate's, ``1 - (1 - p)^groups``.
        p_loss_aggregate_low: the aggregate's lower end.
        p_loss_aggregate_high: the aggregate's upper end.
        factor: the aggregate's ageing P(loss) over its constant-rate one (NaN when
            neither can lose data, inf when only the ageing one can).
        pieces: the pieces of the mission.
        converged: the bracket is within the tolerance.
    """

    p_loss_group: float
    p_loss_group_low: float
    p_loss_group_high: float
    p_loss_aggregate: float
    p_loss_aggregate_low: float
    p_loss_aggregate_high: float
    factor: float
    pieces: int
    converged: bool


def aged_chain_figures(
    parity: int,
    inputs: ChainInputs,
    ageing: Ageing,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    max_pieces: int = MAX_PIECES,
    threads: int | None = None,
) -> AgedFigures:
    """The loss figures of groups of ageing drives, and P(loss)'s bracket (module docstring).

    Args:
        parity: parity drives per group, k.
        inputs: the groups; their ``op_failures_per_hour`` is not used (the law gives it)
            and their ``mission_hours`` must be one value.
        ageing: the hazard law and the drives' age at the start.
        tolerance: refine the pieces until ``p_loss_high - p_loss_low <= tolerance x
            p_loss`` for every group (or ``max_pieces`` is reached).
        max_pieces: most pieces.
        threads: see :func:`~planner.core.markov.expm.expm_metzler`.
    """
    missions = np.unique(inputs.mission_hours)
    if missions.size != 1:
        raise ValueError("aged_chain_figures needs one mission for the whole stack")
    hours = float(missions[0])
    if hours == 0 or ageing.constant_over(hours):
        rate = float(ageing.law.hazard(ageing.age_at_start_hours))
        rate = rate if np.isfinite(rate) and rate > 0 else 1.0  # any rate: nothing at T = 0
        flat = dataclasses.replace(inputs, op_failures_per_hour=np.full(inputs.shape, rate))
        figures = chain_figures(parity, flat, threads=threads)
        return AgedFigures(figures, figures.p_loss, figures.p_loss, 1, True)
    uniform = max(4, int(np.ceil(FIRST_PIECES_PER_YEAR * hours / 8760.0)))
    unbounded = not np.isfinite(ageing.law.hazard(ageing.age_at_start_hours))
    floor = hours / uniform / GEOMETRIC_START if unbounded else None
    edges = initial_edges(ageing, hours, uniform, floor)
    flat = inputs.ravel()
    for _ in range(MAX_PASSES):
        pieces = pieces_between(ageing, edges)
        run = carried_figures(parity, flat, ageing, pieces, threads=threads)
        width = _widths(run)
        done = pieces.exact or bool(np.all(width <= tolerance))
        if done or pieces.count >= max_pieces:
            break
        edges = _refined(parity, flat, ageing, pieces, run, tolerance, max_pieces)
    return _shaped(run, pieces.count, done, inputs.shape)


GEOMETRIC_START = 16.0**8
"""The first floor of an unbounded hazard: the first uniform piece over 16^8."""


def _widths(run: Carried) -> FloatArray:
    """Each group's bracket width over its value (0 where both ends are 0)."""
    value = run.figures.p_loss
    spread = run.p_loss_high - run.p_loss_low
    with np.errstate(divide="ignore", invalid="ignore"):
        width: FloatArray = np.where(spread > 0, spread / value, 0.0)
    return width


def _refined(
    parity: int,
    flat: ChainInputs,
    ageing: Ageing,
    pieces: MissionPieces,
    run: Carried,
    tolerance: float,
    max_pieces: int,
) -> FloatArray:
    """The next pass's edges: each piece cut in proportion to the root of its share.

    A piece's share of a group's width is modelled as its relative spread of rates ``(high -
    low) / mean`` times ``(k + 1)`` the P(loss) gained in it plus its expected failures
    times the P(loss) still to come (a failed drive's group, rebuilt, carries the piece's
    spread on), over P(loss); scaled so that the shares sum to the measured width (less
    ``delta``'s part); the cuts are the fewest that bring the sum to
    :data:`REFINE_TARGET` of the tolerance. An unbounded first piece gets a floor that
    keeps ``delta`` within :data:`FLOOR_SHARE` of the tolerance.
    """
    value = np.maximum(run.figures.p_loss, np.finfo(np.float64).tiny)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(np.isfinite(pieces.high), (pieces.high - pieces.low) / pieces.mean, 0.0)
    # the failures in a piece that lose data at once, and those whose groups are rebuilt
    # and lose it later (the piece's spread of rates carried into the P(loss) still to come)
    later = value - (np.cumsum(run.gains, axis=0) - run.gains)
    failures = (pieces.mean * pieces.hours)[:, None] * flat.drives[None, :]
    with np.errstate(invalid="ignore", over="ignore"):
        model = ratio[:, None] * ((parity + 1) * run.gains + failures * later) / value
    chains = np.maximum(_widths(run) - run.delta / value, 0.0)
    total = model.sum(axis=0)
    scale = np.where(total > 0, chains / np.where(total > 0, total, 1.0), 0.0)
    with np.errstate(invalid="ignore"):
        share = (model * scale).max(axis=1)
    # a piece whose share cannot be modelled (rates past 1e300) is cut as the widest
    widest = float(share[np.isfinite(share)].max(initial=0.0)) or 1.0
    roots = np.sqrt(np.where(np.isfinite(share) & (share >= 0), share, widest))
    # far from the tolerance the width is not yet proportional to the pieces' lengths:
    # a smaller step, then a better model
    target = max(REFINE_TARGET * tolerance, float(np.max(chains)) / MAX_NARROWING)
    splits = np.ceil(roots * roots.sum() / target).astype(np.int64)
    splits = np.clip(splits, 1, None)
    budget = max(1, max_pieces - pieces.count)
    if splits.sum() - pieces.count > budget:
        splits = np.maximum(1, np.floor(splits * budget / splits.sum())).astype(np.int64)
    edges = split_edges(pieces.edges, splits, ageing)
    if np.any(run.delta / value > FLOOR_SHARE * tolerance):
        first = float(edges[1])
        floor = _floor(flat, ageing, first, FLOOR_SHARE * tolerance * value)
        cuts = floor * GEOMETRIC_RATIO ** np.arange(np.ceil(np.log(first / floor) / _LOG_RATIO))
        edges = np.unique(np.concatenate((edges, cuts[cuts < first])))
    return edges


GEOMETRIC_RATIO = 16.0
"""The ratio between the pieces' ends below the first cut of an unbounded hazard."""

_LOG_RATIO = float(np.log(GEOMETRIC_RATIO))


def _floor(flat: ChainInputs, ageing: Ageing, first: float, allowed: FloatArray) -> float:
    """The length (h) of a first piece whose ``delta`` is within ``allowed`` for every group."""
    length = first
    for _ in range(200):
        length /= GEOMETRIC_RATIO
        delta = first_piece_delta(flat, ageing, length)
        if np.all(delta <= allowed):
            break
    return length


def _shaped(run: Carried, pieces: int, converged: bool, shape: tuple[int, ...]) -> AgedFigures:
    figures = run.figures
    return AgedFigures(
        ChainFigures(
            p_loss=figures.p_loss.reshape(shape),
            p_group_lost=figures.p_group_lost.reshape(shape),
            p_sectors_lost=figures.p_sectors_lost.reshape(shape),
            expected_sector_loss_events=figures.expected_sector_loss_events.reshape(shape),
            **not_going_on(shape),
        ),
        run.p_loss_low.reshape(shape),
        run.p_loss_high.reshape(shape),
        pieces,
        converged,
    )
