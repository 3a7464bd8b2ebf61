"""Numeric evaluation of the n+k model: transient probability of data loss and MTTDL.

The generator matrix (:mod:`planner.core.markov.generator`) is built from the same transition
rules as the symbolic model (:mod:`planner.core.markov.chain`), so the numbers and the formulas
cannot drift apart; a test checks the SymPy generator, evaluated, equals it. The
aggregate rule lives in :mod:`planner.core.markov.aggregate`, the MTTDL's solve in
:mod:`planner.core.markov.solve`; both are re-exported here. One layout's loss figures
(:func:`loss_figures`, the chains of :mod:`planner.core.markov.loss_figures`) take a few
dozen NumPy calls each (:func:`~planner.core.markov.expm_one.expm_entry`): faster than one
``scipy.linalg.expm`` call (``benchmarks/bench_engine.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from planner.core.markov.aggregate import p_loss_aggregate
from planner.core.markov.chain import AnyEvent, build_chain
from planner.core.markov.expm_one import expm_entry, expm_row
from planner.core.markov.generator import (
    generator_matrix,
    transition_matrix,
    transition_parts,
    transition_values,
)
from planner.core.markov.going_on import REWARD_COLUMNS, going_on_matrix, read_going_on
from planner.core.markov.loss_figures import (
    LossFigures,
    group_lost_stack,
    lead_power,
    sectors_lost_generator,
)
from planner.core.markov.rates import Rates
from planner.core.markov.solve import solve_mmatrix

__all__ = [
    "LossFigures",
    "generator_matrix",
    "loss_figures",
    "losses_per_10k_groups",
    "mttdl_hours",
    "p_loss_aggregate",
    "p_loss_group",
    "relative_risk",
    "solve_mmatrix",
    "transition_rates",
]

FloatArray = npt.NDArray[np.float64]


def p_loss_group(parity: int, drives: int, rates: Rates, mission_hours: float) -> float:
    """Probability that one RAID group loses data within ``mission_hours``, starting pristine.

    This is the (pristine, loss) entry of exp(Q T): the transient solution of the chain,
    computed directly rather than as ``1 - reliability`` so that tiny probabilities keep
    their relative accuracy.
    """
    # A non-negative Taylor series with squaring (planner.core.markov.expm): no cancellation, so
    # the entry keeps ~1e-15 relative accuracy even at 1e-30, for any mission length.
    # scipy.linalg.expm is close for years-long missions (1e-13) but its Padé step
    # cancels for missions of an hour or less (1e-7 relative at p ~ 1e-23).
    if not (math.isfinite(mission_hours) and mission_hours >= 0):
        raise ValueError(f"mission_hours must be >= 0 and finite, got {mission_hours!r}")
    g = transition_matrix(parity, drives, rates, mission_hours)
    p = expm_entry(g, (0, g.shape[0] - 1), parity + 1)
    return min(max(p, 0.0), 1.0)


def mttdl_hours(parity: int, drives: int, rates: Rates) -> float:
    """Mean time to data loss in hours from the pristine state.

    Solves ``-A x = 1`` (``A``: the generator on the transient states; ``x[0]`` is the
    expected time to absorption) with :func:`solve_mmatrix`, which keeps full relative
    accuracy where a plain LU solve is ill-conditioned (rcond ~ 1e-17 for k = 4).
    """
    q = generator_matrix(parity, drives, rates)
    times = solve_mmatrix(-q[:-1, :-1], q[:-1, -1], np.ones(q.shape[0] - 1))
    return float(times[0])


def losses_per_10k_groups(p_group: float) -> float:
    """Expected number of groups out of 10,000 that lose data in the mission (NS3574 Fig. 2)."""
    return 1e4 * p_group


def relative_risk(p: float, p_baseline: float) -> float:
    """Ratio of two loss probabilities; infinite when the baseline cannot lose data."""
    if p_baseline == 0.0:
        return math.inf if p > 0 else 1.0
    return p / p_baseline


def transition_rates(
    parity: int, drives: int, rates: Rates
) -> Sequence[tuple[int, int, AnyEvent, float]]:
    """Every transition of the chain with its numeric rate per hour.

    A declustered pool's chain (``rates.defect_stripe_share`` below 1) has its sector-loss
    move thinned by sigma and the rest going to ``(k, 0)`` (:mod:`planner.core.markov.chain`);
    a correlated one (``rates.correlated``) has its failures out of degraded states times m
    and its shock transitions. The rates are the generator's own
    (:func:`~planner.core.markov.generator.transition_values`).
    """
    chain = build_chain(
        parity, rates.rebuild_streams, rates.defect_stripe_share != 1.0, rates.correlated
    )
    values = transition_values(parity, drives, rates)
    return [
        (t.source, t.target, t.event, float(value))
        for t, value in zip(chain.transitions, values, strict=True)
    ]


def loss_figures(
    parity: int,
    drives: int,
    rates: Rates,
    mission_hours: float,
    *,
    sectors_fail_rebuild: bool = False,
    mttdl: bool = False,
) -> LossFigures:
    """The loss figures of one group of ``drives`` drives under ``rates``.

    :func:`~planner.core.markov.loss_figures.chain_figures` for one layout (its module
    docstring has the chains), the same numbers to a few ulps.
    ``rates.defect_stripe_share`` thins a declustered pool's sector losses;
    ``sectors_fail_rebuild``: ``restore.on_unreadable_sector: fail-rebuild``; ``mttdl``: the
    mean time to data loss too (the same rates' transient block,
    :func:`~planner.core.markov.solve.solve_mmatrix`). One generator, four short
    exponentials (:mod:`~planner.core.markov.expm_one`): an entry of three chains, the
    going-on chain's row.
    """
    if not (math.isfinite(mission_hours) and mission_hours >= 0):
        raise ValueError(f"mission_hours must be >= 0 and finite, got {mission_hours!r}")
    # the same matrix as p_loss_group's, so that the P(loss) is the same number
    parts = transition_parts(parity, drives, rates, mission_hours)
    g, group, sectors = parts.q, parts.group_loss, parts.sector_loss
    last = g.shape[0] - 1
    lead = lead_power(parity)
    p_loss = expm_entry(g.copy(), (0, last), lead)
    p_group = expm_entry(group_lost_stack(g, parity), (0, parity + 1), lead)
    p_sectors = expm_entry(sectors_lost_generator(g, group, sectors), (0, last), lead)
    on = read_going_on(
        expm_row(going_on_matrix(g, group, sectors, parity), 0, lead, REWARD_COLUMNS)
    )
    figures = LossFigures(
        min(max(p_loss, 0.0), 1.0),
        min(max(p_group, 0.0), 1.0),
        min(max(p_sectors, 0.0), 1.0),
        float(on.expected_sector_loss_events),
        float(on.expected_group_losses),
        float(on.degraded_hours_per_year),
        float(on.critical_hours_per_year),
        _mttdl_hours(transition_matrix(parity, drives, rates)) if mttdl else None,
    )
    return figures.sectors_fail_rebuild() if sectors_fail_rebuild else figures


def _mttdl_hours(rates_of_moves: FloatArray) -> float:
    """MTTDL (h) from pristine of one chain given its off-diagonal rates (1/h)."""
    transient = rates_of_moves[:-1, :-1]
    exits = rates_of_moves[:-1].sum(axis=1)
    m = -transient
    m[np.diag_indices_from(m)] = exits  # -A: the exit rates on the diagonal
    return float(solve_mmatrix(m, rates_of_moves[:-1, -1], np.ones(m.shape[0]))[0])
