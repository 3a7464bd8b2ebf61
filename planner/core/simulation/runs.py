"""Running batches of the kernel (:mod:`planner.core.simulation.kernel`) to their end.

Each step takes every row's next event (:mod:`planner.core.simulation.events`), and decides
there whether a failure in a critical state loses data.

Whole missions (:func:`run_batch`), and the splitting of :mod:`planner.core.simulation.rare_events`
(:func:`run_split`: natural main paths plus one biased copy per rebuild period).
"""

from __future__ import annotations

import numpy as np

from planner.core.simulation.distributions import DistributionSet
from planner.core.simulation.events import (
    END,
    FAIL,
    IDLE,
    LATENT,
    REBUILD,
    SCRUB,
    SHOCK,
    on_defects_while_up,
    on_failure,
    on_latent,
    on_rebuild,
    on_scrub,
    on_shock,
)
from planner.core.simulation.kernel import FloatArray, IntArray, PeriodStarts, _Batch
from planner.core.simulation.rare_events import SamplingPlan

_COPY_CELLS = 4_000_000
"""Copies run per chunk at most this many drive cells (8 bytes each per array)."""


def _run(batch: _Batch, mission_hours: float, out: FloatArray, record: bool) -> int:
    """Advance every row of ``batch`` to its end; write each row's estimate into ``out``."""
    plan = batch.plan
    steps = 0
    while batch.index.size:
        steps += 1
        b = batch
        kind = _advance(b, mission_hours)
        rows = np.flatnonzero(kind == FAIL)
        if not plan.conditional:
            # In a critical state any failure but the holder's loses data (conditioned
            # plans integrate those failures, so only the others can happen there), out
            # of (k - 1, 1) with probability sigma only: the rest clear the defect.
            kill = (b.f[rows] + b.l[rows] == plan.parity) & (b.who[rows] != b.holder[rows])
            if plan.defect_stripe_share < 1.0:
                shared = np.flatnonzero(kill & (b.l[rows] == 1))
                kill[shared] = b.rng.random(shared.size) < plan.defect_stripe_share
            b.est[rows[kill]] = 1.0
            b.done[rows[kill]] = True
            rows = rows[~kill]
        on_failure(b, rows, b.who[rows], record)
        on_latent(b, np.flatnonzero(kind == LATENT))
        on_rebuild(b, np.flatnonzero(kind == REBUILD))
        on_scrub(b, np.flatnonzero(kind == SCRUB))
        on_shock(b, np.flatnonzero(kind == SHOCK))
        ended = np.flatnonzero(kind == END)
        b.settle(ended, None)
        b.done[ended] = True

        # Compacting copies every array: do it once a third of the rows are idle.
        if b.done.sum() * 3 >= b.done.size:
            out[b.index[b.done]] = b.est[b.done]
            b.keep(~b.done)
    return steps


def _advance(b: _Batch, mission_hours: float) -> IntArray:
    """Move every row to its next event; return each row's kind of event (IDLE when done)."""
    k, n = b.plan.parity, b.plan.drives
    quiet = b.quiet_defects
    # With quiet defects those of rows with no drive down run apart, up to the next event
    # of another kind (on_defects_while_up); no scrub is left to the steps.
    up = b.f == 0
    ld_rate = b.laws.latent_defects_per_hour
    rate_ld = np.where((b.l == 0) & (b.f < k) & ~(up & quiet), (n - b.f) * ld_rate, 0.0)
    beta_ld = b.ld_w[b.phase, b.f]
    with np.errstate(divide="ignore"):
        t_ld = b.t + b.rng.standard_exponential(b.t.size) / (beta_ld * rate_ld)
    t_scrub = (
        np.full(b.t.size, np.inf)
        if quiet
        else np.where((b.l == 1) & up, b.scrub_since + b.scrub_left, np.inf)
    )
    times = np.stack(
        [
            b.next_fail,
            t_ld,
            b.slots.min(axis=1),
            t_scrub,
            np.full(b.t.size, mission_hours),
            _next_shocks(b),
        ]
    )
    kind: IntArray = np.where(b.done, IDLE, times.argmin(axis=0))
    t_next = np.where(b.done, b.t, times.min(axis=0))
    if b.biased:
        b.log_lr += (beta_ld - 1.0) * rate_ld * (t_next - b.t)
    if quiet:
        idle = np.flatnonzero(up & ~b.done)
        on_defects_while_up(b, idle, t_next[idle])
    b.t = t_next
    return kind


def _next_shocks(b: _Batch) -> FloatArray:
    """Each row's next shock (h): memoryless, drawn afresh at every step; inf without."""
    laws = b.laws
    if not laws.shocks:
        return np.full(b.t.size, np.inf)
    return b.t + b.rng.standard_exponential(b.t.size) / laws.shocks_per_hour


def run_batch(
    plan: SamplingPlan,
    laws: DistributionSet,
    mission_hours: float,
    trials: int,
    rng: np.random.Generator,
) -> tuple[FloatArray, int]:
    """Simulate ``trials`` groups over ``mission_hours`` (h) under one plan.

    Returns:
        The per-trial estimates (0/1 loss indicators for a plain plan, likelihood-weighted
        ``1 - exp(-Lambda)`` for a conditional one) and the number of event steps taken.
    """
    out = np.zeros(trials)
    batch = _Batch(plan, laws, laws.streams_for(plan.parity), trials, rng)
    return out, _run(batch, mission_hours, out, record=False)


def run_split(
    main_plan: SamplingPlan,
    copy_plan: SamplingPlan,
    laws: DistributionSet,
    mission_hours: float,
    trials: int,
    rng: np.random.Generator,
) -> tuple[FloatArray, int]:
    """Natural main paths plus one biased copy per rebuild period (rare_events, splitting).

    Args:
        main_plan: the conditional plan of the main paths (natural rates, critical held).
        copy_plan: the biased plan of the copies.
        laws: the time distributions.
        mission_hours: mission length (h).
        trials: main paths.
        rng: random generator.

    Returns:
        Per trial ``sum_i exp(-Lambda_main(t_i)) Z_i``, and the event steps taken.
    """
    streams = laws.streams_for(main_plan.parity)
    main = _Batch(main_plan, laws, streams, trials, rng)
    steps = _run(main, mission_hours, np.zeros(trials), record=True)
    out = np.zeros(trials)
    if not main.recorded:
        return out, steps
    starts = PeriodStarts(
        *(np.concatenate([getattr(r, name) for r in main.recorded]) for name in _START_FIELDS)
    )
    chunk = max(1, _COPY_CELLS // main_plan.drives)
    for lo in range(0, starts.trial.size, chunk):
        part = PeriodStarts(*(getattr(starts, name)[lo : lo + chunk] for name in _START_FIELDS))
        z = np.zeros(part.trial.size)
        steps += _run(_Batch(copy_plan, laws, streams, z.size, rng, part), mission_hours, z, False)
        out += np.bincount(part.trial, weights=part.survival * z, minlength=trials)
    return out, steps


_START_FIELDS = ("trial", "t", "survival", "birth", "failed", "holder", "slot_start")
