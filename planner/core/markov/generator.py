"""The numeric generator matrix Q of the n+k chain: one builder, one layout or a stack.

Q (per hour) is built from the transition rules of :func:`planner.core.markov.chain.build_chain`
(NS3574 "Probability of data loss"; loss state last, rows summing to zero). Every numeric
result of the engine starts here: transient probabilities, MTTDL, the rate derivatives.

Q is linear in each of the four rates (lambda_op, lambda_ld, mu_op, mu_scrub) and in a
correlated chain's shock rate: every transition carries exactly one of them. The generator
built with only one event's transitions (``events=``) is therefore ``theta dQ/dtheta`` for
that event's rate theta, and the parts sum to Q. The degraded multiplier m enters the
operational failures out of states with a drive down (Q is affine in m), the shock
probability q the shock transitions' binomial factors (:mod:`planner.core.markov.shocks`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import (
    AnyEvent,
    CommonCause,
    Event,
    LossKind,
    ShockHolder,
    StripeShare,
    Transition,
    build_chain,
)
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.rates import Rates
from planner.core.markov.shocks import shock_share

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]

_EVENT_ORDER: tuple[AnyEvent, ...] = (
    Event.OPERATIONAL_FAILURE,
    Event.LATENT_DEFECT,
    Event.REBUILD,
    Event.SCRUB,
    CommonCause.SHOCK,
)
"""The order of the per-event rates in :func:`_fill` (lambda_op, lambda_ld, mu_op, mu_scrub,
shocks): :meth:`~planner.core.markov.chain_inputs.ChainInputs.per_event`'s."""


@dataclass(frozen=True)
class _Structure:
    """The chain's transitions as index arrays, built once per (parity, streams, events).

    Transition ``t`` fills the cell ``cells[t]`` (``source * size + target`` of the
    flattened matrix, ``sources[t]`` its source; ``diagonal`` holds the diagonal's
    cells, minus each state's exit rates: no transition leaves a state for itself) with
    ``(drives * per_drive[t] + offset[t]) * rate[event[t]]``: ``per_drive`` is 1 and
    ``offset`` is ``-drives_excluded`` for failures and defects (``N - excluded`` drives at
    risk), ``per_drive`` is 0 and ``offset`` the concurrent repairs for rebuilds and scrubs.
    Both forms are exact in floating point (small whole numbers), so the rate is the same
    product as ``Transition.multiplier(N) * rate``. A declustered pool's chain
    (``stripe_share``) also multiplies by ``share_base[t] + share_slope[t] * sigma``: 1,
    sigma or 1 - sigma (:class:`~planner.core.markov.chain.StripeShare`).

    A correlated chain's structure (``correlation``) also multiplies the transitions of
    ``degraded`` by m and each shock (the transitions ``shocks``) by its binomial
    probability for ``W = drives - shock_excluded`` drives, ``shock_jump`` of them failing
    (or more, ``shock_tail``), times q or 1 - q where the defect's holder is hit or spared
    (``shock_holder`` 1 or -1). ``group_rows`` and ``sector_rows`` (transitions x states,
    0/1) sum each state's moves into the loss state by :class:`LossKind`.
    """

    size: int
    cells: IndexArray
    sources: IndexArray
    diagonal: IndexArray
    event: IndexArray
    per_drive: FloatArray
    offset: FloatArray
    share_base: FloatArray | None = None
    share_slope: FloatArray | None = None
    merge: FloatArray | None = None
    merged_cells: IndexArray | None = None
    correlation: _Correlation | None = None
    group_rows: FloatArray | None = None
    sector_rows: FloatArray | None = None


@dataclass(frozen=True)
class _Correlation:
    """The factors a correlated chain adds (see :class:`_Structure`)."""

    degraded: npt.NDArray[np.bool_]
    shocks: IndexArray
    shock_excluded: FloatArray
    shock_jump: FloatArray
    shock_tail: npt.NDArray[np.bool_]
    shock_holder: FloatArray


_SHARE_LINE = {
    StripeShare.ALL: (1.0, 0.0),
    StripeShare.SHARE: (0.0, 1.0),
    StripeShare.REST: (1.0, -1.0),
}
"""Each stripe-share factor as ``base + slope * sigma``."""

_HOLDER_SIDE = {ShockHolder.NONE: 0.0, ShockHolder.HIT: 1.0, ShockHolder.SPARED: -1.0}
"""The defect's holder at a shock as :func:`~planner.core.markov.shocks.shock_share` takes it."""


@cache
def _structure(
    parity: int,
    rebuild_streams: int | None,
    events: frozenset[AnyEvent] | None,
    stripe_share: bool = False,
    correlated: bool = False,
) -> _Structure:
    chain = build_chain(parity, rebuild_streams, stripe_share, correlated)
    kept = [t for t in chain.transitions if events is None or t.event in events]
    if any(t.source == t.target for t in kept):
        raise ValueError("a transition from a state to itself has no place in a generator")
    size = len(chain.states)
    cells = np.array([t.source * size + t.target for t in kept], dtype=np.intp)
    merged_cells = np.array(sorted(set(cells.tolist())), dtype=np.intp)  # np.unique: numpy.ma
    which = np.searchsorted(merged_cells, cells)
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
        sources=np.array([t.source for t in kept], dtype=np.intp),
        diagonal=np.arange(size, dtype=np.intp) * (size + 1),
        event=np.array([_EVENT_ORDER.index(t.event) for t in kept], dtype=np.intp),
        # a shock's count is 1 (Transition.multiplier): its drives are in its binomial factor
        per_drive=np.array([0.0 if t.drives_excluded is None or t.is_shock else 1.0 for t in kept]),
        offset=np.array([float(t.multiplier(0)) for t in kept]),
        share_base=np.array([_SHARE_LINE[t.share][0] for t in kept]) if stripe_share else None,
        share_slope=np.array([_SHARE_LINE[t.share][1] for t in kept]) if stripe_share else None,
        merge=merge,
        merged_cells=merged_cells if merge is not None else None,
        correlation=_correlation(kept) if correlated else None,
        group_rows=_kind_rows(kept, size, LossKind.GROUP),
        sector_rows=_kind_rows(kept, size, LossKind.SECTORS),
    )
    for array in vars(structure).values():
        if isinstance(array, np.ndarray):  # every array but the correlation's (read-only too)
            array.setflags(write=False)
    return structure


def _correlation(kept: list[Transition]) -> _Correlation:
    """The correlated chain's factors of the transitions ``kept`` (read-only arrays)."""
    shocks = [i for i, t in enumerate(kept) if t.is_shock]
    correlation = _Correlation(
        degraded=np.array([t.degraded for t in kept], dtype=bool),
        shocks=np.array(shocks, dtype=np.intp),
        shock_excluded=np.array([float(kept[i].drives_excluded or 0) for i in shocks]),
        shock_jump=np.array([float(kept[i].shock) for i in shocks]),
        shock_tail=np.array([kept[i].shock_tail for i in shocks], dtype=bool),
        shock_holder=np.array([_HOLDER_SIDE[kept[i].holder] for i in shocks]),
    )
    for array in vars(correlation).values():
        array.setflags(write=False)
    return correlation


def _kind_rows(kept: list[Transition], size: int, kind: LossKind) -> FloatArray:
    """Transitions x states, 1 where a transition of ``kind`` leaves that state."""
    rows = np.zeros((len(kept), size))
    for i, t in enumerate(kept):
        if t.kind is kind:
            rows[i, t.source] = 1.0
    return rows


def generator_stack(
    parity: int,
    drives: npt.ArrayLike,
    op_failures_per_hour: npt.ArrayLike,
    latent_defects_per_hour: npt.ArrayLike,
    rebuild_hours: npt.ArrayLike,
    scrub_hours: npt.ArrayLike,
    *,
    events: Collection[AnyEvent] | None = None,
    rebuild_streams: int | None = 1,
    defect_stripe_share: npt.ArrayLike = 1.0,
) -> FloatArray:
    """Generators Q (per hour) for broadcast inputs: shape ``broadcast + (m, m)``.

    :func:`generator_of` for inputs given one by one (checked here as
    :class:`~planner.core.markov.chain_inputs.ChainInputs` checks them).

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
    parity: int, inputs: ChainInputs, *, events: Collection[AnyEvent] | None = None
) -> FloatArray:
    """Generators Q (per hour) of groups with ``parity`` parity drives: ``inputs.shape + (m, m)``.

    The mission in ``inputs`` plays no part. ``events``: only the transitions of these
    events (see :func:`generator_stack`). States in the paper's order, the loss state
    last; the rows sum to zero. A correlated stack (:attr:`ChainInputs.correlated`) is
    built on the correlated chain; its neutral groups get exactly the independent Q.
    """
    return generator_parts_of(parity, inputs, events=events).q


@dataclass(frozen=True)
class GeneratorParts:
    """Q and each state's rates into the loss state by kind, for a stack (per hour).

    Attributes:
        q: the generators, ``shape + (m, m)``, loss state last.
        group_loss: each state's rate of whole-group loss, ``shape + (m,)`` (0 for the
            loss state).
        sector_loss: each state's rate of sector loss (a latent defect's stripes),
            ``shape + (m,)``. ``group_loss + sector_loss`` is Q's loss column.
    """

    q: FloatArray
    group_loss: FloatArray
    sector_loss: FloatArray


def generator_parts_of(
    parity: int, inputs: ChainInputs, *, events: Collection[AnyEvent] | None = None
) -> GeneratorParts:
    """:func:`generator_of` with each state's loss rates split by kind (group, sectors)."""
    structure, values = stack_transitions(parity, inputs, events)
    return GeneratorParts(
        _fill(structure, values, inputs.drives.shape),
        _kind_rates(values, structure.group_rows),
        _kind_rates(values, structure.sector_rows),
    )


def stack_transitions(
    parity: int, inputs: ChainInputs, events: Collection[AnyEvent] | None = None
) -> tuple[_Structure, FloatArray]:
    """The checked chain structure of ``inputs`` and each transition's rate (per hour)."""
    inputs.check_parity(parity)
    chosen = None if events is None else frozenset(events)
    structure = _structure(
        parity, inputs.rebuild_streams, chosen, inputs.thinned, inputs.correlated
    )
    share, multiplier = inputs.defect_stripe_share, inputs.degraded_multiplier
    probability = inputs.shock_drive_probability
    per_event = inputs.per_event()
    return structure, _values(structure, inputs.drives, per_event, share, multiplier, probability)


def _kind_rates(values: FloatArray, rows: FloatArray | None) -> FloatArray:
    """Each state's sum of the transition rates ``values`` that ``rows`` picks."""
    # column by column: ``values @ rows`` went through BLAS's threads (90 ms of a sweep)
    assert rows is not None  # every structure has them
    out = np.zeros((*values.shape[:-1], rows.shape[1]))
    for transition, state in zip(*np.nonzero(rows), strict=True):
        out[..., state] += values[..., transition]
    return out


def _values(
    structure: _Structure,
    drives: FloatArray,
    per_event: FloatArray,
    share: FloatArray | float = 1.0,
    multiplier: FloatArray | float = 1.0,
    probability: FloatArray | float = 0.0,
) -> FloatArray:
    """Each transition's rate (per hour, or per mission with rates times hours): ``S + (T,)``.

    ``drives`` (shape ``S``), the per-event rates (``S + (5,)``, :data:`_EVENT_ORDER`);
    ``share``: sigma (a pool's structure only); ``multiplier`` and ``probability``: m and
    q (a correlated structure only), each of shape ``S`` or a number.
    """
    values = base_values(structure, drives, per_event, share, multiplier)
    correlation = structure.correlation
    if correlation is not None:
        q = np.asarray(probability, dtype=np.float64)[..., None]
        values[..., correlation.shocks] *= shock_share(
            drives[..., None] - correlation.shock_excluded,
            correlation.shock_jump,
            correlation.shock_tail,
            q,
            correlation.shock_holder,
        )
    return values


def base_values(
    structure: _Structure,
    drives: FloatArray,
    per_event: FloatArray,
    share: FloatArray | float = 1.0,
    multiplier: FloatArray | float = 1.0,
) -> FloatArray:
    """:func:`_values` without the shocks' binomial factors (a shock: its rate, sigma's factor)."""
    counts = drives[..., None] * structure.per_drive + structure.offset
    if structure.share_base is not None and structure.share_slope is not None:
        sigma = np.asarray(share, dtype=np.float64)[..., None]
        counts = counts * (structure.share_base + structure.share_slope * sigma)
    values = counts * per_event[..., structure.event]
    correlation = structure.correlation
    if correlation is not None:
        m = np.asarray(multiplier, dtype=np.float64)[..., None]
        values = values * np.where(correlation.degraded, m, 1.0)
    return values


def _fill(structure: _Structure, values: FloatArray, shape: tuple[int, ...]) -> FloatArray:
    """Q from the transitions' rates ``values`` (shape ``S + (T,)``): ``S + (m, m)``.

    The one place the generator's entries are written, for one layout (``S = ()``) or a
    stack. Transitions with a (source, target) cell of their own are assigned; where two
    share one (a pool's chain, a correlated chain) they are summed through
    ``structure.merge``. The diagonal: minus each state's exit rates, in transition order.
    """
    size = structure.size
    flat = np.zeros((*shape, size * size))
    if structure.merge is not None and structure.merged_cells is not None:
        # summed column by column (see _kind_rates: not through BLAS's threads)
        for transition, cell in zip(*np.nonzero(structure.merge), strict=True):
            flat[..., structure.merged_cells[cell]] += values[..., transition]
    else:
        flat[..., structure.cells] = values
    if shape:  # a stack: transition by transition
        exits = np.zeros((*shape, size))
        for transition, source in enumerate(structure.sources.tolist()):
            exits[..., source] += values[..., transition]
    else:  # one layout: one call, adding in the same order
        exits = np.asarray(np.bincount(structure.sources, values, size), dtype=np.float64)
    flat[..., structure.diagonal] -= exits
    return flat.reshape(*shape, size, size)


def _one_layout(
    parity: int, drives: int, rates: Rates, hours: float
) -> tuple[_Structure, FloatArray]:
    """The structure and the transitions' rates times ``hours`` of one group (checked)."""
    if drives <= parity:
        raise ValueError(f"a group of {drives} drives cannot hold {parity} parity drives")
    if not float(drives).is_integer():
        raise ValueError(f"every group must hold more than {parity} whole drives")
    share = rates.defect_stripe_share
    structure = _structure(parity, rates.rebuild_streams, None, share != 1.0, rates.correlated)
    # Rates validated its values when it was made: no broadcasting or checks of arrays.
    per_event = np.array(
        (
            rates.op_failures_per_hour * hours,
            rates.latent_defects_per_hour * hours,
            hours / rates.rebuild_hours,
            hours / rates.scrub_hours,
            rates.shocks_per_hour * hours,
        )
    )
    values = _values(
        structure,
        np.asarray(float(drives)),
        per_event,
        share,
        rates.degraded_multiplier,
        rates.shock_drive_probability,
    )
    return structure, values


def generator_matrix(parity: int, drives: int, rates: Rates) -> FloatArray:
    """The generator Q (per hour) of one group of ``drives`` drives, ``parity`` of them parity.

    :func:`generator_stack` for one layout (the same cached transition structure and the
    same :func:`_fill`, without the broadcasting and the array checks, which cost ~10x the
    fill for one small matrix): rows are source states, columns targets (paper order, loss
    last); rows sum to zero.
    """
    structure, values = _one_layout(parity, drives, rates, 1.0)
    return _fill(structure, values, ())


def transition_matrix(parity: int, drives: int, rates: Rates, hours: float = 1.0) -> FloatArray:
    """The off-diagonal rates of one group's generator times ``hours``; the diagonal zero.

    ``Q T`` as :func:`planner.core.markov.expm_one.expm_entry` reads it (the exit rates are
    the row sums there, so :func:`generator_matrix`'s diagonal is not built): the same
    structure and rates, each rate times ``hours`` (dimensionless for a mission in hours).
    """
    return transition_parts(parity, drives, rates, hours).q


def transition_values(parity: int, drives: int, rates: Rates) -> FloatArray:
    """Each transition's rate per hour, in the order of the chain's transitions."""
    return _one_layout(parity, drives, rates, 1.0)[1]


def transition_parts(parity: int, drives: int, rates: Rates, hours: float = 1.0) -> GeneratorParts:
    """:func:`transition_matrix` with each state's loss rates (times ``hours``) by kind."""
    structure, values = _one_layout(parity, drives, rates, hours)
    size = structure.size
    flat = np.zeros(size * size)
    if structure.merge is not None and structure.merged_cells is not None:
        flat[structure.merged_cells] = values @ structure.merge
    else:
        flat[structure.cells] = values
    return GeneratorParts(
        flat.reshape(size, size),
        _kind_rates(values, structure.group_rows),
        _kind_rates(values, structure.sector_rows),
    )
