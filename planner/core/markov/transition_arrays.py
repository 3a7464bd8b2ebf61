"""The n+k chain's transitions as index arrays, and each transition's rate for given inputs.

What belongs here: the transition rules of :func:`planner.core.markov.chain.build_chain`
turned into arrays once per chain shape (parity, rebuild streams, the events kept, a
declustered pool's stripe share, correlation; :class:`TransitionStructure`), and the rate
of every transition (per hour, or per mission with the rates times hours) for a stack of
inputs (:func:`stack_transitions`) or one group (:func:`layout_transitions`), with each
state's loss rates by kind (:func:`kind_rates`). Writing those rates into a generator
matrix is :mod:`planner.core.markov.generator`; the compiled kernel builds its matrices
from the same rates (:mod:`planner.core.markov.transition_stack`).

Every transition carries exactly one event's rate (lambda_op, lambda_ld, mu_op, mu_scrub
or a correlated chain's shock rate) times a count of drives or repairs; a declustered
pool's stripe share sigma, the degraded multiplier m and the shock probability q multiply
some of them (:mod:`planner.core.markov.shocks`).
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
"""The order of the per-event rates in :func:`transition_rates` (lambda_op, lambda_ld, mu_op,
mu_scrub, shocks): :meth:`~planner.core.markov.chain_inputs.ChainInputs.per_event`'s."""


@dataclass(frozen=True)
class TransitionStructure:
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
    """The factors a correlated chain adds (see :class:`TransitionStructure`)."""

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
def transition_structure(
    parity: int,
    rebuild_streams: int | None,
    events: frozenset[AnyEvent] | None,
    stripe_share: bool = False,
    correlated: bool = False,
) -> TransitionStructure:
    """The chain's transitions as arrays, once per chain shape (cached, read-only arrays).

    ``events``: keep only these events' transitions (None: all); ``stripe_share``: a
    declustered pool's chain (sigma's factors); ``correlated``: the correlated chain.
    """
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
        # failure and a failure outside the defect's stripe. The generator's fill sums them
        # through this 0/1 matrix (transitions x distinct cells).
        merge = np.zeros((len(cells), len(merged_cells)))
        merge[np.arange(len(cells)), which] = 1.0
    structure = TransitionStructure(
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


def stack_transitions(
    parity: int, inputs: ChainInputs, events: Collection[AnyEvent] | None = None
) -> tuple[TransitionStructure, FloatArray]:
    """The checked chain structure of ``inputs`` and each transition's rate (per hour)."""
    inputs.check_parity(parity)
    chosen = None if events is None else frozenset(events)
    structure = transition_structure(
        parity, inputs.rebuild_streams, chosen, inputs.thinned, inputs.correlated
    )
    share, multiplier = inputs.defect_stripe_share, inputs.degraded_multiplier
    probability = inputs.shock_drive_probability
    per_event = inputs.per_event()
    return structure, transition_rates(
        structure, inputs.drives, per_event, share, multiplier, probability
    )


def layout_transitions(
    parity: int, drives: int, rates: Rates, hours: float
) -> tuple[TransitionStructure, FloatArray]:
    """The structure and the transitions' rates times ``hours`` of one group (checked)."""
    if drives <= parity:
        raise ValueError(f"a group of {drives} drives cannot hold {parity} parity drives")
    if not float(drives).is_integer():
        raise ValueError(f"every group must hold more than {parity} whole drives")
    share = rates.defect_stripe_share
    structure = transition_structure(
        parity, rates.rebuild_streams, None, share != 1.0, rates.correlated
    )
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
    values = transition_rates(
        structure,
        np.asarray(float(drives)),
        per_event,
        share,
        rates.degraded_multiplier,
        rates.shock_drive_probability,
    )
    return structure, values


def kind_rates(values: FloatArray, rows: FloatArray | None) -> FloatArray:
    """Each state's sum of the transition rates ``values`` that ``rows`` picks."""
    # column by column: ``values @ rows`` went through BLAS's threads (90 ms of a sweep)
    assert rows is not None  # every structure has them
    out = np.zeros((*values.shape[:-1], rows.shape[1]))
    for transition, state in zip(*np.nonzero(rows), strict=True):
        out[..., state] += values[..., transition]
    return out


def transition_rates(
    structure: TransitionStructure,
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
    structure: TransitionStructure,
    drives: FloatArray,
    per_event: FloatArray,
    share: FloatArray | float = 1.0,
    multiplier: FloatArray | float = 1.0,
) -> FloatArray:
    """:func:`transition_rates` without the shocks' binomial factors.

    A shock's value is its rate (times sigma's factor in a pool's chain), not yet its
    binomial probability.
    """
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
