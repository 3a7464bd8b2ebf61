"""Elasticities ``d ln P / d ln x`` of a group's P(loss) to each input of the chain.

The generator is linear in each rate, so ``theta dQ/dtheta`` is the part of Q that the rate
drives: the generator built with only that rate's transitions (:func:`rate_parts_of`),
numerically, for any k, in microseconds. The correlation inputs (the degraded multiplier
m, the shock rate and the shock probability q, docs/correlated.md) have theirs from
:func:`planner.core.markov.derivatives.derivative_parts`, q's with a negative part. The
rate list travels as one :class:`~planner.core.markov.chain_inputs.ChainInputs`.

The derivative of the loss entry of exp(Q T) in the direction ``E = T theta dQ/dtheta`` is
the Fréchet derivative ``L(QT, E)``, read off the block exponential
``exp([[QT, E], [0, QT]]) = [[exp(QT), L(QT, E)], [0, exp(QT)]]``. E is split into two
non-negative matrices, ``E = E+ - E-`` (its off-diagonal by sign, each with the other's
row sums on its diagonal), so both block matrices are Metzler and go through
:func:`planner.core.markov.expm.expm_metzler` without cancellation; the one subtraction
left is the derivative's own. Rebuild and scrub enter as rates ``1 / hours``, so their
elasticities change sign; ``d ln P / d ln T`` uses ``d exp(QT)/dT = exp(QT) Q``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from planner.core.design.sweep_points import Parameter
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.derivatives import RATE_EVENTS, derivative_parts
from planner.core.markov.domain_figures import domain_parts
from planner.core.markov.expm import expm_metzler
from planner.core.markov.generator import generator_of
from planner.core.markov.rates import Rates

FloatArray = npt.NDArray[np.float64]

RATE_SYMBOLS = ("lambda_op", "lambda_ld", "mu_op", "mu_scrub")
"""The rate symbols of :data:`planner.core.markov.symbolic.SYMBOL_NAMES`, after ``N``."""

CORRELATION_SYMBOLS = ("m", "lambda_shock", "q")
"""The correlation inputs' symbols (:data:`planner.core.markov.derivatives.CORRELATION_SYMBOLS`)."""

_PARAMETER_SYMBOL = {
    Parameter.ARR: ("lambda_op", 1.0),
    Parameter.OP_FAILURES_PER_HOUR: ("lambda_op", 1.0),
    Parameter.LATENT_DEFECTS_PER_HOUR: ("lambda_ld", 1.0),
    Parameter.REBUILD_HOURS: ("mu_op", -1.0),  # mu = 1 / hours: d ln mu / d ln hours = -1
    Parameter.SCRUB_HOURS: ("mu_scrub", -1.0),
}

_CORRELATION_PARAMETER = {
    Parameter.DEGRADED_MULTIPLIER: "m",
    Parameter.SHOCKS_PER_HOUR: "lambda_shock",
    Parameter.SHOCK_DRIVE_PROBABILITY: "q",
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
        name: generator_of(parity, inputs, events=(event,)) for name, event in RATE_EVENTS.items()
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


def elasticities_of(
    parity: int, inputs: ChainInputs, *, correlation: bool = False
) -> dict[Parameter, FloatArray]:
    """``d ln P_group / d ln x`` for each rate input and the mission of every group.

    ``correlation``: the correlation inputs too (degraded multiplier, shocks per hour,
    shock probability; three more pairs of block exponentials).

    Returns:
        Parameter -> elasticity (NaN where P(loss) is 0), for ARR and
        OP_FAILURES_PER_HOUR (equal), LATENT_DEFECTS_PER_HOUR, REBUILD_HOURS, SCRUB_HOURS
        and MISSION_HOURS (and, with ``correlation``, DEGRADED_MULTIPLIER,
        SHOCKS_PER_HOUR and SHOCK_DRIVE_PROBABILITY). The rates' elasticities (shocks
        included) sum to the mission's: P depends on the rates and T only through their
        products. P(loss) itself is the loss entry of the first row of exp(Q T), which the
        mission's elasticity needs anyway: no second evaluation.
    """
    q = generator_of(parity, inputs)
    symbols = RATE_SYMBOLS + (CORRELATION_SYMBOLS if correlation else ())
    parts = {name: derivative_parts(parity, inputs, name) for name in symbols}
    by_symbol, mission = chain_elasticities(q, inputs.mission_hours, parts, parity + 2)
    out = {
        parameter: sign * by_symbol[symbol]
        for parameter, (symbol, sign) in _PARAMETER_SYMBOL.items()
    }
    out[Parameter.MISSION_HOURS] = mission
    if correlation:
        out.update({p: by_symbol[s] for p, s in _CORRELATION_PARAMETER.items()})
    return out


def chain_elasticities(
    q: FloatArray,
    mission_hours: FloatArray,
    parts: dict[str, tuple[FloatArray, FloatArray]],
    lead_power: int,
) -> tuple[dict[str, FloatArray], FloatArray]:
    """``d ln P / d ln theta`` for each input's part of ``q``, and ``d ln P / d ln T``.

    ``q``: generators per hour (loss state last), P the loss entry of the first row of
    ``exp(Q T)``; ``parts``: each input's ``(plus, minus)`` off-diagonal of ``theta
    dQ/dtheta`` (module docstring); ``lead_power``: the block exponentials' (k + 2).
    NaN where P(loss) is 0.
    """
    size = q.shape[-1]
    loss = size - 1
    shape = q.shape[:-2]
    t = mission_hours[..., None, None]
    offdiagonal = 1.0 - np.eye(size)
    a = q * t
    a_diag = np.einsum("...ij,ij->...i", a, offdiagonal)
    a = a * offdiagonal
    a[..., np.arange(size), np.arange(size)] = -a_diag
    blocks = [block for name in parts for block in _signed_blocks(*parts[name], t)]
    augmented = np.zeros((len(blocks), *shape, 2 * size, 2 * size))
    augmented[..., :size, :size] = a
    augmented[..., size:, size:] = a
    for b, e in enumerate(blocks):
        augmented[b, ..., :size, size:] = e
    derivative = expm_metzler(augmented, entry=(0, size + loss), lead_power=lead_power)
    row = expm_metzler(a, generator=True)[..., 0, :]
    p = np.clip(row[..., loss], 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        by_symbol = {
            name: np.where(p > 0, (derivative[2 * i] - derivative[2 * i + 1]) / p, np.nan)
            for i, name in enumerate(parts)
        }
        rate_to_loss = q[..., :, loss] * t[..., 0]
        mission = np.where(p > 0, np.einsum("...i,...i->...", row, rate_to_loss) / p, np.nan)
    return by_symbol, mission


_ENCLOSURE_PARAMETER_RATE = {
    Parameter.ARR: ("lambda_op", 1.0),
    Parameter.OP_FAILURES_PER_HOUR: ("lambda_op", 1.0),
    Parameter.LATENT_DEFECTS_PER_HOUR: ("lambda_ld", 1.0),
    Parameter.REBUILD_HOURS: ("mu_op", -1.0),
    Parameter.SCRUB_HOURS: ("mu_scrub", -1.0),
    Parameter.ENCLOSURE_FAILURES_PER_HOUR: ("lambda_e", 1.0),
    Parameter.ENCLOSURE_REPAIR_HOURS: ("mu_e", -1.0),  # mu_e = 1 / repair hours
}


def enclosure_elasticities(
    parity: int, drives: int, rates: Rates, mission_hours: float
) -> dict[Parameter, float]:
    """``d ln P_group / d ln x`` of one group on the enclosure chain (docs/domains.md).

    The same Fréchet derivatives as :func:`elasticities_of`, the parts of Q read from the
    chain's forms (:meth:`~planner.core.markov.domain_figures.DomainParts.rate_part`): every
    rate of :data:`_ENCLOSURE_PARAMETER_RATE` and the mission. P(loss) counts data lost
    (outages beyond parity are not in it).
    """
    enclosures = rates.enclosures
    if enclosures is None:
        raise ValueError("enclosure elasticities need the rates' enclosures")
    inputs = ChainInputs.of_rates(drives, rates, mission_hours)
    parts = domain_parts(
        parity,
        enclosures.placement(drives),
        inputs,
        enclosures.failures_per_hour,
        enclosures.repair_hours,
    )
    names = {name for name, _ in _ENCLOSURE_PARAMETER_RATE.values()}
    rate_parts_of = {name: (parts.rate_part(name), np.zeros(parts.q.shape)) for name in names}
    by_rate, mission = chain_elasticities(parts.q, inputs.mission_hours, rate_parts_of, parity + 2)
    out = {p: sign * float(by_rate[name]) for p, (name, sign) in _ENCLOSURE_PARAMETER_RATE.items()}
    out[Parameter.MISSION_HOURS] = float(mission)
    return out


def _signed_blocks(
    plus: FloatArray, minus: FloatArray, t: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """``E+`` and ``E-`` of ``E = T (plus - minus)``, both non-negative (module docstring).

    The diagonal of E is minus its off-diagonal row sums: ``plus``' go to ``E-``'s
    diagonal, ``minus``' to ``E+``'s.
    """
    size = plus.shape[-1]
    diagonal = np.arange(size)
    e_plus = plus * t
    e_minus = minus * t
    e_plus[..., diagonal, diagonal] = (minus * t).sum(axis=-1)
    e_minus[..., diagonal, diagonal] = (plus * t).sum(axis=-1)
    return e_plus, e_minus
