"""The numeric generator matrix Q of the n+k chain: one builder, one layout or a stack.

Q (per hour) is built from the transition rules of :func:`planner.core.markov.chain.build_chain`
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
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import Event, StripeShare, build_chain
from planner.core.markov.rates import ChainInputs, Rates

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]

_EVENT_ORDER = (
    Event.OPERATIONAL_FAILURE,
    Event.LATENT_DEFECT,
    Event.REBUILD,
    Event.SCRUB,
)
"""The order of the per-event rates in :func:`_fill` (lambda_op, lambda_ld, mu_op, mu_scrub)."""


@dataclass(frozen=True)
class _Structure:
    """The chain's transitions as index arrays, built once per (parity, streams, events).

    Transition ``t`` fills the cell ``cells[t]`` (``source * size + target`` of the
    flattened matrix; ``diagonal`` holds the diagonal's cells) with
    ``(drives * per_drive[t] + offset[t]) * rate[event[t]]``: ``per_drive`` is 1 and
    ``offset`` is ``-drives_excluded`` for failures and defects (``N - excluded`` drives at
    risk), ``per_drive`` is 0 and ``offset`` the concurrent repairs for rebuilds and scrubs.
    Both forms are exact in floating point (small whole numbers), so the rate is the same
    product as ``Transition.multiplier(N) * rate``. A declustered pool's chain
    (``stripe_share``) also multiplies by ``share_base[t] + share_slope[t] * sigma``: 1,
    sigma or 1 - sigma (:class:`~planner.core.markov.chain.StripeShare`).
    """

    size: int
    cells: IndexArray
    diagonal: IndexArray
    event: IndexArray
    per_drive: FloatArray
    offset: FloatArray
    share_base: FloatArray | None = None
    share_slope: FloatArray | None = None
    merge: FloatArray | None = None
    merged_cells: IndexArray | None = None


_SHARE_LINE = {
    StripeShare.ALL: (1.0, 0.0),
    StripeShare.SHARE: (0.0, 1.0),
    StripeShare.REST: (1.0, -1.0),
}
"""Each stripe-share factor as ``base + slope * sigma``."""


@cache
def _structure(
    parity: int,
    rebuild_streams: int | None,
    events: frozenset[Event] | None,
    stripe_share: bool = False,
) -> _Structure:
    chain = build_chain(parity, rebuild_streams, stripe_share)
    kept = [t for t in chain.transitions if events is None or t.event in events]
    size = len(chain.states)
    cells = np.array([t.source * size + t.target for t in kept], dtype=np.intp)
    merged_cells, which = np.unique(cells, return_inverse=True)
    merge = None
    if len(merged_cells) != len(cells):
        # A pool's chain has two moves (f, 1) -> (f + 1, 0) out of (p - 1, 1): the holder's
        # failure and a failure outside the defect's stripe. _fill sums such transitions
        # through this 0/1 matrix (transitions x distinct cells).
        merge = np.zeros((len(cells), len(merged_cells)))
        merge[np.arange(len(cells)), which] = 1.0
    structure = _Structure(
        size=size,
        cells=cells,
        diagonal=np.arange(size, dtype=np.intp) * (size + 1),
        event=np.array([_EVENT_ORDER.index(t.event) for t in kept], dtype=np.intp),
        per_drive=np.array([0.0 if t.drives_excluded is None else 1.0 for t in kept]),
        offset=np.array(
            [float(t.concurrent if t.drives_excluded is None else -t.drives_excluded) for t in kept]
        ),
        share_base=np.array([_SHARE_LINE[t.share][0] for t in kept]) if stripe_share else None,
        share_slope=np.array([_SHARE_LINE[t.share][1] for t in kept]) if stripe_share else None,
        merge=merge,
        merged_cells=merged_cells if merge is not None else None,
    )
    for array in (
        structure.cells,
        structure.diagonal,
        structure.event,
        structure.per_drive,
        structure.offset,
        structure.share_base,
        structure.share_slope,
        structure.merge,
        structure.merged_cells,
    ):
        if array is not None:
            array.setflags(write=False)
    return structure


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
    defect_stripe_share: npt.ArrayLike = 1.0,
) -> FloatArray:
    """Generators Q (per hour) for broadcast inputs: shape ``broadcast + (m, m)``.

    :func:`generator_of` for inputs given one by one (checked here as
    :class:`~planner.core.markov.rates.ChainInputs` checks them).

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
        defect_stripe_share: sigma in (0, 1], a declustered pool's share of sector-loss
            moves (:class:`~planner.core.markov.chain.StripeShare`); 1 (the default) everywhere
            gives the traditional chain.

    Returns:
        The generators, states in the paper's order with the loss state last; the rows
        sum to zero.
    """
    inputs = ChainInputs.of(
        drives,
        op_failures_per_hour,
        latent_defects_per_hour,
        rebuild_hours,
        scrub_hours,
        rebuild_streams=rebuild_streams,
        defect_stripe_share=defect_stripe_share,
    )
    return generator_of(parity, inputs, events=events)


def generator_of(
    parity: int, inputs: ChainInputs, *, events: Collection[Event] | None = None
) -> FloatArray:
    """Generators Q (per hour) of groups with ``parity`` parity drives: ``inputs.shape + (m, m)``.

    The mission in ``inputs`` plays no part. ``events``: only the transitions of these
    events (see :func:`generator_stack`). States in the paper's order, the loss state
    last; the rows sum to zero.
    """
    inputs.check_parity(parity)
    chosen = None if events is None else frozenset(events)
    structure = _structure(parity, inputs.rebuild_streams, chosen, inputs.thinned)
    return _fill(structure, inputs.drives, inputs.per_event(), inputs.defect_stripe_share)


def _fill(
    structure: _Structure,
    drives: FloatArray,
    per_event: FloatArray,
    share: FloatArray | float = 1.0,
) -> FloatArray:
    """Q for ``drives`` (shape ``S``) and the per-event rates (shape ``S + (4,)``, 1/h).

    The one place the generator's entries are written, for one layout (``S = ()``) or a
    stack. Transitions with a (source, target) cell of their own are assigned; where two
    share one (a pool's chain) they are summed through ``structure.merge``. ``share``:
    sigma (shape ``S``), used by a declustered pool's structure only.
    """
    multiplier = drives[..., None] * structure.per_drive + structure.offset
    if structure.share_base is not None and structure.share_slope is not None:
        sigma = np.asarray(share, dtype=np.float64)[..., None]
        multiplier = multiplier * (structure.share_base + structure.share_slope * sigma)
    size = structure.size
    flat = np.zeros((*drives.shape, size * size))
    values = multiplier * per_event[..., structure.event]
    if structure.merge is not None and structure.merged_cells is not None:
        flat[..., structure.merged_cells] = values @ structure.merge
    else:
        flat[..., structure.cells] = values
    q = flat.reshape(*drives.shape, size, size)
    flat[..., structure.diagonal] = -q.sum(axis=-1)
    return q


def generator_matrix(parity: int, drives: int, rates: Rates) -> FloatArray:
    """The generator Q (per hour) of one group of ``drives`` drives, ``parity`` of them parity.

    :func:`generator_stack` for one layout (the same cached transition structure and the
    same :func:`_fill`, without the broadcasting and the array checks, which cost ~10x the
    fill for one small matrix): rows are source states, columns targets (paper order, loss
    last); rows sum to zero.
    """
    if drives <= parity:
        raise ValueError(f"a group of {drives} drives cannot hold {parity} parity drives")
    if not float(drives).is_integer():
        raise ValueError(f"every group must hold more than {parity} whole drives")
    # Rates validated its values when it was made: no broadcasting or checks of arrays.
    per_event = np.array(
        (
            rates.op_failures_per_hour,
            rates.latent_defects_per_hour,
            1.0 / rates.rebuild_hours,
            1.0 / rates.scrub_hours,
        )
    )
    share = rates.defect_stripe_share
    structure = _structure(parity, rates.rebuild_streams, None, share != 1.0)
    return _fill(structure, np.asarray(float(drives)), per_event, share)


def transition_matrix(parity: int, drives: int, rates: Rates, hours: float = 1.0) -> FloatArray:
    """The off-diagonal rates of one group's generator times ``hours``; the diagonal zero.

    ``Q T`` as :func:`planner.core.markov.expm_one.expm_entry` reads it (the exit rates are
    the row sums there, so :func:`generator_matrix`'s diagonal is not built): the same
    structure and rates, each rate times ``hours`` (dimensionless for a mission in hours).
    """
    if drives <= parity:
        raise ValueError(f"a group of {drives} drives cannot hold {parity} parity drives")
    if not float(drives).is_integer():
        raise ValueError(f"every group must hold more than {parity} whole drives")
    share = rates.defect_stripe_share
    structure = _structure(parity, rates.rebuild_streams, None, share != 1.0)
    per_event = np.array(
        (
            rates.op_failures_per_hour * hours,
            rates.latent_defects_per_hour * hours,
            hours / rates.rebuild_hours,
            hours / rates.scrub_hours,
        )
    )
    values = (float(drives) * structure.per_drive + structure.offset) * per_event[structure.event]
    if structure.share_base is not None and structure.share_slope is not None:
        values *= structure.share_base + structure.share_slope * share
    size = structure.size
    flat = np.zeros(size * size)
    if structure.merge is not None and structure.merged_cells is not None:
        flat[structure.merged_cells] = values @ structure.merge
    else:
        flat[structure.cells] = values
    return flat.reshape(size, size)
