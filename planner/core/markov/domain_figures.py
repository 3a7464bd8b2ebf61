"""The loss figures of groups whose drives share enclosures (docs/domains.md).

The chain is :mod:`planner.core.markov.domains`'; from one generator stack per shape (parity,
placement, rebuild streams) five chains are read, as :mod:`planner.core.markov.loss_figures`
reads the paper's four:

* **P(loss)**: the first loss of data (a whole group or a latent defect's stripes); an
  outage beyond parity is not one (the drives come back with their data);
* **P(group lost)**: the chain without latent defects, as the paper's;
* **P(sectors lost)** and the **expected sector-loss events**: a whole-group loss returns the
  group to pristine, restored; in the chain that goes on a sector loss leaves the state the
  move would have left without the defect (:attr:`DomainChain.sector_targets`);
* **P(unavailable)**: the group stops serving at least once: an enclosure outage takes more
  of its drives offline than its parity allows, or it loses data. The outages join the loss
  state in this chain only; it is never below P(loss).

Each runs on the compiled kernel (:func:`~planner.core.markov.expm_compiled.expm_rows`, the
chains given as edits of the one stack) or, where it is not built, on the NumPy path of
:mod:`planner.core.markov.expm` with the same edits made here (:func:`edited_stack`); both
give the same numbers to a few ulps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.domains import RATE_FEATURES, DomainChain, domain_chain
from planner.core.markov.enclosures import Placement
from planner.core.markov.expm import CHUNK, EntryJob, expm_entries
from planner.core.markov.expm_compiled import ADD, ASSIGN, MOVE, RowJob, expm_rows, kernel_enabled
from planner.core.markov.loss_figures import (
    STACK_BYTES,
    ChainFigures,
    LossFigures,
    not_going_on,
)
from planner.core.markov.rates import Rates
from planner.core.markov.solve import mttdl_stack
from planner.core.markov.transient import loss_figures

FloatArray = npt.NDArray[np.float64]

__all__ = [
    "DomainParts",
    "domain_jobs",
    "domain_parts",
    "edited_stack",
    "enclosure_chain_figures",
    "group_loss_figures",
]

_GROUP, _SECTORS, _OUTAGE = 0, 1, 2
"""The extra columns beside each matrix: whole-group, sector and outage rates, then the
sector-loss rates by cause (:data:`~planner.core.markov.domains.SECTOR_CAUSES`)."""


@dataclass(frozen=True)
class DomainParts:
    """A stack of enclosure chains: Q (per hour, loss last) and each state's rates by kind.

    Attributes:
        chain: the shape.
        q: ``shape + (m, m)``, rows summing to zero.
        extra: ``shape + (m, 3 + causes)``: whole-group loss, sector loss, outages beyond
            parity, then sector loss by cause (1/h).
        features: ``shape + (features,)``: the rates of
            :data:`~planner.core.markov.domains.FEATURES` (1/h).
    """

    chain: DomainChain
    q: FloatArray
    extra: FloatArray
    features: FloatArray

    def rate_part(self, rate: str) -> FloatArray:
        """``theta dQ/dtheta`` off the diagonal for ``rate`` (a key of ``RATE_FEATURES``)."""
        pick = list(RATE_FEATURES[rate])
        part: FloatArray = np.einsum(
            "...f,fij->...ij", self.features[..., pick], self.chain.q_forms[pick]
        )
        return part


def domain_parts(
    parity: int,
    placement: Placement,
    inputs: ChainInputs,
    failures_per_hour: npt.ArrayLike,
    repair_hours: npt.ArrayLike,
) -> DomainParts:
    """The stack of groups ``inputs`` placed by ``placement``, their enclosures' rates beside.

    ``failures_per_hour`` (each enclosure's, >= 0) and ``repair_hours`` (> 0) broadcast to
    ``inputs.shape``. Raises ValueError for correlated inputs (not modelled with enclosures)
    or groups of another size than the placement's.
    """
    if inputs.correlated:
        raise ValueError("correlated failures and enclosures are not modelled together")
    if np.any(inputs.drives != placement.drives):
        raise ValueError(f"the placement holds {placement.drives} drives, not every group's")
    lam = np.broadcast_to(np.asarray(failures_per_hour, dtype=np.float64), inputs.shape)
    hours = np.broadcast_to(np.asarray(repair_hours, dtype=np.float64), inputs.shape)
    if not np.all(np.isfinite(lam) & (lam >= 0)):
        raise ValueError("enclosure failures per hour must be >= 0 and finite")
    if not np.all(np.isfinite(hours) & (hours > 0)):
        raise ValueError("enclosure repair hours must be positive and finite")
    chain = domain_chain(parity, placement, inputs.rebuild_streams)
    sigma, lop = inputs.defect_stripe_share, inputs.op_failures_per_hour
    features = np.stack(
        (
            lop,
            inputs.latent_defects_per_hour,
            1.0 / inputs.rebuild_hours,
            1.0 / inputs.scrub_hours,
            lam,
            1.0 / hours,
            sigma * lop,
            (1.0 - sigma) * lop,
            sigma * lam,
            (1.0 - sigma) * lam,
            sigma / inputs.scrub_hours,
            (1.0 - sigma) / inputs.scrub_hours,
            sigma / hours,
            (1.0 - sigma) / hours,
        ),
        axis=-1,
    )
    m = chain.size
    q = np.einsum("...f,fij->...ij", features, chain.q_forms)
    diagonal = np.arange(m)
    q[..., diagonal, diagonal] = -q.sum(axis=-1)
    sectors = np.einsum("...f,fic->...ic", features, chain.sector_forms)
    extra = np.concatenate(
        (
            np.einsum("...f,fi->...i", features, chain.group_forms)[..., None],
            sectors.sum(axis=-1, keepdims=True),
            np.einsum("...f,fi->...i", features, chain.outage_forms)[..., None],
            sectors,
        ),
        axis=-1,
    )
    return DomainParts(chain, q, extra, features)


def domain_jobs(parts: DomainParts, mission_hours: FloatArray) -> list[RowJob]:
    """The five chains of ``parts`` over ``mission_hours`` as kernel jobs (module docstring).

    In the order P(loss), P(group lost), P(sectors lost), expected sector-loss events,
    P(unavailable); each job's wanted entry is the last column of row 0.
    """
    chain = parts.chain
    m, loss = chain.size, chain.loss_index
    lead = chain.parity + 1  # the longest shortest path to a loss: k + 1 drive failures
    transient = range(loss)
    restored = tuple((i, m + _GROUP, 0, ADD) for i in transient)
    only_sectors = tuple((i, m + _SECTORS, loss, ASSIGN) for i in transient)
    goes_on = tuple((i, m + 3 + cause, target, ADD) for i, cause, target in chain.sector_targets)
    outages = tuple((i, m + _OUTAGE, loss, ADD) for i in transient)
    q, t, extra = parts.q, mission_hours, parts.extra
    return [
        RowJob(q, 0, lead, scale=t),
        RowJob(q, 0, lead, gather=chain.defect_free, scale=t),
        RowJob(q, 0, lead, moves=restored + only_sectors, scale=t, extra=extra),
        RowJob(q, 0, lead, 1, moves=restored + only_sectors + goes_on, scale=t, extra=extra),
        RowJob(q, 0, lead, moves=outages, scale=t, extra=extra),
    ]


def edited_stack(job: RowJob) -> FloatArray:
    """The matrices ``job`` describes, made explicitly: edited, gathered, scaled (a copy).

    What the compiled kernel does on the way in (:class:`~planner.core.markov.expm_compiled.
    RowJob`), for the NumPy path; the diagonal is left as it is (the exponential takes the
    exit rates from the off-diagonal entries).
    """
    g = np.array(job.g, dtype=np.float64, copy=True)
    m = g.shape[-1]
    for row, source, target, mode in job.moves:
        if source < m:
            value = g[..., row, source].copy()
        else:
            assert job.extra is not None  # a move from a column of extra names it
            value = job.extra[..., row, source - m]
        if mode == ASSIGN:
            g[..., row, target] = value
        else:
            g[..., row, target] += value
        if mode == MOVE and source < m:
            g[..., row, source] = 0.0
    if job.gather is not None:
        pick = list(job.gather)
        g = np.ascontiguousarray(g[..., pick, :][..., :, pick])
    if job.scale is not None:
        g *= np.asarray(job.scale, dtype=np.float64)[..., None, None]
    return g


def _last_entries(jobs: list[RowJob], threads: int | None) -> list[FloatArray]:
    """Each job's entry (row, last state) of every matrix, on the kernel or the NumPy path."""
    if kernel_enabled():
        return [row[..., -1] for row in expm_rows(jobs, threads=threads)]
    entries = []
    for job in jobs:
        g = edited_stack(job)
        entry = (job.row, g.shape[-1] - 1)
        entries.append(EntryJob(g, entry, job.lead_power, job.reward_columns, owned=True))
    return expm_entries(entries, threads=threads)


def _stack_figures(
    parity: int,
    placement: Placement,
    inputs: ChainInputs,
    failures_per_hour: FloatArray,
    repair_hours: FloatArray,
    mttdl: bool,
    threads: int | None,
) -> ChainFigures:
    """:func:`enclosure_chain_figures` of one stack (one shape)."""
    parts = domain_parts(parity, placement, inputs, failures_per_hour, repair_hours)
    p_loss, p_group, p_sectors, events, p_unavailable = _last_entries(
        domain_jobs(parts, inputs.mission_hours), threads
    )
    return ChainFigures(
        p_loss=np.clip(p_loss, 0.0, 1.0),
        p_group_lost=np.clip(p_group, 0.0, 1.0),
        p_sectors_lost=np.clip(p_sectors, 0.0, 1.0),
        expected_sector_loss_events=np.maximum(events, 0.0),
        **not_going_on(p_loss.shape),
        mttdl_hours=mttdl_stack(parts.q) if mttdl else None,
        p_unavailable=np.clip(p_unavailable, 0.0, 1.0),
    )


def enclosure_chain_figures(
    parity: int,
    placement: Placement,
    inputs: ChainInputs,
    failures_per_hour: npt.ArrayLike,
    repair_hours: npt.ArrayLike,
    *,
    mttdl: bool = False,
    threads: int | None = None,
) -> ChainFigures:
    """The loss figures and P(unavailable) of every group of ``inputs`` (one shape).

    The groups' enclosures fail at ``failures_per_hour`` each and are repaired in
    ``repair_hours`` (both broadcast to ``inputs.shape``). Stacks larger than
    :data:`~planner.core.markov.loss_figures.STACK_BYTES` go a block at a time (every
    group's figures are computed alone, so the blocks change no number).
    """
    flat = inputs.ravel()
    lam = np.broadcast_to(np.asarray(failures_per_hour, dtype=np.float64), inputs.shape).ravel()
    hours = np.broadcast_to(np.asarray(repair_hours, dtype=np.float64), inputs.shape).ravel()
    size = domain_chain(parity, placement, inputs.rebuild_streams).size
    block = max(CHUNK, STACK_BYTES // (8 * size * (size + 6)) // CHUNK * CHUNK)
    parts = [
        _stack_figures(parity, placement, flat.take(pick), lam[pick], hours[pick], mttdl, threads)
        for start in range(0, max(1, flat.shape[0]), block)
        for pick in [np.arange(start, min(flat.shape[0], start + block))]
    ]
    shape = inputs.shape

    def joined(name: str) -> FloatArray | None:
        arrays = [getattr(p, name) for p in parts]
        if arrays[0] is None:
            return None
        return np.concatenate(arrays).reshape(shape)

    return ChainFigures(
        p_loss=joined("p_loss"),  # type: ignore[arg-type]
        p_group_lost=joined("p_group_lost"),  # type: ignore[arg-type]
        p_sectors_lost=joined("p_sectors_lost"),  # type: ignore[arg-type]
        expected_sector_loss_events=joined("expected_sector_loss_events"),  # type: ignore[arg-type]
        expected_group_losses=joined("expected_group_losses"),  # type: ignore[arg-type]
        degraded_hours_per_year=joined("degraded_hours_per_year"),  # type: ignore[arg-type]
        critical_hours_per_year=joined("critical_hours_per_year"),  # type: ignore[arg-type]
        mttdl_hours=joined("mttdl_hours"),
        p_unavailable=joined("p_unavailable"),
    )


def group_loss_figures(
    parity: int,
    drives: int,
    rates: Rates,
    mission_hours: float,
    *,
    sectors_fail_rebuild: bool = False,
    mttdl: bool = False,
) -> LossFigures:
    """:func:`~planner.core.markov.loss_figures.loss_figures` with the rates' enclosures.

    Without an enclosures section (``rates.enclosures`` None) the paper's chain exactly,
    P(unavailable) unset; with enclosures that never fail the same figures, P(unavailable)
    = P(loss) (no outage); otherwise the enclosure chain, P(unavailable) set.
    """
    enclosures = rates.enclosures
    if enclosures is None or not enclosures.active:
        fail_rebuild = sectors_fail_rebuild
        figures = loss_figures(
            parity, drives, rates, mission_hours, sectors_fail_rebuild=fail_rebuild, mttdl=mttdl
        )
        return figures if enclosures is None else replace(figures, p_unavailable=figures.p_loss)
    if not (math.isfinite(mission_hours) and mission_hours >= 0):
        raise ValueError(f"mission_hours must be >= 0 and finite, got {mission_hours!r}")
    if drives <= parity:
        raise ValueError(f"a group of {drives} drives cannot hold {parity} parity drives")
    inputs = ChainInputs.of_rates(drives, rates, mission_hours)
    found = enclosure_chain_figures(
        parity,
        enclosures.placement(drives),
        inputs,
        enclosures.failures_per_hour,
        enclosures.repair_hours,
        mttdl=mttdl,
        threads=1,
    )
    not_computed = math.nan  # the enclosure chain has no going-on figures (not_going_on)
    figures = LossFigures(
        p_loss=float(found.p_loss),
        p_group_lost=float(found.p_group_lost),
        p_sectors_lost=float(found.p_sectors_lost),
        expected_sector_loss_events=float(found.expected_sector_loss_events),
        expected_group_losses=not_computed,
        degraded_hours_per_year=not_computed,
        critical_hours_per_year=not_computed,
        mttdl_hours=None if found.mttdl_hours is None else float(found.mttdl_hours),
        p_unavailable=float(found.p_unavailable),  # type: ignore[arg-type]
    )
    return figures.sectors_fail_rebuild() if sectors_fail_rebuild else figures
