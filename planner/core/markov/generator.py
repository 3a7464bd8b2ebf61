"""The numeric generator matrix Q of the n+k chain: one builder, one layout or a stack.

Q (per hour) is built from the transition rules of :func:`planner.core.markov.chain.build_chain`
(NS3574 "Probability of data loss"; loss state last, rows summing to zero), as arrays of
transitions and their rates (:mod:`planner.core.markov.transition_arrays`). Every numeric
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

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import AnyEvent
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.rates import Rates
from planner.core.markov.transition_arrays import (
    TransitionStructure,
    kind_rates,
    layout_transitions,
    stack_transitions,
)

FloatArray = npt.NDArray[np.float64]


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
        kind_rates(values, structure.group_rows),
        kind_rates(values, structure.sector_rows),
    )


def _fill(structure: TransitionStructure, values: FloatArray, shape: tuple[int, ...]) -> FloatArray:
    """Q from the transitions' rates ``values`` (shape ``S + (T,)``): ``S + (m, m)``.

    The one place the generator's entries are written, for one layout (``S = ()``) or a
    stack. Transitions with a (source, target) cell of their own are assigned; where two
    share one (a pool's chain, a correlated chain) they are summed through
    ``structure.merge``. The diagonal: minus each state's exit rates, in transition order.
    """
    size = structure.size
    flat = np.zeros((*shape, size * size))
    if structure.merge is not None and structure.merged_cells is not None:
        # summed column by column (see kind_rates: not through BLAS's threads)
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


def generator_matrix(parity: int, drives: int, rates: Rates) -> FloatArray:
    """The generator Q (per hour) of one group of ``drives`` drives, ``parity`` of them parity.

    :func:`generator_stack` for one layout (the same cached transition structure and the
    same :func:`_fill`, without the broadcasting and the array checks, which cost ~10x the
    fill for one small matrix): rows are source states, columns targets (paper order, loss
    last); rows sum to zero.
    """
    structure, values = layout_transitions(parity, drives, rates, 1.0)
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
    return layout_transitions(parity, drives, rates, 1.0)[1]


def transition_parts(parity: int, drives: int, rates: Rates, hours: float = 1.0) -> GeneratorParts:
    """:func:`transition_matrix` with each state's loss rates (times ``hours``) by kind."""
    structure, values = layout_transitions(parity, drives, rates, hours)
    size = structure.size
    flat = np.zeros(size * size)
    if structure.merge is not None and structure.merged_cells is not None:
        flat[structure.merged_cells] = values @ structure.merge
    else:
        flat[structure.cells] = values
    return GeneratorParts(
        flat.reshape(size, size),
        kind_rates(values, structure.group_rows),
        kind_rates(values, structure.sector_rows),
    )
