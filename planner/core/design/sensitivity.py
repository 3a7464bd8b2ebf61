"""Which input matters most: a tornado of P(loss) and elasticities of the model.

Tornado: each input of one layout is multiplied by a low and a high factor (x0.5 and x2
by default) with the others held, and the aggregate's probability of loss recomputed
(all cases in one batch); the bars are ranked by the swing between the two.

Elasticity ``d ln P / d ln x`` at the base point: :mod:`planner.core.design.elasticity`
(re-exported here), the Fréchet derivative of the loss entry of exp(Q T) in the direction
of each input, without cancellation; the correlation inputs' too when the tornado moves
them (docs/correlated.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from planner.core.design.elasticity import (
    RATE_SYMBOLS,
    elasticities,
    elasticities_of,
    enclosure_elasticities,
    rate_parts,
    rate_parts_of,
)
from planner.core.design.sweep import Parameter, SweepPoint
from planner.core.design.sweep_points import CORRELATION_PARAMETERS
from planner.core.markov.aggregate import (
    aggregate_groups_elasticity,
    aggregate_per_group_elasticity,
    p_loss_aggregate,
)
from planner.core.markov.batch import p_loss_of
from planner.core.markov.chain_inputs import ChainInputs

FloatArray = npt.NDArray[np.float64]

__all__ = [
    "DEFAULT_INPUTS",
    "RATE_SYMBOLS",
    "Move",
    "Sensitivity",
    "TornadoBar",
    "elasticities",
    "elasticities_of",
    "rate_parts",
    "rate_parts_of",
    "tornado",
    "tornado_of_moves",
]

DEFAULT_INPUTS = (
    Parameter.OP_FAILURES_PER_HOUR,
    Parameter.LATENT_DEFECTS_PER_HOUR,
    Parameter.REBUILD_HOURS,
    Parameter.SCRUB_HOURS,
    Parameter.MISSION_HOURS,
    Parameter.DATA_DISKS,
)
"""Inputs of the default tornado, in the order the model lists them."""


@dataclass(frozen=True)
class TornadoBar:
    """One input of the tornado.

    Attributes:
        parameter: the input.
        base_value, low_value, high_value: its value at the base point and moved down and
            up (in the parameter's unit; data disks rounded to whole drives).
        p_loss_low, p_loss_high: P(loss) of the aggregate with the input at low / high.
        swing: ``|p_loss_high - p_loss_low|``, the bar's length; the ranking key.
        elasticity: ``d ln P_aggregate / d ln x`` at the base point (data disks: with the
            number of groups taken as continuous, groups ~ data_disks).
        elasticity_group: ``d ln P_group / d ln x`` (0 for data disks).
        low_capped, high_capped: the move stopped at the input's limit (``tornado``'s
            ``limits``) short of the factor: ARR 60% doubled is 100%, not 120%.
    """

    parameter: Parameter
    base_value: float
    low_value: float
    high_value: float
    p_loss_low: float
    p_loss_high: float
    swing: float
    elasticity: float
    elasticity_group: float
    low_capped: bool = False
    high_capped: bool = False


@dataclass(frozen=True)
class Sensitivity:
    """A tornado for one layout: base risk and the bars, largest swing first."""

    parity: int
    group_size: int
    point: SweepPoint
    groups: int
    p_loss_group: float
    p_loss_aggregate: float
    low_factor: float
    high_factor: float
    bars: tuple[TornadoBar, ...]


def _scaled(
    point: SweepPoint, parameter: Parameter, factor: float, limits: tuple[float, float] | None
) -> tuple[SweepPoint, bool]:
    """``point`` with ``parameter`` times ``factor``, kept within ``limits``; whether it was."""
    value = point.value_of(parameter) * factor
    if limits is not None:
        least, most = limits
        kept = min(max(value, least), most)
        return point.with_value(parameter, kept), kept != value
    return point.with_value(parameter, value), False


@dataclass(frozen=True)
class Move:
    """One input moved down and up, and the aggregate's P(loss) each way.

    Attributes:
        parameter: the input.
        base_value, low_value, high_value: its value at the base and in the two cases (in
            the parameter's unit).
        p_loss_low, p_loss_high: P(loss) of the aggregate in the two cases.
        low_capped, high_capped: the move stopped at the input's limit short of its factor.
    """

    parameter: Parameter
    base_value: float
    low_value: float
    high_value: float
    p_loss_low: float
    p_loss_high: float
    low_capped: bool = False
    high_capped: bool = False


def tornado(
    parity: int,
    group_size: int,
    point: SweepPoint,
    low_factor: float = 0.5,
    high_factor: float = 2.0,
    inputs: Sequence[Parameter | str] = DEFAULT_INPUTS,
    data_per_group: Fraction | None = None,
    limits: Mapping[Parameter, tuple[float, float]] | None = None,
) -> Sensitivity:
    """Move each input down and up by a factor; rank the inputs by the swing in P(loss).

    The core's own tornado over the chain's inputs, others held (a scenario's tornado moves
    its fields through the scenario instead: :mod:`planner.analysis.sensitivity`).

    Args:
        parity: parity drives per group, k.
        group_size: drives per group, N.
        point: the base inputs (rates, mission hours, data disks).
        low_factor: multiplier for the "down" case (default 0.5).
        high_factor: multiplier for the "up" case (default 2).
        inputs: the :class:`Parameter` values to move (default :data:`DEFAULT_INPUTS`).
        data_per_group: drives' worth of data one group holds (default N - k; a declustered
            pool's ``(C - s) d / (d + p)``), for the number of groups.
        limits: the least and most value each input may take (in its unit); a move past
            one stops there, and its bar says so.

    Returns:
        The base probabilities and one bar per input, largest swing of the aggregate's
        P(loss) first (ties: larger ``|elasticity|`` first).
    """
    if not (low_factor > 0 and high_factor > 0):
        raise ValueError("factors must be positive")
    params = [Parameter(p) for p in inputs]
    cases = [point]
    capped: dict[Parameter, tuple[bool, bool]] = {}
    for parameter in params:
        bounds = (limits or {}).get(parameter)
        low_case, low_capped = _scaled(point, parameter, low_factor, bounds)
        high_case, high_capped = _scaled(point, parameter, high_factor, bounds)
        cases += [low_case, high_case]
        capped[parameter] = (low_capped, high_capped)
    per_group = Fraction(group_size - parity) if data_per_group is None else data_per_group
    p_group = p_loss_of(
        parity,
        ChainInputs.from_rates(
            group_size, [c.rates for c in cases], [c.mission_hours for c in cases]
        ),
    )
    groups = [math.ceil(Fraction(c.data_disks) / per_group) for c in cases]
    p_agg = [p_loss_aggregate(float(p), g) for p, g in zip(p_group, groups, strict=True)]
    moves = [
        Move(
            parameter=parameter,
            base_value=point.value_of(parameter),
            low_value=cases[1 + 2 * index].value_of(parameter),
            high_value=cases[2 + 2 * index].value_of(parameter),
            p_loss_low=p_agg[1 + 2 * index],
            p_loss_high=p_agg[2 + 2 * index],
            low_capped=capped[parameter][0],
            high_capped=capped[parameter][1],
        )
        for index, parameter in enumerate(params)
    ]
    return tornado_of_moves(
        parity,
        group_size,
        point,
        float(p_group[0]),
        groups[0],
        p_agg[0],
        moves,
        low_factor,
        high_factor,
    )


def tornado_of_moves(
    parity: int,
    group_size: int,
    point: SweepPoint,
    p_loss_group: float,
    groups: int,
    p_loss_aggregate_base: float,
    moves: Sequence[Move],
    low_factor: float,
    high_factor: float,
    *,
    latent_per_data_disks: float = 0.0,
) -> Sensitivity:
    """The tornado of moves already computed: elasticities at ``point``, bars ranked.

    Args:
        parity: parity drives per group, k.
        group_size: drives per group, N.
        point: the chain's inputs at the base (rates, mission hours, data disks), for the
            elasticities.
        p_loss_group: the base P(loss) of one group.
        groups: the number of groups at the base.
        p_loss_aggregate_base: the base P(loss) of the aggregate.
        moves: each input moved down and up, with the aggregate's P(loss) each way.
        low_factor: the factor of the "down" moves.
        high_factor: the factor of the "up" moves.
        latent_per_data_disks: ``d ln lambda_ld / d ln data_disks``: -1 where a workload's
            reads, under the drives' cap, spread over the data drives (more drives, fewer
            reads each), else 0; the data disks' elasticity takes it with the groups'.

    Returns:
        One bar per move, largest swing first (ties: larger ``|elasticity|`` first).
    """
    group_elasticity: Mapping[Parameter, FloatArray | float]
    if point.rates.enclosures is not None:
        group_elasticity = enclosure_elasticities(
            parity, group_size, point.rates, point.mission_hours
        )
    else:
        group_elasticity = elasticities_of(
            parity,
            ChainInputs.of_rates(group_size, point.rates, point.mission_hours),
            correlation=any(m.parameter in CORRELATION_PARAMETERS for m in moves),
        )
    bars = []
    for move in moves:
        if move.parameter is Parameter.DATA_DISKS:
            e_group = 0.0
            if latent_per_data_disks:  # the reads per drive follow the data drives
                latent = float(group_elasticity[Parameter.LATENT_DEFECTS_PER_HOUR])
                e_group = latent_per_data_disks * latent
            e_agg = aggregate_groups_elasticity(
                p_loss_group, groups
            ) + e_group * aggregate_per_group_elasticity(p_loss_group, groups)
        else:
            e_group = float(group_elasticity[move.parameter])
            e_agg = e_group * aggregate_per_group_elasticity(p_loss_group, groups)
        bars.append(
            TornadoBar(
                parameter=move.parameter,
                base_value=move.base_value,
                low_value=move.low_value,
                high_value=move.high_value,
                p_loss_low=move.p_loss_low,
                p_loss_high=move.p_loss_high,
                swing=abs(move.p_loss_high - move.p_loss_low),
                elasticity=e_agg,
                elasticity_group=e_group,
                low_capped=move.low_capped,
                high_capped=move.high_capped,
            )
        )
    bars.sort(key=lambda b: (-b.swing, -abs(b.elasticity) if math.isfinite(b.elasticity) else 0))
    return Sensitivity(
        parity=parity,
        group_size=group_size,
        point=point,
        groups=groups,
        p_loss_group=p_loss_group,
        p_loss_aggregate=p_loss_aggregate_base,
        low_factor=low_factor,
        high_factor=high_factor,
        bars=tuple(bars),
    )
