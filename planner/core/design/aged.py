"""P(loss) of many layouts whose drives age: one piecewise chain per chain shape and ageing.

The comparison, the sizing's layouts and a sweep evaluate their layouts' ageing figures
(:func:`planner.core.markov.piecewise.aged_chain_figures`: the mission in pieces, each
figure with its bracket) beside the constant-rate ones. Rows are grouped by what one stack
must share: the parity and rebuild streams (the chain's shape), the mission (the pieces)
and the ageing (the law and the drives' age); each group is one call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

import numpy as np
import numpy.typing as npt

from planner.core.arrays.layouts import Layout
from planner.core.markov.ageing import Ageing
from planner.core.markov.aggregate import p_loss_aggregate_batch
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.piecewise import aged_chain_figures
from planner.core.markov.rates import Rates

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

__all__ = ["AgedRisks", "aged_layout_risks", "aged_risks"]


@dataclass(frozen=True)
class AgedRisks:
    """P(loss) of ageing drives, per group and per aggregate, each with its bracket.

    One array element per row. ``low`` and ``high`` bound the exact time-inhomogeneous
    P(loss) (:mod:`planner.core.markov.piecewise`); the value is the pieces' mean rates'.

    Attributes:
        p_loss_group: the value for one group.
        p_loss_group_low: the bracket's lower end for one group.
        p_loss_group_high: its upper end.
        p_loss_aggregate: ``1 - (1 - p)^groups`` of the value.
        p_loss_aggregate_low: of the lower end (the map rises with p).
        p_loss_aggregate_high: of the upper end.
        pieces: the pieces of the mission in the last pass, per row.
        converged: the row's bracket is within the tolerance.
        factor: the aggregate's value over its constant-rate P(loss) (NaN where that was
            not given, or where neither can lose data; inf where only this one can).
    """

    p_loss_group: FloatArray
    p_loss_group_low: FloatArray
    p_loss_group_high: FloatArray
    p_loss_aggregate: FloatArray
    p_loss_aggregate_low: FloatArray
    p_loss_aggregate_high: FloatArray
    pieces: IntArray
    converged: npt.NDArray[np.bool_]
    factor: FloatArray

    def take(self, index: npt.NDArray[np.intp] | npt.NDArray[np.bool_]) -> AgedRisks:
        """The rows ``index`` selects (indices in their order, or a mask)."""
        return AgedRisks(**{f.name: getattr(self, f.name)[index] for f in fields(self)})


def aged_risks(
    parity: npt.ArrayLike,
    streams: npt.ArrayLike,
    inputs: ChainInputs,
    groups: npt.ArrayLike,
    ageings: Sequence[Ageing],
    which: npt.ArrayLike,
    constant_aggregate: npt.ArrayLike | None = None,
) -> AgedRisks:
    """The ageing figures of rows of mixed parity, streams, mission and ageing.

    Args:
        parity: each row's parity k.
        streams: each row's rebuild streams (0: every failed drive at once).
        inputs: every row's chain inputs, one dimension (the failure rate is not used).
        groups: groups in each row's aggregate.
        ageings: the ageings the rows use.
        which: each row's index in ``ageings``.
        constant_aggregate: each row's constant-rate P(loss) of the aggregate, for
            :attr:`AgedRisks.factor` (None: NaN factors).
    """
    k = np.asarray(parity, dtype=np.int64)
    code = np.asarray(streams, dtype=np.int64)
    index = np.asarray(which, dtype=np.int64)
    count = k.shape[0]
    value, low, high = np.empty(count), np.empty(count), np.empty(count)
    pieces = np.empty(count, dtype=np.int64)
    converged = np.empty(count, dtype=bool)
    keys = np.stack([k, code, index], axis=1)
    missions = inputs.mission_hours
    _, key_of = np.unique(keys, axis=0, return_inverse=True)
    for key in np.unique(key_of).tolist():
        for mission in np.unique(missions[key_of == key]).tolist():
            pick = np.flatnonzero((key_of == key) & (missions == mission))
            first = int(pick[0])
            part = replace(inputs.take(pick), rebuild_streams=int(code[first]) or None)
            aged = aged_chain_figures(int(k[first]), part, ageings[int(index[first])])
            value[pick], low[pick], high[pick] = (
                aged.figures.p_loss,
                aged.p_loss_low,
                aged.p_loss_high,
            )
            pieces[pick], converged[pick] = aged.pieces, aged.converged
    g = np.asarray(groups, dtype=np.int64)
    aggregate = p_loss_aggregate_batch(value, g)
    return AgedRisks(
        p_loss_group=value,
        p_loss_group_low=low,
        p_loss_group_high=high,
        p_loss_aggregate=aggregate,
        p_loss_aggregate_low=p_loss_aggregate_batch(low, g),
        p_loss_aggregate_high=p_loss_aggregate_batch(high, g),
        pieces=pieces,
        converged=converged,
        factor=_factor(aggregate, constant_aggregate),
    )


def _factor(aged: FloatArray, constant: npt.ArrayLike | None) -> FloatArray:
    """``aged / constant``: NaN where both are 0 (or no constant), inf where only it is."""
    if constant is None:
        return np.full(aged.shape, np.nan)
    base = np.asarray(constant, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio: FloatArray = np.where(
            base > 0, aged / np.where(base > 0, base, 1.0), np.where(aged > 0, np.inf, np.nan)
        )
    return ratio


def aged_layout_risks(
    layouts: Sequence[Layout],
    chain_rates: Sequence[Rates],
    mission_hours: float,
    groups: Sequence[int],
    ageing: Ageing,
    constant_aggregate: Sequence[float] | None = None,
) -> AgedRisks:
    """The ageing figures of ``layouts``' aggregates under one ageing.

    ``chain_rates``: each layout's own chain rates (:meth:`Layout.chain_rates`: a
    declustered pool's rebuild, computed at the scenario's constant failure rate; a sized
    aggregate's rebuild under load); their failure rate is the ageing's.
    ``constant_aggregate``: their constant-rate P(loss) of the aggregate, for the factor.
    """
    drives = np.array([layout.group_size for layout in layouts], dtype=np.float64)
    inputs = ChainInputs.from_rates(drives, chain_rates, mission_hours, mixed=True)
    return aged_risks(
        [layout.parity for layout in layouts],
        [0 if r.rebuild_streams is None else r.rebuild_streams for r in chain_rates],
        inputs,
        groups,
        [ageing],
        np.zeros(len(layouts), dtype=np.int64),
        constant_aggregate,
    )
