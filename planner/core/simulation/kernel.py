"""Event-driven simulation of a batch of RAID groups, vectorised across trials with NumPy.

The events and the data-loss rule are those of the Markov model (:mod:`planner.core.markov.chain`),
with any time distributions (:mod:`planner.core.simulation.distributions`). A group of ``N`` drives
with
``k`` parity starts pristine with all drives new (age 0) and runs for the mission:

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
  a new drive, the renewal assumption of Elerath and Pecht 2009).
* the scrub time of a latent defect is drawn from the scrub law when the defect appears and
  is consumed only while no drive is failed: the chain scrubs only from state (0, 1), i.e.
  the background scrub is suspended while a rebuild runs, and resumes where it stopped.

With exponential laws every one of these rules has the chain's rate (``min(f, streams)
mu_op`` for the rebuilds), so the simulator and :func:`planner.core.markov.transient.p_loss_group`
describe the same process.

Each drive carries an exponential budget ``E ~ Exp(1)`` and fails when its weighted cumulative
hazard ``sum w * (H(a1) - H(a0))`` reaches it; with weight 1 that is inverse-CDF sampling of
its lifetime. Weights other than 1 come from the :class:`SamplingPlan` (see
:mod:`planner.core.simulation.rare_events`): 0 holds the failure (conditioning), ``beta`` speeds it
up
(importance sampling), and in ``(k - 1, 1)`` a conditional plan's ``1 - sigma`` is the
natural rate of the failures that clear the defect (the killing share sigma being
integrated); the likelihood ratio counts a weight against that natural one. Weights are
per trial and change only at events, one for the holder and one for every other working
drive, so a drive's next failure time is recomputed only when its trial's weights or its own
status (failed, holder) change.

A batch either runs whole missions from the pristine state (recording, if asked, the state at
the start of every rebuild period), or runs *copies* from recorded states until their rebuild
period ends (:func:`planner.core.simulation.runs.run_split`, the splitting of
:mod:`planner.core.simulation.rare_events`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from planner.core.simulation.distributions import DistributionSet
from planner.core.simulation.rare_events import SamplingPlan, conditional_plan

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_FAIL, _LATENT, _REBUILD, _SCRUB, _END, _IDLE = range(6)


@dataclass(frozen=True)
class PeriodStarts:
    """The state at the start of each rebuild period of the main paths (one row each).

    Attributes:
        trial: the trial the period belongs to.
        t: start time (h).
        survival: ``exp(-Lambda)`` of the main path at ``t``.
        birth: entry into service of each drive (h), shape (periods, N).
        failed: the failed drive.
        holder: the drive holding the latent defect, or -1.
        slot_start: start time of each rebuild stream's rebuild (h; inf when idle), shape
            (periods, streams).
    """

    trial: IntArray
    t: FloatArray
    survival: FloatArray
    birth: FloatArray
    failed: IntArray
    holder: IntArray
    slot_start: FloatArray


class _Batch:
    """State of ``trials`` independent groups; rows are trials, columns drives."""

    def __init__(
        self,
        plan: SamplingPlan,
        laws: DistributionSet,
        streams: int,
        trials: int,
        rng: np.random.Generator,
        starts: PeriodStarts | None = None,
    ) -> None:
        n = plan.drives
        self.plan, self.laws, self.rng = plan, laws, rng
        # Read on every event; the plan computes them.
        self.biased, self.conditional = plan.biased, plan.conditional
        # A pool's stripe share below 1 thins the killing failures (rare_events).
        self.thinned = plan.defect_stripe_share < 1.0
        if plan.defect_stripe_share != laws.defect_stripe_share:
            raise ValueError(
                f"the plan's defect_stripe_share {plan.defect_stripe_share!r} is not the "
                f"laws' {laws.defect_stripe_share!r}"
            )
        self.life = laws.operational_failure
        # Weights by [phase, f, l]: phase 1 once a critical state was reached, where a
        # conditional plan returns to the natural rates (biasing until the rare set is hit).
        natural = (
            conditional_plan(plan.parity, n, plan.defect_stripe_share) if plan.conditional else plan
        )
        self.op_w = np.array([plan.op_weight, natural.op_weight], dtype=float)
        self.ld_w = np.array([plan.ld_weight, natural.ld_weight], dtype=float)
        self.rb_w = np.array([plan.rebuild_weight, natural.rebuild_weight], dtype=float)
        self.hold_w = np.array([plan.holder_weight, natural.holder_weight], dtype=float)
        # Share of the drives-but-the-holder's hazard integrated as loss, by [phase, f, l].
        self.kill_w = np.array(
            [
                [[p.kill_weight(f, la) for la in (0, 1)] for f in range(plan.parity + 1)]
                for p in (plan, natural)
            ],
            dtype=float,
        )
        self.repair = laws.restoration
        self.cols = np.arange(n)
        self.index = np.arange(trials)
        self.f = np.zeros(trials, dtype=np.int64)
        self.l = np.zeros(trials, dtype=np.int64)
        self.phase = np.zeros(trials, dtype=np.int64)
        self.scrub_left = np.zeros(trials)
        self.scrub_since = np.zeros(trials)
        self.log_lr = np.zeros(trials)
        self.lam = np.zeros(trials)
        self.est = np.zeros(trials)
        self.failed = np.zeros((trials, n), dtype=bool)
        self.budget = rng.standard_exponential((trials, n))
        self.fail_at = np.full((trials, n), np.inf)
        self.next_fail = np.full(trials, np.inf)
        self.who = np.zeros(trials, dtype=np.int64)
        self.done = np.zeros(trials, dtype=bool)
        self.copies = starts is not None
        self.recorded: list[PeriodStarts] = []
        if starts is None:
            self.t = np.zeros(trials)
            self.holder = np.full(trials, -1, dtype=np.int64)
            self.slot_start = np.full((trials, streams), np.inf)
            self.birth = np.zeros((trials, n))
        else:
            self.t = starts.t.copy()
            self.holder = starts.holder.copy()
            self.slot_start = starts.slot_start.copy()
            self.birth = starts.birth.copy()
            self.failed[self.index, starts.failed] = True
            self.f += 1
            self.l = (self.holder >= 0).astype(np.int64)
        self.sync = np.repeat(self.t[:, None], n, axis=1)
        self.slot_sync = np.repeat(self.t[:, None], streams, axis=1)
        self.slot_budget = rng.standard_exponential((trials, streams))
        self.slots = np.full((trials, streams), np.inf)
        self.w_row = self.op_w[self.phase, self.f, self.l]
        self.g_row = self.rb_w[self.phase, self.f, self.l]
        self.h_row = self.hold_w[self.phase, self.f]
        self.k_row = self.kill_w[self.phase, self.f, self.l]
        self.arm(self.index, None)
        self.arm_slots(self.index)

    # --- accounting -----------------------------------------------------------------------

    def _weight(self, rows: IntArray, cols: IntArray | None) -> FloatArray:
        """Failure-hazard weight of each drive: the holder's, or the other drives' (0 if failed).

        ``cols=None`` gives whole rows (shape (rows, N)), else drive ``cols[i]`` of
        ``rows[i]``.
        """
        if cols is None:
            w: FloatArray = np.where(self.failed[rows], 0.0, self.w_row[rows, None])
            # The holder is never failed: its failure ends its defect.
            has = np.flatnonzero(self.holder[rows] >= 0)
            w[has, self.holder[rows[has]]] = self.h_row[rows[has]]
            return w
        w = np.where(cols == self.holder[rows], self.h_row[rows], self.w_row[rows])
        return np.where(self.failed[rows, cols], 0.0, w)

    def _kill(self, rows: IntArray, cols: IntArray | None) -> FloatArray:
        """Killing share of each drive's hazard: the row's for a working drive but the holder.

        Shaped as :meth:`_weight`. The drive's natural weight is ``1 - kill``: a conditional
        plan lets a drive fail at that weight without bias.
        """
        if cols is None:
            kill: FloatArray = np.where(self.failed[rows], 0.0, self.k_row[rows, None])
            has = np.flatnonzero(self.holder[rows] >= 0)
            kill[has, self.holder[rows[has]]] = 0.0
            return kill
        kill = np.where(cols == self.holder[rows], 0.0, self.k_row[rows])
        return np.where(self.failed[rows, cols], 0.0, kill)

    def settle(self, rows: IntArray, cols: IntArray | None) -> None:
        """Charge the hazard since each drive's last sync to its budget, L and Lambda.

        ``cols=None`` settles whole rows, else drive ``cols[i]`` of row ``rows[i]``.
        """
        if rows.size == 0:
            return
        if cols is None:
            self.settle_slots(rows)
        sel: tuple[IntArray, ...] | IntArray = rows if cols is None else (rows, cols)
        now = self.t[rows]
        now_b = now[:, None] if cols is None else now
        birth = self.birth[sel]
        d_h = self.life.cumulative_hazard(now_b - birth) - self.life.cumulative_hazard(
            self.sync[sel] - birth
        )
        d_h = np.where(self.failed[sel], 0.0, d_h)
        w = self._weight(rows, cols)
        self.budget[sel] -= w * d_h
        self.sync[sel] = now_b

        def row_sum(x: FloatArray) -> FloatArray:
            return x.sum(axis=1) if cols is None else x

        # With sigma = 1 the killing share is 1 exactly where a working drive is held
        # (weight 0) and 0 wherever one may fail (natural weight 1): the short forms below.
        if self.biased:
            # Against the natural weight 1 - kill: the clearing failures of (k - 1, 1) at
            # 1 - sigma are the conditioned process's own, no bias.
            natural = 1.0 - self._kill(rows, cols) if self.thinned else 1.0
            self.log_lr[rows] += row_sum(np.where(w > 0, (w - natural) * d_h, 0.0))
        if self.conditional:
            # The killing share of the drives but the holder in critical states: all of it
            # in (k, 0), sigma of it in (k - 1, 1).
            killing = self._kill(rows, cols) * d_h if self.thinned else np.where(w == 0, d_h, 0.0)
            d_lam = row_sum(killing)
            gain = np.exp(self.log_lr[rows] - self.lam[rows]) * -np.expm1(-d_lam)
            self.est[rows] += gain
            self.lam[rows] += d_lam

    def settle_slots(self, rows: IntArray) -> None:
        """Charge the rebuild hazard since the last sync to each busy stream's budget and L."""
        start = self.slot_start[rows]
        busy = np.isfinite(start)
        now = self.t[rows][:, None]
        with np.errstate(invalid="ignore"):
            d_h = self.repair.cumulative_hazard(now - start) - self.repair.cumulative_hazard(
                self.slot_sync[rows] - start
            )
        d_h = np.where(busy, d_h, 0.0)
        g = self.g_row[rows]
        self.slot_budget[rows] -= g[:, None] * d_h
        self.slot_sync[rows] = now
        if self.biased:
            self.log_lr[rows] += (g - 1.0) * d_h.sum(axis=1)

    def arm_slots(self, rows: IntArray) -> None:
        """Recompute each busy stream's completion time (h) at the current rebuild weight."""
        if rows.size == 0:
            return
        start = self.slot_start[rows]
        busy = np.isfinite(start)
        g = self.g_row[rows][:, None]
        with np.errstate(invalid="ignore"):
            target = self.repair.cumulative_hazard(self.slot_sync[rows] - start)
            end = start + self.repair.inverse_cumulative_hazard(
                target + np.maximum(self.slot_budget[rows], 0.0) / g
            )
        self.slots[rows] = np.where(busy, end, np.inf)

    def arm(self, rows: IntArray, cols: IntArray | None) -> None:
        """Recompute next failure times (h) from the budgets at the current weight."""
        if rows.size == 0:
            return
        sel: tuple[IntArray, ...] | IntArray = rows if cols is None else (rows, cols)
        w = self._weight(rows, cols)
        birth = self.birth[sel]
        with np.errstate(divide="ignore", invalid="ignore"):
            target = self.life.cumulative_hazard(self.sync[sel] - birth) + self.budget[sel] / w
        age = self.life.inverse_cumulative_hazard(np.maximum(target, 0.0))
        armed = np.where(w > 0, birth + age, np.inf)
        self.fail_at[sel] = armed
        if cols is None:
            self.refresh(rows)
        else:
            sooner = armed < self.next_fail[rows]
            self.next_fail[rows[sooner]] = armed[sooner]
            self.who[rows[sooner]] = cols[sooner]
            # A drive that was the row's earliest and now fails later (a defect moving its
            # weight) may leave another drive the earliest.
            self.refresh(rows[~sooner & (self.who[rows] == cols)])

    def refresh(self, rows: IntArray) -> None:
        """Recompute the earliest failure time and drive of ``rows``."""
        who = self.fail_at[rows].argmin(axis=1)
        self.who[rows] = who
        self.next_fail[rows] = self.fail_at[rows, who]

    def retune(self, rows: IntArray) -> None:
        """Switch rows whose state changed a weight: settle at the old one, re-arm."""
        f, la = self.f[rows], self.l[rows]
        ph = self.phase[rows] | (f + la == self.plan.parity)
        self.phase[rows] = ph
        moved_mask = (
            (self.op_w[ph, f, la] != self.w_row[rows])
            | (self.rb_w[ph, f, la] != self.g_row[rows])
            | ((la == 1) & (self.hold_w[ph, f] != self.h_row[rows]))
            | (self.kill_w[ph, f, la] != self.k_row[rows])
        )
        moved = rows[moved_mask]
        if moved.size:
            self.settle(moved, None)
            ph, f, la = ph[moved_mask], f[moved_mask], la[moved_mask]
            self.w_row[moved] = self.op_w[ph, f, la]
            self.g_row[moved] = self.rb_w[ph, f, la]
            self.h_row[moved] = self.hold_w[ph, f]
            self.k_row[moved] = self.kill_w[ph, f, la]
            self.arm(moved, None)
            self.arm_slots(moved)

    # --- events ---------------------------------------------------------------------------

    def on_failure(self, rows: IntArray, cols: IntArray, record: bool) -> None:
        """Operational failure of drive ``cols`` in ``rows`` that loses no data.

        A drive other than the holder fails out of a non-critical state, or out of
        ``(k - 1, 1)`` without losing sectors (the stripe share: the defect's stripe keeps
        redundancy and the rebuild repairs it, so the defect goes); the holder may fail out
        of any state, its defect going with it: ``(f, 1) -> (f + 1, 0)``.
        """
        self.settle(rows, cols)
        if self.biased:
            natural = 1.0 - self._kill(rows, cols) if self.thinned else 1.0
            self.log_lr[rows] -= np.log(self._weight(rows, cols) / natural)
        clears = (
            (self.l[rows] == 1)
            & (self.f[rows] + 1 == self.plan.parity)
            & (cols != self.holder[rows])
        )
        cleared = rows[clears]
        their_holder = self.holder[cleared]
        # The holder ends its time at its own weight; it is re-armed as any drive below.
        self.settle(cleared, their_holder)
        self.failed[rows, cols] = True
        self.fail_at[rows, cols] = np.inf
        gone = rows[(cols == self.holder[rows]) | clears]
        self.holder[gone] = -1
        self.l[gone] = 0
        self.refresh(rows)
        # A free stream (fewer failed drives than streams) starts the rebuild at once.
        streams = self.slots.shape[1]
        starting = rows[self.f[rows] < streams]
        free = np.isinf(self.slot_start[starting]).argmax(axis=1)
        self.slot_start[starting, free] = self.t[starting]
        self.slot_sync[starting, free] = self.t[starting]
        self.slot_budget[starting, free] = self.rng.standard_exponential(starting.size)
        self.arm_slots(starting)
        first = self.f[rows] == 0
        paused = rows[first & (self.l[rows] == 1)]
        self.scrub_left[paused] -= self.t[paused] - self.scrub_since[paused]
        self.f[rows] += 1
        self.retune(rows)
        self.arm(cleared, their_holder)
        if record and first.any():
            new = rows[first]
            self.recorded.append(
                PeriodStarts(
                    trial=self.index[new],
                    t=self.t[new],
                    survival=np.exp(-self.lam[new]),
                    birth=self.birth[new],
                    failed=cols[first],
                    holder=self.holder[new],
                    slot_start=self.slot_start[new],
                )
            )

    def on_rebuild(self, rows: IntArray) -> None:
        """A rebuild completes: a failed drive returns new; a waiting one starts rebuilding."""
        slot = self.slots[rows].argmin(axis=1)
        self.settle_slots(rows)
        if self.biased:
            self.log_lr[rows] -= np.log(self.g_row[rows])
        cols = self.failed[rows].argmax(axis=1)
        self.failed[rows, cols] = False
        self.birth[rows, cols] = self.t[rows]
        self.sync[rows, cols] = self.t[rows]
        self.budget[rows, cols] = self.rng.standard_exponential(rows.size)
        self.f[rows] -= 1
        waiting = self.f[rows] >= self.slots.shape[1]
        self.slot_start[rows, slot] = np.where(waiting, self.t[rows], np.inf)
        self.slot_sync[rows, slot] = self.t[rows]
        self.slot_budget[rows, slot] = self.rng.standard_exponential(rows.size)
        if self.copies:
            # A copy ends with its rebuild period: nothing after it is the copy's to count.
            self.done[rows[self.f[rows] == 0]] = True
        resumed = rows[(self.f[rows] == 0) & (self.l[rows] == 1)]
        self.scrub_since[resumed] = self.t[resumed]
        self.retune(rows)
        self.arm_slots(rows)
        self.arm(rows, cols)

    def on_latent(self, rows: IntArray) -> None:
        """A latent defect appears on a working drive drawn uniformly."""
        if self.biased:
            self.log_lr[rows] -= np.log(self.ld_w[self.phase[rows], self.f[rows]])
        u = self.rng.random(rows.size)
        cols = np.minimum((u * self.plan.drives).astype(np.int64), self.plan.drives - 1)
        degraded = np.flatnonzero(self.f[rows] > 0)
        if degraded.size:
            working = np.cumsum(~self.failed[rows[degraded]], axis=1)
            pick = np.floor(u[degraded] * working[:, -1])
            cols[degraded] = (working <= pick[:, None]).sum(axis=1)
        # Charged at the weight of a drive without the defect, then re-armed at the holder's
        # (when retune did not re-arm the whole row, and only where the two weights differ).
        self.settle(rows, cols)
        self.holder[rows] = cols
        self.l[rows] = 1
        self.scrub_left[rows] = self.laws.scrub.sample(self.rng, rows.size)
        self.scrub_since[rows] = self.t[rows]
        self.retune(rows)
        other = self.h_row[rows] != self.w_row[rows]
        self.arm(rows[other], cols[other])

    def on_scrub(self, rows: IntArray) -> None:
        """The scrub repairs the latent defect; its drive fails at the others' weight again."""
        cols = self.holder[rows]
        # Only a holder with a weight of its own has hazard to charge and a clock to re-arm.
        other = self.h_row[rows] != self.w_row[rows]
        self.settle(rows[other], cols[other])
        self.holder[rows] = -1
        self.l[rows] = 0
        self.retune(rows)
        self.arm(rows[other], cols[other])

    def keep(self, live: npt.NDArray[np.bool_]) -> None:
        """Drop finished trials from every per-trial array."""
        for name in _PER_TRIAL:
            setattr(self, name, getattr(self, name)[live])


_PER_TRIAL = (
    *("index", "t", "f", "l", "phase", "holder", "scrub_left", "scrub_since"),
    *("slots", "slot_start", "slot_sync", "slot_budget", "g_row", "h_row", "k_row"),
    *("log_lr", "lam", "est", "w_row", "birth", "sync", "budget", "failed", "fail_at"),
    *("next_fail", "who", "done"),
)
