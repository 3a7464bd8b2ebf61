"""Which input matters most: a tornado of P(loss) and elasticities of the model.

Tornado: each input of one layout is multiplied by a low and a high factor (x0.5 and x2
by default) with the others held, and the aggregate's probability of loss recomputed
(all cases in one batch); the bars are ranked by the swing between the two.

Elasticity ``d ln P / d ln x``: the generator is linear in each rate, so
``theta dQ/dtheta`` is the part of Q that the rate drives: the generator built with only
that rate's transitions (:func:`rate_parts_of`), numerically, for any k, in microseconds.
The rate list travels as one :class:`~planner.core.markov.rates.ChainInputs`.
The derivative of the loss entry of exp(Q T) in the direction ``E = T theta dQ/dtheta`` is
the Fréchet derivative ``L(QT, E)``, read off the block exponential
``exp([[QT, E], [0, QT]]) = [[exp(QT), L(QT, E)], [0, exp(QT)]]``. E is split into its
non-negative off-diagonal part and its diagonal, so both block matrices are Metzler and go
through :func:`planner.core.markov.expm.expm_metzler` without cancellation; the one subtraction
left is the derivative's own. Rebuild and scrub enter as rates ``1 / hours``, so their
elasticities change sign; ``d ln P / d ln T`` uses ``d exp(QT)/dT = exp(QT) Q``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from planner.core.design.sweep import Parameter, SweepPoint
from planner.core.markov.aggregate import (
    aggregate_groups_elasticity,
    aggregate_per_group_elasticity,
    p_loss_aggregate,
)
from planner.core.markov.batch import p_loss_of
from planner.core.markov.chain import Event
from planner.core.markov.expm import expm_metzler
from planner.core.markov.generator import generator_of
from planner.core.markov.rates import ChainInputs

FloatArray = npt.NDArray[np.float64]

DEFAULT_INPUTS = (
    Parameter.OP_FAILURES_PER_HOUR,
    Parameter.LATENT_DEFECTS_PER_HOUR,
    Parameter.REBUILD_HOURS,
    Parameter.SCRUB_HOURS,
    Parameter.MISSION_HOURS,
    Parameter.DATA_DISKS,
)
"""Inputs of the default tornado, in the order the model lists them."""

RATE_SYMBOLS = ("lambda_op", "lambda_ld", "mu_op", "mu_scrub")
"""The rate symbols of :data:`planner.core.markov.symbolic.SYMBOL_NAMES`, after ``N``."""

_PARAMETER_SYMBOL = {
    Parameter.ARR: ("lambda_op", 1.0),
    Parameter.OP_FAILURES_PER_HOUR: ("lambda_op", 1.0),
    Parameter.LATENT_DEFECTS_PER_HOUR: ("lambda_ld", 1.0),
    Parameter.REBUILD_HOURS: ("mu_op", -1.0),  # mu = 1 / hours: d ln mu / d ln hours = -1
    Parameter.SCRUB_HOURS: ("mu_scrub", -1.0),
}


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


_RATE_EVENTS = {
    "lambda_op": Event.OPERATIONAL_FAILURE,
    "lambda_ld": Event.LATENT_DEFECT,
    "mu_op": Event.REBUILD,
    "mu_scrub": Event.SCRUB,
}


def rate_parts(
    parity: int,
    drives: npt.ArrayLike,
    op_failures_per_hour: npt.ArrayLike,
    latent_defects_per_hour: npt.ArrayLike,
    rebuild_hours: npt.ArrayLike,
    scrub_hours: npt.ArrayLike,
    *,
    rebuild_streams: int | None = 1,
    defect_stripe_share: npt.ArrayLike = 1.0,
) -> dict[str, FloatArray]:
    """``theta dQ/dtheta`` (per hour) for each rate symbol of :data:`RATE_SYMBOLS`.

    :func:`rate_parts_of` for inputs given one by one.
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
    return rate_parts_of(parity, inputs)


def rate_parts_of(parity: int, inputs: ChainInputs) -> dict[str, FloatArray]:
    """``theta dQ/dtheta`` (per hour) for each rate symbol of :data:`RATE_SYMBOLS`.

    Q is linear in each rate (every transition carries exactly one), so ``theta dQ/dtheta``
    is the generator built with that rate's transitions only
    (:func:`planner.core.markov.generator.generator_of` with ``events=``).

    Returns:
        Symbol name -> stack of shape ``inputs.shape + (m, m)``; the four parts sum to Q.
    """
    return {
        name: generator_of(parity, inputs, events=(event,)) for name, event in _RATE_EVENTS.items()
    }


def elasticities(
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
) -> dict[Parameter, FloatArray]:
    """``d ln P_group / d ln x`` for each rate input and the mission, for broadcast inputs.

    :func:`elasticities_of` for inputs given one by one.

    Args:
        parity: parity drives per group, k.
        drives: drives per group N.
        op_failures_per_hour: lambda_op (1/h).
        latent_defects_per_hour: lambda_ld (1/h).
        rebuild_hours: 1 / mu_op (h).
        scrub_hours: 1 / mu_scrub (h).
        mission_hours: T (h).
        rebuild_streams: concurrent rebuilds (1: one at a time; None: all failed drives).
        defect_stripe_share: sigma, a declustered pool's share of sector-loss moves (held).
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
    return elasticities_of(parity, inputs)


def elasticities_of(parity: int, inputs: ChainInputs) -> dict[Parameter, FloatArray]:
    """``d ln P_group / d ln x`` for each rate input and the mission of every group.

    Returns:
        Parameter -> elasticity (NaN where P(loss) is 0), for ARR and
        OP_FAILURES_PER_HOUR (equal), LATENT_DEFECTS_PER_HOUR, REBUILD_HOURS, SCRUB_HOURS
        and MISSION_HOURS. The rate elasticities sum to the mission's: P depends on the
        rates and T only through their products. P(loss) itself is the loss entry of the
        first row of exp(Q T), which the mission's elasticity needs anyway: no second
        evaluation.
    """
    q = generator_of(parity, inputs)
    shape = inputs.shape
    size = q.shape[-1]
    loss = size - 1
    t = inputs.mission_hours[..., None, None]
    parts = rate_parts_of(parity, inputs)
    offdiagonal = 1.0 - np.eye(size)
    a = q * t
    a_diag = np.einsum("...ij,ij->...i", a, offdiagonal)
    a = a * offdiagonal
    a[..., np.arange(size), np.arange(size)] = -a_diag
    blocks: list[FloatArray] = []
    for name in RATE_SYMBOLS:
        e = parts[name] * t
        e_plus = e * offdiagonal
        e_minus = np.zeros_like(e)
        e_minus[..., np.arange(size), np.arange(size)] = np.einsum("...ij,ij->...i", e, offdiagonal)
        blocks.extend((e_plus, e_minus))
    augmented = np.zeros((len(blocks), *shape, 2 * size, 2 * size))
    augmented[..., :size, :size] = a
    augmented[..., size:, size:] = a
    for b, e in enumerate(blocks):
        augmented[b, ..., :size, size:] = e
    derivative = expm_metzler(augmented, entry=(0, size + loss), lead_power=parity + 2)
    row = expm_metzler(a, generator=True)[..., 0, :]
    p = np.clip(row[..., loss], 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        by_symbol = {
            name: np.where(p > 0, (derivative[2 * i] - derivative[2 * i + 1]) / p, np.nan)
            for i, name in enumerate(RATE_SYMBOLS)
        }
        rate_to_loss = q[..., :, loss] * t[..., 0]
        mission = np.where(p > 0, np.einsum("...i,...i->...", row, rate_to_loss) / p, np.nan)
    out = {
        parameter: sign * by_symbol[symbol]
        for parameter, (symbol, sign) in _PARAMETER_SYMBOL.items()
    }
    out[Parameter.MISSION_HOURS] = mission
    return out


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

    Returns:
        One bar per move, largest swing first (ties: larger ``|elasticity|`` first).
    """
    group_elasticity = elasticities_of(
        parity, ChainInputs.of_rates(group_size, point.rates, point.mission_hours)
    )
    bars = []
    for move in moves:
        if move.parameter is Parameter.DATA_DISKS:
            e_group = 0.0
            e_agg = aggregate_groups_elasticity(p_loss_group, groups)
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
