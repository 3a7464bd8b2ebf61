"""Risk of many layouts at once: one batched evaluation per parity and rebuild streams.

The sweep (:func:`planner.core.design.sweep.sweep`) and the recommendation search
(:mod:`planner.core.design.recommend`) evaluate thousands of layouts, each with its own rates,
mission and group count. Grouping them by parity (and rebuild streams), the chain's shape,
gives one :func:`~planner.core.markov.loss_figures.chain_figures` call per shape (one
generator stack, four exponentials in one pool of chunks). Each layout runs on its own
chain rates (:meth:`planner.core.arrays.layouts.Layout.chain_rates`: a declustered pool
rebuilds faster).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from planner.core.arrays.layouts import Layout
from planner.core.markov.aggregate import p_loss_aggregate_batch
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.domain_figures import enclosure_chain_figures
from planner.core.markov.enclosures import Enclosures, Placement
from planner.core.markov.expm import CHUNK
from planner.core.markov.expm_compiled import RowJob, add_rows, kernel_enabled
from planner.core.markov.loss_figures import (
    FIGURE_COUNT,
    STACK_BYTES,
    ChainFigures,
    chain_figures,
    compiled_jobs,
    failed_rebuilds_lose_groups,
    figures_of_rows,
)
from planner.core.markov.pool import TaskStream
from planner.core.markov.rates import Rates
from planner.core.markov.transition_stack import transition_stack_of

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class LayoutRisks:
    """P(loss) of many layouts and what is lost, one array element per layout (in order).

    The figures of :mod:`planner.core.markov.loss_figures` (they do not sum to P(loss)); each
    aggregate probability is ``1 - (1 - p)^groups``, the aggregate's expected sector-loss
    events and whole-group losses ``groups`` x one group's. The hours a year degraded and
    critical are one group's (:mod:`planner.core.markov.going_on`).
    """

    p_loss_group: FloatArray
    p_loss_aggregate: FloatArray
    p_group_lost: FloatArray
    p_sectors_lost: FloatArray
    p_group_lost_aggregate: FloatArray
    p_sectors_lost_aggregate: FloatArray
    expected_sector_loss_events_group: FloatArray
    expected_sector_loss_events: FloatArray
    expected_group_losses_group: FloatArray
    expected_group_losses: FloatArray
    degraded_hours_per_year: FloatArray
    critical_hours_per_year: FloatArray
    p_unavailable_group: FloatArray | None = None
    p_unavailable_aggregate: FloatArray | None = None
    """P(the group, or some group of the aggregate, stops serving at least once), with
    enclosures (docs/domains.md); None without."""


def layout_risks(
    layouts: Sequence[Layout],
    rates: Sequence[Rates],
    mission_hours: Sequence[float] | FloatArray,
    groups: Sequence[int] | npt.NDArray[np.int64],
    *,
    sectors_fail_rebuild: bool = False,
) -> LayoutRisks:
    """P(loss) per group and per aggregate of each layout under its own rates and mission.

    Args:
        layouts: the layouts (a declustered pool's rates are adjusted here).
        rates: the scenario rates of each layout (before :meth:`Layout.chain_rates`).
        mission_hours: the mission of each layout (h).
        groups: groups in each layout's aggregate (they share its hot spares).
        sectors_fail_rebuild: ``restore.on_unreadable_sector: fail-rebuild``: every loss
            ends the group (P(group lost) = P(loss), no sector losses).
    """
    count = len(layouts)
    if not (len(rates) == len(mission_hours) == len(groups) == count):
        raise ValueError("layouts, rates, mission_hours and groups must have the same length")
    chain = [
        layout.chain_rates(r, int(g))
        for layout, r, g in zip(layouts, rates, np.asarray(groups).tolist(), strict=True)
    ]
    parity = np.array([layout.parity for layout in layouts], dtype=np.int64)
    drives = np.array([layout.group_size for layout in layouts], dtype=np.float64)
    streams = [0 if r.rebuild_streams is None else r.rebuild_streams for r in chain]
    figures = stacked_figures(
        parity,
        streams,
        ChainInputs.from_rates(drives, chain, mission_hours, mixed=True),
        [r.enclosures for r in chain] if any(r.enclosures for r in chain) else None,
    )
    return risks_of(figures, np.asarray(groups, dtype=np.int64), sectors_fail_rebuild)


def stacked_figures(
    parity: npt.ArrayLike,
    streams: npt.ArrayLike,
    inputs: ChainInputs,
    enclosures: Sequence[Enclosures | None] | None = None,
) -> ChainFigures:
    """The loss figures of groups of mixed parity and rebuild streams, in their order.

    ``inputs`` (one dimension) holds every group; ``streams`` gives each group's rebuild
    streams (0 for None, every failed drive at once) in place of ``inputs``'s. One
    :func:`chain_figures` call per chain shape (parity, streams). ``enclosures``: each
    group's, or None; the groups whose enclosures fail run on the enclosure chain
    (:func:`~planner.core.markov.domain_figures.enclosure_chain_figures`, one call per
    parity, streams and placement) and every group gets P(unavailable) (P(loss) where no
    enclosure fails).
    """
    k = np.asarray(parity, dtype=np.int64)
    code = np.asarray(streams, dtype=np.int64)
    out = [np.empty(k.shape[0]) for _ in range(FIGURE_COUNT)]
    shape = k * (1 + int(code.max(initial=0))) + code  # one number per (parity, streams)
    active = np.zeros(k.shape[0], dtype=bool)
    if enclosures is not None:
        active = np.array([e is not None and e.active for e in enclosures], dtype=bool)
    parts = []
    for key in sorted(set(shape[~active].tolist())):  # not np.unique: it imports numpy.ma
        pick = np.flatnonzero((shape == key) & ~active)
        p, stream = int(k[pick[0]]), int(code[pick[0]])
        parts.append((p, pick, replace(inputs.take(pick), rebuild_streams=stream or None)))
    if kernel_enabled():
        _compiled_parts(parts, out)
    else:
        for p, pick, part in parts:
            _store(out, pick, chain_figures(p, part))
    if enclosures is None:
        return ChainFigures.of(out)
    unavailable = out[0].copy()  # no outage: the group stops only when it loses data
    for pick, figures in _enclosure_parts(k, code, inputs, enclosures, active):
        _store(out, pick, figures)
        assert figures.p_unavailable is not None  # the enclosure chain gives it
        unavailable[pick] = figures.p_unavailable
    return replace(ChainFigures.of(out), p_unavailable=unavailable)


def _enclosure_parts(
    parity: npt.NDArray[np.int64],
    streams: npt.NDArray[np.int64],
    inputs: ChainInputs,
    enclosures: Sequence[Enclosures | None],
    active: npt.NDArray[np.bool_],
) -> list[tuple[npt.NDArray[np.intp], ChainFigures]]:
    """The figures of the groups ``active`` picks, one enclosure chain per shape."""
    shapes: dict[tuple[int, int, Placement], list[int]] = {}
    for i in np.flatnonzero(active).tolist():
        found = enclosures[i]
        assert found is not None  # active
        placement = found.placement(int(inputs.drives[i]))
        shapes.setdefault((int(parity[i]), int(streams[i]), placement), []).append(i)
    out = []
    for (p, stream, placement), rows in shapes.items():
        pick = np.array(rows, dtype=np.intp)
        part = replace(inputs.take(pick), rebuild_streams=stream or None)
        lam = [enclosures[i].failures_per_hour for i in rows]  # type: ignore[union-attr]
        hours = [enclosures[i].repair_hours for i in rows]  # type: ignore[union-attr]
        out.append((pick, enclosure_chain_figures(p, placement, part, lam, hours)))
    return out


IN_FLIGHT_BYTES = 32_000_000
"""Most bytes of stacks (transition rates and reward columns) queued at once on the kernel's
threads (memory stays flat in a sweep's rows: the queue is emptied when it holds this
much)."""


def _compiled_parts(
    parts: list[tuple[int, npt.NDArray[np.intp], ChainInputs]], out: list[FloatArray]
) -> None:
    """:func:`stacked_figures`'s parts on the compiled kernel, building and running at once.

    Each part's stack of transition rates is built here (NumPy;
    :mod:`~planner.core.markov.transition_stack`: the kernel builds the matrices) while the
    pool threads run the kernel on the parts before it; blocks of
    :data:`~planner.core.markov.loss_figures.STACK_BYTES` keep each stack small.
    """
    pending: list[tuple[npt.NDArray[np.intp], Callable[[], list[FloatArray]]]] = []
    queued = 0
    stream = TaskStream()
    try:
        for p, pick, part in parts:
            size = 2 * p + 2
            block = max(CHUNK, STACK_BYTES // (8 * size * size) // CHUNK * CHUNK)
            for start in range(0, len(pick), block):
                rows = slice(start, min(len(pick), start + block))
                piece = part.take(rows)  # views
                stack = transition_stack_of(p, piece)
                jobs = compiled_jobs(stack, p, piece.mission_hours)
                pending.append((pick[rows], add_rows(stream, jobs)))
                queued += _held_bytes(jobs)
                if queued >= IN_FLIGHT_BYTES:
                    _drain(stream, pending, out)
                    stream, pending, queued = TaskStream(), [], 0
    except BaseException:
        stream.__exit__(BaseException, None, None)
        raise
    _drain(stream, pending, out)


def _held_bytes(jobs: list[RowJob]) -> int:
    """Bytes of the distinct arrays ``jobs`` hold (they share the stack and its columns)."""
    arrays = {id(a): a for job in jobs for a in (job.g, job.extra) if a is not None}
    return sum(a.nbytes for a in arrays.values())


def _drain(
    stream: TaskStream,
    pending: list[tuple[npt.NDArray[np.intp], Callable[[], list[FloatArray]]]],
    out: list[FloatArray],
) -> None:
    stream.finish()
    for pick, rows in pending:
        _store(out, pick, figures_of_rows(rows()))


def _store(out: list[FloatArray], pick: npt.NDArray[np.intp], figures: ChainFigures) -> None:
    for column, values in zip(out, figures.arrays(), strict=True):
        column[pick] = values.reshape(-1)


def risks_of(
    figures: ChainFigures, groups: npt.NDArray[np.int64], sectors_fail_rebuild: bool = False
) -> LayoutRisks:
    """The aggregate figures of groups' figures: ``1 - (1 - p)^groups``, events x groups.

    ``sectors_fail_rebuild``: every loss ends the group (P(group lost) = P(loss), no
    sector losses: each is a whole-group loss,
    :func:`~planner.core.markov.loss_figures.failed_rebuilds_lose_groups`).
    """
    if sectors_fail_rebuild:
        figures = failed_rebuilds_lose_groups(figures)
    p_group = figures.p_loss
    p_lost, p_sectors = figures.p_group_lost, figures.p_sectors_lost
    events, losses = figures.expected_sector_loss_events, figures.expected_group_losses
    unavailable = figures.p_unavailable
    return LayoutRisks(
        p_unavailable_group=unavailable,
        p_unavailable_aggregate=(
            None if unavailable is None else p_loss_aggregate_batch(unavailable, groups)
        ),
        p_loss_group=p_group,
        p_loss_aggregate=p_loss_aggregate_batch(p_group, groups),
        p_group_lost=p_lost,
        p_sectors_lost=p_sectors,
        p_group_lost_aggregate=p_loss_aggregate_batch(p_lost, groups),
        p_sectors_lost_aggregate=p_loss_aggregate_batch(p_sectors, groups),
        expected_sector_loss_events_group=events,
        expected_sector_loss_events=events * groups,
        expected_group_losses_group=losses,
        expected_group_losses=losses * groups,
        degraded_hours_per_year=figures.degraded_hours_per_year,
        critical_hours_per_year=figures.critical_hours_per_year,
    )
