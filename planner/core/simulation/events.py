"""The events of the simulated RAID group, each applied to the rows of a batch it happens in.

The events and the data-loss rule are those of the Markov model (:mod:`planner.core.markov.chain`),
with any time distributions (:mod:`planner.core.simulation.distributions`). A group of ``N``
drives with ``k`` parity starts pristine with all drives of the batch's age (0 unless
``drive_age_hours_at_start`` says otherwise) and runs for the mission:

* every working drive fails at its own hazard ``h(age)``, age counted from the drive's entry
  into service, the drive holding the latent defect included. The holder's failure takes
  its defect with it, ``(f, 1) -> (f + 1, 0)``, never a loss by itself (``l = 1`` only while
  ``f < k``), and the drive is rebuilt as any other. The failure of any other drive with
  ``f + l = k`` is data loss (sectors when ``l = 1``, the whole group when ``l = 0``),
  except that in a declustered pool only a share sigma (``defect_stripe_share``) of those
  out of ``(k - 1, 1)`` lose sectors: the others leave the defect's stripe with redundancy,
  the rebuild repairs it, and the group goes to ``(k, 0)``, the defect cleared.
  (NS3574 left the holder out, ``(N - f - l) lambda_op``; that made P(loss) rise as the
  scrub interval shortened in some regimes, more time without a defect putting more drives
  at risk.)
* latent defects appear on the ``N - f`` working drives at the constant rate per drive-hour,
  only while no defect is present and ``f < k``; the holder is drawn uniformly.
* up to ``rebuild_streams`` rebuilds run at once (1: one at a time, the paper's model); each
  draws its duration from the restoration law when it starts, a failed drive waits for a
  free stream, and the rebuilt drive enters service new (its age renews: a replaced drive is
  a new drive, the renewal assumption of Elerath and Pecht 2009); with
  ``renew_replaced=False`` it takes the batch's age instead, as the ageing chain assumes.
  Drives start at ``drive_age_hours_at_start`` (0: new).
* the scrub time of a latent defect is drawn from the scrub law when the defect appears and
  is consumed only while no drive is failed: the chain scrubs only from state (0, 1), i.e.
  the background scrub is suspended while a rebuild runs, and resumes where it stopped.

Correlated failures (docs/correlated.md), as the correlated chain has them:

* while a drive is down every working drive's hazard is m times its law's, the degraded
  multiplier (:mod:`planner.core.simulation.kernel` scales the natural hazard);
* shocks come as a Poisson process per group; at each, every working drive without the
  latent defect fails with probability q (:func:`on_shock`): more than k down loses the
  group, k down with the defect its stripes (sigma of the time in a pool, else the defect
  is cleared as by one failure out of ``(k - 1, 1)``).

With exponential laws every one of these rules has the chain's rate (``min(f, streams)
mu_op`` for the rebuilds), so the simulator and :func:`planner.core.markov.transient.p_loss_group`
describe the same process.

The state and the hazard clocks the events move are :mod:`planner.core.simulation.kernel`'s;
which event comes next, and a failure that loses data, are decided in
:mod:`planner.core.simulation.runs`.
"""

from __future__ import annotations

import math

import numpy as np

from planner.core.simulation.kernel import FloatArray, IntArray, PeriodStarts, _Batch

FAIL, LATENT, REBUILD, SCRUB, END, SHOCK, IDLE = range(7)
"""The kinds of event, in the order of the candidate times a step compares (IDLE: none)."""


def on_failure(b: _Batch, rows: IntArray, cols: IntArray, record: bool) -> None:
    """Operational failure of drive ``cols`` in ``rows`` that loses no data.

    A drive other than the holder fails out of a non-critical state, or out of
    ``(k - 1, 1)`` without losing sectors (the stripe share: the defect's stripe keeps
    redundancy and the rebuild repairs it, so the defect goes); the holder may fail out
    of any state, its defect going with it: ``(f, 1) -> (f + 1, 0)``.
    """
    if rows.size == 0:
        return
    b.settle(rows, cols)
    if b.biased:
        natural = 1.0 - b.kill_share(rows, cols) if b.thinned else 1.0
        b.log_lr[rows] -= np.log(b.weight(rows, cols) / natural)
    clears = (b.l[rows] == 1) & (b.f[rows] + 1 == b.plan.parity) & (cols != b.holder[rows])
    cleared = rows[clears]
    their_holder = b.holder[cleared]
    # The holder ends its time at its own weight; it is re-armed as any drive below.
    b.settle(cleared, their_holder)
    b.failed[rows, cols] = True
    b.fail_at[rows, cols] = np.inf
    gone = rows[(cols == b.holder[rows]) | clears]
    b.holder[gone] = -1
    b.l[gone] = 0
    b.refresh(rows)
    # A free stream (fewer failed drives than streams) starts the rebuild at once.
    streams = b.slots.shape[1]
    starting = rows[b.f[rows] < streams]
    free = np.isinf(b.slot_start[starting]).argmax(axis=1)
    b.slot_start[starting, free] = b.t[starting]
    b.slot_sync[starting, free] = b.t[starting]
    b.slot_budget[starting, free] = b.rng.standard_exponential(starting.size)
    b.arm_slots(starting)
    first = b.f[rows] == 0
    paused = rows[first & (b.l[rows] == 1)]
    b.scrub_left[paused] -= b.t[paused] - b.scrub_since[paused]
    b.f[rows] += 1
    b.retune(rows)
    b.arm(cleared, their_holder)
    if record and first.any():
        new = rows[first]
        b.recorded.append(
            PeriodStarts(
                trial=b.index[new],
                t=b.t[new],
                survival=np.exp(-b.lam[new]),
                birth=b.birth[new],
                failed=cols[first],
                holder=b.holder[new],
                slot_start=b.slot_start[new],
            )
        )


def on_rebuild(b: _Batch, rows: IntArray) -> None:
    """A rebuild completes: a failed drive returns new; a waiting one starts rebuilding."""
    if rows.size == 0:
        return
    slot = b.slots[rows].argmin(axis=1)
    b.settle_slots(rows)
    if b.biased:
        b.log_lr[rows] -= np.log(b.g_row[rows])
    cols = b.failed[rows].argmax(axis=1)
    b.failed[rows, cols] = False
    if b.laws.renew_replaced:
        b.birth[rows, cols] = b.t[rows]  # a new drive; else it keeps the batch's age
    b.h_sync[rows, cols] = b.life.cumulative_hazard(b.t[rows] - b.birth[rows, cols])
    b.budget[rows, cols] = b.rng.standard_exponential(rows.size)
    b.f[rows] -= 1
    waiting = b.f[rows] >= b.slots.shape[1]
    b.slot_start[rows, slot] = np.where(waiting, b.t[rows], np.inf)
    b.slot_sync[rows, slot] = b.t[rows]
    b.slot_budget[rows, slot] = b.rng.standard_exponential(rows.size)
    if b.copies:
        # A copy ends with its rebuild period: nothing after it is the copy's to count.
        b.done[rows[b.f[rows] == 0]] = True
    resumed = rows[(b.f[rows] == 0) & (b.l[rows] == 1)]
    b.scrub_since[resumed] = b.t[resumed]
    b.retune(rows)
    b.arm_slots(rows)
    b.arm(rows, cols)


def on_latent(b: _Batch, rows: IntArray) -> None:
    """A latent defect appears on a working drive drawn uniformly."""
    if rows.size == 0:
        return
    if b.biased:
        b.log_lr[rows] -= np.log(b.ld_w[b.phase[rows], b.f[rows]])
    u = b.rng.random(rows.size)
    cols = np.minimum((u * b.plan.drives).astype(np.int64), b.plan.drives - 1)
    degraded = np.flatnonzero(b.f[rows] > 0)
    if degraded.size:
        working = np.cumsum(~b.failed[rows[degraded]], axis=1)
        pick = np.floor(u[degraded] * working[:, -1])
        cols[degraded] = (working <= pick[:, None]).sum(axis=1)
    # Charged at the weight of a drive without the defect, then re-armed at the holder's
    # (when retune did not re-arm the whole row, and only where the two weights differ).
    b.settle(rows, cols)
    b.holder[rows] = cols
    b.l[rows] = 1
    b.scrub_left[rows] = b.laws.scrub.sample(b.rng, rows.size)
    b.scrub_since[rows] = b.t[rows]
    b.retune(rows)
    other = b.h_row[rows] != b.w_row[rows]
    b.arm(rows[other], cols[other])


def on_scrub(b: _Batch, rows: IntArray) -> None:
    """The scrub repairs the latent defect; its drive fails at the others' weight again."""
    if rows.size == 0:
        return
    cols = b.holder[rows]
    # Only a holder with a weight of its own has hazard to charge and a clock to re-arm.
    other = b.h_row[rows] != b.w_row[rows]
    b.settle(rows[other], cols[other])
    b.holder[rows] = -1
    b.l[rows] = 0
    b.retune(rows)
    b.arm(rows[other], cols[other])


def on_shock(b: _Batch, rows: IntArray) -> None:
    """A shock: every working drive fails with probability q, independently, at once.

    j drives of the ``N - f`` working ones fail (Binomial(N - f, q)), the latent defect's
    holder among them: its failure takes its defect with it, as at :func:`on_failure`. Past
    parity the row loses data: more than k down the whole group; k down with the defect still
    there (its holder spared) its stripes (a pool's sigma of the time; otherwise the failures
    clear the defect, as :func:`on_failure` does out of ``(k - 1, 1)``). A shock that loses
    nothing fails its drives one after another at the same instant. Plain plans only
    (:mod:`planner.core.simulation.simulate`).
    """
    if rows.size == 0:
        return
    plan = b.plan
    exposed = ~b.failed[rows]
    hit = exposed & (b.rng.random((rows.size, plan.drives)) < b.laws.shock_drive_probability)
    count = hit.sum(axis=1)
    down = b.f[rows] + count
    lost = down > plan.parity
    holder = b.holder[rows]
    holder_hit = hit[np.arange(rows.size), np.maximum(holder, 0)] & (holder >= 0)
    kept = (b.l[rows] == 1) & ~holder_hit
    sectors = np.flatnonzero(kept & (down == plan.parity) & (count > 0))
    lost[sectors] = b.rng.random(sectors.size) < plan.defect_stripe_share
    b.est[rows[lost]] = 1.0
    b.done[rows[lost]] = True
    going = ~lost & (count > 0)
    rows, hit = rows[going], hit[going]
    order = np.cumsum(hit, axis=1)
    for step in range(int(order[:, -1].max(initial=0))):
        has = order[:, -1] > step
        # the column of each row's (step + 1)-th drive hit
        on_failure(b, rows[has], (order[has] <= step).sum(axis=1), False)


_MAX_CYCLES_PER_DRAW = 64
"""Defect episodes drawn at once per row by :func:`on_defects_while_up` at most."""


def on_defects_while_up(b: _Batch, rows: IntArray, until: FloatArray) -> None:
    """Run the latent defects of ``rows``, no drive down, from now to ``until`` (h) at once.

    While no drive is down the defects are an alternating renewal process: a defect appears
    after an ``Exp(N lambda_ld)`` time, on a drive drawn uniformly, and its scrub ends it
    after a time drawn from the scrub law; the next one appears an exponential time later.
    When :attr:`_Batch.quiet_defects` holds (the plan gives ``(0, 0)`` and ``(0, 1)`` the
    same weight for every drive, the holder too, charges no killing share there, leaves the
    defect rate unbiased, and a defect cannot change the phase), that process moves no
    failure clock and no likelihood ratio, and no failure clock moves it: the two are
    independent until the first event of another kind, which ``until`` is (a failure, a
    shock or the mission's end, drawn or armed before this call). So running the episodes
    up to ``until`` here and handing the state at ``until`` (the defect present or not, its
    holder, when it appeared and its whole scrub time) to that event is the same process as
    stepping through each :func:`on_latent` and :func:`on_scrub`; only the order of the
    random draws differs. Draws beyond the episode that spans ``until`` are discarded: which
    ones are used depends only on the draws before them (a stopping time), so the kept ones
    keep their law, the spanning scrub conditioned on outlasting ``until`` as it should be.
    """
    if rows.size == 0:
        return
    # A defect present now ends at its scrub unless ``until`` comes first.
    t = b.t[rows]
    start = np.where(b.l[rows] == 1, b.scrub_since[rows] + b.scrub_left[rows], t)
    free = start < until
    rows, start, until = rows[free], start[free], until[free]
    b.holder[rows] = -1
    b.l[rows] = 0
    rate = b.plan.drives * b.laws.latent_defects_per_hour
    cycle_hours = 1.0 / rate + b.laws.scrub.mean_hours if rate > 0 else math.inf
    while rows.size and rate > 0:
        # Half again the episodes expected in the mean row's span, and a few: most rows
        # are done in one draw, the others draw again.
        expected = float(np.mean(until - start)) / cycle_hours
        cycles = min(_MAX_CYCLES_PER_DRAW, math.ceil(1.5 * expected) + 3)
        gaps = b.rng.standard_exponential((rows.size, cycles)) / rate
        scrubs = b.laws.scrub.sample(b.rng, (rows.size, cycles))
        ends = start[:, None] + np.cumsum(gaps + scrubs, axis=1)
        appear = ends - scrubs
        # Appearances increase along a row: count those before ``until``.
        last = (appear < until[:, None]).sum(axis=1) - 1
        some = np.flatnonzero(last >= 0)
        held = some[ends[some, last[some]] >= until[some]]
        b.holder[rows[held]] = b.rng.integers(0, b.plan.drives, held.size)
        b.l[rows[held]] = 1
        b.scrub_since[rows[held]] = appear[held, last[held]]
        b.scrub_left[rows[held]] = scrubs[held, last[held]]
        # Every episode drawn ended before ``until``: draw on from the last one's end.
        more = (last == cycles - 1) & (ends[:, -1] < until)
        rows, start, until = rows[more], ends[more, -1], until[more]
