"""What a group's losses cost: whole-group loss, sector loss and their count (issue 20).

Three figures beside the paper's P(loss) (NS3574 "Probability of data loss", the first loss
of any kind), for one group over a mission of T hours starting pristine, each computed
exactly from a chain of its own (never as ``1 - reliability`` or a difference):

* **P(group lost)**: k + 1 drives down at once during the mission (parity p for a pool),
  sector losses written off and the group going on. Latent defects play no part, so it
  is the birth-death chain on f = 0 .. k + 1 drives down: failure ``(N - f) lambda_op``,
  rebuild ``min(f, streams) mu_op``, absorbing at k + 1 (:func:`group_lost_stack`).
* **P(sectors lost)**: at least one sector-loss event. The paper's chain with its
  sector-loss move (a failure out of ``(k - 1, 1)``) absorbing, and its whole-group-loss
  move (a failure out of ``(k, 0)``) returning the group to pristine: restored from
  backup, it goes on (:func:`sectors_lost_generator`).
* **Expected sector-loss events**, and with them the expected whole-group losses and the
  hours a year a group is degraded or critical: integrals over the mission of the chain
  that goes on after every loss (a sector loss to ``(k, 0)``, a group loss to pristine),
  four Van Loan reward columns of one exponential (:mod:`planner.core.markov.going_on`).

Correlated failures (:mod:`planner.core.markov.chain`, docs/correlated.md): a shock can lose
the whole group from any state, a state with a defect included, so each state's moves into
the loss state are split by kind (:class:`~planner.core.markov.generator.GeneratorParts`)
and the chains above are read from that split: every whole-group loss returns to pristine
in the chain of P(sectors lost) and the going-on chain, every sector loss (a failure out of
``(k - 1, 1)``, a shock that leaves k down with the defect) goes to ``(k, 0)`` in the
latter; P(group lost) is the chain without defects, shocks and the multiplier included.

They no longer sum: a path can lose sectors and later the whole group, and P(group lost)
counts every time k + 1 drives are down while P(loss) stops at the first loss. By Markov's
inequality P(sectors lost) <= the expected events. A declustered pool's chain thins the
sector-loss move by its stripe share sigma (:mod:`planner.core.markov.chain`); P(group lost) does
not depend on it.

With ``restore.on_unreadable_sector: fail-rebuild`` an unreadable sector fails the rebuild,
so every loss ends the group: P(group lost) = P(loss), no sector losses
(:meth:`LossFigures.sectors_fail_rebuild`).

One evaluation per layout: the paper's generator is built once, and the three other chains
are read from it (the birth-death chain's rates are the paper chain's moves among the
states without a defect; the other two move one or two of its entries). The four
exponentials then run as one pool of chunks (:func:`~planner.core.markov.expm.expm_entries`)
for a stack, or four short passes (:mod:`~planner.core.markov.expm_one`) for one group; the
MTTDL, where it is asked for, solves the same generator's transient block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import State, build_chain
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.expm import CHUNK, EntryJob, expm_entries
from planner.core.markov.expm_compiled import ADD, ASSIGN, RowJob, expm_rows, kernel_enabled
from planner.core.markov.generator import GeneratorParts, generator_of, generator_parts_of
from planner.core.markov.going_on import (
    REWARD_COLUMNS,
    GoingOn,
    going_on_extra,
    going_on_job,
    going_on_matrix,
    read_going_on,
)
from planner.core.markov.solve import mttdl_stack
from planner.core.markov.transition_stack import TransitionStack, transition_stack_of

FloatArray = npt.NDArray[np.float64]

__all__ = [
    "ChainFigures",
    "LossFigures",
    "chain_figures",
    "compiled_jobs",
    "failed_rebuilds_lose_groups",
    "figures_of_rows",
    "group_lost_stack",
    "lead_power",
    "sectors_lost_generator",
]


@dataclass(frozen=True)
class LossFigures:
    """The loss figures of one group over the mission (module docstring), all exact.

    Attributes:
        p_loss: the paper's P(loss): the first loss of any kind.
        p_group_lost: P(k + 1 drives down at once), sector losses written off.
        p_sectors_lost: P(at least one sector-loss event), a lost group restored.
        expected_sector_loss_events: mean number of sector-loss events.
        expected_group_losses: mean number of whole-group losses (a lost group restored).
        degraded_hours_per_year: expected hours a year at least one drive is down.
        critical_hours_per_year: expected hours a year k drives are down (no redundancy).
        mttdl_hours: mean time to data loss from pristine (h), when it was asked for.
        p_unavailable: P(the group stops serving at least once: an enclosure outage beyond
            its parity, or a loss), with enclosures (docs/domains.md); else None.
    """

    p_loss: float
    p_group_lost: float
    p_sectors_lost: float
    expected_sector_loss_events: float
    expected_group_losses: float
    degraded_hours_per_year: float
    critical_hours_per_year: float
    mttdl_hours: float | None = None
    p_unavailable: float | None = None

    def sectors_fail_rebuild(self) -> LossFigures:
        """The figures when an unreadable sector fails the rebuild: every loss ends the group.

        Each sector-loss event is then a whole-group loss; the hours are the going-on
        chain's (:func:`failed_rebuilds_lose_groups`).
        """
        return replace(
            self,
            p_group_lost=self.p_loss,
            p_sectors_lost=0.0,
            expected_sector_loss_events=0.0,
            expected_group_losses=self.expected_group_losses + self.expected_sector_loss_events,
        )


@dataclass(frozen=True)
class ChainFigures:
    """:class:`LossFigures` of a stack of groups, one array element per group.

    Attributes:
        p_loss: P(loss), the first loss of any kind.
        p_group_lost: P(k + 1 drives down at once).
        p_sectors_lost: P(at least one sector-loss event).
        expected_sector_loss_events: mean number of sector-loss events.
        expected_group_losses: mean number of whole-group losses.
        degraded_hours_per_year: expected hours a year at least one drive is down.
        critical_hours_per_year: expected hours a year k drives are down.
        mttdl_hours: mean time to data loss (h), when it was asked for.
        p_unavailable: P(the group stops serving at least once), with enclosures.
    """

    p_loss: FloatArray
    p_group_lost: FloatArray
    p_sectors_lost: FloatArray
    expected_sector_loss_events: FloatArray
    expected_group_losses: FloatArray
    degraded_hours_per_year: FloatArray
    critical_hours_per_year: FloatArray
    mttdl_hours: FloatArray | None = None
    p_unavailable: FloatArray | None = None

    @classmethod
    def of(
        cls, arrays: Sequence[FloatArray], mttdl_hours: FloatArray | None = None
    ) -> ChainFigures:
        """The figures from arrays in :meth:`arrays`' order, and the MTTDL."""
        p_loss, group, sectors, events, losses, degraded, critical = arrays
        return cls(p_loss, group, sectors, events, losses, degraded, critical, mttdl_hours)

    def arrays(self) -> tuple[FloatArray, ...]:
        """Every figure but the MTTDL, in the order of the fields."""
        return (
            self.p_loss,
            self.p_group_lost,
            self.p_sectors_lost,
            self.expected_sector_loss_events,
            self.expected_group_losses,
            self.degraded_hours_per_year,
            self.critical_hours_per_year,
        )


FIGURE_COUNT = 7
"""The arrays of :meth:`ChainFigures.arrays`."""


def not_going_on(shape: tuple[int, ...]) -> dict[str, FloatArray]:
    """The going-on chain's figures of a chain that does not give them: NaN, "not computed".

    The enclosure chain (docs/domains.md) and the ageing chain in pieces (docs/ageing.md)
    give P(loss) and its parts, not the expected whole-group losses nor the hours degraded
    and critical; their reports show those as not computed rather than as a number.
    """
    return {
        name: np.full(shape, np.nan)
        for name in ("expected_group_losses", "degraded_hours_per_year", "critical_hours_per_year")
    }


def failed_rebuilds_lose_groups(figures: ChainFigures) -> ChainFigures:
    """``figures`` when an unreadable sector fails the rebuild: every loss ends the group.

    P(group lost) is P(loss), no sectors are lost, and each sector-loss event is counted as
    a whole-group loss. The hours stay the going-on chain's, in which the rebuild goes on
    after the event: the time to restore the group from backup is not modelled, and the
    rebuild's time stands in for it.
    """
    zeros = np.zeros(figures.p_loss.shape)
    return replace(
        figures,
        p_group_lost=figures.p_loss,
        p_sectors_lost=zeros,
        expected_sector_loss_events=zeros,
        expected_group_losses=figures.expected_group_losses + figures.expected_sector_loss_events,
    )


@cache
def _defect_free(parity: int) -> tuple[int, ...]:
    """``(0, 0) .. (k, 0)``, then the loss state: the birth-death chain's states."""
    chain = build_chain(parity)
    index = {state: i for i, state in enumerate(chain.states)}
    return (*(index[State(f, 0)] for f in range(parity + 1)), chain.loss_index)


def sectors_lost_generator(q: FloatArray, group: FloatArray, sectors: FloatArray) -> FloatArray:
    """The chain of P(sectors lost) from the paper's generators ``q`` (``... x m x m``).

    ``group`` and ``sectors`` (``... x m``): each state's rates into the loss state by kind
    (:class:`~planner.core.markov.generator.GeneratorParts`). The loss state (last) is now
    reached by sector loss only; every whole-group loss (a failure out of ``(k, 0)``, a
    shock past parity) goes back to pristine instead, the group restored. The diagonal is
    left as ``q``'s: the exponential takes the exit rates from the off-diagonal entries
    (a group loss out of pristine, a shock, is then no move at all).
    """
    loss = q.shape[-1] - 1
    out = np.array(q, dtype=np.float64, copy=True)
    out[..., :loss, 0] += group[..., :loss]
    out[..., :loss, loss] = sectors[..., :loss]
    return out


def group_lost_stack(q: FloatArray, parity: int) -> FloatArray:
    """Generators of the birth-death chain on f = 0 .. k + 1 drives down (``... x (k+2)^2``).

    Failure ``f -> f + 1`` at ``(N - f) lambda_op`` (1/h; times m while ``f >= 1`` in a
    correlated chain), rebuild ``f -> f - 1`` at ``min(f, streams) / rebuild_hours``, a
    shock ``f -> f + j`` (past k: the group lost) at its binomial rate over the N - f
    working drives; ``f = k + 1`` absorbing. These are the moves of the paper's chain
    ``q`` among its states without a defect, ``(f, 0)``, and out of them to the loss state
    (always a whole-group loss there): read from ``q``, not built again.
    """
    states = _defect_free(parity)
    out = np.ascontiguousarray(q[..., states, :][..., :, states], dtype=np.float64)
    size = len(states)
    diagonal = np.arange(size)
    out[..., diagonal, diagonal] = 0.0
    out[..., diagonal, diagonal] = -out.sum(axis=-1)
    return out


def lead_power(parity: int) -> int:
    """The ``lead_power`` of every job: k + 1, the longest shortest path to a loss column.

    The Taylor degree grows with ``lead_power`` (:func:`~planner.core.markov.taylor.
    taylor_degree` keeps the tail small against a series that starts at that power), so it
    must be at least the length of the paths that carry the entry. Without shocks every
    path to a loss has k + 1 steps or more; a shock can reach it in fewer (one, straight
    past parity), but those paths need no more terms, and when q is small the k + 1-step
    paths of failures still carry most of the probability. So k + 1 for every chain, the
    correlated ones included: a smaller value would cut those paths' series short.
    """
    return parity + 1


STACK_BYTES = 4_000_000
"""Most bytes one chain's stack takes: larger stacks are evaluated a block at a time, so
that a 200,000-layout sweep needs tens of MB, not hundreds (see :func:`chain_figures`)."""


def chain_figures(
    parity: int, inputs: ChainInputs, *, mttdl: bool = False, threads: int | None = None
) -> ChainFigures:
    """The loss figures of every group of ``inputs`` (groups of ``parity`` parity drives).

    One generator stack (:func:`~planner.core.markov.generator.generator_of`), the four
    chains read from it and exponentiated in one pool of chunks; with ``mttdl`` the mean
    time to data loss too, from the same stack. ``threads``: see
    :func:`~planner.core.markov.expm.expm_metzler` (any number gives the same bits).
    Stacks of more than :data:`STACK_BYTES` go a block of groups at a time (every group's
    figures are computed alone, so the blocks change no number).
    """
    size = 2 * parity + 2
    block = max(CHUNK, STACK_BYTES // (8 * size * size) // CHUNK * CHUNK)
    flat = inputs.ravel()
    count = flat.shape[0]
    if count <= block:
        return _reshaped(_chain_figures(parity, inputs, mttdl, threads), inputs.shape)
    parts = [
        _chain_figures(
            parity, flat.take(np.arange(start, min(count, start + block))), mttdl, threads
        )
        for start in range(0, count, block)
    ]
    times = [p.mttdl_hours for p in parts if p.mttdl_hours is not None]
    arrays = [np.concatenate(each) for each in zip(*(p.arrays() for p in parts), strict=True)]
    whole = ChainFigures.of(arrays, np.concatenate(times) if mttdl else None)
    return _reshaped(whole, inputs.shape)


def _reshaped(figures: ChainFigures, shape: tuple[int, ...]) -> ChainFigures:
    """``figures`` with every array in ``shape`` (the inputs' broadcast shape)."""
    times = figures.mttdl_hours
    return ChainFigures.of(
        [each.reshape(shape) for each in figures.arrays()],
        None if times is None else times.reshape(shape),
    )


def _chain_figures(
    parity: int, inputs: ChainInputs, mttdl: bool, threads: int | None
) -> ChainFigures:
    """:func:`chain_figures` of one stack."""
    if kernel_enabled():
        stack = transition_stack_of(parity, inputs)
        rows = expm_rows(compiled_jobs(stack, parity, inputs.mission_hours), threads=threads)
        figures = figures_of_rows(rows)
        return figures if not mttdl else replace_mttdl(figures, generator_of(parity, inputs))
    parts = generator_parts_of(parity, inputs)
    q = parts.q
    t = inputs.mission_hours[..., None]
    g = q * t[..., None]  # every chain is read from this one
    group, sectors = parts.group_loss * t, parts.sector_loss * t
    lead = lead_power(parity)
    last = g.shape[-1] - 1
    going_on = going_on_matrix(g, group, sectors, parity)
    on_last = going_on.shape[-1] - 1
    # Each stack is fresh (the variants are copies, made before any is exponentiated):
    # the exponential may work in it (owned).
    p_loss, p_group, p_sectors, on_rows = expm_entries(
        [
            EntryJob(g, (0, last), lead, owned=True),
            EntryJob(group_lost_stack(g, parity), (0, parity + 1), lead, owned=True),
            EntryJob(sectors_lost_generator(g, group, sectors), (0, last), lead, owned=True),
            EntryJob(going_on, (0, on_last), lead, REWARD_COLUMNS, owned=True, whole_row=True),
        ],
        threads=threads,
    )
    return _figures(p_loss, p_group, p_sectors, read_going_on(on_rows), q if mttdl else None)


def _figures(
    p_loss: FloatArray,
    p_group: FloatArray,
    p_sectors: FloatArray,
    going_on: GoingOn,
    q_for_mttdl: FloatArray | None,
) -> ChainFigures:
    return ChainFigures(
        p_loss=np.clip(p_loss, 0.0, 1.0),
        p_group_lost=np.clip(p_group, 0.0, 1.0),
        p_sectors_lost=np.clip(p_sectors, 0.0, 1.0),
        expected_sector_loss_events=going_on.expected_sector_loss_events,
        expected_group_losses=going_on.expected_group_losses,
        degraded_hours_per_year=going_on.degraded_hours_per_year,
        critical_hours_per_year=going_on.critical_hours_per_year,
        mttdl_hours=None if q_for_mttdl is None else mttdl_stack(q_for_mttdl),
    )


def compiled_jobs(
    parts: GeneratorParts | TransitionStack, parity: int, mission_hours: FloatArray
) -> list[RowJob]:
    """The four chains of the stack ``parts`` (per hour) over ``mission_hours``, as kernel jobs.

    The same chains as :func:`sectors_lost_generator`, :func:`group_lost_stack` and
    :func:`~planner.core.markov.going_on.going_on_matrix` build, given to the kernel as
    edits of the stack (each state's loss rates by kind and the reward columns beside it,
    the mission as each matrix's factor) instead of three copies of it; in the order of
    :class:`ChainFigures` (:func:`figures_of_rows` reads their rows). The stack is Q
    itself or, cheaper, its transitions' rates (:mod:`~planner.core.markov.transition_stack`).
    """
    lead = lead_power(parity)
    base = parts.base_job(lead) if isinstance(parts, TransitionStack) else RowJob(parts.q, 0, lead)
    loss = base.matrix_size - 1
    extra = going_on_extra(parts, parity, mission_hours)  # group, sectors, then rewards
    group, sectors = loss + 1, loss + 2  # their indices in a move
    restored = tuple((state, group, 0, ADD) for state in range(loss))
    only_sectors = tuple((state, sectors, loss, ASSIGN) for state in range(loss))
    return [
        replace(base, scale=mission_hours),
        replace(base, gather=_defect_free(parity), scale=mission_hours),
        replace(base, moves=restored + only_sectors, scale=mission_hours, extra=extra),
        going_on_job(base, parity, mission_hours, extra),
    ]


def figures_of_rows(rows: list[FloatArray]) -> ChainFigures:
    """:class:`ChainFigures` (no MTTDL) from the rows of :func:`compiled_jobs`' four chains."""
    p_loss, p_group, p_sectors = (row[..., -1] for row in rows[:3])
    return _figures(p_loss, p_group, p_sectors, read_going_on(rows[3]), None)


def replace_mttdl(figures: ChainFigures, q: FloatArray) -> ChainFigures:
    """``figures`` with the MTTDL of the generators ``q`` (per hour)."""
    return replace(figures, mttdl_hours=mttdl_stack(q))
